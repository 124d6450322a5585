// SPDX-License-Identifier: GPL-2.0
/* The ftrace text parser (user/source/trace_text.c): each event and format variant, and bad lines. */
#include "test.h"
#include "source/trace_text.h"

/* One line through a fresh parser named "t.txt": its return, *ev, and err. */
static int one(const char *line, struct fs_tev *ev, char *err, size_t errlen)
{
	struct fs_trace_text *t = fs_trace_text_new("t.txt");
	int rc;

	err[0] = '\0';
	rc = fs_trace_text_line(t, line, strlen(line), ev, err, errlen);
	fs_trace_text_free(t);
	return rc;
}

FS_TEST(trace_text_switch_tracefs)
{
	struct fs_tev ev;
	char err[256];

	ASSERT_TRUE(one("     sleep-20581   [001] d..2.  1610.296787: sched_switch: prev_comm=bash prev_pid=20581 "
			"prev_prio=120 prev_state=R+ ==> next_comm=rcu_preempt next_pid=15 next_prio=98", &ev, err,
			sizeof(err)) == 1);
	EXPECT_EQ(ev.type, FS_TEV_SWITCH);
	EXPECT_EQ_U64(ev.ts_ns, 1610296787000ull);
	EXPECT_EQ(ev.cpu, 1);
	EXPECT_EQ(ev.common_pid, 20581);
	EXPECT_EQ(ev.common_tgid, -1);
	EXPECT_STR(ev.common_comm, "sleep");
	EXPECT_STR(ev.sw.prev.comm, "bash");
	EXPECT_EQ(ev.sw.prev.pid, 20581);
	EXPECT_EQ(ev.sw.prev.prio, 120);
	EXPECT_EQ(ev.sw.prev_state, FS_TSTATE_PREEMPTED);
	EXPECT_STR(ev.sw.next.comm, "rcu_preempt");
	EXPECT_EQ(ev.sw.next.pid, 15);
	EXPECT_EQ(ev.sw.next.prio, 98);
}

/* prev_state letters of v4.14+ (5.10, 6.1, 6.12 alike), joined by '|'; comms with blanks and dashes. */
FS_TEST(trace_text_switch_states)
{
	static const struct { const char *s; __u32 v; } c[] = {
		{ "R", 0 }, { "S", FS_TSTATE_S }, { "D", FS_TSTATE_D }, { "T", FS_TSTATE_T }, { "t", FS_TSTATE_t },
		{ "X", FS_TSTATE_X }, { "Z", FS_TSTATE_Z }, { "P", FS_TSTATE_P }, { "I", FS_TSTATE_I },
		{ "D|W", 0 }, { "S|D", FS_TSTATE_S | FS_TSTATE_D }, { "D+", FS_TSTATE_D | FS_TSTATE_PREEMPTED },
	};
	struct fs_tev ev;
	char line[512], err[256];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(line, sizeof(line), "Web Content-7-3 [002] 5.000001: sched_switch: prev_comm=Web Content-7 "
			 "prev_pid=3 prev_prio=120 prev_state=%s ==> next_comm=swapper/2 next_pid=0 next_prio=120", c[i].s);
		int rc = one(line, &ev, err, sizeof(err));
		if (c[i].v == 0 && strcmp(c[i].s, "R")) { /* W is the plugin's, not the kernel's */
			EXPECT_EQ(rc, -1);
			EXPECT_STR(err, "t.txt:1: sched_switch: prev_state: 'D|W' is not a task state ('W')");
			continue;
		}
		EXPECT_EQ(rc, 1);
		EXPECT_EQ(ev.sw.prev_state, c[i].v);
		EXPECT_STR(ev.common_comm, "Web Content-7");
		EXPECT_STR(ev.sw.prev.comm, "Web Content-7");
		EXPECT_EQ(ev.common_pid, 3);
	}
}

/* trace-cmd report without -N: libtraceevent's sched plugin, no flags column. */
FS_TEST(trace_text_switch_plugin)
{
	struct fs_tev ev;
	char err[256];

	ASSERT_TRUE(one("     rcu_preempt-15    [001]  1610.296800: sched_switch:         rcu_preempt:15 [120] W ==> "
			"memfd:sealed-91:12475 [139]", &ev, err, sizeof(err)) == 1);
	EXPECT_STR(ev.sw.prev.comm, "rcu_preempt");
	EXPECT_EQ(ev.sw.prev.pid, 15);
	EXPECT_EQ(ev.sw.prev_state, FS_TSTATE_I); /* the plugin prints bit 7 as W */
	EXPECT_STR(ev.sw.next.comm, "memfd:sealed-91");
	EXPECT_EQ(ev.sw.next.pid, 12475);
	EXPECT_EQ(ev.sw.next.prio, 139);
	ASSERT_TRUE(one("  a-1 [000]  1.000000: sched_switch: a:1 [120] X ==> b:2 [120]", &ev, err, sizeof(err)) == 1);
	EXPECT_EQ(ev.sw.prev_state, FS_TSTATE_Z);
	ASSERT_TRUE(one("  a-1 [000]  1.000000: sched_switch: a:1 [120] R ==> b:2 [120]", &ev, err, sizeof(err)) == 1);
	EXPECT_EQ(ev.sw.prev_state, 0);
}

FS_TEST(trace_text_wake_events)
{
	static const char *const lines[] = {
		"  bash-20575   [000] d..2.  1610.290836: sched_wakeup_new: comm=bash pid=20581 prio=120 target_cpu=001",
		"  bash-20575 [000]  1610.290836: sched_wakeup_new:     bash:20581 [120] CPU:001",
		"  bash-20575 [000]  1610.290836: sched_waking: comm=bash pid=20581 prio=120 target_cpu=001",
		"  bash-20575 [000]  1610.290836: sched_wakeup: bash:20581 [120] CPU:001",
	};
	static const __u32 type[] = { FS_TEV_WAKEUP_NEW, FS_TEV_WAKEUP_NEW, FS_TEV_WAKING, FS_TEV_WAKEUP };
	struct fs_tev ev;
	char err[256];

	for (int i = 0; i < 4; i++) {
		ASSERT_TRUE(one(lines[i], &ev, err, sizeof(err)) == 1);
		EXPECT_EQ(ev.type, type[i]);
		EXPECT_STR(ev.wake.t.comm, "bash");
		EXPECT_EQ(ev.wake.t.pid, 20581);
		EXPECT_EQ(ev.wake.t.prio, 120);
		EXPECT_EQ(ev.wake.target_cpu, 1);
		EXPECT_EQ(ev.common_pid, 20575);
		EXPECT_EQ_U64(ev.ts_ns, 1610290836000ull);
	}
}

FS_TEST(trace_text_task_events)
{
	struct fs_tev ev;
	char err[256];

	ASSERT_TRUE(one("migration/0-18 [000] 1610.339127: sched_migrate_task: comm=bash pid=20583 prio=120 "
			"orig_cpu=0 dest_cpu=1", &ev, err, sizeof(err)) == 1);
	EXPECT_EQ(ev.type, FS_TEV_MIGRATE);
	EXPECT_EQ(ev.mig.t.pid, 20583);
	EXPECT_EQ(ev.mig.orig_cpu, 0);
	EXPECT_EQ(ev.mig.dest_cpu, 1);
	ASSERT_TRUE(one("bash-20575 [000] 1.5: sched_process_fork: comm=bash pid=20575 child_comm=bash child_pid=20581",
			&ev, err, sizeof(err)) == 1);
	EXPECT_EQ(ev.type, FS_TEV_FORK);
	EXPECT_EQ_U64(ev.ts_ns, 1500000000ull);
	EXPECT_EQ(ev.fork.parent.pid, 20575);
	EXPECT_EQ(ev.fork.child.pid, 20581);
	ASSERT_TRUE(one("rm-20580 [001] 1.0: sched_process_exit: comm=rm pid=20580 prio=120 group_dead=true", &ev,
			err, sizeof(err)) == 1); /* v6.16 added group_dead */
	EXPECT_EQ(ev.type, FS_TEV_EXIT);
	EXPECT_EQ(ev.proc.t.pid, 20580);
	ASSERT_TRUE(one("x-9 [001] 1.0: sched_process_free: comm=rm pid=20580 prio=120", &ev, err, sizeof(err)) == 1);
	EXPECT_EQ(ev.type, FS_TEV_FREE);
	ASSERT_TRUE(one("bash-20575 [000] ..... 1.0: task_newtask: pid=20581 comm=bash clone_flags=1200000 "
			"oom_score_adj=-17", &ev, err, sizeof(err)) == 1);
	EXPECT_EQ(ev.type, FS_TEV_NEWTASK);
	EXPECT_EQ(ev.newtask.t.pid, 20581);
	EXPECT_EQ_U64(ev.newtask.clone_flags, 0x1200000);
	EXPECT_EQ(ev.newtask.oom_score_adj, -17);
	ASSERT_TRUE(one("fs-20579 [001] 1.0: task_rename: pid=20579 oldcomm=bash newcomm=feecscope oom_score_adj=0",
			&ev, err, sizeof(err)) == 1);
	EXPECT_EQ(ev.rename.pid, 20579);
	EXPECT_STR(ev.rename.oldcomm, "bash");
	EXPECT_STR(ev.rename.newcomm, "feecscope");
	/* without pid= (the renamed task is the emitter) and with blanks in the new name */
	ASSERT_TRUE(one("fs-20579 [001] 1.0: task_rename: oldcomm=bash newcomm=Web Content", &ev, err,
			sizeof(err)) == 1);
	EXPECT_EQ(ev.rename.pid, 20579);
	EXPECT_STR(ev.rename.newcomm, "Web Content");
}

FS_TEST(trace_text_power_and_lost)
{
	struct fs_trace_text *t = fs_trace_text_new("t.txt");
	struct fs_tev ev;
	char err[256];
	const char *l1 = "<idle>-0 [003] d.h1. 7.000000001: cpu_frequency: state=1800000 cpu_id=3";
	const char *l2 = "<idle>-0 [003] d..1. 7.000000002: cpu_idle: state=4294967295 cpu_id=3";

	ASSERT_TRUE(fs_trace_text_line(t, l1, strlen(l1), &ev, err, sizeof(err)) == 1);
	EXPECT_EQ(ev.type, FS_TEV_CPU_FREQ);
	EXPECT_EQ(ev.power.state, 1800000);
	EXPECT_EQ(ev.power.cpu_id, 3);
	EXPECT_EQ_U64(ev.ts_ns, 7000000001ull); /* report -t: nanoseconds */
	ASSERT_TRUE(fs_trace_text_line(t, l2, strlen(l2), &ev, err, sizeof(err)) == 1);
	EXPECT_EQ(ev.type, FS_TEV_CPU_IDLE);
	EXPECT_EQ(ev.power.state, FS_TEV_IDLE_EXIT);
	ASSERT_TRUE(fs_trace_text_line(t, "CPU:2 [LOST 1234 EVENTS]", 24, &ev, err, sizeof(err)) == 1);
	EXPECT_EQ(ev.type, FS_TEV_LOST);
	EXPECT_EQ(ev.cpu, 2);
	EXPECT_EQ_U64(ev.lost.nr, 1234);
	EXPECT_EQ_U64(ev.ts_ns, 7000000002ull); /* the last event's time */
	ASSERT_TRUE(fs_trace_text_line(t, "CPU:0 [LOST EVENTS]", 19, &ev, err, sizeof(err)) == 1);
	EXPECT_EQ_U64(ev.lost.nr, FS_TEV_LOST_UNKNOWN);
	EXPECT_EQ_U64(fs_trace_text_stats(t)->lost_events, 1235);
	EXPECT_EQ_U64(fs_trace_text_stats(t)->lost_reports, 2);
	EXPECT_EQ_U64(fs_trace_text_stats(t)->events, 4); /* as handed out: the lost ones too */
	fs_trace_text_free(t);
}

/* Headers of both tools, the tgid column, CRLF, unknown events: skipped, the unknown ones counted. */
FS_TEST(trace_text_headers_and_unknown)
{
	static const char text[] =
		"cpus=4\n# tracer: nop\n#\n##### CPU 2 buffer started ####\nCPU 3 is empty\n\n"
		"  bash-5     (      5) [000] d..2.  1.000000: sched_waking: comm=a pid=6 prio=120 target_cpu=000\r\n"
		"  bash-5     (-------) [000] d..2.  1.000001: sched_stat_runtime: comm=bash pid=5 runtime=1 [ns]\n"
		"  bash-5 [000] 1.000002: irq_handler_entry: irq=1 name=x\n";
	struct fs_trace_text *t = fs_trace_text_new("t.txt");
	const char *p = text;
	int got[3] = { 0 }, n = 0;
	struct fs_tev ev;
	char err[256];

	while (*p) {
		const char *nl = strchr(p, '\n');
		int rc = fs_trace_text_line(t, p, (size_t)(nl - p), &ev, err, sizeof(err));
		got[rc + 1]++;
		if (rc == 1) {
			EXPECT_EQ(ev.common_tgid, 5);
			EXPECT_EQ(ev.common_pid, 5);
			EXPECT_EQ(ev.wake.target_cpu, 0);
		}
		p = nl + 1;
		n++;
	}
	EXPECT_EQ(got[0], 0);
	EXPECT_EQ(got[1], n - 1);
	EXPECT_EQ(got[2], 1);
	EXPECT_EQ_U64(fs_trace_text_stats(t)->unknown_events, 2);
	EXPECT_STR(fs_trace_text_stats(t)->first_unknown, "sched_stat_runtime");
	fs_trace_text_free(t);
	EXPECT_TRUE(fs_trace_text_probe(text, sizeof(text) - 1));
	EXPECT_TRUE(!fs_trace_text_probe("\x89" "FSREC\r\n", 8));
	/* a line that is not NUL-terminated (the fuzzer's found/probe-one-hash-byte: read past it) */
	char *hash = malloc(1);
	ASSERT_TRUE(hash);
	hash[0] = '#';
	EXPECT_TRUE(!fs_trace_text_probe(hash, 1));
	free(hash);
}

/* A malformed line of a known event: one error naming the file, the line and the field. */
FS_TEST(trace_text_bad_lines)
{
	static const struct { const char *line, *err; } c[] = {
		{ "a-1 [000] 1.0: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b",
		  "t.txt:1: sched_switch: next_pid: missing" },
		{ "a-1 [000] 1.0: sched_waking: comm=a pid=x1 prio=120 target_cpu=000",
		  "t.txt:1: sched_waking: pid: 'x1' is not a number" },
		{ "a-1 [000] 1.0: cpu_frequency: state=99999999999 cpu_id=0",
		  "t.txt:1: cpu_frequency: state: 99999999999 is out of range 0..4294967295" },
		{ "a-1 [000] 1.0: sched_migrate_task: comm=a pid=1 prio=120 orig_cpu=0",
		  "t.txt:1: sched_migrate_task: dest_cpu: missing" },
		{ "a-1 [000] 1.0000000001: sched_waking: comm=a pid=1 prio=120 target_cpu=0",
		  "t.txt:1: timestamp: '1.0000000001' is not SECONDS.FRACTION" },
		{ "a-1 [000] 1.0", "t.txt:1: timestamp: missing" },
		{ "hello world", "t.txt:1: not an ftrace event line (no [CPU] column)" },
		{ "a-1 [000] 1.0: task_newtask: pid=2 comm=a clone_flags=xyz oom_score_adj=0",
		  "t.txt:1: task_newtask: clone_flags: 'xyz' is not a hex number" },
		{ "a-1 [000] 1.0: sched_switch: a:1 [120] Q ==> b:2 [120]",
		  "t.txt:1: sched_switch: prev_state: 'Q' is not a task state ('Q')" },
		{ "CPU:x [LOST 3 EVENTS]", "t.txt:1: lost events: cpu: 'x' is not a number" },
		{ "a-1 [000] 1.0: sched_wakeup: a:1 [120 CPU:000",
		  "t.txt:1: sched_wakeup: comm: 'a:1 [120' is not comm:pid [prio]" },
		{ "a-1 [000] 1.0: sched_wakeup: a:b [120] CPU:000", "t.txt:1: sched_wakeup: pid: 'b' is not a number" },
	};
	struct fs_tev ev;
	char err[256];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		EXPECT_EQ(one(c[i].line, &ev, err, sizeof(err)), -1);
		EXPECT_STR(err, c[i].err);
	}
}

static int count_fn(void *ctx, const struct fs_tev *ev, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	((int *)ctx)[ev->type]++;
	return 0;
}

/* The fixtures captured on a 6.18 kernel (tests/fixtures/trace/README.md): every line reads. */
FS_TEST(trace_text_fixtures)
{
	static const char *const files[] = { "trace/tracefs.txt", "trace/report.txt", "trace/report-N-t.txt" };
	struct fs_trace_stats st;
	char err[512];

	for (int i = 0; i < 3; i++) {
		int n[FS_TEV_NR_TYPES] = { 0 };
		int rc = fs_trace_text_read_file(fs_fixture(files[i]), count_fn, n, &st, err, sizeof(err));
		if (rc)
			FS_FAIL_AT("%s", err);
		EXPECT_EQ_U64(st.events, 188);
		EXPECT_EQ_U64(st.unknown_events, 0);
		EXPECT_EQ(n[FS_TEV_SWITCH], 92);
		EXPECT_EQ(n[FS_TEV_WAKING], 35);
	}
	EXPECT_EQ(fs_trace_text_read_file("/nonexistent/x", count_fn, NULL, &st, err, sizeof(err)), -1);
	EXPECT_STR(err, "/nonexistent/x: No such file or directory");
}

struct evlist {
	struct fs_tev ev[256];
	int nr;
};

static int keep_fn(void *ctx, const struct fs_tev *ev, char *err, size_t errlen)
{
	struct evlist *l = ctx;

	(void)err;
	(void)errlen;
	if (l->nr < 256)
		l->ev[l->nr] = *ev;
	l->nr++;
	return 0;
}

/*
 * The plugin's formats read to the kernel's: report.txt and report-N-t.txt
 * are the same file's events, the former rounded to the us and without R+.
 */
FS_TEST(trace_text_plugin_as_kernel_format)
{
	static struct evlist a, b;
	char err[512];

	ASSERT_TRUE(fs_trace_text_read_file(fs_fixture("trace/report.txt"), keep_fn, &a, NULL, err, sizeof(err)) == 0);
	ASSERT_TRUE(fs_trace_text_read_file(fs_fixture("trace/report-N-t.txt"), keep_fn, &b, NULL, err,
					    sizeof(err)) == 0);
	ASSERT_TRUE(a.nr == b.nr && a.nr <= 256);
	for (int i = 0; i < a.nr; i++) {
		struct fs_tev *x = &a.ev[i], *y = &b.ev[i];

		long long d = (long long)x->ts_ns - (long long)y->ts_ns; /* trace-cmd rounds to the us */

		EXPECT_TRUE(d >= -500 && d <= 500 && x->ts_ns % 1000 == 0);
		y->ts_ns = x->ts_ns;
		if (y->type == FS_TEV_SWITCH)
			y->sw.prev_state &= ~FS_TSTATE_PREEMPTED;
		if (memcmp(x, y, sizeof(*x)))
			FS_FAIL_AT("event %d (%s at %llu ns) differs", i, fs_tev_name(x->type),
				   (unsigned long long)x->ts_ns);
	}
}

/*
 * LISA's cfs_rq events in each module's layout (sched_tp: runnable= before
 * util=; the lisa module: "lisa__" names, runnable= last; the first module:
 * sched_load_cfs_rq with rbl_load=), root ("/", "(null)") and task-group
 * paths; sched_load_se reads as sched_pelt_se.
 */
FS_TEST(trace_text_pelt_cfs)
{
	static const char pre[] = "  <idle>-0 [001] d..1. 5.000001: ";
	static const struct { const char *f; __u32 type; int cpu; bool root; __u32 util, enq, ewma; } c[] = {
		{ "sched_pelt_cfs: cpu=1 path=/ load=210 runnable=230 util=187 update_time=4999000000",
		  FS_TEV_PELT_CFS, 1, true, 187, 0, 0 },
		{ "lisa__sched_pelt_cfs: cpu=0 path=/autogroup-12 load=5 util=44 update_time=1 runnable=61",
		  FS_TEV_PELT_CFS, 0, false, 44, 0, 0 },
		{ "sched_load_cfs_rq: cpu=3 path=(null) load=7 rbl_load=7 util=1024", FS_TEV_PELT_CFS, 3, true, 1024, 0, 0 },
		{ "sched_util_est_cfs: cpu=2 path=/ enqueued=310 ewma=296 util=280", FS_TEV_UTIL_EST_CFS, 2, true, 280, 310, 296 },
		{ "lisa__sched_util_est_cfs: cpu=2 path=/foo enqueued=1 ewma=2 util=3", FS_TEV_UTIL_EST_CFS, 2, false, 3, 1, 2 },
	};
	struct fs_tev ev;
	char line[256], err[256];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(line, sizeof(line), "%s%s", pre, c[i].f);
		ASSERT_TRUE(one(line, &ev, err, sizeof(err)) == 1);
		EXPECT_EQ(ev.type, c[i].type);
		EXPECT_EQ(ev.cfs.cpu, c[i].cpu);
		EXPECT_EQ(ev.cfs.root, c[i].root);
		EXPECT_EQ(ev.cfs.util, c[i].util);
		EXPECT_EQ(ev.cfs.enqueued, c[i].enq);
		EXPECT_EQ(ev.cfs.ewma, c[i].ewma);
	}
	snprintf(line, sizeof(line), "%ssched_load_se: cpu=0 path=(null) comm=kworker/0:1 pid=44 load=3 rbl_load=3 util=77", pre);
	ASSERT_TRUE(one(line, &ev, err, sizeof(err)) == 1);
	EXPECT_EQ(ev.type, FS_TEV_PELT_SE);
	EXPECT_EQ(ev.pelt.t.pid, 44);
	EXPECT_STR(ev.pelt.t.comm, "kworker/0:1");
	EXPECT_EQ(ev.pelt.util, 77);
	snprintf(line, sizeof(line), "%slisa__sched_pelt_se: cpu=0 path=(null) comm=sh pid=9 load=3 util=88 update_time=1 "
		 "runnable=3", pre);
	ASSERT_TRUE(one(line, &ev, err, sizeof(err)) == 1);
	EXPECT_EQ(ev.type, FS_TEV_PELT_SE);
	EXPECT_EQ(ev.pelt.util, 88);
}

/* A cfs_rq line that does not read: the name as the trace gives it, and the field. */
FS_TEST(trace_text_pelt_cfs_bad)
{
	static const struct { const char *f, *err; } c[] = {
		{ "sched_pelt_cfs: cpu=1 path=/ load=210 runnable=230", "t.txt:1: sched_pelt_cfs: util: missing" },
		{ "sched_util_est_cfs: cpu=1 path=/ enqueued=x ewma=1 util=1",
		  "t.txt:1: sched_util_est_cfs: enqueued: 'x' is not a number" },
		{ "lisa__sched_pelt_cfs: cpu=-1 path=/ load=1 util=1", "t.txt:1: lisa__sched_pelt_cfs: cpu: -1 is out of "
		  "range 0..2147483647" },
		{ "sched_load_cfs_rq: cpu=1 load=1 rbl_load=1 util=1", "t.txt:1: sched_load_cfs_rq: path: missing" },
	};
	struct fs_tev ev;
	char line[256], err[256];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(line, sizeof(line), "  <idle>-0 [001] d..1. 5.000001: %s", c[i].f);
		EXPECT_EQ(one(line, &ev, err, sizeof(err)), -1);
		EXPECT_STR(err, c[i].err);
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The Perfetto reader (user/source/perfetto_trace*.c) on the traces
 * tests/perfetto/gen_ftrace_traces.py wrote (tests/fixtures/perfetto/):
 * every event handed out equals the generator's, line for line, and the
 * process tree too; a bad trace gives the generator's error line. Then
 * small traces made here (with output/protobuf.h's encoder) for the clocks
 * and the probe.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include "test.h"
#include "em/em_io.h"
#include "output/protobuf.h"
#include "sim/trace_workload.h"
#include "source/perfetto_trace.h"
#include "source/trace_dat.h"
#include "source/trace_text.h"

struct lines {
	char *buf;
	size_t len, cap;
	__u64 n, last_ts;
	bool backwards;
};

static void add(struct lines *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct lines *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->cap - l->len < 512) {
		l->cap = l->cap * 2 + 4096;
		if (!(l->buf = realloc(l->buf, l->cap)))
			abort();
	}
	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->len, l->cap - l->len, fmt, ap);
	va_end(ap);
	l->len += (size_t)n;
}

#define T3(t) (t).comm, (t).pid, (t).prio

/* One event as the generator writes it (tab-separated). */
static int as_line(void *ctx, const struct fs_tev *ev, char *err, size_t errlen)
{
	struct lines *l = ctx;

	(void)err;
	(void)errlen;
	l->backwards |= ev->ts_ns < l->last_ts;
	l->last_ts = ev->ts_ns;
	l->n++;
	add(l, "%llu\t%d\t%s\t%d\t%d\t%s", (unsigned long long)ev->ts_ns, ev->cpu, fs_tev_name(ev->type),
	    ev->common_pid, ev->common_tgid, ev->common_comm);
	switch (ev->type) {
	case FS_TEV_SWITCH:
		add(l, "\t%s\t%d\t%d\t%u\t%s\t%d\t%d", T3(ev->sw.prev), ev->sw.prev_state, T3(ev->sw.next));
		break;
	case FS_TEV_WAKING: case FS_TEV_WAKEUP: case FS_TEV_WAKEUP_NEW:
		add(l, "\t%s\t%d\t%d\t%d", T3(ev->wake.t), ev->wake.target_cpu);
		break;
	case FS_TEV_MIGRATE:
		add(l, "\t%s\t%d\t%d\t%d\t%d", T3(ev->mig.t), ev->mig.orig_cpu, ev->mig.dest_cpu);
		break;
	case FS_TEV_FORK:
		add(l, "\t%s\t%d\t%s\t%d", ev->fork.parent.comm, ev->fork.parent.pid, ev->fork.child.comm,
		    ev->fork.child.pid);
		break;
	case FS_TEV_EXIT: case FS_TEV_FREE:
		add(l, "\t%s\t%d\t%d", T3(ev->proc.t));
		break;
	case FS_TEV_NEWTASK:
		add(l, "\t%s\t%d\t%llu\t%d", ev->newtask.t.comm, ev->newtask.t.pid,
		    (unsigned long long)ev->newtask.clone_flags, ev->newtask.oom_score_adj);
		break;
	case FS_TEV_RENAME:
		add(l, "\t%d\t%s\t%s", ev->rename.pid, ev->rename.oldcomm, ev->rename.newcomm);
		break;
	case FS_TEV_CPU_FREQ: case FS_TEV_CPU_IDLE:
		add(l, "\t%u\t%d", ev->power.state, ev->power.cpu_id);
		break;
	case FS_TEV_LOST:
		add(l, "\t%llu", (unsigned long long)ev->lost.nr);
		break;
	case FS_TEV_PELT_SE: case FS_TEV_UTIL_EST_SE:
		add(l, "\t%s\t%d\t%d\t%u\t%u\t%u", ev->pelt.t.comm, ev->pelt.t.pid, ev->pelt.cpu, ev->pelt.util,
		    ev->pelt.enqueued, ev->pelt.ewma);
		break;
	case FS_TEV_PELT_CFS: case FS_TEV_UTIL_EST_CFS:
		add(l, "\t%d\t%d\t%u\t%u\t%u", ev->cfs.cpu, ev->cfs.root, ev->cfs.util, ev->cfs.enqueued, ev->cfs.ewma);
		break;
	}
	add(l, "\n");
	return 0;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (cap - n < 65536 && !(buf = realloc(buf, cap = cap * 2 + 65536)))
			abort();
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
	} while (r);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* The first line where a and b differ, for the failure message. */
static void expect_same_text(const char *got, const char *want, const char *what)
{
	size_t i = 0, line = 1, start = 0;

	for (; got[i] && got[i] == want[i]; i++)
		if (got[i] == '\n')
			line++, start = i + 1;
	if (!got[i] && !want[i])
		return;
	FS_FAIL_AT("%s: line %zu differs:\n      got  %.*s\n      want %.*s", what, line,
		   (int)strcspn(got + start, "\n"), got + start, (int)strcspn(want + start, "\n"), want + start);
}

/* The power rails as the generator lists them: each rail, then every rail's samples. */
static void add_rails(struct lines *l, const struct fs_power_rails *r)
{
	for (size_t i = 0; i < r->nr; i++)
		add(l, "rail\t%llu\t%u\t%s\t%s\t%u\t%zu\n", (unsigned long long)r->rail[i].session, r->rail[i].index,
		    r->rail[i].name, r->rail[i].subsys, r->rail[i].sampling_hz, r->rail[i].nr);
	for (size_t i = 0; i < r->nr; i++)
		for (size_t k = 0; k < r->rail[i].nr; k++)
			add(l, "sample\t%u\t%llu\t%llu\n", r->rail[i].index, (unsigned long long)r->rail[i].s[k].ts_ns,
			    (unsigned long long)r->rail[i].s[k].uws);
	add(l, "%s", "");
}

/* The fixture name.pftrace (or file) read; its events (more than min_n) and tree against name.expected. */
static void check_fixture_n(const char *name, const char *file, size_t min_n, struct fs_trace_stats *out)
{
	char path[512], err[512] = "", *want, *data;
	struct lines l = { 0 };
	struct fs_trace_stats st;
	struct fs_perfetto_tree tree;
	struct fs_power_rails rails;
	size_t wlen, dlen;
	int rc;

	snprintf(path, sizeof(path), "%s", fs_fixture("perfetto/"));
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "%s.expected", name);
	ASSERT_TRUE((want = slurp(path, &wlen)) != NULL);
	snprintf(path, sizeof(path), "%s", fs_fixture("perfetto/"));
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "%s", file);
	ASSERT_TRUE((data = slurp(path, &dlen)) != NULL);
	EXPECT_TRUE(fs_perfetto_trace_probe(data, dlen));
	rc = fs_perfetto_trace_parse(data, dlen, file, as_line, &l, &st, &tree, &rails, err, sizeof(err));
	if (!strncmp(want, "error\t", 6)) {
		char line[600];
		snprintf(line, sizeof(line), "%s: %.*s", file, (int)strcspn(want + 6, "\n"), want + 6);
		EXPECT_EQ(rc, -1);
		EXPECT_STR(err, line);
		EXPECT_TRUE(!rails.rail && !rails.nr);
	} else {
		if (rc)
			FS_FAIL_AT("%s", err);
		ASSERT_TRUE(rc == 0);
		for (size_t i = 0; i < tree.nr; i++)
			add(&l, "task\t%d\t%d\t%d\t%d\t%s\n", tree.tasks[i].pid, tree.tasks[i].tgid, tree.tasks[i].ppid,
			    tree.tasks[i].uid, tree.tasks[i].comm);
		add_rails(&l, &rails);
		expect_same_text(l.buf, want, file);
		EXPECT_EQ(st.events, l.n);
		EXPECT_TRUE(!l.backwards);
		EXPECT_TRUE(l.n > min_n);
		free(tree.tasks);
		fs_power_rails_free(&rails);
	}
	if (out)
		*out = st;
	free(l.buf);
	free(want);
	free(data);
}

static void check_fixture(const char *name, const char *file)
{
	check_fixture_n(name, file, 500, NULL);
}

FS_TEST(perfetto_ftrace_events) { check_fixture("ftrace", "ftrace.pftrace"); }
FS_TEST(perfetto_compact_sched) { check_fixture("compact", "compact.pftrace"); }
FS_TEST(perfetto_gzip) { check_fixture("compact", "compact.pftrace.gz"); }
FS_TEST(perfetto_compressed_packets) { check_fixture("ftrace", "compressed.pftrace"); }
FS_TEST(perfetto_clocks_boottime) { check_fixture("clocks", "clocks.pftrace"); }
FS_TEST(perfetto_clocks_monotonic) { check_fixture("clocks-mono", "clocks-mono.pftrace"); }
FS_TEST(perfetto_bad_wire) { check_fixture("bad-wire", "bad-wire.pftrace"); }
FS_TEST(perfetto_bad_compact) { check_fixture("bad-compact", "bad-compact.pftrace"); }
FS_TEST(perfetto_truncated_length) { check_fixture("trunc-len", "trunc-len.pftrace"); }
FS_TEST(perfetto_truncated_varint) { check_fixture("trunc-varint", "trunc-varint.pftrace"); }
FS_TEST(perfetto_no_sched_events) { check_fixture("nosched", "nosched.pftrace"); }
FS_TEST(perfetto_bad_generic) { check_fixture("bad-generic", "bad-generic.pftrace"); }
/* android.power's rails: descriptors and samples; on MONOTONIC through the snapshots; the bad ones */
FS_TEST(perfetto_rails) { check_fixture_n("rails", "rails.pftrace", 8, NULL); }
FS_TEST(perfetto_rails_clock_mapped) { check_fixture_n("rails-mono", "rails-mono.pftrace", 8, NULL); }
FS_TEST(perfetto_rails_partial) { check_fixture_n("rails-partial", "rails-partial.pftrace", 8, NULL); }
FS_TEST(perfetto_rail_without_descriptor) { check_fixture_n("rail-undescribed", "rail-undescribed.pftrace", 0, NULL); }
FS_TEST(perfetto_rail_counter_backwards) { check_fixture("bad-rail-back", "bad-rail-back.pftrace"); }
FS_TEST(perfetto_rail_wrong_wire_type) { check_fixture("bad-rail-wire", "bad-rail-wire.pftrace"); }

/*
 * LISA's events as GenericFtraceEvents (generic.pftrace, by hand): decoded
 * by their fields' names into the text reader's events (a field's name
 * after its value, the event's name after its fields, sched_tp's and the
 * lisa module's names); the other generic event skipped and named.
 */
FS_TEST(perfetto_generic_events)
{
	struct fs_trace_stats st;

	check_fixture_n("generic", "generic.pftrace", 6, &st);
	EXPECT_EQ_U64(st.unknown_events, 1);
	EXPECT_STR(st.first_unknown, "sched_overutilized");
}

/* A trace of one packet: a bundle on CPU 0 with ftrace_clock clk (0: none) and one sched_switch at ts. */
static void one_switch_trace(struct fs_pb *pb, unsigned clk, uint64_t ts, bool snapshot, uint64_t boot, uint64_t raw)
{
	if (snapshot) {
		fs_pb_begin(pb, 1);
		fs_pb_begin(pb, 6); /* clock_snapshot */
		fs_pb_begin(pb, 1);
		fs_pb_varint(pb, 1, 6); /* BOOTTIME */
		fs_pb_varint(pb, 2, boot);
		fs_pb_end(pb);
		fs_pb_begin(pb, 1);
		fs_pb_varint(pb, 1, 5); /* MONOTONIC_RAW */
		fs_pb_varint(pb, 2, raw);
		fs_pb_end(pb);
		fs_pb_end(pb);
		fs_pb_end(pb);
	}
	fs_pb_begin(pb, 1);
	fs_pb_begin(pb, 1); /* ftrace_events */
	fs_pb_varint(pb, 1, 0);
	if (clk)
		fs_pb_varint(pb, 5, clk);
	fs_pb_begin(pb, 2);
	fs_pb_varint(pb, 1, ts);
	fs_pb_varint(pb, 2, 0);
	fs_pb_begin(pb, 4);
	fs_pb_string(pb, 5, "sh");
	fs_pb_varint(pb, 6, 42);
	fs_pb_end(pb);
	fs_pb_end(pb);
	fs_pb_end(pb);
	fs_pb_end(pb);
}

static int first_ts(void *ctx, const struct fs_tev *ev, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	*(__u64 *)ctx = ev->ts_ns;
	return 0;
}

FS_TEST(perfetto_clock_placed_by_snapshot)
{
	struct fs_pb pb = { 0 };
	char err[256];
	__u64 ts = 0;

	/* ftrace on MONOTONIC_RAW, 5 s behind BOOTTIME: the event moves to BOOTTIME */
	one_switch_trace(&pb, 4, 1000000000, true, 6000000000, 1000000000);
	ASSERT_TRUE(!pb.failed);
	EXPECT_EQ(fs_perfetto_trace_parse(pb.buf, pb.len, "t", first_ts, &ts, NULL, NULL, NULL, err, sizeof(err)), 0);
	EXPECT_EQ_U64(ts, 6000000000ull);
	/* the same without ftrace_clock: the timestamps are BOOTTIME already */
	fs_pb_clear(&pb);
	one_switch_trace(&pb, 0, 1000000000, true, 6000000000, 1000000000);
	EXPECT_EQ(fs_perfetto_trace_parse(pb.buf, pb.len, "t", first_ts, &ts, NULL, NULL, NULL, err, sizeof(err)), 0);
	EXPECT_EQ_U64(ts, 1000000000ull);
	/* no snapshot relates MONOTONIC_RAW to BOOTTIME */
	fs_pb_clear(&pb);
	one_switch_trace(&pb, 4, 1000000000, false, 0, 0);
	EXPECT_EQ(fs_perfetto_trace_parse(pb.buf, pb.len, "t", first_ts, &ts, NULL, NULL, NULL, err, sizeof(err)), -1);
	EXPECT_STR(err, "t: packet 0 (offset 0): clock_snapshot: no snapshot gives both MONOTONIC_RAW "
			"(the ftrace clock) and BOOTTIME");
	/* the global clock without its BOOTTIME pair */
	fs_pb_clear(&pb);
	one_switch_trace(&pb, 2, 1000000000, false, 0, 0);
	EXPECT_EQ(fs_perfetto_trace_parse(pb.buf, pb.len, "t", first_ts, &ts, NULL, NULL, NULL, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "ftrace_events.ftrace_clock: 2 without ftrace_timestamp and boot_timestamp");
	fs_pb_free(&pb);
}

FS_TEST(perfetto_probe)
{
	static const char blank_text[] = "\n            bash-20575   [000] d..2.  1610.290836: sched_switch: x";
	size_t n;
	char *buf;

	EXPECT_TRUE(!fs_perfetto_trace_probe(blank_text, sizeof(blank_text) - 1));
	EXPECT_TRUE(!fs_perfetto_trace_probe("", 0));
	EXPECT_TRUE(fs_perfetto_trace_probe("\x0a\x05\x08\x01", 4)); /* a packet cut by the head: fine */
	EXPECT_TRUE(!fs_perfetto_trace_probe("\x0a\x02\x0b\x01", 4)); /* a group: no packet of ours */
	EXPECT_TRUE(!fs_perfetto_trace_probe("\n  ", 3)); /* whole and readable, but text */
	EXPECT_TRUE(fs_perfetto_trace_probe("\x0a\x05\x08\x81\x01\x10\x02", 7));
	ASSERT_TRUE((buf = slurp(fs_fixture("trace/tracefs.txt"), &n)) != NULL);
	EXPECT_TRUE(!fs_perfetto_trace_probe(buf, n));
	free(buf);
	ASSERT_TRUE((buf = slurp(fs_fixture("trace/trace-v7.dat"), &n)) != NULL);
	EXPECT_TRUE(!fs_perfetto_trace_probe(buf, n));
	free(buf);
	ASSERT_TRUE((buf = slurp(fs_fixture("perfetto/compact.pftrace"), &n)) != NULL);
	EXPECT_TRUE(fs_perfetto_trace_probe(buf, n > 200 ? 200 : n)); /* a head cut mid-packet */
	EXPECT_TRUE(!fs_trace_text_probe(buf, n));
	EXPECT_TRUE(!fs_trace_dat_probe(buf, n));
	free(buf);
}

/* The generated compact trace makes a workload: tasks with activations, the wakers known. */
FS_TEST(perfetto_workload_builds)
{
	struct fs_em em;
	struct fs_sim_workload wl;
	struct fs_trace_wl_info info;
	struct fs_trace_stats st;
	struct fs_trace_wl *b;
	char err[512];

	ASSERT_TRUE(fs_em_profile_for_cpus(4, &em, err, sizeof(err)) == 0);
	ASSERT_TRUE((b = fs_trace_wl_new(&em, FS_SIM_DEVICE)) != NULL);
	if (fs_perfetto_trace_read_file(fs_fixture("perfetto/compact.pftrace.gz"), fs_trace_wl_feed_fn, b, &st, err,
					sizeof(err))) {
		FS_FAIL_AT("%s", err);
		fs_trace_wl_free(b);
		return;
	}
	if (fs_trace_wl_finish(b, &wl, &info, err, sizeof(err))) {
		FS_FAIL_AT("%s", err);
		return;
	}
	EXPECT_EQ_U64(info.events, st.events);
	EXPECT_TRUE(wl.nr_tasks >= 5);
	EXPECT_TRUE(wl.nr_acts > 50);
	EXPECT_EQ_U64(info.lost_events, 1);
	free(wl.tasks);
	free(wl.acts);
}

FS_TEST(perfetto_read_file_errors)
{
	struct lines l = { 0 };
	char err[512];

	EXPECT_EQ(fs_perfetto_trace_read_file("/nonexistent/x.pftrace", as_line, &l, NULL, err, sizeof(err)), -1);
	EXPECT_STR(err, "/nonexistent/x.pftrace: No such file or directory");
	EXPECT_EQ(fs_perfetto_trace_parse("\x1f\x8b\x08\x00", 4, "x.gz", as_line, &l, NULL, NULL, NULL, err, sizeof(err)), -1);
	EXPECT_STR(err, "x.gz: gzip: cut short (truncated?)");
	free(l.buf);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat reader (user/source/trace_dat.c): trace-cmd's own files of
 * versions 7 (zstd) and 6 give, event for event, what the text parser reads
 * from `trace-cmd report -N -t` of the same file (tests/fixtures/trace/README.md).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#include "test.h"
#include "source/trace_dat.h"
#include "source/trace_text.h"
#include "em/em_io.h"
#include "sim/trace_workload.h"

struct evs {
	struct fs_tev *ev;
	size_t nr, cap;
};

static int collect(void *ctx, const struct fs_tev *ev, char *err, size_t errlen)
{
	struct evs *e = ctx;

	(void)err;
	(void)errlen;
	if (e->nr == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 256;
		e->ev = realloc(e->ev, e->cap * sizeof(*e->ev));
		if (!e->ev)
			abort();
	}
	e->ev[e->nr++] = *ev;
	return 0;
}

/* The gzip'd fixture inflated into a temporary file (its path in buf). */
static int gunzip_to(const char *gz, char *buf)
{
	gzFile in = gzopen(gz, "rb");
	char data[65536];
	int fd, n, rc = 0;

	strcpy(buf, "/tmp/fs-trace-dat-XXXXXX");
	fd = mkstemp(buf);
	if (!in || fd < 0)
		return -1;
	while ((n = gzread(in, data, sizeof(data))) > 0)
		if (write(fd, data, (size_t)n) != n)
			rc = -1;
	gzclose(in);
	close(fd);
	return n < 0 ? -1 : rc;
}

static void expect_same(const struct evs *a, const struct evs *b, const char *what)
{
	EXPECT_EQ(a->nr, b->nr);
	for (size_t i = 0; i < a->nr && i < b->nr; i++)
		if (memcmp(&a->ev[i], &b->ev[i], sizeof(a->ev[i]))) {
			FS_FAIL_AT("%s: event %zu (%s at %llu) differs from the text's (%s at %llu)", what, i,
				   fs_tev_name(a->ev[i].type), (unsigned long long)a->ev[i].ts_ns,
				   fs_tev_name(b->ev[i].type), (unsigned long long)b->ev[i].ts_ns);
			return;
		}
}

static int stop_after_10(void *ctx, const struct fs_tev *ev, char *err, size_t errlen)
{
	static int n;

	(void)ctx;
	(void)ev;
	if (++n < 10)
		return 0;
	n = 0;
	snprintf(err, errlen, "stopped at 10");
	return -1;
}

FS_TEST(trace_dat_same_as_report)
{
	struct evs text = { 0 }, v7 = { 0 }, v6 = { 0 };
	struct fs_trace_stats st;
	char err[512], tmp[64];

	if (!fs_trace_dat_supported()) {
		EXPECT_EQ(fs_trace_dat_read_file("x.dat", collect, &v7, &st, err, sizeof(err)), -1);
		EXPECT_STR(err, "x.dat: trace.dat not supported in this build (built without libtracecmd)");
		return;
	}
	ASSERT_TRUE(fs_trace_text_read_file(fs_fixture("trace/report-N-t.txt"), collect, &text, NULL, err,
					    sizeof(err)) == 0);
	if (fs_trace_dat_read_file(fs_fixture("trace/trace-v7.dat"), collect, &v7, &st, err, sizeof(err)))
		FS_FAIL_AT("%s", err);
	EXPECT_EQ_U64(st.events, 188);
	EXPECT_EQ_U64(st.unknown_events, 0);
	expect_same(&v7, &text, "version 7");
	ASSERT_TRUE(gunzip_to(fs_fixture("trace/trace-v6.dat.gz"), tmp) == 0);
	if (fs_trace_dat_read_file(tmp, collect, &v6, &st, err, sizeof(err)))
		FS_FAIL_AT("%s", err);
	unlink(tmp);
	expect_same(&v6, &text, "version 6");
	free(text.ev);
	free(v7.ev);
	free(v6.ev);
}

FS_TEST(trace_dat_bad_input)
{
	struct evs e = { 0 };
	char err[512];

	EXPECT_TRUE(fs_trace_dat_probe("\x17\x08\x44tracing6", 11));
	EXPECT_TRUE(!fs_trace_dat_probe("# tracer: nop\n", 14));
	if (!fs_trace_dat_supported())
		return;
	/* a text trace is no trace.dat; nor is a truncated one */
	EXPECT_EQ(fs_trace_dat_read_file(fs_fixture("trace/tracefs.txt"), collect, &e, NULL, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "trace/tracefs.txt: libtracecmd cannot open it as a trace.dat (versions 6 and 7)");
	/* version 6 cut 1000 bytes short in its data (libtracecmd's own open crashed on it) */
	char tmp[64], cmd[256];
	ASSERT_TRUE(gunzip_to(fs_fixture("trace/trace-v6.dat.gz"), tmp) == 0);
	snprintf(cmd, sizeof(cmd), "truncate -s -1000 %s", tmp);
	ASSERT_TRUE(system(cmd) == 0);
	EXPECT_EQ(fs_trace_dat_read_file(tmp, collect, &e, NULL, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, ": trace.dat: its data cannot be read (truncated?)");
	unlink(tmp);
	free(e.ev);
}

/*
 * Files on which Debian's libtraceevent/libtracecmd crash (found by the
 * fuzzer, tests/fuzz/trace_dat/library-crashes): the reader's child takes
 * the crash, the caller gets one line naming the file.
 */
FS_TEST(trace_dat_library_crash_is_one_line)
{
	static const char *const crashes[] = { "libtraceevent-fpe", "libtraceevent-parse-event-null-strcmp",
					       "libtraceevent-segv-0x38", "libtraceevent-segv-0x8" };
	struct evs e = { 0 };
	char err[512], path[512];

	if (!fs_trace_dat_supported())
		return;
	for (size_t i = 0; i < sizeof(crashes) / sizeof(crashes[0]); i++) {
		snprintf(path, sizeof(path), "%s/../fuzz/trace_dat/library-crashes/%s", fs_fixture(""), crashes[i]);
		err[0] = 0;
		EXPECT_EQ(fs_trace_dat_read_file(path, collect, &e, NULL, err, sizeof(err)), -1);
		EXPECT_CONTAINS(err, crashes[i]);
		EXPECT_CONTAINS(err, ": trace.dat: libtraceevent/libtracecmd crashed opening it (");
		EXPECT_TRUE(!strchr(err, '\n'));
	}
	/* the records' part: libtracecmd crashes on a damaged instance list (found by the CI fuzz run) */
	snprintf(path, sizeof(path), "%s/../fuzz/trace_dat/library-crashes/libtracecmd-buffer-instance-segv",
		 fs_fixture(""));
	err[0] = 0;
	EXPECT_EQ(fs_trace_dat_read_file(path, collect, &e, NULL, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "libtracecmd-buffer-instance-segv: trace.dat: libtraceevent/libtracecmd crashed "
			     "reading its records (");
	EXPECT_TRUE(!strchr(err, '\n'));
	free(e.ev);
}

/*
 * A record whose event id cannot be read (id -1) in a file that lacks the
 * format of an event we take (here sched_waking's name mutated to
 * sched_waikng): found by the fuzzer (tests/fuzz/trace_dat/found/
 * record-id-minus-one), the id matched the missing event's and the decoder
 * read its NULL format. Read in this process, as the fuzzer does, so the
 * fault is this test's, not the guard's child's.
 */
FS_TEST(trace_dat_unreadable_id_is_unknown)
{
	struct evs e = { 0 };
	struct fs_trace_stats st;
	char err[512] = "", path[512];

	if (!fs_trace_dat_supported())
		return;
	snprintf(path, sizeof(path), "%s/../fuzz/trace_dat/found/record-id-minus-one", fs_fixture(""));
	if (fs_trace_dat_read_here(path, collect, &e, &st, err, sizeof(err)))
		FS_FAIL_AT("%s", err);
	EXPECT_TRUE(st.unknown_events > 0);
	EXPECT_STR(st.first_unknown, "sched_waikng");
	EXPECT_EQ_U64(st.events, (__u64)e.nr);
	for (size_t i = 0; i < e.nr; i++)
		EXPECT_TRUE(e.ev[i].type != FS_TEV_WAKING);
	free(e.ev);
}

/* A caller that stops early gets its own error back, and the reader's child is gone. */
FS_TEST(trace_dat_caller_stops)
{
	char err[512];
	struct fs_trace_stats st;
	int status;

	if (!fs_trace_dat_supported())
		return;
	EXPECT_EQ(fs_trace_dat_read_file(fs_fixture("trace/trace-v7.dat"), stop_after_10, NULL, &st, err, sizeof(err)), -1);
	EXPECT_STR(err, "stopped at 10");
	EXPECT_EQ_U64(st.events, 10);
	EXPECT_EQ(waitpid(-1, &status, WNOHANG), -1); /* no child left, not even a zombie */
}

/* The workload from the tracefs text (us) and from the trace.dat (ns) of the same buffer agree. */
FS_TEST(trace_dat_workload_as_text)
{
	static struct fs_em em;
	struct fs_sim_workload wl[2];
	char err[512];

	if (!fs_trace_dat_supported())
		return;
	ASSERT_TRUE(fs_em_profile_for_cpus(2, &em, err, sizeof(err)) == 0);
	for (int i = 0; i < 2; i++) {
		struct fs_trace_wl *b = fs_trace_wl_new(&em, FS_SIM_DEVICE);
		int rc = i ? fs_trace_dat_read_file(fs_fixture("trace/trace-v7.dat"), fs_trace_wl_feed_fn, b, NULL, err,
						    sizeof(err)) :
			     fs_trace_text_read_file(fs_fixture("trace/tracefs.txt"), fs_trace_wl_feed_fn, b, NULL, err,
						     sizeof(err));
		if (rc) {
			fs_trace_wl_free(b);
			FS_FAIL_AT("%s", err);
			return;
		}
		ASSERT_TRUE(fs_trace_wl_finish(b, &wl[i], NULL, err, sizeof(err)) == 0);
	}
	EXPECT_EQ(wl[0].nr_tasks, 20);
	ASSERT_TRUE(wl[0].nr_tasks == wl[1].nr_tasks && wl[0].nr_acts == wl[1].nr_acts);
	for (int t = 0; t < wl[0].nr_tasks; t++)
		EXPECT_EQ(wl[0].tasks[t].pid, wl[1].tasks[t].pid);
	for (__u64 k = 0; k < wl[0].nr_acts; k++) {
		long long d = (long long)wl[0].acts[k].rec_cpu_ns - (long long)wl[1].acts[k].rec_cpu_ns;
		EXPECT_EQ(wl[0].acts[k].rec_cpu, wl[1].acts[k].rec_cpu);
		EXPECT_EQ(wl[0].acts[k].waker, wl[1].acts[k].waker);
		EXPECT_TRUE(d > -2000 && d < 2000); /* the text's microseconds */
	}
	for (int i = 0; i < 2; i++) {
		free(wl[i].tasks);
		free(wl[i].acts);
	}
}

/*
 * A buffer that overflowed (lost-v7.dat): each record after a drop gives a
 * lost-events event first, with the count `trace-cmd report` prints for it,
 * at that record's time, and the other events are the report's;
 * sched_stat_runtime is skipped and named. The report's lines carry the
 * instance's name, taken off here.
 */
FS_TEST(trace_dat_lost_and_unknown_as_report)
{
	struct evs dat = { 0 }, text = { 0 };
	struct fs_trace_stats st, tst;
	char err[512], line[512], tmp[] = "/tmp/fs-trace-lost-XXXXXX";
	unsigned long long drops[8][3]; /* CPU, count, the time of the record after it */
	int nd = 0;

	if (!fs_trace_dat_supported())
		return;
	int fd = mkstemp(tmp);
	FILE *in = fopen(fs_fixture("trace/lost-report-N-t.txt"), "r"), *out = fd < 0 ? NULL : fdopen(fd, "w");

	ASSERT_TRUE(in && out);
	while (fgets(line, sizeof(line), in)) {
		const char *l = strncmp(line, "fs_tracedat_lost_25821: ", 24) ? line : line + 24;

		const char *b = strstr(l, "] ");
		unsigned long long s, ns;

		if (nd < 8 && sscanf(l, "CPU:%llu [%llu EVENTS DROPPED]", &drops[nd][0], &drops[nd][1]) == 2) {
			drops[nd++][2] = 0;
			continue;
		}
		if (nd && !drops[nd - 1][2] && b && sscanf(b + 2, "%llu.%9llu:", &s, &ns) == 2)
			drops[nd - 1][2] = s * 1000000000ull + ns;
		fputs(l, out);
	}
	fclose(in);
	fclose(out);
	ASSERT_TRUE(fs_trace_text_read_file(tmp, collect, &text, &tst, err, sizeof(err)) == 0);
	unlink(tmp);
	if (fs_trace_dat_read_file(fs_fixture("trace/lost-v7.dat"), collect, &dat, &st, err, sizeof(err)))
		FS_FAIL_AT("%s", err);
	EXPECT_EQ(nd, 2);
	EXPECT_EQ_U64(st.lost_reports, (__u64)nd);
	EXPECT_EQ_U64(st.unknown_events, tst.unknown_events);
	EXPECT_STR(st.first_unknown, "sched_stat_runtime");
	EXPECT_EQ_U64(st.events, text.nr + (size_t)nd);
	/* the lost events in order, then the rest as the text's */
	size_t k = 0, j = 0;
	for (size_t i = 0; i < dat.nr; i++) {
		if (dat.ev[i].type == FS_TEV_LOST) {
			ASSERT_TRUE(k < (size_t)nd);
			EXPECT_EQ((unsigned long long)dat.ev[i].cpu, drops[k][0]);
			EXPECT_EQ_U64(dat.ev[i].lost.nr, drops[k][1]);
			EXPECT_EQ_U64(dat.ev[i].ts_ns, drops[k][2]);
			k++;
		} else {
			ASSERT_TRUE(j < text.nr);
			if (memcmp(&dat.ev[i], &text.ev[j], sizeof(dat.ev[i]))) {
				FS_FAIL_AT("event %zu (%s at %llu) differs from the report's", i, fs_tev_name(dat.ev[i].type),
					   (unsigned long long)dat.ev[i].ts_ns);
				break;
			}
			j++;
		}
	}
	EXPECT_EQ(k, (size_t)nd);
	free(dat.ev);
	free(text.ev);
}

/*
 * LISA's events in a trace.dat (trace/lisa-uprobes.dat, made by
 * tests/tools/make_lisa_dat.sh: uprobe events named and shaped as the lisa
 * module's, fired by tests/tools/lisa_tp.c with values of its round i):
 * each round a root lisa__sched_pelt_cfs of util 300 + 10 i, a task
 * group's of 900, a sched_util_est_cfs of another system (found by its
 * name) of 200 + i, 190 + i and 300 + 10 i, then the program's own
 * lisa__sched_pelt_se of util 100 + 20 i and lisa__sched_util_est_se of
 * 110 + i, 105 + i, 100 + 20 i. The strings are dynamic (__data_loc) here,
 * char arrays in LISA's module: both are read.
 */
FS_TEST(trace_dat_lisa_events)
{
	struct evs e = { 0 };
	struct fs_trace_stats st;
	char err[512];
	int n[FS_TEV_NR_TYPES] = { 0 }, round[FS_TEV_NR_TYPES] = { 0 }, groups = 0;
	__s32 pid = -1;

	if (!fs_trace_dat_supported())
		return; /* the refusal is trace_dat_same_as_report's */
	if (fs_trace_dat_read_file(fs_fixture("trace/lisa-uprobes.dat"), collect, &e, &st, err, sizeof(err)))
		FS_FAIL_AT("%s", err);
	EXPECT_EQ_U64(st.unknown_events, 0);
	for (size_t k = 0; k < e.nr; k++) {
		const struct fs_tev *v = &e.ev[k];
		__u32 i;

		n[v->type]++;
		if (v->type == FS_TEV_PELT_CFS && !v->cfs.root) {
			groups++;
			EXPECT_EQ(v->cfs.util, 900);
			continue;
		}
		i = (__u32)round[v->type]++;
		switch (v->type) {
		case FS_TEV_PELT_CFS: case FS_TEV_UTIL_EST_CFS:
			EXPECT_TRUE(v->cfs.root);
			EXPECT_EQ(v->cfs.cpu, v->cpu);
			EXPECT_EQ(v->cfs.util, 300 + 10 * i);
			if (v->type == FS_TEV_UTIL_EST_CFS) {
				EXPECT_EQ(v->cfs.enqueued, 200 + i);
				EXPECT_EQ(v->cfs.ewma, 190 + i);
			}
			break;
		case FS_TEV_PELT_SE: case FS_TEV_UTIL_EST_SE:
			pid = pid < 0 ? v->common_pid : pid;
			EXPECT_EQ(v->pelt.t.pid, pid);
			EXPECT_EQ(v->common_pid, pid);
			EXPECT_STR(v->pelt.t.comm, "lisa_tp");
			EXPECT_EQ(v->pelt.cpu, v->cpu);
			EXPECT_EQ(v->pelt.util, 100 + 20 * i);
			if (v->type == FS_TEV_UTIL_EST_SE) {
				EXPECT_EQ(v->pelt.enqueued, 110 + i);
				EXPECT_EQ(v->pelt.ewma, 105 + i);
			}
			break;
		}
	}
	EXPECT_EQ(n[FS_TEV_PELT_CFS], 16);
	EXPECT_EQ(groups, 8);
	EXPECT_EQ(n[FS_TEV_UTIL_EST_CFS], 8);
	EXPECT_EQ(n[FS_TEV_PELT_SE], 8);
	EXPECT_EQ(n[FS_TEV_UTIL_EST_SE], 8);
	EXPECT_TRUE(n[FS_TEV_SWITCH] > 8 && pid > 0);
	free(e.ev);
}

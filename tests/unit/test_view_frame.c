// SPDX-License-Identifier: GPL-2.0
/*
 * The live view's frame: whatever the terminal's size, no row wider than the
 * width, exactly the height in rows, the verdict first and the status bar
 * last; taller screens add the PD transitions; the sort key orders the
 * processes. And the summary's blocked-savings table with uneven histograms.
 */
#include <unistd.h>
#include "test.h"
#include "pipeline.h"
#include "em/em_io.h"
#include "output/summary.h"
#include "output/view_frame.h"
#include "engine/apps.h"

static struct fs_em em;
static const struct fs_apps *g_apps; /* run()'s packages list; NULL: none, every uid 0 */

/* With g_apps: a game (three of every ten processes), a shared system uid (three), the rest root's. */
static __u32 uid_of(int i)
{
	return !g_apps ? 0 : i % 10 < 3 ? 10123 : i % 10 < 6 ? 1000 : 0;
}

/* A run of nproc processes with long names, each waking (i + 1) times, fed to a v5.4 pair. */
static struct fs_pipeline *run(int nproc)
{
	struct fs_pipeline_opts o = { .em = &em, .nr_policies = 2, .kernel_release = "5.4.0", .emulate_eas = true,
				      .apps = g_apps };
	char err[256];
	struct fs_wakeup w;
	__u64 ts = 1000000;

	if (fs_em_profile_build("pixel4", &em, err, sizeof(err)))
		return NULL;
	o.policies[0] = fs_policy_find("v5.4");
	o.policies[1] = fs_policy_find("v5.4-nomargin");
	struct fs_pipeline *p = fs_pipeline_new(&o, err, sizeof(err));

	for (int i = 0; p && i < nproc; i++)
		for (int k = 0; k <= i; k++) {
			int prev = (i + k) % em.nr_cpus;

			memset(&w, 0, sizeof(w));
			w.hdr = (struct fs_rec_hdr){ FS_REC_WAKEUP, (__u16)em.nr_cpus, (__u32)fs_wakeup_size(em.nr_cpus),
						     ts += 1000000 };
			w.pid = w.tgid = 1000 + i;
			w.uid = uid_of(i);
			snprintf(w.comm, sizeof(w.comm), "task-with-a-lo%c", 'a' + i % 26);
			w.prev_cpu = w.task_cpu = w.waker_cpu = prev;
			w.chosen_cpu = prev;
			w.cpus_allowed = (1ull << em.nr_cpus) - 1;
			w.nr_cpus_allowed = (__u32)em.nr_cpus;
			w.sum_exec_ns = FS_NO_RUNTIME;
			w.task.util_avg = w.task.util_est_enqueued = 40 + 20 * (i % 5);
			w.task.uclamp_max = 1024;
			for (int c = 0; c < em.nr_cpus; c++) {
				w.cpu[c].util_avg = 30 + 10 * c;
				w.cpu[c].flags = FS_CPU_ONLINE | FS_CPU_IN_SD;
				w.cpu[c].uclamp_max = 1024;
			}
			if (fs_pipeline_feed(p, &w.hdr, err, sizeof(err))) {
				fs_pipeline_free(p);
				return NULL;
			}
		}
	return p;
}

static void sample(struct fs_pipeline *p, struct fs_view_sample *s)
{
	static struct fs_view_rates rates;

	memset(s, 0, sizeof(*s));
	s->elapsed_s = 12.5;
	s->st = fs_pipeline_stats(p);
	s->rep = fs_pipeline_snapshot(p);
	s->have_collector = true;
	s->cnt[FS_CNT_NOT_FAIR] = 123456789;
	fs_view_rates_update(&rates, s);
}

static void info(struct fs_view_info *vi)
{
	memset(vi, 0, sizeof(*vi));
	vi->kernel_release = "5.4.0-a-rather-long-vendor-release-string-android12-9-00001-g0123456789ab";
	vi->interval_s = 1;
	snprintf(vi->status[vi->nr_status++], FS_VIEW_STATUS_LEN, "EM: %s", em.source);
	snprintf(vi->status[vi->nr_status++], FS_VIEW_STATUS_LEN, "collector: tp_btf + fentry "
		 "select_task_rq_fair, struct rq from cfs_rq->rq, 8/8 CPUs, sched_overutilized_tp");
}

FS_TEST(view_frame_fits_every_size)
{
	static const int sizes[][2] = { { 80, 24 }, { 120, 40 }, { 40, 10 }, { 200, 60 }, { 80, 12 }, { 1, 1 },
					{ 10, 3 }, { 400, 200 }, { 1000, 1000 } };
	static struct fs_frame f;
	struct fs_view_info vi;
	struct fs_view_state vs = { 0 };
	struct fs_view_sample s;
	struct fs_pipeline *p = run(40);

	ASSERT_TRUE(p);
	info(&vi);
	sample(p, &s);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		int cols = sizes[i][0], rows = sizes[i][1];
		int want_rows = rows > FS_FRAME_MAX_ROWS ? FS_FRAME_MAX_ROWS : rows;
		int want_cols = cols > FS_FRAME_MAX_COLS ? FS_FRAME_MAX_COLS : cols;

		fs_view_frame(&f, cols, rows, &vi, &s, &vs);
		EXPECT_EQ(f.n, want_rows);
		for (int r = 0; r < f.n; r++)
			if ((int)strlen(f.line[r]) > want_cols)
				FS_FAIL_AT("%dx%d: row %d is %zu wide: %s", cols, rows, r, strlen(f.line[r]), f.line[r]);
		if (rows >= 2)
			EXPECT_TRUE(!strncmp(f.line[0], "margin", 6 < want_cols ? 6 : want_cols));
		if (cols >= 6)
			EXPECT_TRUE(!strncmp(f.line[f.n - 1], "q quit", 6));
	}
	fs_pipeline_free(p);
}

/* The row of the first process table line after the header, and how many rows follow. */
static int process_rows(const struct fs_frame *f, int *first)
{
	int n = 0;

	*first = -1;
	for (int r = 0; r < f->n; r++) {
		if (*first < 0 && strstr(f->line[r], "TGID COMM")) {
			*first = r + 1;
			continue;
		}
		if (*first >= 0 && r < f->n - 1 && f->line[r][0])
			n++;
	}
	return n;
}

FS_TEST(view_frame_taller_shows_more_and_fills_with_processes)
{
	static struct fs_frame small, tall;
	struct fs_view_info vi;
	struct fs_view_state vs = { 0 };
	struct fs_view_sample s;
	struct fs_pipeline *p = run(40);
	int first;

	ASSERT_TRUE(p);
	info(&vi);
	sample(p, &s);
	fs_view_frame(&small, 80, 24, &vi, &s, &vs);
	fs_view_frame(&tall, 120, 40, &vi, &s, &vs);
	bool small_pd = false, tall_pd = false, tall_skipped = false;

	for (int r = 0; r < small.n; r++)
		small_pd |= !strncmp(small.line[r], "PD transitions", 14);
	for (int r = 0; r < tall.n; r++) {
		tall_pd |= !strncmp(tall.line[r], "PD transitions", 14);
		tall_skipped |= strstr(tall.line[r], "rt/dl 123456789") != NULL;
	}
	EXPECT_TRUE(!small_pd);
	EXPECT_TRUE(tall_pd);
	EXPECT_TRUE(tall_skipped);
	/* the processes take every row left: the last one above the status bar is a process */
	int n24 = process_rows(&small, &first);
	EXPECT_TRUE(first > 0 && small.line[small.n - 2][0] != 0);
	EXPECT_EQ(first + n24, small.n - 1);
	int n40 = process_rows(&tall, &first);
	EXPECT_TRUE(n40 >= 10);
	EXPECT_EQ(first + n40, tall.n - 1);
	fs_pipeline_free(p);
}

FS_TEST(view_frame_sorts_warns_and_pauses)
{
	static struct fs_frame f;
	struct fs_view_info vi;
	struct fs_view_state vs = { .sort = FS_SORT_WAKEUPS };
	struct fs_view_sample s;
	struct fs_pipeline *p = run(30);
	int first;

	ASSERT_TRUE(p);
	info(&vi);
	sample(p, &s);
	fs_view_frame(&f, 80, 30, &vi, &s, &vs);
	int n = process_rows(&f, &first);
	unsigned long last = ~0ul;

	ASSERT_TRUE(n >= 5);
	for (int r = first; r < first + n; r++) {
		unsigned long wk = 0;
		int tgid = 0, thr = 0;
		char comm[32];

		EXPECT_EQ(sscanf(f.line[r], "%d %15s %d %lu", &tgid, comm, &thr, &wk), 4);
		EXPECT_TRUE(wk <= last);
		last = wk;
	}
	EXPECT_EQ(last, 30 - n + 1); /* the 30 processes woke 1..30 times: the top n by wake-ups */
	EXPECT_CONTAINS(f.line[f.n - 1], "by wake-ups");

	vs.warning = "the ring buffer was full: records lost";
	vs.more_warnings = 2;
	fs_view_frame(&f, 80, 30, &vi, &s, &vs);
	EXPECT_STR(f.line[f.n - 1], "! the ring buffer was full: records lost (+2 more at the end)");

	vs.warning = NULL;
	vs.paused = true;
	fs_view_frame(&f, 80, 30, &vi, &s, &vs);
	EXPECT_CONTAINS(f.line[1], "PAUSED");
	EXPECT_TRUE(!strncmp(f.line[f.n - 1], "PAUSED", 6));
	fs_pipeline_free(p);
}

FS_TEST(view_frame_without_a_report_still_fits)
{
	static struct fs_frame f;
	static struct fs_stats st;
	struct fs_view_info vi;
	struct fs_view_state vs = { 0 };
	struct fs_view_sample s = { .elapsed_s = 1, .st = &st };
	static const struct fs_policy_desc d = { .name = "v6.12" };
	char err[256];

	ASSERT_TRUE(fs_em_profile_build("pixel4", &em, err, sizeof(err)) == 0);
	info(&vi);
	st.nr_policies = 1;
	st.pol[0].desc = &d;
	fs_view_frame(&f, 80, 24, &vi, &s, &vs);
	EXPECT_EQ(f.n, 24);
	EXPECT_STR(f.line[0], "(no report this interval)");
}

/* Regression: one histogram with more non-empty buckets than the other looped for ever. */
FS_TEST(summary_blocked_table_with_uneven_histograms)
{
	static struct fs_stats st;
	static struct fs_acct_totals tot;
	static char buf[16384];
	static const struct fs_policy_desc d0 = { .name = "v5.4-nomargin" }, d1 = { .name = "v5.4", .has_margin = true };
	struct fs_report r = { .st = &st, .em = &em, .kernel_release = "5.4.0", .tot = &tot };
	char err[256];

	alarm(5); /* a loop again would end the test with SIGALRM */
	ASSERT_TRUE(fs_em_profile_build("pixel4", &em, err, sizeof(err)) == 0);
	st.nr_policies = 2;
	st.pol[0].desc = &d0;
	st.pol[1].desc = &d1;
	st.pol[1].blocked = 6;
	st.pol[1].blocked_hist[1] = 3, st.pol[1].blocked_hist[4] = 2, st.pol[1].blocked_hist[11] = 1;
	st.pol[1].blocked_hist_uw[7] = 6;
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	fs_summary_print(f, &r);
	fclose(f);
	EXPECT_CONTAINS(buf, "    % of threshold   wake-ups    saving in uW     wake-ups\n"
			     "    5-10%                   3    3k-10k                  6\n"
			     "    30-40%                  2\n"
			     "    95-100%                 1\n");
	for (char *l = buf, *e; *l; l = e + 1) {
		e = strchr(l, '\n');
		if (!e)
			break;
		if (e - l > FS_COLUMNS)
			FS_FAIL_AT("summary line wider than %d: %.*s", FS_COLUMNS, (int)(e - l), l);
	}
}

/* The report's process of tgid, or NULL. */
static const struct fs_process *proc_of(const struct fs_report *r, int tgid)
{
	for (size_t i = 0; i < r->nr_procs; i++)
		if (r->procs[i].tgid == tgid)
			return &r->procs[i];
	return NULL;
}

/* With a packages list the list is by app: each app's row sums its processes, apps and the rest in order. */
FS_TEST(view_frame_groups_by_app_and_fits)
{
	static const char list[] = "com.example.game 10123 0 /data/user/0/com.example.game default 3003\n"
				   "android 1000 0 /data/system platform none\n"
				   "com.android.settings 1000 0 /data/user_de/0/com.android.settings platform none\n";
	static struct fs_frame f;
	struct fs_apps apps;
	struct fs_view_info vi;
	struct fs_view_sample s;
	char err[256];

	ASSERT_TRUE(fs_apps_parse(&apps, list, strlen(list), "t.list", err, sizeof(err)) == 0);
	g_apps = &apps;
	struct fs_pipeline *p = run(30);
	g_apps = NULL;
	ASSERT_TRUE(p);
	info(&vi);
	sample(p, &s);
	for (int sort = 0; sort < FS_SORT__NR; sort++) {
		struct fs_view_state vs = { .sort = (enum fs_view_sort)sort };
		int first, apps_seen = 0, kids = 0, n;
		unsigned long last = ~0ul, last_kid = ~0ul;

		fs_view_frame(&f, 80, 24, &vi, &s, &vs);
		EXPECT_EQ(f.n, 24);
		for (int r = 0; r < f.n; r++)
			EXPECT_TRUE(strlen(f.line[r]) <= 80);
		EXPECT_CONTAINS(f.line[0], "margin"); /* the verdict first */
		n = process_rows(&f, &first);
		ASSERT_TRUE(n >= 8);
		for (int r = first; r < first + n; r++) {
			const char *l = f.line[r];
			unsigned long wk = 0, cpu_ms = 0;
			int tgid, thr;
			char comm[32];

			if (strstr(l, "more processes"))
				continue;
			if (l[0] == ' ' && l[1] == ' ' && l[2] != ' ') { /* an app's row: label, then the figures */
				EXPECT_TRUE(!strncmp(l + 2, "com.example.game", 16) || !strncmp(l + 2, "shared:uid 1000 (", 17));
				EXPECT_TRUE(strlen(l) > 31);
				EXPECT_EQ(sscanf(l + 31, "%lu %lu", &wk, &cpu_ms), 2);
				kids = 0;
				last_kid = ~0ul;
				apps_seen++;
			} else {
				ASSERT_TRUE(sscanf(l, "%d %15s %d %lu", &tgid, comm, &thr, &wk) == 4);
				const struct fs_process *pr = proc_of(s.rep, tgid);
				ASSERT_TRUE(pr != NULL);
				if (pr->uid != 0) { /* under the app above it, in the same order, at most two */
					EXPECT_TRUE(++kids <= 2);
					if (sort == FS_SORT_WAKEUPS)
						EXPECT_TRUE(wk <= last_kid);
					last_kid = wk;
					continue;
				}
			}
			if (sort == FS_SORT_WAKEUPS) /* apps and processes of no app ranked together */
				EXPECT_TRUE(wk <= last);
			last = wk;
		}
		EXPECT_TRUE(apps_seen >= 1);
	}
	/* the game's row: the sum of the report's processes of its uid */
	unsigned long game = 0;
	for (size_t i = 0; i < s.rep->nr_procs; i++)
		game += s.rep->procs[i].uid == 10123 ? s.rep->procs[i].wakeups : 0;
	struct fs_view_state vs = { .sort = FS_SORT_WAKEUPS };
	fs_view_frame(&f, 80, 24, &vi, &s, &vs);
	int first, n = process_rows(&f, &first), found = 0;
	for (int r = first; r < first + n; r++) {
		unsigned long wk = 0, ms;
		if (!strncmp(f.line[r], "  com.example.game", 18) && sscanf(f.line[r] + 31, "%lu %lu", &wk, &ms) == 2) {
			EXPECT_EQ(wk, game);
			found++;
		}
	}
	EXPECT_EQ(found, 1);
	fs_pipeline_free(p);
	fs_apps_free(&apps);
}

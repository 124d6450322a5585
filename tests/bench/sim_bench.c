// SPDX-License-Identifier: GPL-2.0
/*
 * Simulation speed (issue 29), as a ratio of simulated time to the wall
 * time it took on one core, each the best of 3 runs:
 *   1. a recording from an 8-CPU guest (tests/fixtures/view/live.fsr, the
 *      lab's 4+3+1 under 6.12) under its kernel's policy and its margin
 *      twin, LAB physics (the recording's), beside today's replay of the
 *      same records with the same two policies in the same run: replay
 *      without the simulation (--no-sim) and with it (the final answer: its
 *      interval's replicas included);
 *   2. a generated 8-CPU workload (pixel4's three-PD EM) under two
 *      policies, for a longer and busier span;
 *   3. live's closed loop at each 1 s interval of the recording, played
 *      FS_BENCH_LOOPS times (10) back to back (each copy's times and CPU
 *      times continued from the last, exits left out), resumed from the last interval
 *      (fs_sim_live_answer()) beside re-simulated from t0 (a builder of
 *      every record so far and fs_sim_closed_loop(), what live did before):
 *      the CPU time of each (this thread's: the host is shared), so the
 *      per-interval cost as the run grows.
 * Usage: sim_bench [SECONDS [RECORDING]] (SECONDS simulated in 2, 10 by
 * default); FS_BENCH_POLICIES="a,b" picks the generated run's pair
 * (v6.1,v6.1+margin). Runs from the source tree (make bench does). The
 * energy is kept by time block as the closed loop does (its interval);
 * FS_BENCH_NO_BLOCKS=1 leaves that out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "em/em_io.h"
#include "sim/sim.h"
#include "engine/time_blocks.h"
#include "pipeline.h"
#include "records/recording.h"
#include "sim/closed_loop.h"
#include "sim/replicas.h"

#define MS 1000000ull

static __u64 rng = 0x9e3779b97f4a7c15ull;

static __u64 rnd(__u64 n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? rng % n : 0;
}

/*
 * 24 small periodic tasks (1 - 33 ms periods, 1 - 5 % of a big CPU), 8
 * medium ones (16 ms, 5 - 15 %), 4 bursty ones (20 ms, 4 %, a 30 - 80 ms
 * burst one time in 20): a light phone-like load with overutilized
 * phases.
 */
static int gen(struct fs_sim_workload *wl, __u64 len_ns)
{
	const int nt = 36;

	memset(wl, 0, sizeof(*wl));
	wl->nr_cpus = 8;
	wl->end_ns = len_ns;
	wl->nr_tasks = nt;
	wl->tasks = calloc(nt, sizeof(*wl->tasks));
	wl->acts = calloc(nt * (len_ns / MS + 1), sizeof(*wl->acts));
	if (!wl->tasks || !wl->acts)
		return -1;
	for (int ti = 0; ti < nt; ti++) {
		struct fs_sim_task *t = &wl->tasks[ti];
		const __u64 period = ti < 24 ? (1 + rnd(33)) * MS : ti < 32 ? 16 * MS : 20 * MS;
		const __u64 share = ti < 24 ? 1 + rnd(5) : ti < 32 ? 5 + rnd(11) : 4;

		t->pid = t->tgid = 1000 + ti;
		snprintf(t->comm, sizeof(t->comm), "bench%d", ti);
		t->uid = FS_NO_UID;
		t->init_cpu = ti % 8;
		t->init_util = (__u32)(share * 1024 / 100);
		t->init_util_est = t->init_util;
		t->exit_ns = FS_SIM_NEVER;
		t->first_act = (__u32)wl->nr_acts;
		for (__u64 at = rnd(period); at < len_ns; at += period) {
			struct fs_sim_act *a = &wl->acts[wl->nr_acts++];

			a->wake_ns = at;
			a->work = period * share / 100;
			if (ti >= 32 && !rnd(20))
				a->work = (30 + rnd(51)) * MS;
			a->rec_cpu = -1;
			a->waker = FS_SIM_NO_TASK;
			t->nr_act++;
		}
	}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One policy on the workload, best of 3: seconds, or -1 (the line printed). */
static double run_policy(const struct fs_sim_workload *wl, const struct fs_em *em, const char *name,
			 enum fs_sim_physics ph)
{
	/* time blocks as the closed loop keeps them for its interval; FS_BENCH_NO_BLOCKS=1 leaves them out */
	struct fs_sim_params p = { .em = em, .policy = fs_policy_find(name), .physics = ph,
				   .block_ns = getenv("FS_BENCH_NO_BLOCKS") ? 0 : fs_blocks_width(wl->end_ns) };
	struct fs_sim_result r;
	double best = 1e30;
	char err[256];

	if (!p.policy) {
		fprintf(stderr, "sim_bench: no policy %s\n", name);
		return -1;
	}
	for (int i = 0; i < 3; i++) {
		const double t0 = now_s();

		if (fs_sim_run(wl, &p, &r, err, sizeof(err))) {
			fprintf(stderr, "sim_bench: %s\n", err);
			return -1;
		}
		const double dt = now_s() - t0;

		best = dt < best ? dt : best;
		if (i < 2)
			fs_sim_result_free(&r);
	}
	printf("  %-16s %6.1f s simulated in %7.3f s: %7.0fx real time; %llu wake-ups, "
	       "%.0f mJ, overutilized %.0f %%\n", name, (double)wl->end_ns / 1e9, best,
	       (double)wl->end_ns / 1e9 / best, (unsigned long long)r.wakeups, r.energy_mj,
	       100.0 * (double)r.overutilized_ns / (double)wl->end_ns);
	fs_sim_result_free(&r);
	return best;
}

/* A recording's records, copied into memory so the timing reads no file. */
struct recs {
	struct fs_rec_meta meta;
	struct fs_em em;
	const struct fs_policy_desc *pol[2];
	struct fs_rec_hdr **r;
	size_t n;
};

static int recs_load(const char *path, struct recs *rc)
{
	char err[256];
	const struct fs_rec_hdr *h;
	struct fs_rec_reader *rd = fs_rec_reader_open(path, &rc->meta, err, sizeof(err));
	int ret;

	if (!rd || !rc->meta.em_text ||
	    fs_em_parse_text(rc->meta.em_text, rc->meta.em_len, path, &rc->em, err, sizeof(err))) {
		fprintf(stderr, "sim_bench: %s: %s\n", path, rd ? "no usable embedded EM" : err);
		if (rd)
			fs_rec_reader_close(rd);
		return -1;
	}
	rc->pol[0] = fs_policy_for_release(rc->meta.kernel_release, err, sizeof(err));
	rc->pol[1] = rc->pol[0] ? (rc->pol[0]->twin ? fs_policy_find(rc->pol[0]->twin) : NULL) : NULL;
	size_t cap = 0;

	ret = -1;
	while (rc->pol[1] && (ret = fs_rec_reader_next(rd, &h, err, sizeof(err))) == 1) {
		if (rc->n == cap) {
			struct fs_rec_hdr **g = realloc(rc->r, (cap = cap * 2 + 1024) * sizeof(*g));

			if (!g)
				break;
			rc->r = g;
		}
		rc->r[rc->n] = malloc(h->size);
		if (!rc->r[rc->n])
			break;
		memcpy(rc->r[rc->n++], h, h->size);
	}
	fs_rec_reader_close(rd);
	if (!rc->pol[1] || ret != 0) {
		fprintf(stderr, "sim_bench: %s: %s\n", path, !rc->pol[1] ? "no kernel policy with a twin" : err);
		return -1;
	}
	return 0;
}

/* Today's replay of the records under both policies, with or without the simulation: seconds. */
static double replay_once(const struct recs *rc, bool sim)
{
	struct fs_pipeline_opts o = { .em = &rc->em, .nr_policies = 2, .kernel_release = rc->meta.kernel_release,
				      .emulate_eas = !rc->meta.em_is_kernel, .no_sim = !sim,
				      .sim_physics = FS_SIM_LAB };
	char err[256];
	const double t0 = now_s();

	o.policies[0] = rc->pol[0];
	o.policies[1] = rc->pol[1];
	struct fs_pipeline *p = fs_pipeline_new(&o, err, sizeof(err));

	for (size_t i = 0; p && i < rc->n; i++)
		if (fs_pipeline_feed(p, rc->r[i], err, sizeof(err)))
			break;
	if (!p || fs_pipeline_finish(p, err, sizeof(err))) {
		fprintf(stderr, "sim_bench: replay: %s\n", err);
		fs_pipeline_free(p);
		return -1;
	}
	fs_pipeline_free(p);
	return now_s() - t0;
}

/* The workload built from the records, under LAB physics: seconds, or -1. */
static double build_once(const struct recs *rc, struct fs_sim_workload *wl)
{
	struct fs_sim_builder_opts bo = { .kernel_policy = rc->pol[0], .emulate_eas = !rc->meta.em_is_kernel };
	char err[256];
	const double t0 = now_s();
	struct fs_sim_builder *b = fs_sim_builder_new_opts(&rc->em, FS_SIM_LAB, &bo, err, sizeof(err));

	for (size_t i = 0; b && i < rc->n; i++)
		if (fs_sim_builder_feed(b, rc->r[i], err, sizeof(err))) {
			fs_sim_builder_free(b);
			b = NULL;
		}
	if (!b || fs_sim_builder_finish(b, wl, err, sizeof(err))) {
		fprintf(stderr, "sim_bench: workload: %s\n", err);
		return -1;
	}
	return now_s() - t0;
}

static double best3(double a, double b, double c)
{
	double m = a < b ? a : b;

	return (a < 0 || b < 0 || c < 0) ? -1 : m < c ? m : c;
}

static int bench_recording(const char *path)
{
	struct recs rc = { 0 };
	struct fs_sim_workload wl[3];
	double build = -1, t_pol[2], replay, replay_sim;
	bool built = false;
	int rc_ = 1;

	if (recs_load(path, &rc))
		goto out;
	for (int i = 0; i < 3; i++) {
		const double t = build_once(&rc, &wl[i]);

		if (t < 0) {
			for (int j = 0; j < i; j++)
				fs_sim_workload_free(&wl[j]);
			goto out;
		}
		build = (i == 0 || t < build) ? t : build;
	}
	built = true;
	for (int k = 0; k < 2; k++)
		if ((t_pol[k] = run_policy(&wl[0], &rc.em, rc.pol[k]->name, FS_SIM_LAB)) < 0)
			goto out;
	replay = best3(replay_once(&rc, false), replay_once(&rc, false), replay_once(&rc, false));
	replay_sim = best3(replay_once(&rc, true), replay_once(&rc, true), replay_once(&rc, true));
	if (replay < 0 || replay_sim < 0)
		goto out;
	const double span = (double)wl[0].end_ns / 1e9, sim = build + t_pol[0] + t_pol[1];

	printf("  workload built from %zu records in %.4f s\n", rc.n, build);
	printf("  both policies, workload built once: %.4f s, %.0fx real time\n", sim, span / sim);
	printf("  today's replay, the same two policies: %.4f s without the simulation, %.4f s with it\n",
	       replay, replay_sim);
	printf("  the simulation costs %.2fx today's replay (--no-sim); replay with it %.2fx without\n",
	       sim / replay, replay_sim / replay);
	/* replay's closed loop runs the interval's replicas too (FS_SIM_REPLICAS a policy) */
	printf("  replay with the closed loop (its %d replicas included): %.0fx real time\n", FS_SIM_REPLICAS,
	       span / replay_sim);
	rc_ = 0;
out:
	for (int i = 0; i < 3 && built; i++)
		fs_sim_workload_free(&wl[i]);
	for (size_t i = 0; i < rc.n; i++)
		free(rc.r[i]);
	free(rc.r);
	fs_rec_meta_free(&rc.meta);
	return rc_;
}

/*
 * The recording played `loops` times, each copy's times and CPU times after
 * the last's, its exits left out so that a copy's tasks are the last copy's
 * (a task that exited and wakes again is one seen for the first time, which
 * only a run from t0 simulates right): 8-byte aligned records.
 */
static unsigned char *loop_log(const struct recs *rc, int loops, size_t **at, size_t *n)
{
	__u64 span = rc->r[rc->n - 1]->ts_ns - rc->r[0]->ts_ns + 1000000, cpu = 0, len = 0;

	for (size_t i = 0; i < rc->n; i++) {
		const struct fs_rec_hdr *h = rc->r[i];
		__u64 sum = FS_NO_RUNTIME;

		if (h->type == FS_REC_WAKEUP)
			sum = ((const struct fs_wakeup *)h)->sum_exec_ns;
		else if (h->type == FS_REC_MIGRATE)
			sum = ((const struct fs_migrate *)h)->sum_exec_ns;
		else if (h->type == FS_REC_EXIT || h->type == FS_REC_RUNTIME)
			sum = ((const struct fs_task_time *)h)->sum_exec_ns;
		cpu = sum != FS_NO_RUNTIME && sum > cpu ? sum : cpu;
		len += (h->size + 7) & ~7u;
	}
	unsigned char *log = calloc(1, len * (size_t)loops + 8);

	*at = calloc(rc->n * (size_t)loops + 1, sizeof(**at));
	*n = 0;
	len = 0;
	for (int c = 0; log && *at && c < loops; c++)
		for (size_t i = 0; i < rc->n; i++) {
			struct fs_rec_hdr *h = (struct fs_rec_hdr *)(log + len);
			__u64 *sum = NULL;

			if (rc->r[i]->type == FS_REC_EXIT)
				continue;
			memcpy(h, rc->r[i], rc->r[i]->size);
			h->ts_ns += (__u64)c * span;
			if (h->type == FS_REC_WAKEUP)
				sum = &((struct fs_wakeup *)h)->sum_exec_ns;
			else if (h->type == FS_REC_MIGRATE)
				sum = &((struct fs_migrate *)h)->sum_exec_ns;
			else if (h->type == FS_REC_EXIT || h->type == FS_REC_RUNTIME)
				sum = &((struct fs_task_time *)h)->sum_exec_ns;
			if (sum && *sum != FS_NO_RUNTIME)
				*sum += (__u64)c * (cpu + 1);
			(*at)[(*n)++] = len;
			len += (h->size + 7) & ~7u;
		}
	if (*at)
		(*at)[*n] = len;
	return log;
}

/* This thread's CPU time: the host is shared, and a job's cost is the CPU it takes. */
static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The closed loop of log[0 .. len) from t0, as live's job did before resuming: CPU seconds, or -1. */
static double whole_window(const struct fs_sim_run_in *in, const struct fs_sim_builder_opts *bo,
			   const unsigned char *log, size_t len, struct fs_sim_report *rep)
{
	char err[256];
	const double t0 = cpu_s();
	struct fs_sim_builder *b = fs_sim_builder_new_opts(in->em, in->physics, bo, err, sizeof(err));
	struct fs_sim_workload wl;

	for (size_t at = 0; b && at < len; at += (((const struct fs_rec_hdr *)(log + at))->size + 7) & ~7u)
		if (fs_sim_builder_feed(b, (const void *)(log + at), err, sizeof(err))) {
			fs_sim_builder_free(b);
			b = NULL;
		}
	if (!b || fs_sim_builder_finish(b, &wl, err, sizeof(err)) || fs_sim_closed_loop(&wl, in, rep, err, sizeof(err))) {
		fprintf(stderr, "sim_bench: intervals: %s\n", err);
		return -1;
	}
	fs_sim_workload_free(&wl);
	return cpu_s() - t0;
}

/* The mean of v[from .. to). */
static double mean(const double *v, int from, int to)
{
	double m = 0;

	for (int i = from; i < to; i++)
		m += v[i] / (to - from);
	return m;
}

/* Each 1 s interval's job, resumed and from t0, in one run: their wall times side by side. */
static int bench_intervals(const struct recs *rc)
{
	const char *env = getenv("FS_BENCH_LOOPS");
	const int loops = env && atoi(env) > 0 ? atoi(env) : 10;
	const struct fs_sim_builder_opts bo = { .kernel_policy = rc->pol[0], .emulate_eas = !rc->meta.em_is_kernel };
	const struct fs_sim_run_in in = { .em = &rc->em, .policies = rc->pol, .nr_policies = 2,
					  .kernel_policy = rc->pol[0], .physics = FS_SIM_LAB, .rec_energy = NAN };
	size_t *at = NULL, n = 0, done = 0;
	unsigned char *log = loop_log(rc, loops, &at, &n);
	char err[256];
	struct fs_sim_live *l = log && at ? fs_sim_live_new(&rc->em, FS_SIM_LAB, &bo, err, sizeof(err)) : NULL;
	double res[4096], whole[4096];
	int k = 0, rc_ = 1, differ = 0;

	if (!l)
		goto out;
	const __u64 t0 = ((const struct fs_rec_hdr *)log)->ts_ns;

	printf("live's closed loop at each 1 s interval, live.fsr played %d times (%.0f s), LAB physics\n", loops,
	       (double)(((const struct fs_rec_hdr *)(log + at[n - 1]))->ts_ns - t0) / 1e9);
	printf("  interval  resumed (CPU) re-simulated  ratio\n");
	while (done < n && k < 4096) {
		struct fs_sim_report a, b;
		size_t cut = done;

		while (cut < n && ((const struct fs_rec_hdr *)(log + at[cut]))->ts_ns < t0 + (__u64)(k + 1) * 1000000000ull)
			cut++;
		const double t = cpu_s();

		if (fs_sim_live_answer(l, log + at[done], at[cut] - at[done], &in, &a, err, sizeof(err))) {
			fprintf(stderr, "sim_bench: intervals: %s\n", err);
			goto out;
		}
		res[k] = cpu_s() - t;
		if ((whole[k] = whole_window(&in, &bo, log, at[cut], &b)) < 0)
			goto out;
		differ += a.ran != b.ran || (a.ran && a.answer.v[0].delta_x != b.answer.v[0].delta_x);
		k++;
		if (k <= 3 || k % 5 == 0 || cut == n)
			printf("  %6d s %9.2f ms %10.2f ms %6.1fx\n", k, res[k - 1] * 1e3, whole[k - 1] * 1e3,
			       whole[k - 1] / res[k - 1]);
		fs_sim_report_free(&a);
		fs_sim_report_free(&b);
		done = cut;
	}
	struct fs_sim_resume_stats st;
	const int m = k < 20 ? k / 2 : 10;
	struct fs_sim_report e;
	const double t = cpu_s();

	/* an interval without records: what grows with the run (snapshot, comparison, per-activation results) */
	if (fs_sim_live_answer(l, log, 0, &in, &e, err, sizeof(err))) {
		fprintf(stderr, "sim_bench: intervals: %s\n", err);
		goto out;
	}
	const double idle = cpu_s() - t;
	const unsigned long long acts = (unsigned long long)e.activations;

	fs_sim_report_free(&e);

	fs_sim_live_stats(l, &st);
	printf("  first %d intervals: %.2f ms resumed, %.2f ms re-simulated; last %d: %.2f ms, %.2f ms\n", m,
	       mean(res, 0, m) * 1e3, mean(whole, 0, m) * 1e3, m, mean(res, k - m, k) * 1e3, mean(whole, k - m, k) * 1e3);
	printf("  simulated %.1f s resumed, %.1f s from t0 (%.1fx); %llu of %llu runs from t0; %s\n",
	       (double)st.sim_ns / 1e9, (double)st.whole_ns / 1e9, (double)st.whole_ns / (double)st.sim_ns,
	       (unsigned long long)st.from_start, (unsigned long long)st.runs,
	       differ ? "ANSWERS DIFFER" : "every answer the same");
	printf("  an interval without new records: %.2f ms with %llu activations so far (%.1f us per 1000)\n",
	       idle * 1e3, acts, idle * 1e6 / ((double)acts / 1000));
	rc_ = differ != 0;
out:
	fs_sim_live_free(l);
	free(log);
	free(at);
	return rc_;
}

int main(int argc, char **argv)
{
	const __u64 secs = argc > 1 ? strtoull(argv[1], NULL, 10) : 10;
	const char *rec = argc > 2 ? argv[2] : "tests/fixtures/view/live.fsr";
	char pol[2][32] = { "v6.1", "v6.1+margin" }, err[256];
	const char *env = getenv("FS_BENCH_POLICIES");
	struct fs_sim_workload wl;
	struct fs_em em;
	int rc = 0;

	if (env && sscanf(env, "%31[^,],%31s", pol[0], pol[1]) != 2) {
		fprintf(stderr, "sim_bench: FS_BENCH_POLICIES=\"a,b\", got \"%s\"\n", env);
		return 2;
	}
	if (fs_em_profile_build("pixel4", &em, err, sizeof(err))) {
		fprintf(stderr, "sim_bench: %s\n", err);
		return 1;
	}
	if (gen(&wl, (secs ? secs : 10) * 1000 * MS)) {
		fprintf(stderr, "sim_bench: out of memory\n");
		return 1;
	}
	printf("simulation speed, one core, best of 3: %s, LAB physics\n", rec);
	rc = bench_recording(rec);
	if (!rc) {
		struct recs rcs = { 0 };

		rc = recs_load(rec, &rcs) || bench_intervals(&rcs);
		for (size_t i = 0; i < rcs.n; i++)
			free(rcs.r[i]);
		free(rcs.r);
		fs_rec_meta_free(&rcs.meta);
	}
	printf("a generated workload: 8 CPUs (%s), %d tasks, %llu activations, DEVICE physics\n", em.source,
	       wl.nr_tasks, (unsigned long long)wl.nr_acts);
	for (int i = 0; i < 2 && !rc; i++)
		rc = run_policy(&wl, &em, pol[i], FS_SIM_DEVICE) < 0;
	free(wl.tasks);
	free(wl.acts);
	return rc ? 1 : 0;
}

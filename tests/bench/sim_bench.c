// SPDX-License-Identifier: GPL-2.0
/*
 * Simulation speed (issue 29): a generated 8-CPU workload (pixel4's
 * three-PD EM) simulated under two policies, as a ratio of simulated time
 * to the wall time it took on one core. Each rate is the best of 3 runs.
 * Usage: sim_bench [SECONDS] (simulated, 10 by default);
 * FS_BENCH_POLICIES="a,b" picks the pair (v6.1,v6.1+margin); the energy is kept
 * by time block as the closed loop does, FS_BENCH_NO_BLOCKS=1 leaves that out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "em/em_io.h"
#include "sim/sim.h"
#include "engine/time_blocks.h"

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

static int run(const struct fs_sim_workload *wl, const struct fs_em *em, const char *name)
{
	/* time blocks as the closed loop keeps them for its interval; FS_BENCH_NO_BLOCKS=1 leaves them out */
	struct fs_sim_params p = { .em = em, .policy = fs_policy_find(name), .physics = FS_SIM_DEVICE,
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
	return 0;
}

int main(int argc, char **argv)
{
	const __u64 secs = argc > 1 ? strtoull(argv[1], NULL, 10) : 10;
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
	printf("simulation speed: 8 CPUs (%s), %d tasks, %llu activations, best of 3\n", em.source,
	       wl.nr_tasks, (unsigned long long)wl.nr_acts);
	for (int i = 0; i < 2 && !rc; i++)
		rc = run(&wl, &em, pol[i]);
	free(wl.tasks);
	free(wl.acts);
	return rc ? 1 : 0;
}

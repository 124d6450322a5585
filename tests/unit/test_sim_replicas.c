// SPDX-License-Identifier: GPL-2.0
/*
 * The replicas' term of the closed-loop interval (user/sim/replicas.c,
 * interval.c): worked by hand, the zero-width interval it replaces, and the
 * replicas' jitter (deterministic, the size it says, each task's order kept).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "sim_builders.h"
#include "sim/replicas.h"

#define MS 1000000ull

/*
 * Blocks 1, 2, 3, 4, 5: Var(sum) = 12.5 with 4 df (test_sim_interval.c).
 * Replicas 0, 2, 4, 6: mean 3, squares 9 + 1 + 1 + 9 = 20, s_r^2 = 20 / 3
 * with 3 df. Var = 12.5 + 6.6667 = 19.1667, se 4.377975; Welch-Satterthwaite
 * df = 19.1667^2 / (12.5^2 / 4 + 6.6667^2 / 3) = 367.36 / 53.877 = 6.82,
 * the table's 6: t = 2.447, h = 10.7129: [4.2871, 25.7129].
 */
FS_TEST(sim_replicas_interval_by_hand)
{
	const double d[5] = { 1, 2, 3, 4, 5 }, rep[4] = { 0, 2, 4, 6 };
	double lo, hi;

	ASSERT_TRUE(fs_sim_interval_rep(d, 5, rep, 4, &lo, &hi, NULL) == 0);
	EXPECT_TRUE(fabs(lo - 4.28710) < 1e-4 && fabs(hi - 25.71290) < 1e-4);
	/* one replica has no spread: the batch means alone (fs_sim_interval's 2.776 x sqrt 12.5) */
	ASSERT_TRUE(fs_sim_interval_rep(d, 5, rep, 1, &lo, &hi, NULL) == 0);
	EXPECT_TRUE(fabs(lo - 5.18536) < 1e-4 && fabs(hi - 24.81464) < 1e-4);
}

/*
 * Both policies simulated alike: every block's difference 0, and the batch
 * means say [0, 0], certainty the runs do not have (docs/validation.md).
 * Replicas 0.1, -0.1, 0.3, -0.3: s_r^2 = 0.2 / 3, df 3 (the blocks add
 * nothing), t(3) = 3.182: h = 3.182 x 0.258199 = 0.821589, centred on the
 * verdict 0.
 */
FS_TEST(sim_replicas_widen_a_zero_interval)
{
	double *blocks = calloc(10, sizeof(*blocks));
	const double rep[4] = { 0.1, -0.1, 0.3, -0.3 };
	struct fs_sim_verdict v = { .delta = 0, .blocks = 10, .block_delta = blocks };

	ASSERT_TRUE(blocks != NULL);
	ASSERT_TRUE(fs_sim_interval(blocks, 10, 0, &v.lo, &v.hi) == 0);
	EXPECT_TRUE(v.lo == 0 && v.hi == 0); /* the old interval */
	fs_sim_verdict_widen(&v, rep, 4, 2.0);
	EXPECT_EQ((int)v.replicas, 4);
	EXPECT_TRUE(fabs(v.rep_sd - 0.258199) < 1e-5);
	EXPECT_TRUE(fabs(v.hi - 0.821589) < 1e-5 && fabs(v.lo + 0.821589) < 1e-5);
	EXPECT_TRUE(fabs(v.hi_mj - 2 * 0.821589) < 1e-5 && !v.measurable);
	free(blocks);
}

/* Three tasks, 200 activations each 10 ms apart, some at t0. */
static void jitter_wl(struct fs_sim_workload *wl)
{
	fs_test_wl_init(wl, 2, 3, 600, 3000 * MS);
	for (int ti = 0; ti < 3; ti++)
		fs_test_wl_periodic(wl, ti, (__u64)ti * 100000, 10 * MS, 500000, 200);
}

FS_TEST(sim_replicas_jitter)
{
	struct fs_sim_workload wl, r1, r2, r3;
	double sum = 0, ss = 0;
	__u64 n = 0;

	jitter_wl(&wl);
	const __u64 seed = fs_sim_workload_hash(&wl);

	ASSERT_TRUE(fs_sim_replica(&wl, seed, 0, FS_SIM_REPLICA_JITTER_NS, &r1) == 0);
	ASSERT_TRUE(fs_sim_replica(&wl, seed, 0, FS_SIM_REPLICA_JITTER_NS, &r2) == 0);
	ASSERT_TRUE(fs_sim_replica(&wl, seed, 1, FS_SIM_REPLICA_JITTER_NS, &r3) == 0);
	/* deterministic: the same seed and k, the same wake-ups; another k, others */
	EXPECT_TRUE(memcmp(r1.acts, r2.acts, wl.nr_acts * sizeof(*wl.acts)) == 0);
	EXPECT_TRUE(memcmp(r1.acts, r3.acts, wl.nr_acts * sizeof(*wl.acts)) != 0);
	EXPECT_TRUE(r1.tasks == wl.tasks && r1.nr_acts == wl.nr_acts);
	for (int ti = 0; ti < wl.nr_tasks; ti++) {
		const struct fs_sim_task *t = &wl.tasks[ti];

		for (__u32 j = 0; j < t->nr_act; j++) {
			const struct fs_sim_act *a = &wl.acts[t->first_act + j], *b = &r1.acts[t->first_act + j];

			EXPECT_EQ_U64(a->work, b->work);
			if (j)
				EXPECT_TRUE(b->wake_ns >= r1.acts[t->first_act + j - 1].wake_ns);
			if (a->wake_ns < 3 * MS) /* near t0 the jitter is cut at 0 */
				continue;
			const double d = (double)b->wake_ns - (double)a->wake_ns;

			EXPECT_TRUE(fabs(d) < 2.45 * (double)FS_SIM_REPLICA_JITTER_NS);
			sum += d;
			ss += d * d;
			n++;
		}
	}
	/* triangular, sd 1 ms: over ~600 draws the sd within 10 %, the mean within 0.15 ms */
	const double mean = sum / (double)n, sd = sqrt(ss / (double)n - mean * mean);

	EXPECT_TRUE(fabs(sd - 1e6) < 1e5);
	EXPECT_TRUE(fabs(mean) < 1.5e5);
	/* another workload, another seed */
	wl.acts[5].work++;
	EXPECT_TRUE(fs_sim_workload_hash(&wl) != seed);
	fs_sim_replica_free(&r1);
	fs_sim_replica_free(&r2);
	fs_sim_replica_free(&r3);
	fs_test_wl_free(&wl);
}

/*
 * A task too small for the margin to matter (one 0.2 ms activation every
 * 10 ms on a 1+1): v6.1 and v6.1+margin simulate it alike, and every
 * replica too. A zero spread over 8 is not trusted: 32 are drawn, and
 * when those agree as well the interval stays [0, 0].
 */
FS_TEST(sim_replicas_alike_draw_more)
{
	const struct fs_policy_desc *pols[2] = { fs_policy_find("v6.1+margin"), fs_policy_find("v6.1") };
	struct fs_sim_params p = { .block_ns = 100 * MS };
	struct fs_sim_workload wl;
	struct fs_sim_result res[2];
	struct fs_sim_answer a;
	struct fs_em em;
	char err[160];

	fs_test_em_1p1(&em, 100, 400);
	fs_test_wl_init(&wl, 2, 1, 100, 1000 * MS);
	fs_test_wl_periodic(&wl, 0, 0, 10 * MS, 200000, 100);
	p.em = &em;
	for (int i = 0; i < 2; i++) {
		p.policy = pols[i];
		ASSERT_TRUE(fs_sim_run(&wl, &p, &res[i], err, sizeof(err)) == 0);
	}
	ASSERT_TRUE(fs_sim_answer_build(&wl, pols, res, 2, 0, &a, err, sizeof(err)) == 0);
	ASSERT_TRUE(a.nr_verdicts == 1 && a.v[0].delta_x == 0 && a.v[0].lo == 0 && a.v[0].hi == 0);
	p.policy = NULL;
	ASSERT_TRUE(fs_sim_replicas_widen(&wl, &p, pols, FS_SIM_REPLICAS, 1.0, &a, err, sizeof(err)) == 0);
	EXPECT_EQ((int)a.v[0].replicas, FS_SIM_REPLICAS * FS_SIM_REPLICAS_MORE);
	EXPECT_TRUE(a.v[0].rep_sd == 0 && a.v[0].lo == 0 && a.v[0].hi == 0);
	fs_sim_answer_free(&a);
	for (int i = 0; i < 2; i++)
		fs_sim_result_free(&res[i]);
	fs_test_wl_free(&wl);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The closed-loop verdict's interval (user/sim/interval.c): worked by hand,
 * from the simulations' time blocks, and its coverage over random workloads
 * drawn from one known stochastic process.
 */
#include <math.h>
#include "test.h"
#include "em_builders.h"
#include "sim_builders.h"
#include "sim/compare.h"
#include "engine/time_blocks.h"
#include "em/em_io.h"
#include "sim_coverage.h"

#define MS 1000000ull

/*
 * Welch-Satterthwaite's df, by hand: one variance gives its own df back
 * (v^2 / (v^2 / df), which rounding can leave a hair below df); two equal
 * ones at df 9 give (2v)^2 / (2 v^2 / 9) = 18; 4 (df 4) and 1 (df 9):
 * 25 / (16/4 + 1/9) = 6.08 -> 6; no denominator -> the fallback.
 */
FS_TEST(sim_welch_df_by_hand)
{
	for (size_t df = 1; df <= 60; df++) {
		const double v = 0.1 * (double)df + 1.0 / 3;

		EXPECT_EQ(fs_sim_welch_df(v * v, v * v / (double)df, 99), df);
	}
	EXPECT_EQ(fs_sim_welch_df(4 * 2.5 * 2.5, 2 * 2.5 * 2.5 / 9, 1), 18);
	EXPECT_EQ(fs_sim_welch_df(25, 16.0 / 4 + 1.0 / 9, 1), 6);
	EXPECT_EQ(fs_sim_welch_df(0, 0, 7), 7);
	EXPECT_EQ(fs_sim_welch_df(0.5, 1, 7), 1);
}

/*
 * Five blocks' differences 1, 2, 3, 4, 5: sum 15, mean 3, squares about the
 * mean 4 + 1 + 0 + 1 + 4 = 10, s^2 = 10 / 4 = 2.5, Var(sum) = 5 x 2.5 = 12.5,
 * se = 3.5355339; t(4) = 2.776: 15 +- 9.8146 = [5.1854, 24.8146].
 */
FS_TEST(sim_interval_by_hand)
{
	const double d[5] = { 1, 2, 3, 4, 5 };
	double lo, hi;

	ASSERT_TRUE(fs_sim_interval(d, 5, 0, &lo, &hi) == 0);
	EXPECT_TRUE(fabs(lo - 5.18536) < 1e-4);
	EXPECT_TRUE(fabs(hi - 24.81464) < 1e-4);
	/* a model term of 4 in quadrature: se = sqrt(12.5 + 16) = 5.3385391, h = 14.8198 */
	ASSERT_TRUE(fs_sim_interval(d, 5, 4, &lo, &hi) == 0);
	EXPECT_TRUE(fabs(lo - 0.18022) < 1e-4 && fabs(hi - 29.81978) < 1e-4);
	/* equal blocks: no spread, the interval is the point */
	const double e[4] = { -2, -2, -2, -2 };

	ASSERT_TRUE(fs_sim_interval(e, 4, 0, &lo, &hi) == 0);
	EXPECT_TRUE(lo == -8 && hi == -8);
	/*
	 * Neighbours alike: 1, 1, 3, 3, 1, 1, 3, 3, sum 16. Blocks: mean 2,
	 * s^2 = 8 / 7, Var = 8 x 8 / 7 = 9.142857, t(7) = 2.365: h = 7.1511.
	 * Pairs 2, 6, 2, 6: mean 4, s^2 = 16 / 3, Var = 4 x 16 / 3 = 21.3333,
	 * t(3) = 3.182: h = 14.6970, the wider: [1.3030, 30.6970].
	 */
	const double f[8] = { 1, 1, 3, 3, 1, 1, 3, 3 };

	ASSERT_TRUE(fs_sim_interval(f, 8, 0, &lo, &hi) == 0);
	EXPECT_TRUE(fabs(lo - 1.30297) < 1e-4 && fabs(hi - 30.69703) < 1e-4);
	/* alternating 1, 3, ...: the pairs are all 4, the blocks' interval stands: 2.365 x 3.0237 */
	const double g[8] = { 1, 3, 1, 3, 1, 3, 1, 3 };

	ASSERT_TRUE(fs_sim_interval(g, 8, 0, &lo, &hi) == 0);
	EXPECT_TRUE(fabs(lo - 8.84891) < 1e-4 && fabs(hi - 23.15109) < 1e-4);
	/* three blocks are too few (FS_VERDICT_MIN_UNITS) */
	EXPECT_EQ(fs_sim_interval(d, 3, 0, &lo, &hi), -1);
	EXPECT_TRUE(isnan(lo) && isnan(hi));
}

FS_TEST(sim_interval_t_quantiles)
{
	EXPECT_TRUE(fabs(fs_sim_t975(9) - 2.262) < 1e-9);
	EXPECT_TRUE(fabs(fs_sim_t975(30) - 2.042) < 1e-9);
	/* the expansion beyond the table: 2.0423 at 30, 2.0211 at 40 (tables), 1.9840 at 100 */
	EXPECT_TRUE(fabs(fs_sim_t975(31) - 2.0395) < 1e-3);
	EXPECT_TRUE(fabs(fs_sim_t975(40) - 2.0211) < 1e-3);
	EXPECT_TRUE(fabs(fs_sim_t975(100) - 1.9840) < 1e-3);
	EXPECT_TRUE(isnan(fs_sim_t975(0)));
}

/*
 * Blocks from two fabricated results, paired: v5.4 (policy 0) has block
 * energies 3, 1, 2, 2, v5.4-nomargin (1) 1, 1, 1, 1 (EM unit x s, mW):
 * differences 2, 0, 1, 1, sum 4, mean 1, s^2 = (1 + 1 + 0 + 0) / 3 = 2/3,
 * Var(sum) = 8/3, se = 1.6329932, t(3) = 3.182: 4 +- 5.1961 = [-1.196, 9.196].
 */
FS_TEST(sim_verdict_interval_from_blocks)
{
	struct fs_sim_result res[2] = { 0 };
	double b0[4] = { 3, 1, 2, 2 }, b1[4] = { 1, 1, 1, 1 };
	struct fs_sim_verdict v = { .pol = 0, .twin = 1, .delta = 4 };

	res[0].nr_blocks = res[1].nr_blocks = 4;
	res[0].block_ns = res[1].block_ns = 10 * MS;
	res[0].block_energy = b0;
	res[1].block_energy = b1;
	ASSERT_TRUE(fs_sim_verdict_interval(&v, res, 1.0) == 0);
	EXPECT_EQ((int)v.blocks, 4);
	EXPECT_EQ_U64(v.block_ns, 10 * MS);
	EXPECT_TRUE(fabs(v.lo_mj - -1.19615) < 1e-4 && fabs(v.hi_mj - 9.19615) < 1e-4);
	EXPECT_TRUE(!v.measurable);
	/* a twin with 0.5 a block: differences 2.5, 0.5, 1.5, 1.5, the same spread, sum 6 */
	double b2[4] = { 0.5, 0.5, 0.5, 0.5 };

	res[1].block_energy = b2;
	v.delta = 6;
	ASSERT_TRUE(fs_sim_verdict_interval(&v, res, 1.0) == 0);
	EXPECT_TRUE(fabs(v.lo - 0.80385) < 1e-4 && v.measurable);
}

/* The machine's blocks: they sum to its energy, and cover [0, end] by the accounting's rule. */
FS_TEST(sim_blocks_sum_to_the_energy)
{
	struct fs_sim_workload wl;
	struct fs_sim_params p = { 0 };
	struct fs_sim_result r;
	struct fs_em em;
	char err[160];

	fs_test_em_1p1(&em, 100, 400);
	fs_test_wl_init(&wl, 2, 1, 200, 1000 * MS);
	fs_test_wl_periodic(&wl, 0, 0, 10 * MS, 3 * MS, 100);
	p.em = &em;
	p.policy = fs_policy_find("v6.12.97");
	p.block_ns = fs_blocks_width(wl.end_ns);
	EXPECT_EQ_U64(p.block_ns, 80 * MS); /* 1 s: the last power of two of 10 ms not above 100 ms */
	ASSERT_TRUE(fs_sim_run(&wl, &p, &r, err, sizeof(err)) == 0);
	EXPECT_EQ((int)r.nr_blocks, 13); /* 1000 / 80 = 12.5: 13 blocks */
	double sum = 0;

	for (size_t i = 0; i < r.nr_blocks; i++)
		sum += r.block_energy[i];
	EXPECT_TRUE(fabs(sum - r.energy) < 1e-9 * r.energy);
	/* 100 activations of 3 ms over 1 s, every 10 ms: blocks 0..11 hold 8 each, the last 4 */
	EXPECT_TRUE(fabs(r.block_energy[0] - r.block_energy[5]) < 1e-9 * r.energy);
	EXPECT_TRUE(fabs(r.block_energy[12] - r.block_energy[0] / 2) < 1e-9 * r.energy);
	fs_sim_result_free(&r);
	fs_test_wl_free(&wl);
}


/*
 * Coverage over 100 workloads of the process in sim_coverage.h, 2 s each
 * (13 blocks of 0.16 s): the share of the samples' intervals holding the
 * samples' mean verdict. The goal is 95 %; below 90 % the interval is not
 * what it says. The truth is itself an estimate (its standard error is
 * sd / 10 here, a tenth of a single sample's spread), so a few samples
 * more or less are noise; tests/bench/sim_coverage.c measures with more.
 */
FS_TEST(sim_interval_coverage_over_random_workloads)
{
	struct cov_result r;
	struct fs_em em;
	char err[256];

	ASSERT_TRUE(fs_em_profile_build("pixel4", &em, err, sizeof(err)) == 0);
	if (cov_measure(&em, "v6.1+margin", "v6.1", 2000 * MS, 100, FS_SIM_DEVICE, &r, err, sizeof(err)))
		FS_FAIL_AT("%s", err);
	/* the process must make the margin matter, or the test shows nothing */
	EXPECT_TRUE(r.sd > 0 && r.mean_half_width > 0);
	if (r.covered < 90)
		FS_FAIL_AT("coverage %d of %d (truth %.3f mJ, sd %.3f, mean half width %.3f)", r.covered, r.n,
			   r.truth, r.sd, r.mean_half_width);
}

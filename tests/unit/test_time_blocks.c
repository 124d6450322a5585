// SPDX-License-Identifier: GPL-2.0
/* The verdict's interval: time bins, blocks, and the bootstrap over them. */
#include "test.h"
#include "engine/time_blocks.h"
#include "engine/verdict.h"

/* 20 s of a steady cost, 1 mJ every 100 ms: 1 s blocks of 10 mJ each; the interval is [200, 200] mJ. */
FS_TEST(blocks_steady_cost_is_measurable)
{
	struct fs_time_blocks b;
	fs_fj_t out[FS_BLOCK_BINS], one = 1000000000000ll, lo, hi;
	__u64 w;

	ASSERT_TRUE(fs_blocks_init(&b, 1) == 0);
	fs_blocks_start(&b, 0);
	for (int k = 0; k < 200; k++)
		fs_blocks_add(&b, (__u64)k * 100000000ull, &one);
	fs_fj_t zero = 0;
	fs_blocks_add(&b, 19999999999ull, &zero);
	size_t n = fs_blocks_cut(&b, 0, 19999999999ull, out, FS_BLOCK_BINS, &w);
	/* 20 s in 10 ms bins = 2000 bins; blocks of 1.28 s (128 bins: the first power of two >= 1 s) */
	EXPECT_EQ_U64(w, 1280000000ull);
	EXPECT_EQ(n, 16);
	fs_fj_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += out[i];
	EXPECT_TRUE(total == 200 * one);
	fs_bootstrap_sum(out, n, FS_BOOTSTRAP_ROUNDS, &lo, &hi);
	EXPECT_TRUE(lo > 0 && hi > lo);      /* measurable */
	EXPECT_TRUE(lo > 150 * one && hi < 250 * one);
	fs_blocks_free(&b);
}

/* One burst in 20 s of nothing: the interval reaches down to 0 — no measurable difference. */
FS_TEST(blocks_one_burst_is_not_measurable)
{
	struct fs_time_blocks b;
	fs_fj_t out[FS_BLOCK_BINS], big = 50000000000000ll, zero = 0, lo, hi;
	__u64 w;

	ASSERT_TRUE(fs_blocks_init(&b, 1) == 0);
	fs_blocks_start(&b, 0);
	fs_blocks_add(&b, 3000000000ull, &big);
	fs_blocks_add(&b, 20000000000ull, &zero);
	size_t n = fs_blocks_cut(&b, 0, 20000000000ull, out, FS_BLOCK_BINS, &w);
	EXPECT_TRUE(n >= 10);
	fs_bootstrap_sum(out, n, FS_BOOTSTRAP_ROUNDS, &lo, &hi);
	EXPECT_TRUE(lo == 0 && hi >= big);
	fs_blocks_free(&b);
}

/*
 * Bins are zeroed only as they come into use: after a widening (from an odd
 * count, its last pair completed by a zero) the bins above the new count still
 * hold old sums, and one taken into use again must start from 0. Two series,
 * 1 and 2 in each of the first 4095 bins: the blocks hold exactly 4095 and 8190.
 */
FS_TEST(blocks_widened_bins_start_from_zero)
{
	struct fs_time_blocks b;
	fs_fj_t out[FS_BLOCK_BINS], d[2] = { 1, 2 }, zero[2] = { 0, 0 };
	__u64 w;

	ASSERT_TRUE(fs_blocks_init(&b, 2) == 0);
	fs_blocks_start(&b, 0);
	for (__u64 k = 0; k < FS_BLOCK_BINS - 1; k++)
		fs_blocks_add(&b, k * FS_BLOCK_BIN0_NS, d);
	EXPECT_EQ(b.nbins, FS_BLOCK_BINS - 1);
	/* bin 4096 of 10 ms does not exist: bins of 20 ms, then bin 2048 in use */
	fs_blocks_add(&b, FS_BLOCK_BINS * FS_BLOCK_BIN0_NS, zero);
	EXPECT_EQ_U64(b.bin_ns, 2 * FS_BLOCK_BIN0_NS);
	EXPECT_EQ(b.nbins, FS_BLOCK_BINS / 2 + 1);
	for (int q = 0; q < 2; q++) {
		size_t n = fs_blocks_cut(&b, q, FS_BLOCK_BINS * FS_BLOCK_BIN0_NS, out, FS_BLOCK_BINS, &w);
		fs_fj_t total = 0;

		for (size_t i = 0; i < n; i++)
			total += out[i];
		EXPECT_TRUE(total == (FS_BLOCK_BINS - 1) * d[q]);
	}
	fs_blocks_free(&b);
}

/* Units all the same (no block where the policies differ): the interval is their sum, both ends. */
FS_TEST(bootstrap_of_equal_units_is_their_sum)
{
	fs_fj_t u[3000], lo = 1, hi = 1;

	for (size_t i = 0; i < 3000; i++)
		u[i] = 0;
	fs_bootstrap_sum(u, 3000, FS_BOOTSTRAP_ROUNDS, &lo, &hi);
	EXPECT_TRUE(lo == 0 && hi == 0);
	for (size_t i = 0; i < 3000; i++)
		u[i] = -7;
	fs_bootstrap_sum(u, 3000, FS_BOOTSTRAP_ROUNDS, &lo, &hi);
	EXPECT_TRUE(lo == -21000 && hi == -21000);
	u[2999] = 0; /* one different unit: the draws decide */
	fs_bootstrap_sum(u, 3000, FS_BOOTSTRAP_ROUNDS, &lo, &hi);
	EXPECT_TRUE(lo == -21000 && hi > lo && hi <= -20930); /* it came 0 to a few times */
}

/* Hours of trace: the bins widen instead of growing; nothing is lost in the merges. */
FS_TEST(blocks_memory_is_bounded)
{
	struct fs_time_blocks b;
	fs_fj_t out[FS_BLOCK_BINS], one = 1, lo, hi;
	__u64 w;

	ASSERT_TRUE(fs_blocks_init(&b, 2) == 0);
	fs_blocks_start(&b, 5);
	fs_fj_t d[2] = { 1, -3 };
	for (__u64 t = 5; t < 7200000000000ull; t += 250000000ull) /* two hours, every 250 ms */
		fs_blocks_add(&b, t, d);
	EXPECT_TRUE(b.nbins <= FS_BLOCK_BINS);
	EXPECT_TRUE(b.bin_ns > FS_BLOCK_BIN0_NS);
	size_t n = fs_blocks_cut(&b, 1, 7200000000000ull, out, FS_BLOCK_BINS, &w);
	fs_fj_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += out[i];
	EXPECT_TRUE(total == -3 * 28800);
	EXPECT_TRUE(w >= FS_BLOCK_TARGET_NS && n >= 10);
	(void)one;
	fs_bootstrap_sum(out, n, 0, &lo, &hi); /* rounds out of range: the full count */
	EXPECT_TRUE(lo <= hi && hi < 0);
	fs_blocks_free(&b);
}

/* A late record (before t0) joins the first bin; no bins without a start. */
FS_TEST(blocks_edges)
{
	struct fs_time_blocks b;
	fs_fj_t out[4], v = 7;
	__u64 w;

	ASSERT_TRUE(fs_blocks_init(&b, 1) == 0);
	EXPECT_EQ(fs_blocks_cut(&b, 0, 100, out, 4, &w), 0);
	fs_blocks_start(&b, 1000000000ull);
	fs_blocks_add(&b, 999000000ull, &v);
	EXPECT_EQ(fs_blocks_cut(&b, 0, 1000000000ull, out, 4, &w), 1);
	EXPECT_TRUE(out[0] == 7);
	fs_blocks_free(&b);
}

/*
 * Three blocks give no interval: a 30 ms trace of a steady cost (three 10 ms
 * bins) would otherwise read "measurable" from 3 × its smallest and largest
 * block; four blocks give one.
 */
FS_TEST(verdict_needs_four_time_blocks)
{
	struct fs_verdict v = { .delta_fj = 3, .lo_fj = 3, .hi_fj = 3, .units = 3 };

	EXPECT_TRUE(!fs_verdict_has_interval(&v));
	EXPECT_TRUE(!fs_verdict_measurable(&v));
	v.units = 4;
	EXPECT_TRUE(fs_verdict_has_interval(&v));
	EXPECT_TRUE(fs_verdict_measurable(&v));
	v.lo_fj = 0;
	EXPECT_TRUE(!fs_verdict_measurable(&v)); /* the interval reaches 0 */
	v.lo_fj = -5, v.hi_fj = -1;
	EXPECT_TRUE(fs_verdict_measurable(&v));  /* all below 0: the margin saves */
}

/*
 * A trace shorter than 10 s still gets at least FS_BLOCK_MIN_BLOCKS blocks
 * (docs/accounting.md): 5 s in 10 ms bins, span / 10 = 500 ms, so blocks of
 * 320 ms (32 bins, the last power of two not above it): 16 blocks. Rounding
 * up instead (640 ms) would give 8.
 */
FS_TEST(blocks_short_trace_has_ten_blocks)
{
	struct fs_time_blocks b;
	fs_fj_t out[FS_BLOCK_BINS], one = 1000000000000ll, zero = 0;
	__u64 w;

	ASSERT_TRUE(fs_blocks_init(&b, 1) == 0);
	fs_blocks_start(&b, 0);
	for (int k = 0; k < 50; k++)
		fs_blocks_add(&b, (__u64)k * 100000000ull, &one);
	fs_blocks_add(&b, 4999999999ull, &zero);
	size_t n = fs_blocks_cut(&b, 0, 4999999999ull, out, FS_BLOCK_BINS, &w);
	EXPECT_EQ_U64(w, 320000000ull);
	EXPECT_EQ(n, 16);
	EXPECT_TRUE(n >= FS_BLOCK_MIN_BLOCKS);
	fs_blocks_free(&b);
}

/* report's groups: one recording resamples exactly as its own interval; strata stay apart. */
FS_TEST(bootstrap_strata_of_one_is_the_recordings_own)
{
	fs_fj_t a[12], b[5], lo1, hi1, lo2, hi2;
	const fs_fj_t *units[2] = { a, b };
	size_t n[2] = { 12, 5 };

	for (int i = 0; i < 12; i++)
		a[i] = (fs_fj_t)((i * 7919) % 13) * 1000;
	for (int i = 0; i < 5; i++)
		b[i] = 500000 + i;
	fs_bootstrap_sum(a, 12, FS_BOOTSTRAP_ROUNDS, &lo1, &hi1);
	fs_bootstrap_strata(units, n, 1, FS_BOOTSTRAP_ROUNDS, &lo2, &hi2);
	EXPECT_TRUE(lo1 == lo2 && hi1 == hi2 && lo1 < hi1);
	/*
	 * b's blocks barely vary: resampled within b, they add about 5 x 500000
	 * to every round; pooled with a's they would not. The interval moves by
	 * b's sum and widens by no more than b's spread allows.
	 */
	fs_bootstrap_strata(units, n, 2, FS_BOOTSTRAP_ROUNDS, &lo2, &hi2);
	EXPECT_TRUE(lo2 >= lo1 + 5 * (fs_fj_t)500000 - 40000 && hi2 <= hi1 + 5 * (fs_fj_t)500004 + 40000);
	EXPECT_TRUE(lo2 <= hi2);
}

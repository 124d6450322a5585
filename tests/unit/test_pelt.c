// SPDX-License-Identifier: GPL-2.0
/* PELT decay (kernel/sched/pelt.c decay_load / sync_entity_load_avg) against hand values. */
#include "test.h"
#include "engine/pelt.h"

FS_TEST(pelt_decay_load_one_halflife_truncates)
{
	/* n = 32: val >>= 1 then * 0xffffffff >> 32: (512 * (2^32 - 1)) >> 32 = 511. */
	EXPECT_EQ_U64(fs_decay_load(1024, 32), 511);
	/* n = 1: 47742 * 0xfa83b2da >> 32 = 46718 (y^1 = 0.97857...). */
	EXPECT_EQ_U64(fs_decay_load(47742, 1), 46718);
	/* n > 32 * 63: everything decays to 0. */
	EXPECT_EQ_U64(fs_decay_load(~0ull, 32 * 63 + 1), 0);
	EXPECT_EQ(fs_pelt_yn_inv(16), 0xb504f333); /* y^16 = 1/sqrt(2) */
}

static struct fs_task task(__u64 lut, __u64 now, __u32 sum, __u32 contrib, __u32 avg)
{
	struct fs_task t = { 0 };
	t.last_update_time = lut;
	t.cfs_rq_last_update_time = now;
	t.util_sum = sum;
	t.period_contrib = contrib;
	t.util_avg = avg;
	return t;
}

FS_TEST(pelt_sync_zero_periods_leaves_util_avg)
{
	/* 500 us elapsed + 100 us already in the period = 600 < 1024: no period
	 * boundary, ___update_load_avg() is not called: util_avg stays 300. */
	struct fs_task t = task(0, 500 * 1024, 10000000, 100, 300);
	EXPECT_EQ(fs_sync_entity_util_avg(&t), 300);
	/* Clock behind the task (negative delta): unchanged too. */
	t = task(5000000, 1000, 10000000, 100, 300);
	EXPECT_EQ(fs_sync_entity_util_avg(&t), 300);
	/* Less than 1024 ns: delta >> 10 == 0, unchanged. */
	t = task(1000, 2000, 10000000, 100, 300);
	EXPECT_EQ(fs_sync_entity_util_avg(&t), 300);
}

/*
 * Whether the sync ends a period (the enqueue's aging then clears util_est's
 * UTIL_AVG_UNCHANGED): 500 us + 100 in the period do not, 924 + 100 do; a
 * clock behind the task does not.
 */
FS_TEST(pelt_sync_crosses_a_period)
{
	struct fs_task t = task(0, 500 * 1024, 10000000, 100, 300);

	EXPECT_TRUE(!fs_sync_entity_crosses_period(&t));
	t = task(0, 924 * 1024, 10000000, 100, 300);
	EXPECT_TRUE(fs_sync_entity_crosses_period(&t));
	t = task(5000000, 1000, 10000000, 100, 300);
	EXPECT_TRUE(!fs_sync_entity_crosses_period(&t));
}

FS_TEST(pelt_sync_decays_util_sum_and_divides_by_pelt_divider)
{
	/* 1024 us, contrib 0: 1 period, contrib left 0.
	 * util_sum = 10000000 * 0xfa83b2da >> 32 = 9785720; / (47742 - 1024 + 0) = 209. */
	struct fs_task t = task(0, 1024 * 1024, 10000000, 0, 999);
	EXPECT_EQ(fs_sync_entity_util_avg(&t), 209);
	/* 2348 us + contrib 100 = 2448: 2 periods, contrib 400.
	 * 10000000 * 0xf5257d14 >> 32 = 9576032; / (46718 + 400) = 203. */
	t = task(0, 2348 * 1024, 10000000, 100, 999);
	EXPECT_EQ(fs_sync_entity_util_avg(&t), 203);
	/* 32 periods exactly (32768 us + contrib 5 -> 5 left):
	 * (10000000 >> 1) * 0xffffffff >> 32 = 4999999; / 46723 = 107. */
	t = task(0, 32768ull * 1024, 10000000, 5, 999);
	EXPECT_EQ(fs_sync_entity_util_avg(&t), 107);
}

/* fs_pelt_update() of a blocked entity is feec's sync (fs_sync_entity_util_avg()). */
FS_TEST(pelt_update_blocked_matches_sync)
{
	__u64 seed = 0x9e1f;

	for (int i = 0; i < 2000; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		struct fs_task t = task(seed % 100000000, seed % 100000000 + (seed >> 20) % 300000000,
					(__u32)((seed >> 8) % 48000000), (__u32)((seed >> 40) % 1024), 0);
		t.util_avg = t.util_sum / (47742 - 1024 + t.period_contrib);
		struct fs_pelt_avg sa = { .last_update_time = t.last_update_time, .util_sum = t.util_sum,
					  .period_contrib = t.period_contrib, .util_avg = t.util_avg };

		fs_pelt_update(&sa, t.cfs_rq_last_update_time, 0, 0, 0);
		EXPECT_EQ(sa.util_avg, fs_sync_entity_util_avg(&t));
	}
}

/*
 * A running entity, through its limits: after a second of running (30
 * half-lives) util_avg and runnable_avg are within 1 % of 1024, and a
 * second blocked brings util_avg back to at most 1.
 */
FS_TEST(pelt_update_running_saturates_and_decays)
{
	struct fs_pelt_avg sa = { 0 };

	for (__u64 t = 1; t <= 1000; t++)
		fs_pelt_update(&sa, t * 1000000, 1, 1, 1);
	EXPECT_TRUE(sa.util_avg >= 1014 && sa.util_avg <= 1024);
	EXPECT_TRUE(sa.runnable_avg >= 1014 && sa.runnable_avg <= 1024);
	fs_pelt_update(&sa, 2000000000ull, 0, 0, 0);
	EXPECT_TRUE(sa.util_avg <= 1);
}

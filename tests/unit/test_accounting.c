// SPDX-License-Identifier: GPL-2.0
/* Energy accounting arithmetic with hand-worked numbers (units: µW, ns, fJ = µW·ns). */
#include "test.h"
#include "engine/accounting.h"

static long long fj_ll(fs_fj_t v)
{
	return (long long)v;
}

FS_TEST(accounting_task_interval_energy)
{
	struct fs_acct_task t = { 0 };
	fs_fj_t e[3] = { 0, 0, 0 };
	__s64 dp[3] = { 0, 150, -40 };
	EXPECT_EQ(fs_acct_task_close(&t, 5, 3, e), 0); /* nothing open yet */
	fs_acct_task_open(&t, 1000000, 3, dp);
	/* open 1.0 ms .. 3.5 ms: dt = 2,500,000 ns; 150 µW × 2.5e6 ns = 3.75e8 fJ; -40 × 2.5e6 = -1e8 fJ */
	EXPECT_EQ(fs_acct_task_close(&t, 3500000, 3, e), 2500000);
	EXPECT_EQ(fj_ll(e[0]), 0);
	EXPECT_EQ(fj_ll(e[1]), 375000000LL);
	EXPECT_EQ(fj_ll(e[2]), -100000000LL);
	EXPECT_TRUE(!t.open);
	/* a second interval adds: 150 µW × 1 s = 150 µJ = 1.5e11 fJ */
	fs_acct_task_open(&t, 10000000000ULL, 3, dp);
	fs_acct_task_close(&t, 11000000000ULL, 3, e);
	EXPECT_EQ(fj_ll(e[1]), 375000000LL + 150000000000LL);
	char buf[64];
	fs_fmt_fj(buf, sizeof(buf), e[1], 12, 6); /* 1.50375e11 fJ = 150.375 µJ = 0.150375 mJ */
	EXPECT_STR(buf, "0.150375");
	fs_fmt_fj(buf, sizeof(buf), e[1], 12, 3); /* 0.150375 mJ -> 0.150 */
	EXPECT_STR(buf, "0.150");
}

FS_TEST(accounting_out_of_order_interval_is_zero)
{
	struct fs_acct_task t = { 0 };
	fs_fj_t e[2] = { 0, 0 };
	__s64 dp[2] = { 0, 1000 };
	fs_acct_task_open(&t, 2000, 2, dp);
	EXPECT_EQ(fs_acct_task_close(&t, 1500, 2, e), 0);
	EXPECT_EQ(fj_ll(e[1]), 0);
}

FS_TEST(accounting_system_step_function)
{
	struct fs_acct_sys s = { 0 };
	/* 1 W from 0 to 0.5 s, 2 W from 0.5 s to 1 s: 0.5 J + 1 J = 1.5 J = 1.5e15 fJ = 1500 mJ */
	fs_acct_sys_step(&s, 0, 1000000);
	fs_acct_sys_step(&s, 500000000, 2000000);
	fs_acct_sys_close(&s, 1000000000);
	EXPECT_EQ(fj_ll(s.total_fj), 1500000000000000LL);
	char buf[64];
	fs_fmt_fj(buf, sizeof(buf), s.total_fj, 12, 3);
	EXPECT_STR(buf, "1500.000");
	/* closing twice adds nothing */
	fs_acct_sys_close(&s, 2000000000);
	EXPECT_EQ(fj_ll(s.total_fj), 1500000000000000LL);
}

FS_TEST(accounting_system_late_record_does_not_rewind)
{
	struct fs_acct_sys s = { 0 };
	fs_acct_sys_step(&s, 100, 10);
	fs_acct_sys_step(&s, 50, 20);   /* late: previous step gets dt 0, the new one starts at 100 */
	fs_acct_sys_close(&s, 200);     /* 20 µW × 100 ns = 2000 fJ */
	EXPECT_EQ(fj_ll(s.total_fj), 2000);
}

FS_TEST(accounting_effective_cpu)
{
	struct fs_feec_result r = { .cpu = 3 };
	struct fs_wakeup w = { .prev_cpu = 1, .chosen_cpu = 5 };
	EXPECT_EQ(fs_acct_effective_cpu(&r, &w), 3);
	r.cpu = -1;
	EXPECT_EQ(fs_acct_effective_cpu(&r, &w), 5); /* fallback path: what the kernel did */
	w.chosen_cpu = -1;
	EXPECT_EQ(fs_acct_effective_cpu(&r, &w), 1); /* unknown: stays on prev */
}

FS_TEST(accounting_histogram_buckets)
{
	EXPECT_EQ(fs_acct_pct_bucket(4, 100), 0);
	EXPECT_EQ(fs_acct_pct_bucket(5, 100), 1);
	EXPECT_EQ(fs_acct_pct_bucket(19, 100), 2);
	EXPECT_EQ(fs_acct_pct_bucket(112, 356), 4);   /* 31.46% -> 30-40% */
	EXPECT_EQ(fs_acct_pct_bucket(94, 100), 10);
	EXPECT_EQ(fs_acct_pct_bucket(95, 100), 11);
	EXPECT_EQ(fs_acct_pct_bucket(100, 100), 11);  /* equal is still blocked (strict >) */
	EXPECT_EQ(fs_acct_pct_bucket(1, 0), 11);
	EXPECT_STR(fs_acct_pct_label(4), "30-40%");
	EXPECT_EQ(fs_acct_uw_bucket(-5), 0);
	EXPECT_EQ(fs_acct_uw_bucket(0), 0);
	EXPECT_EQ(fs_acct_uw_bucket(1), 1);
	EXPECT_EQ(fs_acct_uw_bucket(9), 1);
	EXPECT_EQ(fs_acct_uw_bucket(10), 2);
	EXPECT_EQ(fs_acct_uw_bucket(999), 5);
	EXPECT_EQ(fs_acct_uw_bucket(1000), 6);
	EXPECT_EQ(fs_acct_uw_bucket(299999), 10);
	EXPECT_EQ(fs_acct_uw_bucket(300000), 11);
	EXPECT_STR(fs_acct_uw_label(6), "1k-3k");
}

FS_TEST(accounting_fixed_point_format)
{
	char buf[64];
	fs_fmt_fj(buf, sizeof(buf), -1234567890000LL, 12, 3); /* -1.23456789 mJ -> -1.235 */
	EXPECT_STR(buf, "-1.235");
	fs_fmt_fj(buf, sizeof(buf), 499999999, 12, 3);        /* 0.000499999999 mJ -> 0.000 */
	EXPECT_STR(buf, "0.000");
	fs_fmt_fj(buf, sizeof(buf), -499999999, 12, 3);       /* rounds to zero: no "-0.000" */
	EXPECT_STR(buf, "0.000");
	fs_fmt_fj(buf, sizeof(buf), 500000000, 12, 3);        /* half rounds away from zero */
	EXPECT_STR(buf, "0.001");
	fs_fmt_fj(buf, sizeof(buf), 123456, 6, 0);            /* 0.123456 nJ -> 0 */
	EXPECT_STR(buf, "0");
	fs_fmt_fj(buf, sizeof(buf), (fs_fj_t)7 * 1000000000000000000LL, 12, 3); /* 7e18 fJ = 7,000,000 mJ */
	EXPECT_STR(buf, "7000000.000");
}

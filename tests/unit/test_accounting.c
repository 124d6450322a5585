// SPDX-License-Identifier: GPL-2.0
/* Energy accounting arithmetic with hand-worked numbers (units: µW, ns, fJ = µW·ns). */
#include "test.h"
#include "engine/accounting.h"
#include "engine/blocked_hist.h"

static long long fj_ll(fs_fj_t v)
{
	return (long long)v;
}

/* A placement at ts with CPU time sum_exec, ΔP_1 = dp µW, and 1/β = num/den. */
static struct fs_placement place(__u64 ts, __u64 sum_exec, __s64 dp, __u64 num, __u64 den)
{
	struct fs_placement pl = { .ts_ns = ts, .sum_exec_ns = sum_exec, .run_cpu = 1, .win_num = num, .win_den = den };
	pl.dp_uw[1] = dp;
	return pl;
}

/*
 * A periodic task, 4 ms of CPU every 16 ms, whose utilization says it runs a
 * quarter of the time (1/β = 4): r/β = 16 ms, the whole period; the tail is
 * cut by the next wake-up. 150 µW × 16 ms = 2.4e9 fJ per period, as the wall
 * time would have charged.
 */
FS_TEST(accounting_periodic_task_charged_its_period)
{
	struct fs_acct *a = fs_acct_new(2);
	struct fs_task_acct *t = fs_acct_task_new(a, 7, 7);
	struct fs_interval iv;
	struct fs_placement pl;

	for (int k = 0; k < 3; k++) {
		pl = place(k * 16000000ull, k * 4000000ull, 150, 4, 1);
		EXPECT_EQ(fs_acct_place(a, t, &pl, &iv), k > 0);
		if (k) {
			EXPECT_EQ_U64(iv.runtime_ns, 4000000);
			EXPECT_EQ_U64(iv.window_ns, 16000000);
			EXPECT_TRUE(iv.de_fj[1] == (fs_fj_t)2400000000ll);
		}
	}
	EXPECT_TRUE(t->energy_fj[1] == (fs_fj_t)4800000000ll);
	EXPECT_EQ_U64(t->runtime_ns, 8000000);
	EXPECT_TRUE(!fs_acct_wall_time(a));
	fs_acct_free(a);
}

/*
 * 1 ms of CPU, then 20 s asleep: charged r/β = 4 ms plus one tail of
 * 48 408 813 ns (h / ln 2, h = 32 × 1 048 576 ns), not 20 s.
 * 1000 µW × 52 408 813 ns = 52 408 813 000 fJ.
 */
FS_TEST(accounting_sleeper_gets_one_tail_not_its_sleep)
{
	struct fs_acct *a = fs_acct_new(2);
	struct fs_task_acct *t = fs_acct_task_new(a, 8, 8);
	struct fs_interval iv;
	struct fs_placement pl = place(0, 100, 1000, 4, 1);

	fs_acct_place(a, t, &pl, &iv);
	pl = place(20001000000ull, 1000100, 1000, 4, 1);
	ASSERT_TRUE(fs_acct_place(a, t, &pl, &iv) == 1);
	EXPECT_EQ_U64(iv.dt_ns, 20001000000ull);
	EXPECT_EQ_U64(iv.runtime_ns, 1000000);
	EXPECT_EQ_U64(iv.window_ns, 4000000 + FS_PELT_TAIL_NS);
	EXPECT_EQ_U64(FS_PELT_TAIL_NS, 48408813);
	EXPECT_TRUE(iv.de_fj[1] == (fs_fj_t)52408813000ll);
	fs_acct_free(a);
}

/* An exit ends the placement without a tail; nothing is charged afterwards, a reused pid is a new task. */
FS_TEST(accounting_exit_ends_the_task)
{
	struct fs_acct *a = fs_acct_new(2);
	struct fs_task_acct *t = fs_acct_task_new(a, 9, 9);
	struct fs_interval iv;
	struct fs_placement pl = place(1000, 0, -500, 2, 1); /* β = 1/2 */

	fs_acct_place(a, t, &pl, &iv);
	/* 2 ms of CPU by the exit 10 ms later: r/β = 4 ms, no tail: -500 µW × 4 ms = -2e9 fJ */
	ASSERT_TRUE(fs_acct_end(a, t, 10001000, 2000000, FS_END_EXIT, &iv) == 1);
	EXPECT_EQ_U64(iv.window_ns, 4000000);
	EXPECT_TRUE(iv.de_fj[1] == -(fs_fj_t)2000000000ll);
	EXPECT_TRUE(t->exited);
	EXPECT_EQ(fs_acct_end(a, t, 20000000, 3000000, FS_END_OBSERVED, &iv), 0); /* nothing open */
	EXPECT_TRUE(fs_acct_task_reused(t, 9, 0));
	struct fs_task_acct *n = fs_acct_task_new(a, 9, 9);
	EXPECT_TRUE(n != t);
	EXPECT_TRUE(fs_acct_task_find(a, 9) == n);
	EXPECT_EQ(fs_acct_nr_tasks(a), 2);
	EXPECT_TRUE(fs_acct_totals(a)->energy_fj[1] == -(fs_fj_t)2000000000ll);
	fs_acct_free(a);
}

/* A lost exit shows as a tgid change or CPU time going backwards: another task by that pid. */
FS_TEST(accounting_pid_reuse_without_exit)
{
	struct fs_acct *a = fs_acct_new(2);
	struct fs_task_acct *t = fs_acct_task_new(a, 10, 10);
	struct fs_interval iv;
	struct fs_placement pl = place(0, 5000, 1, 0, 0);

	fs_acct_place(a, t, &pl, &iv);
	EXPECT_TRUE(!fs_acct_task_reused(t, 10, 6000));
	EXPECT_TRUE(fs_acct_task_reused(t, 10, 4000));
	EXPECT_TRUE(fs_acct_task_reused(t, 11, 6000));
	EXPECT_TRUE(!fs_acct_task_reused(t, 10, FS_NO_RUNTIME));
	fs_acct_free(a);
}

/* Without a CPU time at either end nothing is charged (and counted); wall-time mode charges dt. */
FS_TEST(accounting_unknown_runtime_and_wall_time)
{
	struct fs_acct *a = fs_acct_new(2);
	struct fs_task_acct *t = fs_acct_task_new(a, 11, 11);
	struct fs_interval iv;
	struct fs_placement pl = place(0, 1000, 150, 0, 0);

	fs_acct_place(a, t, &pl, &iv);
	EXPECT_EQ(fs_acct_end(a, t, 5000000, FS_NO_RUNTIME, FS_END_TRACE, &iv), 1);
	EXPECT_TRUE(!iv.runtime_known);
	EXPECT_EQ_U64(iv.window_ns, 0);
	EXPECT_EQ_U64(fs_acct_totals(a)->unresolved, 1);
	EXPECT_EQ_U64(fs_acct_totals(a)->unresolved_ns, 5000000);
	fs_acct_free(a);

	/* the first placement has no CPU time: the whole run is the old wall-time estimate */
	a = fs_acct_new(2);
	t = fs_acct_task_new(a, 12, 12);
	pl = place(1000000, FS_NO_RUNTIME, 150, 0, 0);
	fs_acct_place(a, t, &pl, &iv);
	EXPECT_TRUE(fs_acct_wall_time(a));
	/* 1.0 ms .. 3.5 ms: dt = 2 500 000 ns; 150 µW × 2.5e6 ns = 3.75e8 fJ */
	EXPECT_EQ(fs_acct_end(a, t, 3500000, FS_NO_RUNTIME, FS_END_MIGRATE, &iv), 1);
	EXPECT_EQ_U64(iv.window_ns, 2500000);
	EXPECT_TRUE(iv.de_fj[1] == (fs_fj_t)375000000ll);
	EXPECT_EQ_U64(fs_acct_totals(a)->unresolved, 0);
	/* an out-of-order end charges dt = 0, never a negative time */
	pl = place(2000, FS_NO_RUNTIME, 1000, 0, 0);
	fs_acct_place(a, t, &pl, &iv);
	fs_acct_end(a, t, 1500, FS_NO_RUNTIME, FS_END_TRACE, &iv);
	EXPECT_EQ_U64(iv.window_ns, 0);
	fs_acct_free(a);
}

/* A busy task (β >= 1: den 0) is charged its CPU time; the window never exceeds dt. */
FS_TEST(accounting_window_bounds)
{
	struct fs_placement pl = place(0, 0, 1, 0, 0);

	EXPECT_EQ_U64(fs_acct_window(&pl, 10000000, true, 3000000, FS_END_MIGRATE, false), 3000000);
	EXPECT_EQ_U64(fs_acct_window(&pl, 10000000, true, 3000000, FS_END_WAKEUP, false), 10000000);
	EXPECT_EQ_U64(fs_acct_window(&pl, 100000000, true, 3000000, FS_END_WAKEUP, false), 3000000 + FS_PELT_TAIL_NS);
	EXPECT_EQ_U64(fs_acct_window(&pl, 100000000, true, 3000000, FS_END_OBSERVED, false), 3000000 + FS_PELT_TAIL_NS);
	EXPECT_EQ_U64(fs_acct_window(&pl, 100000000, true, 3000000, FS_END_EXIT, false), 3000000);
	EXPECT_EQ_U64(fs_acct_window(&pl, 100000000, false, 0, FS_END_TRACE, false), 0);
	EXPECT_EQ_U64(fs_acct_window(&pl, 100000000, false, 0, FS_END_TRACE, true), 100000000);
	pl.win_num = 1024 * 1000000ull, pl.win_den = 100 * 2000000ull; /* cap·f / (u·fmax) = 5.12 */
	EXPECT_EQ_U64(fs_acct_window(&pl, 1000000000, true, 1000000, FS_END_EXIT, false), 5120000);
	/* dt 100 ms: 10 ms of CPU stand for 51.2 ms, + the tail = 99.608813 ms, within dt */
	EXPECT_EQ_U64(fs_acct_window(&pl, 100000000, true, 10000000, FS_END_WAKEUP, false), 51200000 + FS_PELT_TAIL_NS);
	/* 11 ms: 56.32 ms + tail passes dt: dt */
	EXPECT_EQ_U64(fs_acct_window(&pl, 100000000, true, 11000000, FS_END_WAKEUP, false), 100000000);
	/* a burst: 30 ms of CPU stand for 153.6 ms > dt: charged at the rate per CPU ns, no tail */
	EXPECT_EQ_U64(fs_acct_window(&pl, 100000000, true, 30000000, FS_END_WAKEUP, false), 153600000);
	/* more CPU time than wall time (two clocks): no more than dt of it */
	EXPECT_EQ_U64(fs_acct_window(&pl, 100000000, true, 200000000, FS_END_WAKEUP, false), 512000000);
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

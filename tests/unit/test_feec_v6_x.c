// SPDX-License-Identifier: GPL-2.0
/*
 * v6.1 (6.1.63+) and v6.6 (6.6.2+) against their neighbours v6.0 and v6.12,
 * one landscape per rule that tells them apart, on the 2-PD test EM.
 *
 * Hand arithmetic for every energy below (v6.0 - v6.7 eras): the EM's mW
 * become uW (x 1000), cost = fmax * P / f:
 *   little (scale 512):  500 MHz cost 100000, 1000 MHz cost 150000
 *   big (scale 1024):    500 MHz 800000, 1000 MHz 800000, 2000 MHz 1200000
 * em_cpu_energy(): u = min(max_util + max_util / 4, cpu_cap), f = fmax * u /
 * scale, first state with freq >= f, E = cost * sum_util / scale. So little
 * is at 500 MHz while max_util <= 204, big below 2000 MHz while max_util <= 409.
 */
#include "test.h"
#include "em_builders.h"
#include "engine/pelt.h"
#include "engine/util.h"

/*
 * Little full (450 + p does not fit 512), prev cpu2 at 350 (+ p 100), cpu3 at
 * 100 but capacity_of 400 (RT pressure): spare 1024 - 450 = 574 on prev,
 * 400 - 200 = 200 on cpu3.
 *   base: max 350 -> u 437 -> 1000 MHz: 800000 * 450 / 1024 = 351562
 *   p on cpu2: max 450 -> u 562 -> 2000 MHz: 1200000 * 550 / 1024 = 644531, delta 292969
 *   p on cpu3: max 350 -> 1000 MHz: 800000 * 550 / 1024 = 429687, delta 78125
 * v6.0 evaluates cpu3 and moves; 6.1.y+ skips it (200 is not > prev's 574).
 */
static void spare_landscape(struct fs_em *em, struct fs_wakeup *w)
{
	unsigned int u[4] = { 450, 450, 350, 100 };

	fs_test_em_2pd(em);
	fs_test_wakeup(w, em, u, 2, 100);
	w->cpu[3].capacity = 400;
}

FS_TEST(feec_v6_1_max_spare_must_beat_prev_spare)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;

	spare_landscape(&em, &w);
	fs_test_run("v6.0", &em, &w, &r);
	EXPECT_EQ(r.cpu, 3);
	EXPECT_EQ(r.reason, FS_FEEC_MOVED);
	EXPECT_EQ_U64(r.prev_delta, 292969);
	EXPECT_EQ_U64(r.best_delta, 78125);
	ASSERT_TRUE(fs_test_cand(&r, 3) != NULL);
	EXPECT_EQ_U64(fs_test_cand(&r, 3)->energy, 429687);
	EXPECT_EQ_U64(fs_test_cand(&r, 3)->base, 351562);
	for (int i = 0; i < 2; i++) {
		fs_test_run(i ? "v6.6" : "v6.1", &em, &w, &r);
		EXPECT_EQ(r.cpu, 2);
		EXPECT_EQ(r.reason, FS_FEEC_PREV_BEST);
		EXPECT_EQ_U64(r.prev_delta, 292969);
		EXPECT_EQ(r.nr_cand, 1);
		EXPECT_TRUE(fs_test_cand(&r, 3) == NULL);
	}
}

/*
 * uclamp in use, p util 600 capped at 480, little rqs busy with uclamp_max
 * 100 at util 50, big at 100, prev cpu2 (rq clamps 0/1024).
 * Little: util 650 -> 512 (capacity_orig), fits_capacity fails but
 * uclamp_max 480 <= 512 fits (6.1.y), spare 0. v6.0 clamps first: 480 does
 * not fit 512 at 80 %.
 *   little base: max 50 -> 500 MHz: 100000 * 100 / 512 = 19531
 *   p on cpu0: max clamp(512, 0, 480) = 480 -> u 600 -> cap 512 -> 1000 MHz:
 *              150000 * 700 / 512 = 205078, delta 185547
 *   big base: max 100 -> 500 MHz: 800000 * 200 / 1024 = 156250
 *   p on cpu2: max 700 -> 2000 MHz: 1200000 * 800 / 1024 = 937500, delta 781250
 */
static void uclamp_max_landscape(struct fs_em *em, struct fs_wakeup *w, int prev)
{
	unsigned int u[4] = { 50, 50, 100, 100 };

	fs_test_em_2pd(em);
	fs_test_wakeup(w, em, u, prev, 600);
	w->flags |= FS_WAKE_UCLAMP_USED;
	w->task.uclamp_max = 480;
	w->cpu[0].uclamp_max = w->cpu[1].uclamp_max = 100;
}

FS_TEST(feec_v6_1_util_fits_cpu_uclamp_max_fits)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;

	uclamp_max_landscape(&em, &w, 2);
	fs_test_run("v6.0", &em, &w, &r);
	EXPECT_EQ(r.cpu, 2);
	EXPECT_EQ(r.reason, FS_FEEC_PREV_BEST);
	EXPECT_TRUE(fs_test_cand(&r, 0) == NULL && fs_test_cand(&r, 1) == NULL);
	for (int i = 0; i < 2; i++) {
		fs_test_run(i ? "v6.6" : "v6.1", &em, &w, &r);
		EXPECT_EQ(r.cpu, 0);
		EXPECT_EQ(r.reason, FS_FEEC_MOVED);
		EXPECT_EQ_U64(r.prev_delta, 781250);
		EXPECT_EQ_U64(r.best_delta, 185547);
		ASSERT_TRUE(fs_test_cand(&r, 0) != NULL);
		/* A spare capacity of 0 is a candidate (long spare, -1 = none). */
		EXPECT_EQ_U64(fs_test_cand(&r, 0)->energy, 205078);
		EXPECT_EQ_U64(fs_test_cand(&r, 0)->base, 19531);
		EXPECT_EQ(fs_test_cand(&r, 0)->fits, 1);
	}
}

/* Same landscape with p last on cpu0: prev's spare is 0, still "present" (> -1). */
FS_TEST(feec_v6_1_prev_spare_zero_is_evaluated)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;

	uclamp_max_landscape(&em, &w, 0);
	fs_test_run("v6.0", &em, &w, &r);
	EXPECT_EQ(r.cpu, 2);
	EXPECT_EQ(r.reason, FS_FEEC_PREV_UNFIT);
	EXPECT_EQ_U64(r.prev_delta, UINT64_MAX);
	fs_test_run("v6.1", &em, &w, &r);
	EXPECT_EQ(r.cpu, 0);
	EXPECT_EQ(r.reason, FS_FEEC_PREV_BEST);
	EXPECT_EQ_U64(r.prev_delta, 185547);
	ASSERT_TRUE(fs_test_cand(&r, 0) != NULL);
	EXPECT_EQ_U64(fs_test_cand(&r, 0)->energy, 205078);
}

/*
 * p (util 100) boosted to uclamp_min 900, prev cpu0 on little. 6.1.y: big
 * fits (1), little fits only without uclamp_min (-1): the better level wins
 * although prev is cheaper.
 *   little base: 100000 * 100 / 512 = 19531; p on cpu0: max(150 -> 900) = 512
 *                -> 1000 MHz: 150000 * 200 / 512 = 58593, prev_delta 39062
 *   big base: 800000 * 200 / 1024 = 156250; p on cpu2: 900 -> u 1125 -> 1024
 *                -> 2000 MHz: 1200000 * 300 / 1024 = 351562, delta 195312
 * best_delta is min'ed with prev_delta (39062): a tie, and still p moves.
 * v6.0 clamps util to 900 first: nothing fits, prev kept.
 */
FS_TEST(feec_v6_1_fits_level_minus_one_loses_to_fitting)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[4] = { 50, 50, 100, 100 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, u, 0, 100);
	w.flags |= FS_WAKE_UCLAMP_USED;
	w.task.uclamp_min = 900;
	fs_test_run("v6.0", &em, &w, &r);
	EXPECT_EQ(r.cpu, 0);
	EXPECT_EQ(r.reason, FS_FEEC_NO_CANDIDATE);
	for (int i = 0; i < 2; i++) {
		fs_test_run(i ? "v6.6" : "v6.1", &em, &w, &r);
		EXPECT_EQ(r.cpu, 2);
		EXPECT_EQ(r.reason, FS_FEEC_FITS_RULE);
		EXPECT_EQ_U64(r.prev_delta, 39062);
		EXPECT_EQ_U64(r.best_delta, 39062);
		ASSERT_TRUE(fs_test_cand(&r, 0) != NULL && fs_test_cand(&r, 2) != NULL);
		EXPECT_EQ(fs_test_cand(&r, 0)->fits, -1);
		EXPECT_EQ(fs_test_cand(&r, 2)->fits, 1);
		EXPECT_EQ_U64(fs_test_cand(&r, 2)->delta, 195312);
	}
}

/*
 * uclamp_min 1024: no CPU meets it, all levels -1; the final rule moves iff
 * the best CPU's PD has more capacity left after pressure than prev's.
 * v6.0 - v6.9 read arch - thermal_pressure: big 1024 - 100 = 924 > little
 * 512 moves p; at 600 (424) it stays. v6.12 reads hw_load_avg/cpufreq
 * pressure (0 here): big keeps 1024 and fits outright, so p moves.
 */
FS_TEST(feec_v6_6_best_thermal_cap_rule)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[4] = { 50, 50, 100, 100 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, u, 0, 100);
	w.flags |= FS_WAKE_UCLAMP_USED;
	w.task.uclamp_min = 1024;
	w.cpu[2].thermal_pressure = w.cpu[3].thermal_pressure = 100;
	for (int i = 0; i < 2; i++) {
		fs_test_run(i ? "v6.6" : "v6.1", &em, &w, &r);
		EXPECT_EQ(r.cpu, 2);
		EXPECT_EQ(r.reason, FS_FEEC_FITS_RULE);
		ASSERT_TRUE(fs_test_cand(&r, 2) != NULL);
		EXPECT_EQ(fs_test_cand(&r, 2)->fits, -1);
	}
	fs_test_run("v6.0", &em, &w, &r);
	EXPECT_EQ(r.cpu, 0);
	EXPECT_EQ(r.reason, FS_FEEC_NO_CANDIDATE);

	w.cpu[2].thermal_pressure = w.cpu[3].thermal_pressure = 600;
	fs_test_run("v6.6", &em, &w, &r);
	EXPECT_EQ(r.cpu, 0);
	ASSERT_TRUE(fs_test_cand(&r, 2) != NULL);
	EXPECT_EQ(fs_test_cand(&r, 2)->fits, -1);
	fs_test_run("v6.12", &em, &w, &r);
	EXPECT_EQ(r.cpu, 2);
	ASSERT_TRUE(fs_test_cand(&r, 2) != NULL);
	EXPECT_EQ(fs_test_cand(&r, 2)->fits, 1);
}

/*
 * 6.5+ boosts the frequency util with runnable_avg (eenv_pd_max_util
 * only). p (40) last on cpu2; little cpu0 100 with runnable 180, cpu1 150.
 *   big base: 800000 * 600 / 1024 = 468750; p on cpu2: max 340 -> 1000 MHz:
 *             800000 * 640 / 1024 = 500000, prev_delta 31250
 *   v6.1 little: base max 150 -> 500 MHz: 100000 * 250 / 512 = 48828;
 *             p on cpu0: max 150 -> 500 MHz: 100000 * 290 / 512 = 56640, delta 7812 -> moves
 *   v6.6 little: base max(180, 150) -> 500 MHz: 48828; p on cpu0:
 *             180 + 40 = 220 -> u 275 -> 1000 MHz: 150000 * 290 / 512 = 84960,
 *             delta 36132 > 31250 -> stays
 */
FS_TEST(feec_v6_6_runnable_boost_raises_pd_frequency)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[4] = { 100, 150, 300, 300 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, u, 2, 40);
	w.cpu[0].runnable_avg = 180;
	fs_test_run("v6.1", &em, &w, &r);
	EXPECT_EQ(r.cpu, 0);
	EXPECT_EQ(r.reason, FS_FEEC_MOVED);
	EXPECT_EQ_U64(r.prev_delta, 31250);
	EXPECT_EQ_U64(r.best_delta, 7812);
	fs_test_run("v6.6", &em, &w, &r);
	EXPECT_EQ(r.cpu, 2);
	EXPECT_EQ(r.reason, FS_FEEC_PREV_BEST);
	EXPECT_EQ_U64(r.prev_delta, 31250);
	ASSERT_TRUE(fs_test_cand(&r, 0) != NULL);
	EXPECT_EQ_U64(fs_test_cand(&r, 0)->energy, 84960);
	EXPECT_EQ_U64(fs_test_cand(&r, 0)->base, 48828);
}

/* 6.7 (6.1.63, 6.6.2): util 0 leaves feec at once only without uclamp_min. */
FS_TEST(feec_v6_1_zero_util_exit_needs_no_uclamp_min)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[4] = { 50, 50, 100, 100 };
	static const char *const pol[] = { "v6.0", "v6.1", "v6.6" };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, u, 2, 0);
	w.flags |= FS_WAKE_UCLAMP_USED;
	for (int i = 0; i < 3; i++) {
		fs_test_run(pol[i], &em, &w, &r);
		EXPECT_EQ(r.reason, FS_FEEC_ZERO_UTIL);
	}
	w.task.uclamp_min = 100;
	fs_test_run("v6.0", &em, &w, &r);
	EXPECT_EQ(r.reason, FS_FEEC_ZERO_UTIL);
	EXPECT_EQ(r.cpu, 2);
	for (int i = 1; i < 3; i++) {
		fs_test_run(pol[i], &em, &w, &r);
		EXPECT_TRUE(r.reason != FS_FEEC_ZERO_UTIL);
		EXPECT_TRUE(r.eligible);
	}
}

/*
 * uclamp aggregation is PD-scoped: a busy rq's max-aggregated clamps carry
 * over to the idle rqs after it in the same PD. p (600, uclamp_max 480) fits
 * a little CPU only through uclamp_max; a busy little rq with uclamp_max 1024
 * ahead of an idle one takes that away from both, behind it from neither.
 */
FS_TEST(feec_v6_1_uclamp_aggregation_carries_over_idle_rq)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;

	uclamp_max_landscape(&em, &w, 2);
	w.cpu[0].uclamp_max = 1024;
	w.cpu[1].flags |= FS_CPU_UCLAMP_IDLE;
	fs_test_run("v6.1", &em, &w, &r);
	EXPECT_TRUE(fs_test_cand(&r, 0) == NULL && fs_test_cand(&r, 1) == NULL);
	EXPECT_EQ(r.cpu, 2);

	uclamp_max_landscape(&em, &w, 2);
	w.cpu[1].uclamp_max = 1024;
	w.cpu[0].flags |= FS_CPU_UCLAMP_IDLE;
	fs_test_run("v6.1", &em, &w, &r);
	EXPECT_TRUE(fs_test_cand(&r, 0) != NULL);
	EXPECT_EQ(r.cpu, 0);
}

/* The twins add the 6.25 % margin to the energy clause only: a fits move stays a move. */
FS_TEST(feec_v6_x_margin_twins_keep_the_fits_rule)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[4] = { 50, 50, 100, 100 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, u, 0, 100);
	w.flags |= FS_WAKE_UCLAMP_USED;
	w.task.uclamp_min = 900;
	fs_test_run("v6.1+margin", &em, &w, &r);
	EXPECT_EQ(r.cpu, 2);
	EXPECT_EQ(r.reason, FS_FEEC_FITS_RULE);
	fs_test_run("v6.6+margin", &em, &w, &r);
	EXPECT_EQ(r.cpu, 2);
}

/*
 * 6.12.97+ (29922fdfc2a4, Debian 6.12.118's cpu_util()): with boost, util and
 * runnable each move p's own share before the larger wins; 6.5 - 6.12.96 take
 * the larger of the rq's sums and move p's util_avg alone. p (util 40,
 * runnable 200) last on big cpu2 (util 340, runnable 500); little cpu0 util
 * 100, runnable 180.
 *   p onto cpu0:   6.12: max(100, 180) + 40 = 220;  6.12.97: max(100 + 40, 180 + 200) = 380
 *   p off cpu2:    6.12: max(340, 500) - 40 = 460;  6.12.97: max(340 - 40, 500 - 200) = 300
 *   unboosted, and cpu1 (neither task_cpu nor dst): the same in both.
 */
static __u64 util_of(const char *policy, const struct fs_em *em, const struct fs_wakeup *w, int cpu,
		     int dst, bool boost)
{
	struct fs_feec_ctx c;

	fs_feec_ctx_init(&c, em, w, fs_policy_find(policy)->rules, NULL);
	return fs_cpu_util_next(&c, cpu, dst, boost);
}

FS_TEST(cpu_util_6_12_97_boost_moves_p_runnable)
{
	struct fs_em em;
	struct fs_wakeup w;
	unsigned int u[4] = { 100, 150, 300, 300 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, u, 2, 40);
	w.task.runnable_avg = 200;
	w.cpu[0].runnable_avg = 180;
	w.cpu[2].runnable_avg = 500;
	w.cpu[0].util_est = w.cpu[2].util_est = 0; /* keep util_est out of the max */
	w.task.util_est_enqueued = w.task.util_est_ewma = 0;
	EXPECT_EQ_U64(util_of("v6.12", &em, &w, 0, 0, true), 220);
	EXPECT_EQ_U64(util_of("v6.12.97", &em, &w, 0, 0, true), 380);
	EXPECT_EQ_U64(util_of("v6.12", &em, &w, 2, 0, true), 460);
	EXPECT_EQ_U64(util_of("v6.12.97", &em, &w, 2, 0, true), 300);
	EXPECT_EQ_U64(util_of("v6.12", &em, &w, 0, 0, false), 140);
	EXPECT_EQ_U64(util_of("v6.12.97", &em, &w, 0, 0, false), 140);
	EXPECT_EQ_U64(util_of("v6.12", &em, &w, 1, 0, true), 150);
	EXPECT_EQ_U64(util_of("v6.12.97", &em, &w, 1, 0, true), 150);
	/* p's runnable is the synced one: 4 periods back, runnable_sum 200 * 46718 =
	 * 9343600; decay_load(, 4) = 9343600 * 0xeac0c6e6 >> 32 = 8568118; / 46718 = 183:
	 * util_sum is 0 here, so p's util syncs to 0: onto cpu0 max(100, 180 + 183) = 363. */
	w.task.last_update_time = 1000000 - 4 * 1024 * 1024;
	w.task.period_contrib = 0;
	w.task.runnable_sum = 200ull * (47742 - 1024);
	EXPECT_EQ_U64(fs_sync_entity_runnable_avg(&w.task), 183);
	EXPECT_EQ_U64(util_of("v6.12.97", &em, &w, 0, 0, true), 363);
}

/*
 * Placed: p (util 40, runnable 100) alone on big cpu2; little cpu0 util 100,
 * runnable 160, cpu1 150. v6.9 EM (cost = 10 * P_uW / perf, E = cost * busy):
 * little 500 MHz perf 256 cost 1953, 1000 MHz perf 512 cost 2929; big 500 MHz
 * cost 7812. Requests carry the 1.25 headroom (sugov_effective_cpu_perf).
 *   little base: max(160 -> 200, 150 -> 187) = 200 -> 500 MHz: 1953 * 250 = 488250
 *   p on cpu0, 6.12:    max(100, 160) + 40 = 200 -> 250 -> 500 MHz: 1953 * 290 = 566370, delta 78120
 *   p on cpu0, 6.12.97: max(140, 160 + 100) = 260 -> 325 -> 1000 MHz: 2929 * 290 = 849410, delta 361160
 *   big base 0; p on cpu2: 40 -> 50 -> 500 MHz: 7812 * 40 = 312480 = prev_delta
 * 6.12 moves p to cpu0; 6.12.97 keeps it on cpu2.
 */
FS_TEST(feec_v6_12_97_keeps_a_runnable_task_off_the_little_pd)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result a, b;
	unsigned int u[4] = { 100, 150, 0, 0 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, u, 2, 40);
	w.task.runnable_avg = 100;
	w.cpu[0].runnable_avg = 160;
	fs_test_run("v6.12", &em, &w, &a);
	fs_test_run("v6.12.97", &em, &w, &b);
	EXPECT_EQ(a.cpu, 0);
	EXPECT_EQ(a.reason, FS_FEEC_MOVED);
	EXPECT_EQ_U64(a.prev_delta, 312480);
	EXPECT_EQ_U64(a.best_delta, 78120);
	EXPECT_EQ(b.cpu, 2);
	EXPECT_EQ(b.reason, FS_FEEC_PREV_BEST);
	EXPECT_EQ_U64(b.prev_delta, 312480);
	ASSERT_TRUE(fs_test_cand(&b, 0) != NULL);
	EXPECT_EQ_U64(fs_test_cand(&b, 0)->energy, 849410);
	EXPECT_EQ_U64(fs_test_cand(&b, 0)->base, 488250);
}

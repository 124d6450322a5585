// SPDX-License-Identifier: GPL-2.0
/*
 * The late-stable policies v5.10 and v5.15 against their neighbours, one
 * rule per test. Landscapes on the 2-PD test EM (little cpu0-1 cap 512:
 * 500 MHz 50 mW, 1000 MHz 150 mW; big cpu2-3 cap 1024: 500/1000/2000 MHz
 * 200/400/1200 mW). Their x1000 costs: little 100000, 150000; big 800000,
 * 800000, 1200000. em_pd_energy (v5.10): f_req = 1.25 fmax * max / cap;
 * em_cpu_energy (v5.15): f_req = fmax * (max + max / 4) / cap; E = cost * sum / cap.
 */
#include "test.h"
#include "em_builders.h"
#include "engine/rules.h"

/* Run policy base with its rules changed by the caller (isolates one rule). */
static void run_rules(const char *base, const struct fs_feec_rules *r, const struct fs_em *em,
		      const struct fs_wakeup *w, struct fs_feec_result *out)
{
	struct fs_policy_desc d = *fs_policy_find(base);
	struct fs_policy p;
	char err[256];

	d.rules = r;
	if (fs_policy_init(&p, &d, em, err, sizeof(err))) {
		fprintf(stderr, "    %s: %s\n", base, err);
		exit(1);
	}
	fs_policy_feec(&p, w, out);
	fs_policy_fini(&p);
}

static struct fs_feec_rules rules_of(const char *policy)
{
	return *(const struct fs_feec_rules *)fs_policy_find(policy)->rules;
}

/* A util-350 task capped at 300 on big prev cpu2; the little rqs are capped at 300 too. */
static void capped_task(struct fs_em *em, struct fs_wakeup *w)
{
	unsigned int u[4] = { 100, 150, 200, 600 };

	fs_test_em_2pd(em);
	fs_test_wakeup(w, em, u, 2, 350);
	w->flags |= FS_WAKE_UCLAMP_USED;
	w->task.uclamp_max = 300;
	w->cpu[0].uclamp_max = w->cpu[1].uclamp_max = 300;
}

/*
 * cpu1 has capacity_of 300 and util 400 + 150 (capped at 512); the task is
 * capped at 300, so util_fits_cpu() lets cpu1 fit (300 <= 512). Its spare
 * is 300 lsub 512 = 0 in v5.10 but wraps to ~2^64 with v5.4 - v5.9's
 * subtraction. Little base: max(clamp(400, 0, 300), 100) = 300 ->
 * 1.25e6 * 300 / 512 = 732421 kHz -> 1000 MHz; E = 150000 * 500 / 512 = 146484.
 * p on cpu0: sum 250 + 400, E = 190429, delta 43945; on cpu1: sum 100 + 512,
 * E = 179296, delta 32812. Big: prev cpu2 has the most spare, delta 175781;
 * threshold (175781 + 146484 + 937500) >> 4 = 78735: both move.
 */
FS_TEST(feec_v5_10_lsub_spare_vs_v5_4_wrap)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[4] = { 100, 400, 200, 600 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, u, 2, 150);
	w.flags |= FS_WAKE_UCLAMP_USED;
	w.task.uclamp_max = 300;
	w.cpu[1].capacity = 300;
	w.cpu[0].uclamp_max = w.cpu[1].uclamp_max = 300;
	fs_test_run("v5.10", &em, &w, &r);
	EXPECT_EQ(r.cpu, 0);
	EXPECT_EQ_U64(r.best_delta, 43945);
	EXPECT_EQ_U64(r.prev_delta, 175781);
	EXPECT_EQ_U64(r.threshold, 78735);
	struct fs_feec_rules wrap = rules_of("v5.10");
	wrap.spare_lsub = false;
	run_rules("v5.10", &wrap, &em, &w, &r);
	EXPECT_EQ(r.cpu, 1);
	EXPECT_EQ_U64(r.best_delta, 32812);
}

/*
 * util 100 + 350 = 450 on little cpu0: 450 * 1280 > 512 * 1024, so v5.4's
 * plain fits_capacity() rejects both little CPUs and p stays on big prev;
 * v5.10's util_fits_cpu() accepts the capped task (uclamp_max 300 <= 512).
 * Little base: max 150 -> 366210 kHz -> 500 MHz, E = 100000 * 250 / 512 =
 * 48828; p on cpu0: max clamp(450, 0, 300) -> 1000 MHz, E = 150000 * 600 /
 * 512 = 175781: delta 126953 vs prev's 410156, threshold 87280: moved.
 */
FS_TEST(feec_v5_10_util_fits_cpu_capped_task_vs_v5_4_plain_fit)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;

	capped_task(&em, &w);
	fs_test_run("v5.10", &em, &w, &r);
	EXPECT_EQ(r.cpu, 0);
	EXPECT_EQ(r.reason, FS_FEEC_MOVED);
	EXPECT_EQ_U64(r.best_delta, 126953);
	EXPECT_EQ_U64(r.threshold, 87280);
	fs_test_run("v5.4", &em, &w, &r);
	EXPECT_EQ(r.cpu, 2);
	EXPECT_EQ(r.reason, FS_FEEC_PREV_BEST);
	EXPECT_TRUE(fs_test_cand(&r, 0) == NULL && fs_test_cand(&r, 1) == NULL);
}

/*
 * The clamps are max-aggregated over the PD and carry over (e26fd28db828
 * as backported): a busy cpu0 with rq uclamp_max 1024 lifts util_max to
 * 1024 for the idle cpu1 after it, so neither fits; the other way round
 * idle cpu0 keeps p's 300 and fits, busy cpu1 does not.
 */
FS_TEST(feec_v5_10_uclamp_clamps_carry_over_within_pd)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;

	capped_task(&em, &w);
	w.cpu[0].uclamp_max = 1024;
	w.cpu[1].flags |= FS_CPU_UCLAMP_IDLE;
	fs_test_run("v5.10", &em, &w, &r);
	EXPECT_EQ(r.cpu, 2);
	EXPECT_TRUE(fs_test_cand(&r, 0) == NULL && fs_test_cand(&r, 1) == NULL);

	capped_task(&em, &w);
	w.cpu[0].flags |= FS_CPU_UCLAMP_IDLE;
	w.cpu[1].uclamp_max = 1024;
	fs_test_run("v5.10", &em, &w, &r);
	EXPECT_EQ(r.cpu, 0);
	EXPECT_TRUE(fs_test_cand(&r, 0) != NULL && fs_test_cand(&r, 1) == NULL);
}

/*
 * Capacity inversion (6.2's 44c7b80bffc3 / aa69c36f31aa in late 5.10.y): a
 * big CPU whose thermal_load_avg is 600 keeps 424 < little's 512, so it is
 * judged at 424 and a uclamp_min 500 boost no longer fits it (500 > 424);
 * without the load the max-capacity CPU skips the boost check. Big prev
 * then becomes unfit: same CPU, but "prev unfit" instead of a saving.
 */
FS_TEST(feec_v5_10_capacity_inversion_uses_thermal_load_avg)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[4] = { 100, 100, 100, 100 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, u, 2, 100);
	w.flags |= FS_WAKE_UCLAMP_USED;
	w.task.uclamp_min = 500;
	fs_test_run("v5.10", &em, &w, &r);
	EXPECT_EQ(r.cpu, 0);
	EXPECT_EQ(r.reason, FS_FEEC_MOVED);
	EXPECT_EQ_U64(r.prev_delta, 195312);
	w.cpu[2].hw_load_avg = w.cpu[3].hw_load_avg = 600;
	fs_test_run("v5.10", &em, &w, &r);
	EXPECT_EQ(r.cpu, 0);
	EXPECT_EQ(r.reason, FS_FEEC_PREV_UNFIT);
	EXPECT_TRUE(fs_test_cand(&r, 2) == NULL && fs_test_cand(&r, 3) == NULL);
}

/*
 * Late 5.10.y masks UTIL_AVG_UNCHANGED (MSB): a 0-util task exits with
 * prev, unless uclamp_min boosts it (d81304bc6193 backport). v5.4 ORs bit 0
 * in, so task_util_est is 1 and feec goes on.
 */
FS_TEST(feec_v5_10_zero_exit_masked_flag_unless_uclamp_min)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[4] = { 10, 10, 10, 10 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, u, 2, 0);
	fs_test_run("v5.10", &em, &w, &r);
	EXPECT_EQ(r.reason, FS_FEEC_ZERO_UTIL);
	EXPECT_EQ(r.cpu, 2);
	fs_test_run("v5.4", &em, &w, &r);
	EXPECT_TRUE(r.reason != FS_FEEC_ZERO_UTIL);
	w.flags |= FS_WAKE_UCLAMP_USED;
	w.task.uclamp_min = 100;
	fs_test_run("v5.10", &em, &w, &r);
	EXPECT_TRUE(r.reason != FS_FEEC_ZERO_UTIL);
	EXPECT_TRUE(r.eligible);
}

/*
 * Pixel 4, idle silver and gold, prime at 51, a util-5 task on prime:
 * with mW costs (truncated: prime state 0 = 2841600 * 198 / 825600 = 681)
 * gold and silver both cost delta 2 and the strict < keeps gold (visited
 * first); x1000 (5.10.65+) keeps the digits: silver 2431 < gold 2912.
 * The prime base shows the same: 681 * 51 / 1024 = 33 vs 681482 * 51 / 1024 = 33941.
 */
FS_TEST(feec_v5_10_cost_x1000_breaks_mw_truncation_tie)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[8] = { 0, 0, 0, 0, 0, 0, 0, 51 };

	fs_test_em_pixel4(&em, FS_POWER_MW);
	fs_test_wakeup(&w, &em, u, 7, 5);
	fs_test_run("v5.10-nomargin", &em, &w, &r);
	EXPECT_EQ(r.cpu, 0);
	EXPECT_EQ_U64(r.base_energy, 33941);
	EXPECT_EQ_U64(r.best_delta, 2431);
	struct fs_feec_rules mw = rules_of("v5.10-nomargin");
	mw.cost = FS_COST_MW;
	run_rules("v5.10-nomargin", &mw, &em, &w, &r);
	EXPECT_EQ(r.cpu, 4);
	EXPECT_EQ_U64(r.base_energy, 33);
	EXPECT_EQ_U64(r.best_delta, 2);
}

/* Pixel 4 with overloaded silver (250 of 306 each: no CPU fits), idle gold and prime. */
static void silver_full(struct fs_em *em, struct fs_wakeup *w)
{
	unsigned int u[8] = { 250, 250, 250, 250, 0, 0, 0, 0 };

	fs_test_em_pixel4(em, FS_POWER_MW);
	fs_test_wakeup(w, em, u, 7, 10);
}

/*
 * 8d4c97c105ca (v5.14, in 5.15): silver has no candidate, so its base no
 * longer joins the margin. A util-10 task on idle prime: E = 681482 * 10 /
 * 1024 = 6655 (12 * 2841600 / 1024 -> 825.6 MHz); on gold 507405 * 10 / 871
 * = 5825; gold and prime bases 0. v5.15: threshold 6655 >> 4 = 415 < 830:
 * moved. With every PD's base, silver at fmax (cost 275000, clamp at 306)
 * adds 275000 * 1000 / 306 = 898692: threshold 56584, prev kept (v5.10 too).
 */
FS_TEST(feec_v5_15_base_only_candidate_pds_shrinks_threshold)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;

	silver_full(&em, &w);
	fs_test_run("v5.15", &em, &w, &r);
	EXPECT_EQ(r.cpu, 4);
	EXPECT_EQ_U64(r.base_energy, 0);
	EXPECT_EQ_U64(r.prev_delta, 6655);
	EXPECT_EQ_U64(r.best_delta, 5825);
	EXPECT_EQ_U64(r.threshold, 415);
	struct fs_feec_rules all = rules_of("v5.15");
	all.scan = FS_SCAN_ALL_PD_BASE;
	run_rules("v5.15", &all, &em, &w, &r);
	EXPECT_EQ(r.cpu, 7);
	EXPECT_EQ_U64(r.base_energy, 898692);
	EXPECT_EQ_U64(r.threshold, 56584);
	fs_test_run("v5.10", &em, &w, &r);
	EXPECT_EQ(r.cpu, 7);
	EXPECT_EQ(r.reason, FS_FEEC_MARGIN_KEPT);
}

/*
 * prev cpu2 has the most spare of big (util 100 + 100 vs cpu3 200 + 100):
 * v5.10 lets it win the max-spare search, so cpu3 is never evaluated;
 * v5.15 excludes prev and evaluates cpu3 as well.
 */
FS_TEST(feec_v5_15_prev_excluded_from_max_spare_vs_v5_10)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[4] = { 300, 300, 100, 200 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, u, 2, 100);
	fs_test_run("v5.10", &em, &w, &r);
	EXPECT_EQ(r.nr_cand, 2);
	EXPECT_TRUE(fs_test_cand(&r, 2) != NULL && fs_test_cand(&r, 3) == NULL && fs_test_cand(&r, 0) != NULL);
	fs_test_run("v5.15", &em, &w, &r);
	EXPECT_EQ(r.nr_cand, 3);
	EXPECT_TRUE(fs_test_cand(&r, 2) != NULL && fs_test_cand(&r, 3) != NULL && fs_test_cand(&r, 0) != NULL);
	EXPECT_EQ(r.cpu, 0);
}

/*
 * Non-monotonic little costs (500 MHz at 100 mW: cost 200000 > 150000 at
 * 1000 MHz). Base: max 200 -> 1.25e6 * 200 / 512 = 488281 kHz -> 500 MHz,
 * E = 200000 * 250 / 512 = 97656. A util-20 task on prev cpu0: max 220 ->
 * 1000 MHz, E = 150000 * 270 / 512 = 79101 < base. v5.15 (619e090c8e40)
 * returns prev; v5.10 wraps prev_d to 2^64 - 18555, the sum wraps the
 * threshold down to 34240 and p moves to cpu1.
 */
FS_TEST(feec_v5_15_util_changed_returns_prev)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[4] = { 200, 50, 300, 300 };

	fs_test_em_2pd(&em);
	em.pd[0].ps[0].power = 100;
	fs_test_wakeup(&w, &em, u, 0, 20);
	fs_test_run("v5.15", &em, &w, &r);
	EXPECT_EQ(r.cpu, 0);
	EXPECT_EQ(r.reason, FS_FEEC_UTIL_CHANGED);
	fs_test_run("v5.10", &em, &w, &r);
	EXPECT_EQ(r.cpu, 1);
	EXPECT_EQ(r.reason, FS_FEEC_MOVED);
	EXPECT_EQ_U64(r.prev_delta, UINT64_MAX - 18555 + 1);
	EXPECT_EQ_U64(r.threshold, 34240);
}

/*
 * v5.14+ compute_energy: big's first CPU (cpu2) has thermal pressure 424,
 * so utils are clamped at 600 and em_cpu_energy() is allowed 600. p on prev
 * cpu3 (550 + 100 = 650 -> 600): 1200000 at 2000 MHz either way, but the
 * base drops to 761718 and prev's delta to 58594 (from 117188): saving
 * 39063 < threshold 53710 keeps prev; without the cap (and in v5.10) p moves.
 */
FS_TEST(feec_v5_15_thermal_cap_in_compute_energy)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[4] = { 100, 100, 100, 550 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, u, 3, 100);
	w.cpu[2].thermal_pressure = 424;
	fs_test_run("v5.15", &em, &w, &r);
	EXPECT_EQ(r.cpu, 3);
	EXPECT_EQ(r.reason, FS_FEEC_MARGIN_KEPT);
	EXPECT_EQ_U64(r.prev_delta, 58594);
	EXPECT_EQ_U64(r.threshold, 53710);
	struct fs_feec_rules nocap = rules_of("v5.15");
	nocap.energy_thermal_cap = false;
	run_rules("v5.15", &nocap, &em, &w, &r);
	EXPECT_EQ(r.cpu, 0);
	EXPECT_EQ_U64(r.prev_delta, 117188);
	fs_test_run("v5.10", &em, &w, &r);
	EXPECT_EQ(r.cpu, 0);
}

/*
 * v5.12+ busy time on dst: cpu_util_next(cpu, p, -1) + task_util_est(p)
 * = max(100, 300) + max(200, 50) = 500, where cpu_util_next(cpu, p, dst)
 * gives max(100 + 200, 300 + 50) = 350. Little sum 500 + 300:
 * E = 150000 * 800 / 512 = 234375 (delta 58594 over the base 175781);
 * without util_running 150000 * 650 / 512 = 190429 (delta 14648).
 */
FS_TEST(feec_v5_15_util_running_on_dst)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[4] = { 100, 100, 100, 100 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, u, 2, 200);
	w.task.util_est_enqueued = w.task.util_est_ewma = 50;
	w.cpu[0].util_est = w.cpu[1].util_est = 300;
	fs_test_run("v5.15", &em, &w, &r);
	EXPECT_EQ(r.cpu, 0);
	EXPECT_EQ_U64(r.best_delta, 58594);
	struct fs_feec_rules sum = rules_of("v5.15");
	sum.util_running = false;
	run_rules("v5.15", &sum, &em, &w, &r);
	EXPECT_EQ(r.cpu, 0);
	EXPECT_EQ_U64(r.best_delta, 14648);
}

/*
 * Headroom rounding: for cpu2's 410, v5.15's fmax * (410 + 102) / 1024 =
 * 1000000 kHz lands on 1000 MHz (cost 800000), v5.10's (fmax + fmax / 4) *
 * 410 / 1024 = 1000976 on 2000 MHz (cost 1200000). The big base is then
 * 800000 * 510 / 1024 = 398437 instead of 597656, prev cpu3's delta 39063
 * instead of 58594, and the saving 29297 stays under 29785: prev kept.
 */
FS_TEST(feec_v5_15_headroom_on_util_vs_on_freq)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[4] = { 100, 100, 410, 100 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, u, 3, 50);
	fs_test_run("v5.15", &em, &w, &r);
	EXPECT_EQ(r.cpu, 3);
	EXPECT_EQ_U64(r.prev_delta, 39063);
	EXPECT_EQ_U64(r.threshold, 29785);
	struct fs_feec_rules old = rules_of("v5.15");
	old.energy = FS_EM_PD_ENERGY_5_0;
	run_rules("v5.15", &old, &em, &w, &r);
	EXPECT_EQ(r.cpu, 0);
	EXPECT_EQ_U64(r.prev_delta, 58594);
}

/*
 * Early 5.15.y (read: 5.15.100) fits on uclamp_rq_util_with(): a util-100
 * task boosted to 500 counts as 500 on little, 500 * 1280 > 512 * 1024, so
 * only big is a candidate. The backported util_fits_cpu() judges the boost
 * against little's capacity (500 <= 512) and the real util against the
 * margin: little fits and is cheaper. Little base: 100 + 100, u = 125 ->
 * 500 MHz, E = 100000 * 200 / 512 = 39062; p on cpu0: frequency util
 * clamp(200, 500, 1024) = 500, + 125 capped at 512 -> 1000 MHz,
 * E = 150000 * 300 / 512 = 87890: delta 48828.
 */
FS_TEST(feec_v5_15_util_fits_cpu_boost_vs_early_stable_clamped_fit)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[4] = { 100, 100, 100, 100 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, u, 2, 100);
	w.flags |= FS_WAKE_UCLAMP_USED;
	w.task.uclamp_min = 500;
	fs_test_run("v5.15", &em, &w, &r);
	EXPECT_EQ(r.cpu, 0);
	EXPECT_EQ_U64(r.best_delta, 48828);
	struct fs_feec_rules early = rules_of("v5.15");
	early.fit = FS_FIT_UCLAMP_UTIL;
	early.zero_exit_uclamp_min = false;
	run_rules("v5.15", &early, &em, &w, &r);
	EXPECT_TRUE(fs_test_cand(&r, 0) == NULL && fs_test_cand(&r, 1) == NULL);
	EXPECT_EQ(r.cpu, 2);
}

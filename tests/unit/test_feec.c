// SPDX-License-Identifier: GPL-2.0
/* feec branches per policy, neighbour policies that must disagree, and the Pixel 4 margin claim. */
#include "test.h"
#include "em_builders.h"

static const char *const all[] = { "v5.0", "v5.0-nomargin", "v5.4", "v5.4-nomargin",
				   "v5.10", "v5.10-nomargin", "v5.15", "v5.15-nomargin",
				   "v6.0", "v6.0+margin", "v6.1", "v6.1+margin", "v6.6", "v6.6+margin",
				   "v6.12", "v6.12+margin", "v6.12.97", "v6.12.97+margin" };
#define NALL (int)(sizeof(all) / sizeof(all[0]))

FS_TEST(feec_entry_exits_return_minus_one_for_every_policy)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[4] = { 10, 10, 10, 10 };

	fs_test_em_2pd(&em);
	for (int i = 0; i < NALL; i++) {
		fs_test_wakeup(&w, &em, u, 2, 50);
		w.flags |= FS_WAKE_OVERUTILIZED;
		fs_test_run(all[i], &em, &w, &r);
		EXPECT_EQ(r.cpu, -1);
		EXPECT_EQ(r.reason, FS_FEEC_OVERUTILIZED);
		w.flags = FS_WAKE_NO_ASYM;
		fs_test_run(all[i], &em, &w, &r);
		EXPECT_EQ(r.reason, FS_FEEC_NO_ASYM);
		w.flags = FS_WAKE_FORK;
		fs_test_run(all[i], &em, &w, &r);
		EXPECT_EQ(r.reason, FS_FEEC_FORK);
		w.flags = 0;
		w.nr_cpus_allowed = 1;
		fs_test_run(all[i], &em, &w, &r);
		EXPECT_EQ(r.reason, FS_FEEC_AFFINE);
	}
}

/*
 * v6.6+ WF_CURRENT_CPU: select_task_rq_fair() takes the waker's CPU before
 * feec, for every policy (the caller is the live kernel's), after the fork and
 * one-CPU exits and before the EAS and overutilized gates.
 */
FS_TEST(feec_current_cpu_exit_for_every_policy)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[4] = { 10, 10, 10, 10 };
	char why[160];

	fs_test_em_2pd(&em);
	ASSERT_TRUE(fs_policy_count() >= NALL);
	for (int i = 0; i < fs_policy_count(); i++) {
		const char *name = fs_policy_at(i)->name;

		fs_test_wakeup(&w, &em, u, 2, 50);
		w.waker_cpu = 0;
		w.flags |= FS_WAKE_FLAGS_KNOWN;
		fs_test_run(name, &em, &w, &r);
		EXPECT_TRUE(r.eligible); /* the same wake-up without the flag compares energies */
		EXPECT_TRUE(r.reason != FS_FEEC_CURRENT_CPU);
		w.flags |= FS_WAKE_CURRENT_CPU;
		fs_test_run(name, &em, &w, &r);
		EXPECT_EQ(r.reason, FS_FEEC_CURRENT_CPU);
		EXPECT_EQ(r.cpu, -1);
		EXPECT_TRUE(!r.eligible);
		w.flags |= FS_WAKE_OVERUTILIZED | FS_WAKE_NO_PD | FS_WAKE_NO_ASYM;
		fs_test_run(name, &em, &w, &r);
		EXPECT_EQ(r.reason, FS_FEEC_CURRENT_CPU);
		w.flags |= FS_WAKE_FORK;
		fs_test_run(name, &em, &w, &r);
		EXPECT_EQ(r.reason, FS_FEEC_FORK);
		w.flags &= ~FS_WAKE_FORK;
		w.nr_cpus_allowed = 1;
		fs_test_run(name, &em, &w, &r);
		EXPECT_EQ(r.reason, FS_FEEC_AFFINE);
	}
	EXPECT_STR(fs_feec_reason_name(FS_FEEC_CURRENT_CPU), "current-cpu");
	r.reason = FS_FEEC_CURRENT_CPU;
	fs_feec_explain(&r, why, sizeof(why));
	EXPECT_CONTAINS(why, "WF_CURRENT_CPU");
}

FS_TEST(feec_zero_util_exit_only_after_v5_13_flag_move)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[4] = { 10, 10, 10, 10 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, u, 2, 0);
	/* v5.x ORs bit 0 into _task_util_est: task_util_est = 1, feec goes on. */
	fs_test_run("v5.4", &em, &w, &r);
	EXPECT_EQ(r.task_util, 1);
	EXPECT_TRUE(r.reason != FS_FEEC_ZERO_UTIL);
	fs_test_run("v6.0", &em, &w, &r);
	EXPECT_EQ(r.reason, FS_FEEC_ZERO_UTIL);
	EXPECT_EQ(r.cpu, 2);
	/* v6.12: a uclamp_min boost keeps feec going even at 0 util. */
	w.flags |= FS_WAKE_UCLAMP_USED;
	w.task.uclamp_min = 100;
	fs_test_run("v6.12", &em, &w, &r);
	EXPECT_TRUE(r.reason != FS_FEEC_ZERO_UTIL);
}

/*
 * v5.0 - v5.3 keep a CPU whose util is exactly 0.8 of its capacity
 * (cap * 1024 < util * 1280 is false at equality); v5.4's fits_capacity()
 * drops it. prev (cpu2) and the little CPUs are full, cpu3 has capacity_of
 * 640 (RT pressure) and cpu_util_next = 512: 512 * 1280 = 655360 = 640 * 1024.
 */
FS_TEST(feec_pair_v5_0_vs_v5_4_fits_equality)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[4] = { 500, 500, 1000, 462 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, u, 2, 50); /* cpu3: 462 + 50 = 512 with the task */
	w.cpu[3].capacity = 640;
	w.cpu[3].util_est = 0; /* else util_est 462 + (50 | 1) = 513 would win over 512 */
	fs_test_run("v5.0", &em, &w, &r);
	EXPECT_EQ(r.cpu, 3);
	EXPECT_EQ(r.reason, FS_FEEC_PREV_UNFIT);
	fs_test_run("v5.4", &em, &w, &r);
	EXPECT_EQ(r.cpu, 2);
	EXPECT_EQ(r.reason, FS_FEEC_NO_CANDIDATE);
}

/* Pixel 4, 5 % (util 51) on every CPU, a util-20 task last on the prime CPU 7. */
static void pixel4_small_task(struct fs_em *em, struct fs_wakeup *w, enum fs_power_unit unit,
			      unsigned int task)
{
	unsigned int u[8];
	for (int i = 0; i < 8; i++)
		u[i] = 51;
	fs_test_em_pixel4(em, unit);
	fs_test_wakeup(w, em, u, 7, task);
}

/*
 * v5.4 numbers, worked independently (mW = 232/369/421 * mV^2 * MHz / 1e9,
 * cost = fmax * P / f, em_pd_energy: f_req = (fmax + fmax/4) * max / cap):
 *  silver base: max 51, sum 204: f_req = 2232000 * 51 / 306 = 372000 -> 403.2 MHz,
 *    P = 232 * 600^2 * 403 / 1e9 = 33, cost 1785600 * 33 / 403200 = 146, E = 146 * 204 / 306 = 97;
 *    with p (20 | 1 = 21 util_est) on cpu0: max 72, f_req 525176 -> 576 MHz, cost 148, E = 148*225/306 = 108: delta 11
 *  gold base: 3 * 51: 710.4 MHz, cost 507, E = 507 * 153 / 871 = 89
 *  prime base: 51: 825.6 MHz, cost 681, E = 681 * 51 / 1024 = 33; with p (71): E = 681 * 71 / 1024 = 47: delta 14
 *  base = 97 + 89 + 33 = 219; threshold = (14 + 219) >> 4 = 14; saving = 14 - 11 = 3.
 */
FS_TEST(feec_pixel4_margin_keeps_small_task_on_prime_v5_4_moves_v6_0)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	char line[160];

	pixel4_small_task(&em, &w, FS_POWER_MW, 20);
	fs_test_run("v5.4", &em, &w, &r);
	EXPECT_EQ_U64(r.base_energy, 219);
	EXPECT_EQ_U64(r.prev_delta, 14);
	EXPECT_EQ_U64(r.best_delta, 11);
	EXPECT_EQ(r.best_cpu, 0);
	EXPECT_EQ_U64(r.threshold, 14);
	EXPECT_EQ(r.cpu, 7);
	EXPECT_EQ(r.reason, FS_FEEC_MARGIN_KEPT);
	fs_feec_explain(&r, line, sizeof(line));
	EXPECT_STR(line, "margin kept prev: saving 3 < threshold 14");

	/* The same landscape with the v6.0 rule (uW EM): the task leaves CPU 7. */
	struct fs_em emu;
	struct fs_wakeup wu;
	pixel4_small_task(&emu, &wu, FS_POWER_UW, 20);
	fs_test_run("v6.0", &emu, &wu, &r);
	EXPECT_TRUE(r.cpu != 7 && r.cpu >= 0);
	EXPECT_EQ(r.reason, FS_FEEC_MOVED);
}

/*
 * Off-by-one-shift guard: a util-100 task on the same landscape. The saving
 * (10) and prev_d + base (287: threshold 17 at >> 4) were re-derived with the
 * method of the test above; the shifted thresholds are computed here:
 * >> 4 keeps (10 <= 17), >> 5 would move (10 > 8), >> 3 keeps (10 <= 35).
 */
FS_TEST(feec_pixel4_margin_shift_is_four)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;

	pixel4_small_task(&em, &w, FS_POWER_MW, 100);
	fs_test_run("v5.4", &em, &w, &r);
	ASSERT_TRUE(r.prev_delta != UINT64_MAX);
	__u64 saving = r.prev_delta - r.best_delta, sum = r.prev_delta + r.base_energy;
	EXPECT_EQ_U64(saving, 10);
	EXPECT_EQ_U64(sum, 287); /* prev_d 68 (prime 101 - 33) + base 219 */
	EXPECT_EQ_U64(sum >> 4, 17);
	EXPECT_EQ(r.cpu, 7);
	EXPECT_TRUE(saving > (sum >> 5)); /* with >> 5 the kernel would have moved it */
	EXPECT_TRUE(saving <= (sum >> 3));
	EXPECT_EQ_U64(r.threshold, sum >> 4);
}

/* Each policy and its neighbour decide differently on the Pixel 4 small-task landscape. */
FS_TEST(feec_pairs_margin_twins_disagree)
{
	struct fs_em em, emu;
	struct fs_wakeup w, wu;
	struct fs_feec_result a, b;

	pixel4_small_task(&em, &w, FS_POWER_MW, 20);
	pixel4_small_task(&emu, &wu, FS_POWER_UW, 20);
	fs_test_run("v5.0", &em, &w, &a);
	fs_test_run("v5.0-nomargin", &em, &w, &b);
	EXPECT_EQ(a.cpu, 7);
	EXPECT_TRUE(b.cpu != 7);
	fs_test_run("v5.4", &em, &w, &a);
	fs_test_run("v5.4-nomargin", &em, &w, &b);
	EXPECT_EQ(a.cpu, 7);
	EXPECT_TRUE(b.cpu != 7);
	fs_test_run("v5.10", &em, &w, &a);
	fs_test_run("v5.10-nomargin", &em, &w, &b);
	EXPECT_EQ(a.cpu, 7);
	EXPECT_EQ(b.cpu, 0);
	fs_test_run("v5.15", &em, &w, &a);
	fs_test_run("v5.15-nomargin", &em, &w, &b);
	EXPECT_EQ(a.cpu, 7);
	EXPECT_EQ(b.cpu, 0);
	fs_test_run("v6.0", &emu, &wu, &a);
	fs_test_run("v6.0+margin", &emu, &wu, &b);
	EXPECT_TRUE(a.cpu != 7);
	EXPECT_EQ(b.cpu, 7);
	EXPECT_EQ(b.reason, FS_FEEC_MARGIN_KEPT);
	fs_test_run("v6.1", &emu, &wu, &a);
	fs_test_run("v6.1+margin", &emu, &wu, &b);
	EXPECT_TRUE(a.cpu != 7);
	EXPECT_EQ(b.cpu, 7);
	EXPECT_EQ(b.reason, FS_FEEC_MARGIN_KEPT);
	fs_test_run("v6.6", &emu, &wu, &a);
	fs_test_run("v6.6+margin", &emu, &wu, &b);
	EXPECT_TRUE(a.cpu != 7);
	EXPECT_EQ(b.cpu, 7);
	fs_test_run("v6.12", &emu, &wu, &a);
	fs_test_run("v6.12+margin", &emu, &wu, &b);
	EXPECT_TRUE(a.cpu != 7);
	EXPECT_EQ(b.cpu, 7);
	fs_test_run("v6.12.97", &emu, &wu, &a);
	fs_test_run("v6.12.97+margin", &emu, &wu, &b);
	EXPECT_TRUE(a.cpu != 7);
	EXPECT_EQ(b.cpu, 7);
}

/*
 * v5.4 vs v5.10 (a capped task fits little only through util_fits_cpu),
 * v5.10 vs v5.15 (an energy below its base wraps vs keeps prev) and v5.15
 * vs v6.0 (margin) on the landscapes of test_feec_v5_x.c, then
 * v5.4 vs v6.0 and v6.6 vs v6.12 on the same Pixel 4 landscape: margin
 * (v5.4 keeps 7, v6.0 moves) and the energy model (v6.0 - v6.6 pick a
 * silver CPU for a util-5 task, v6.12's perf-based costs and headroom pick
 * gold). v6.0 vs v6.1: prev's spare gates its PD's max-spare CPU (2-PD
 * landscape of test_feec_v6_x.c); v6.1 vs v6.6: runnable boost.
 */
FS_TEST(feec_pairs_era_neighbours_disagree)
{
	struct fs_em em, emu;
	struct fs_wakeup w, wu;
	struct fs_feec_result a, b;

	unsigned int capped[4] = { 100, 150, 200, 600 }, dip[4] = { 200, 50, 300, 300 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, capped, 2, 350);
	w.flags |= FS_WAKE_UCLAMP_USED;
	w.task.uclamp_max = w.cpu[0].uclamp_max = w.cpu[1].uclamp_max = 300;
	fs_test_run("v5.4", &em, &w, &a);
	fs_test_run("v5.10", &em, &w, &b);
	EXPECT_EQ(a.cpu, 2);
	EXPECT_EQ(b.cpu, 0);
	em.pd[0].ps[0].power = 100; /* little: 500 MHz dearer than 1000 MHz */
	fs_test_wakeup(&w, &em, dip, 0, 20);
	fs_test_run("v5.10", &em, &w, &a);
	fs_test_run("v5.15", &em, &w, &b);
	EXPECT_EQ(a.cpu, 1);
	EXPECT_EQ(b.cpu, 0);

	pixel4_small_task(&em, &w, FS_POWER_MW, 20);
	pixel4_small_task(&emu, &wu, FS_POWER_UW, 20);
	fs_test_run("v5.15", &em, &w, &a);
	fs_test_run("v6.0", &emu, &wu, &b);
	EXPECT_EQ(a.cpu, 7);
	EXPECT_EQ(b.cpu, 0);
	fs_test_run("v5.4", &em, &w, &a);
	fs_test_run("v6.0", &emu, &wu, &b);
	EXPECT_TRUE(a.cpu != b.cpu);
	pixel4_small_task(&emu, &wu, FS_POWER_UW, 5);
	fs_test_run("v6.0", &emu, &wu, &a);
	fs_test_run("v6.12", &emu, &wu, &b);
	EXPECT_EQ(a.cpu, 0);
	EXPECT_EQ(b.cpu, 4);
	fs_test_run("v6.6", &emu, &wu, &a);
	EXPECT_EQ(a.cpu, 0);

	unsigned int spare[4] = { 450, 450, 350, 100 }, boost[4] = { 100, 150, 300, 300 };
	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, spare, 2, 100);
	w.cpu[3].capacity = 400;
	fs_test_run("v6.0", &em, &w, &a);
	fs_test_run("v6.1", &em, &w, &b);
	EXPECT_EQ(a.cpu, 3);
	EXPECT_EQ(b.cpu, 2);
	fs_test_wakeup(&w, &em, boost, 2, 40);
	w.cpu[0].runnable_avg = 180;
	fs_test_run("v6.1", &em, &w, &a);
	fs_test_run("v6.6", &em, &w, &b);
	EXPECT_EQ(a.cpu, 0);
	EXPECT_EQ(b.cpu, 2);
}

// SPDX-License-Identifier: GPL-2.0
/* The simulated machine (user/sim/) on workloads whose outcome is worked by hand. */
#include <math.h>
#include "test.h"
#include "em_builders.h"
#include "sim_builders.h"

#define MS 1000000ull

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b) + 1);
}

/*
 * One periodic task on a 1+1 EM with one OPP a PD: little (cap 512, 1 GHz,
 * 10 W), big (cap 1024, 2 GHz, 20.5 W). The task (util ~128, far below the
 * little's 409.6 fit limit) last ran on big; it wakes 10 times, every 16 ms,
 * for 2 ms of work (at capacity 1024 and fmax).
 *
 * feec's estimate per unit of util: little 10000/512 = 19.53, big
 * 20500/1024 = 20.02 (the same ratio in every era's cost: x1000, uW,
 * 10 x P / performance). Moving saves 2.4 % of prev's energy, base 0 (the
 * task is alone): under the 6.25 % margin (v5.0's prev_E >> 4, v5.4+'s
 * (prev_d + base) >> 4) it stays, without it it moves at the first wake-up.
 *
 * DEVICE energy, busy time x power:
 *   margin:    on big,    2 ms x 20.5 W = 41 mJ a wake-up, 410 mJ
 *   no margin: on little, 4 ms x 10 W   = 40 mJ a wake-up, 400 mJ
 * LAB (the work takes 2 ms everywhere): margin 410 mJ, no margin 200 mJ.
 */
static void periodic_1p1(struct fs_sim_workload *wl)
{
	fs_test_wl_init(wl, 2, 1, 10, 200 * MS);
	wl->tasks[0].init_cpu = 1;
	wl->tasks[0].init_util = wl->tasks[0].init_util_est = 128;
	fs_test_wl_periodic(wl, 0, 1 * MS, 16 * MS, 2 * MS, 10);
}

FS_TEST(sim_periodic_1p1_energy_by_hand_every_policy)
{
	struct fs_sim_workload wl;
	struct fs_em em;

	fs_test_em_1p1(&em, 10000, 20500);
	periodic_1p1(&wl);
	for (int i = 0; i < fs_policy_count(); i++) {
		const struct fs_policy_desc *d = fs_policy_at(i);
		struct fs_sim_result r;

		fs_test_sim(&wl, &em, d->name, FS_SIM_DEVICE, &r);
		const double want = d->has_margin ? 410.0 : 400.0;

		if (!near(r.energy_mj, want))
			FS_FAIL_AT("%s: %.6f mJ, want %.1f", d->name, r.energy_mj, want);
		EXPECT_EQ_U64(r.busy_ns[d->has_margin ? 1 : 0], d->has_margin ? 20 * MS : 40 * MS);
		EXPECT_EQ_U64(r.migrations_wakeup, d->has_margin ? 0 : 1);
		EXPECT_EQ_U64(r.task[0].acts_done, 10);
		EXPECT_EQ_U64(r.work_left, 0);
		fs_sim_result_free(&r);
	}
	fs_test_wl_free(&wl);
}

FS_TEST(sim_periodic_1p1_lab_physics_by_hand)
{
	struct fs_sim_workload wl;
	struct fs_sim_result r;
	struct fs_em em;

	fs_test_em_1p1(&em, 10000, 20500);
	periodic_1p1(&wl);
	fs_test_sim(&wl, &em, "v6.1", FS_SIM_LAB, &r);
	EXPECT_TRUE(near(r.energy_mj, 200.0));
	EXPECT_EQ_U64(r.busy_ns[0], 20 * MS);
	fs_sim_result_free(&r);
	fs_test_sim(&wl, &em, "v6.1+margin", FS_SIM_LAB, &r);
	EXPECT_TRUE(near(r.energy_mj, 410.0));
	EXPECT_EQ_U64(r.busy_ns[1], 20 * MS);
	fs_sim_result_free(&r);
	fs_test_wl_free(&wl);
}

/* energy is in the EM's unit x s; mJ only where the unit is a watt's (a bogoWatt EM has none). */
FS_TEST(sim_energy_units)
{
	struct fs_sim_workload wl;
	struct fs_sim_result r;
	struct fs_em em;

	fs_test_em_1p1(&em, 10000, 20500);
	periodic_1p1(&wl);
	em.unit = FS_POWER_UW;
	fs_test_sim(&wl, &em, "v6.1", FS_SIM_DEVICE, &r);
	EXPECT_TRUE(near(r.energy, 400.0) && near(r.energy_mj, 0.4));
	fs_sim_result_free(&r);
	em.unit = FS_POWER_BOGO;
	fs_test_sim(&wl, &em, "v6.1", FS_SIM_DEVICE, &r);
	EXPECT_TRUE(near(r.energy, 400.0) && isnan(r.energy_mj));
	fs_sim_result_free(&r);
	fs_test_wl_free(&wl);
}

/*
 * A burst that outgrows the little CPU: util 10 on little (cap 512, one
 * OPP, so its PELT clock runs at half speed while it runs), 200 ms of work.
 * After t ms of PELT time util_avg is about 1024 - 1014 y^(t / 1.024), y^32
 * = 1/2; with the kernel's truncations (engine/pelt.c) it is 406 at 48 ms
 * of wall time (24 ms of PELT time) and 431 at 52 ms. The fit limit is
 * 409.6 (fits_capacity(): util x 1280 < 512 x 1024), so the tick at 52 ms
 * (every 4 ms at 250 Hz) marks it misfit, the root domain overutilized, and
 * the idle big CPU pulls it: 52 ms on little (26 ms of the work), the
 * remaining 174 ms of work on big.
 */
FS_TEST(sim_burst_misfit_pulled_up_at_next_tick)
{
	const char *policies[] = { "v5.4", "v6.1", "v6.12" };
	struct fs_sim_workload wl;
	struct fs_em em;

	fs_test_em_1p1(&em, 100, 400);
	fs_test_wl_init(&wl, 2, 1, 1, 1000 * MS);
	wl.tasks[0].init_cpu = 0;
	wl.tasks[0].init_util = wl.tasks[0].init_util_est = 10;
	fs_test_wl_act(&wl, 0, 0, 200 * MS);
	for (int i = 0; i < 3; i++) {
		struct fs_sim_result r;

		fs_test_sim(&wl, &em, policies[i], FS_SIM_DEVICE, &r);
		EXPECT_EQ_U64(r.migrations_misfit, 1);
		EXPECT_EQ_U64(r.busy_ns[0], 52 * MS);
		EXPECT_EQ_U64(r.busy_ns[1], 200 * MS - 26 * MS);
		EXPECT_EQ_U64(r.task[0].acts_done, 1);
		EXPECT_TRUE(r.overutilized_ns >= 4 * MS);
		fs_sim_result_free(&r);
	}
	fs_test_wl_free(&wl);
}

/*
 * A phase change: 20 wake-ups of 11 ms every 16 ms (util ~700: only big
 * fits), then 30 of 1 ms. Once the task's util_est has decayed below the
 * little's fit limit, v6.1 moves it to little (2.4 % cheaper, as above)
 * while v6.1+margin keeps it on big: the saving is under 6.25 %.
 */
FS_TEST(sim_phase_change_margin_keeps_big)
{
	struct fs_sim_workload wl;
	struct fs_sim_result a, b;
	struct fs_em em;

	fs_test_em_1p1(&em, 10000, 20500);
	fs_test_wl_init(&wl, 2, 1, 50, 1000 * MS);
	wl.tasks[0].init_cpu = 1;
	wl.tasks[0].init_util = wl.tasks[0].init_util_est = 700;
	fs_test_wl_periodic(&wl, 0, 0, 16 * MS, 11 * MS, 20);
	fs_test_wl_periodic(&wl, 0, 320 * MS, 16 * MS, 1 * MS, 30);
	fs_test_sim(&wl, &em, "v6.1", FS_SIM_DEVICE, &a);
	fs_test_sim(&wl, &em, "v6.1+margin", FS_SIM_DEVICE, &b);
	EXPECT_EQ_U64(b.busy_ns[0], 0);
	EXPECT_EQ_U64(b.migrations_wakeup, 0);
	EXPECT_EQ_U64(a.migrations_wakeup, 1);
	EXPECT_TRUE(a.busy_ns[0] > 0);
	EXPECT_TRUE(a.energy < b.energy);
	EXPECT_EQ_U64(a.task[0].acts_done, 50);
	EXPECT_EQ_U64(b.task[0].acts_done, 50);
	fs_sim_result_free(&a);
	fs_sim_result_free(&b);
	fs_test_wl_free(&wl);
}

FS_TEST(sim_hist_quantile_upper_bounds)
{
	__u64 h[FS_SIM_LAT_BUCKETS] = { 0 };

	EXPECT_EQ_U64(fs_sim_hist_quantile(h, 0.5), 0);
	h[10] = 50; /* [1024, 2048) */
	h[20] = 49;
	h[30] = 1;
	EXPECT_EQ_U64(fs_sim_hist_quantile(h, 0.5), 2048);
	EXPECT_EQ_U64(fs_sim_hist_quantile(h, 0.51), 2ull << 20);
	EXPECT_EQ_U64(fs_sim_hist_quantile(h, 0.99), 2ull << 20);
	EXPECT_EQ_U64(fs_sim_hist_quantile(h, 1.0), 2ull << 30);
}

FS_TEST(sim_rejects_bad_params)
{
	struct fs_sim_workload wl;
	struct fs_sim_result r;
	struct fs_em em;
	struct fs_sim_params p = { 0 };
	char err[256] = "";

	fs_test_em_1p1(&em, 100, 400);
	fs_test_wl_init(&wl, 2, 1, 1, 10 * MS);
	EXPECT_EQ(fs_sim_run(&wl, &p, &r, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "Energy Model");
	p.em = &em;
	EXPECT_EQ(fs_sim_run(&wl, &p, &r, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "policy");
	p.policy = fs_policy_find("v6.12");
	wl.nr_cpus = 3;
	EXPECT_EQ(fs_sim_run(&wl, &p, &r, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "CPUs");
	fs_test_wl_free(&wl);
}

/*
 * schedutil's OPPs: big's 500 MHz state costs fmax x P / f = 2000 x 300 /
 * 500 = 1200, more than 1000 MHz's 800, so the EM flags it inefficient. A
 * light task pinned to big runs there only where the kernel does not skip
 * inefficient OPPs (v5.4; v5.16+ skips them with the PD's flag).
 */
FS_TEST(sim_sugov_skips_inefficient_opps_from_v5_16)
{
	struct fs_sim_workload wl;
	struct fs_sim_result a, b;
	struct fs_em em;
	char err[256];

	fs_test_em_1p1(&em, 100, 1200);
	em.pd[1].nr_ps = 0;
	fs_test_add_state(&em.pd[1], 500000, 300);
	fs_test_add_state(&em.pd[1], 1000000, 400);
	fs_test_add_state(&em.pd[1], 2000000, 1200);
	em.pd[1].flags = FS_EM_PD_SKIP_INEFFICIENT;
	ASSERT_TRUE(!fs_em_finalize(&em, err, sizeof(err)));
	fs_test_wl_init(&wl, 2, 1, 20, 400 * MS);
	wl.tasks[0].init_cpu = 1;
	wl.tasks[0].cpus_allowed = 0x2;
	wl.tasks[0].init_util = wl.tasks[0].init_util_est = 40;
	fs_test_wl_periodic(&wl, 0, 0, 20 * MS, 1 * MS, 20);
	fs_test_sim(&wl, &em, "v5.4", FS_SIM_DEVICE, &a);
	fs_test_sim(&wl, &em, "v6.12", FS_SIM_DEVICE, &b);
	EXPECT_TRUE(a.opp_busy_ns[1][0] > 0);
	EXPECT_EQ_U64(b.opp_busy_ns[1][0], 0);
	EXPECT_TRUE(b.opp_busy_ns[1][1] > 0);
	fs_sim_result_free(&a);
	fs_sim_result_free(&b);
	fs_test_wl_free(&wl);
}

/*
 * The rate limit: the frequency set at t0 (nothing runs: the lowest OPP)
 * cannot change within 10 s, so a task running flat out on big stays at
 * 500 MHz; without a limit schedutil raises big to the top.
 */
FS_TEST(sim_sugov_rate_limit_holds_the_frequency)
{
	struct fs_sim_params p = { .physics = FS_SIM_DEVICE, .sugov_rate_limit_ns = 10000 * MS };
	struct fs_sim_workload wl;
	struct fs_sim_result a, b;
	struct fs_em em;
	char err[256];

	fs_test_em_2pd(&em);
	fs_test_wl_init(&wl, 4, 1, 1, 200 * MS);
	wl.tasks[0].init_cpu = 2;
	wl.tasks[0].cpus_allowed = 0x4;
	fs_test_wl_act(&wl, 0, 0, 500 * MS);
	p.em = &em;
	p.policy = fs_policy_find("v6.12");
	ASSERT_TRUE(!fs_sim_run(&wl, &p, &a, err, sizeof(err)));
	p.sugov_rate_limit_ns = 0;
	ASSERT_TRUE(!fs_sim_run(&wl, &p, &b, err, sizeof(err)));
	EXPECT_EQ_U64(a.opp_busy_ns[1][0], 200 * MS);
	EXPECT_TRUE(b.opp_busy_ns[1][2] > 100 * MS);
	fs_sim_result_free(&a);
	fs_sim_result_free(&b);
	fs_test_wl_free(&wl);
}

/*
 * While the root domain is overutilized (A, pinned to little cpu0, runs
 * flat out for 200 ms: its util passes cpu0's fit limit 409.6 within
 * about 60 ms and nothing bigger may take it), wake-ups skip feec and the
 * balancer works. At 80 ms B (last on cpu0) wakes: cpu0 is busy, so the
 * fallback takes the next idle CPU, cpu1. C and D (allowed on the big
 * CPUs 2 and 3, last on cpu2) wake at 80 ms too, while E (pinned to cpu3,
 * 20 ms of work from 70 ms) still runs: C gets idle cpu2, D finds 2 and 3
 * busy and queues on prev, cpu2. When E completes, cpu3 goes idle and
 * pulls D (newly idle balance).
 */
FS_TEST(sim_overutilized_fallback_and_newidle_pull)
{
	struct fs_sim_workload wl;
	struct fs_sim_result r;
	struct fs_em em;

	fs_test_em_2pd(&em);
	fs_test_wl_init(&wl, 4, 5, 5, 300 * MS);
	wl.tasks[0].cpus_allowed = 0x1;
	fs_test_wl_act(&wl, 0, 0, 100 * MS);
	fs_test_wl_act(&wl, 1, 80 * MS, 1 * MS);
	wl.tasks[2].init_cpu = wl.tasks[3].init_cpu = 2;
	wl.tasks[2].cpus_allowed = wl.tasks[3].cpus_allowed = 0xc;
	fs_test_wl_act(&wl, 2, 80 * MS, 30 * MS);
	fs_test_wl_act(&wl, 3, 80 * MS, 30 * MS);
	wl.tasks[4].init_cpu = 3;
	wl.tasks[4].cpus_allowed = 0x8;
	fs_test_wl_act(&wl, 4, 70 * MS, 20 * MS);
	fs_test_sim(&wl, &em, "v6.12", FS_SIM_DEVICE, &r);
	EXPECT_EQ_U64(r.wakeups, 5);
	EXPECT_TRUE(r.overutilized_wakeups >= 3);
	EXPECT_EQ_U64(r.busy_ns[1], 2 * MS); /* B: 1 ms of work at half capacity, little's top OPP */
	EXPECT_EQ_U64(r.migrations_newidle, 1);
	EXPECT_EQ_U64(r.migrations_wakeup, 1);
	for (int i = 0; i < 5; i++)
		EXPECT_EQ_U64(r.task[i].acts_done, 1);
	fs_sim_result_free(&r);
	fs_test_wl_free(&wl);
}

/*
 * Time sharing: A and B, pinned to big (one OPP at fmax: a ns of work a
 * ns), 40 ms of work each from t0, A first. Two CPUs scale the tunables by
 * 1 + log2(2) = 2. CFS (v6.1): slice max(12 ms / 2, 1.5 ms) = 6 ms, seen at
 * the 4 ms ticks, so turns of 8 ms: A waits [8,16) [24,32) [40,48) [56,64)
 * = 32 ms and is done at 72 ms, B waits 40 ms. EEVDF (v6.12): base slice
 * 1.5 ms, a turn a tick: A waits 9 x 4 = 36 ms, B 10 x 4 = 40 ms.
 */
FS_TEST(sim_time_sharing_cfs_and_eevdf_slices)
{
	struct fs_sim_workload wl;
	struct fs_sim_result a, b;
	struct fs_em em;

	fs_test_em_1p1(&em, 100, 400);
	fs_test_wl_init(&wl, 2, 2, 2, 200 * MS);
	for (int i = 0; i < 2; i++) {
		wl.tasks[i].init_cpu = 1;
		wl.tasks[i].cpus_allowed = 0x2;
		fs_test_wl_act(&wl, i, 0, 40 * MS);
	}
	fs_test_sim(&wl, &em, "v6.1", FS_SIM_DEVICE, &a);
	fs_test_sim(&wl, &em, "v6.12", FS_SIM_DEVICE, &b);
	EXPECT_EQ_U64(a.task[0].wait_ns, 32 * MS);
	EXPECT_EQ_U64(a.task[1].wait_ns, 40 * MS);
	EXPECT_EQ_U64(b.task[0].wait_ns, 36 * MS);
	EXPECT_EQ_U64(b.task[1].wait_ns, 40 * MS);
	EXPECT_EQ_U64(a.busy_ns[1], 80 * MS);
	EXPECT_EQ_U64(b.busy_ns[1], 80 * MS);
	fs_sim_result_free(&a);
	fs_sim_result_free(&b);
	fs_test_wl_free(&wl);
}

/*
 * The misfit push and the idle CPUs' balance deadlines, on pixel4's 4+3+1
 * (capacities 306 / 871 / 1024), LAB physics: A (allowed cpu0, cpu4,
 * cpu7) starts on little with util 10 and 150 ms of work. Its util passes
 * little's fit limit (306 x 1024 / 1280 = 244.8) while it runs (slowly:
 * schedutil keeps little low, and the PELT clock runs at 306/1024 x f/fmax
 * of the time); the tick that sees it (116 ms) sets the flag and marks it
 * misfit. The idle CPUs, idle from t0, balanced at the first tick (4 ms),
 * then 8 ms later (12 ms), then every 16 ms (the interval doubles while
 * the domain is balanced): 28, 44, ... 108, 124 ms. The balance of 124 ms
 * pushes A to cpu4, the first idle CPU of higher capacity (the nohz idle
 * balance's order), not to the biggest: 124 ms on little, the other 26 ms
 * on cpu4, too short to make it a misfit there (871's limit is 696.8).
 * When a misfit's kick balanced at once, ignoring the idle CPUs' deadlines,
 * it left little at 116 ms; the older rules sent it to cpu7 (the idlest,
 * then the biggest).
 */
FS_TEST(sim_misfit_pushed_to_first_bigger_cpu_at_balance_interval)
{
	struct fs_sim_workload wl;
	struct fs_sim_result r;
	struct fs_em em;

	fs_test_em_pixel4(&em, FS_POWER_UW);
	fs_test_wl_init(&wl, 8, 1, 1, 1000 * MS);
	wl.tasks[0].init_cpu = 0;
	wl.tasks[0].cpus_allowed = 0x91;
	wl.tasks[0].init_util = wl.tasks[0].init_util_est = 10;
	fs_test_wl_act(&wl, 0, 0, 150 * MS);
	fs_test_sim(&wl, &em, "v6.12", FS_SIM_LAB, &r);
	EXPECT_EQ_U64(r.migrations_misfit, 1);
	EXPECT_EQ_U64(r.busy_ns[0], 124 * MS);
	EXPECT_EQ_U64(r.busy_ns[0] + r.busy_ns[4], 150 * MS);
	EXPECT_EQ_U64(r.busy_ns[7], 0);
	fs_sim_result_free(&r);
	fs_test_wl_free(&wl);
}

/*
 * A busy CPU's own balance pulls a misfit (kernel/sched/fair.c v5.7 - v6.12:
 * should_we_balance() lets a busy CPU balance for its group when none of
 * it is idle; update_sd_pick_busiest() takes the misfit group when the
 * local group has spare capacity, group_has_capacity()). The 1+1 EM,
 * DEVICE physics: A (util 10, 200 ms of work) runs on little from t0 and
 * becomes a misfit at the tick of 52 ms, as in the burst test above. B,
 * pinned to big, runs there from 50 to 70 ms (20 ms of work at capacity
 * 1024 and fmax). The kicked idle balances (every tick: 2 ms, one tick)
 * find no idle bigger CPU; the busy interval's balance (2 x 16 ms less a
 * jiffy: 7 ticks, at 4, 32, 60, 88 ms) at 60 ms finds big running B with
 * util about 200, under 1024 x 100 / 117: room. A is pushed there and
 * queues behind B; little, now idle, pulls the waiting A straight back
 * (newly idle: the kernel's migrate_task for a one-CPU busiest group).
 * The kicked balance at 72 ms, big idle since B slept at 70, pushes A for
 * good: two misfit pushes and one idle pull, A on little 0 .. 72 ms (36 ms
 * of its work at half speed), the other 164 ms of work on big. With B at
 * util 900 (above 875: no room) big is never taken busy: one push, at 72
 * ms, the same busy times; that was the only outcome before this rule.
 */
FS_TEST(sim_busy_cpu_with_room_pulls_a_misfit_at_its_own_interval)
{
	const __u32 b_util[2] = { 10, 900 };
	const __u64 pushes[2] = { 2, 1 }, pulls[2] = { 1, 0 };
	struct fs_em em;

	fs_test_em_1p1(&em, 100, 400);
	for (int i = 0; i < 2; i++) {
		struct fs_sim_workload wl;
		struct fs_sim_result r;

		fs_test_wl_init(&wl, 2, 2, 2, 1000 * MS);
		wl.tasks[0].init_cpu = 0;
		wl.tasks[0].init_util = wl.tasks[0].init_util_est = 10;
		fs_test_wl_act(&wl, 0, 0, 200 * MS);
		wl.tasks[1].init_cpu = 1;
		wl.tasks[1].cpus_allowed = 0x2;
		wl.tasks[1].init_util = wl.tasks[1].init_util_est = b_util[i];
		fs_test_wl_act(&wl, 1, 50 * MS, 20 * MS);
		fs_test_sim(&wl, &em, "v6.12", FS_SIM_DEVICE, &r);
		EXPECT_EQ_U64(r.migrations_misfit, pushes[i]);
		EXPECT_EQ_U64(r.migrations_newidle, pulls[i]);
		EXPECT_EQ_U64(r.busy_ns[0], 72 * MS);
		EXPECT_EQ_U64(r.busy_ns[1], 20 * MS + 164 * MS);
		EXPECT_EQ_U64(r.task[0].acts_done, 1);
		fs_sim_result_free(&r);
		fs_test_wl_free(&wl);
	}
}

/*
 * select_idle_sibling() while overutilized, on the 2+2 EM (little cpu0-1,
 * big cpu2-3): A, pinned to cpu0 with util 1000, keeps the root domain
 * overutilized. B (util_est 600: it fits no little CPU) wakes with prev
 * cpu1 idle: asym_fits_cpu() turns prev down and select_idle_capacity()
 * scans from cpu1 to cpu2, idle and big enough. C (util_est 1000: it fits
 * nowhere) wakes with prev cpu1 while cpu2 runs B: the scan finds no CPU it
 * fits, and takes the idle one of highest capacity, cpu3, over cpu1.
 */
FS_TEST(sim_overutilized_fallback_takes_a_cpu_the_task_fits)
{
	struct fs_sim_workload wl;
	struct fs_sim_result r;
	struct fs_em em;

	fs_test_em_2pd(&em);
	fs_test_wl_init(&wl, 4, 3, 3, 300 * MS);
	wl.tasks[0].cpus_allowed = 0x1;
	wl.tasks[0].init_util = wl.tasks[0].init_util_est = 1000;
	fs_test_wl_act(&wl, 0, 0, 200 * MS);
	wl.tasks[1].init_cpu = wl.tasks[2].init_cpu = 1;
	wl.tasks[1].init_util = wl.tasks[1].init_util_est = 600;
	wl.tasks[2].init_util = wl.tasks[2].init_util_est = 1000;
	fs_test_wl_act(&wl, 1, 10 * MS, 50 * MS);
	fs_test_wl_act(&wl, 2, 20 * MS, 20 * MS);
	fs_test_sim(&wl, &em, "v6.12", FS_SIM_LAB, &r);
	EXPECT_EQ_U64(r.overutilized_wakeups, 2);
	EXPECT_EQ(r.act_cpu[1], 2);
	EXPECT_EQ(r.act_cpu[2], 3);
	EXPECT_EQ_U64(r.busy_ns[1], 0);
	fs_sim_result_free(&r);
	fs_test_wl_free(&wl);
}

/*
 * A fork's first enqueue does not set the overutilized flag (v6.1
 * kernel/sched/fair.c enqueue_task_fair(): update_overutilized_status()
 * only where ENQUEUE_WAKEUP, task_new otherwise; wake_up_new_task()
 * enqueues without it), a wake-up's does. On pixel4's 4+3+1 (little's
 * limit 244.8), LAB, v6.1: F, pinned to cpu0, forks at 5 ms with util 300
 * for 0.5 ms of work, done before the tick of 8 ms, and wakes at 12 ms for
 * 0.5 ms more; B, allowed on cpu1-2, wakes every 20 ms from 10 ms for 1 ms.
 * The idle CPUs balance at 4, 12 and 16 ms (cpu0, idle at 4 ms, balanced
 * then and is due again at 12 ms; it runs F then, so its next own balance
 * is at the tick of 16 ms). The fork leaves the flag clear, so B's
 * wake-up at 10 ms goes to feec; the balance at 12 ms finds cpu0's blocked
 * util (F's, about 260) over and sets it, and cpu0's own balance at 16 ms,
 * its util decayed under the limit, clears it: 4 ms, no wake-up by the
 * fallback. With the fork setting it: 11 ms (5 .. 16), B's wake-up at
 * 10 ms and F's at 12 ms by the fallback.
 */
FS_TEST(sim_overutilized_not_set_by_a_forks_first_enqueue)
{
	struct fs_sim_workload wl;
	struct fs_sim_result r;
	struct fs_em em;

	fs_test_em_pixel4(&em, FS_POWER_UW);
	fs_test_wl_init(&wl, 8, 2, 7, 120 * MS);
	wl.tasks[0].init_cpu = 0;
	wl.tasks[0].cpus_allowed = 0x1;
	wl.tasks[0].init_util = wl.tasks[0].init_util_est = 300;
	fs_test_wl_act(&wl, 0, 5 * MS, 500000);
	fs_test_wl_act(&wl, 0, 12 * MS, 500000);
	wl.acts[0].flags = FS_SIM_ACT_FORK;
	wl.tasks[1].init_cpu = 1;
	wl.tasks[1].cpus_allowed = 0x6;
	wl.tasks[1].init_util = wl.tasks[1].init_util_est = 10;
	fs_test_wl_periodic(&wl, 1, 10 * MS, 20 * MS, 1 * MS, 5);
	fs_test_sim(&wl, &em, "v6.1", FS_SIM_LAB, &r);
	const __u32 b0 = wl.tasks[1].first_act;

	EXPECT_EQ_U64(r.overutilized_ns, 4 * MS);
	EXPECT_EQ_U64(r.overutilized_wakeups, 0);
	EXPECT_EQ(r.act_how[b0], 0);
	EXPECT_EQ_U64(r.task[0].acts_done, 2);
	fs_sim_result_free(&r);
	fs_test_wl_free(&wl);
}

/*
 * How long the overutilized flag outlives the CPU that set it, on pixel4's
 * 4+3+1, LAB physics, v6.12. A, pinned to cpu0 (so never a misfit: no
 * other CPU is allowed), runs 130 ms of work from t0 with util 10: its
 * util passes little's limit (244.8) at the tick of 116 ms, as in the
 * misfit test above, and that tick sets the flag. A sleeps at 130 ms. B
 * (util 10, allowed everywhere) wakes every 20 ms from 10 ms for 1 ms of
 * work. cpu0, busy since t0, has no balance of its own pending, so at the
 * first tick it is idle (132 ms) it balances (rebalance_domains() with
 * CPU_IDLE, its last balance long past): it updates its blocked load,
 * decayed under the limit, and rewrites the flag clear. Set for 116 ..
 * 132 ms: B's wake-up at 130 ms finds it set (the fallback places it),
 * from 150 ms feec does. Under the busy interval's root balance alone
 * (every 8 x 16 ms less a jiffy: 4, 128, 252 ms) it was set to 252 ms.
 */
FS_TEST(sim_overutilized_flag_cleared_at_the_next_idle_balance)
{
	struct fs_sim_workload wl;
	struct fs_sim_result r;
	struct fs_em em;

	fs_test_em_pixel4(&em, FS_POWER_UW);
	fs_test_wl_init(&wl, 8, 2, 20, 400 * MS);
	wl.tasks[0].init_cpu = 0;
	wl.tasks[0].cpus_allowed = 0x1;
	wl.tasks[0].init_util = wl.tasks[0].init_util_est = 10;
	fs_test_wl_act(&wl, 0, 0, 130 * MS);
	wl.tasks[1].init_cpu = 1;
	wl.tasks[1].init_util = wl.tasks[1].init_util_est = 10;
	fs_test_wl_periodic(&wl, 1, 10 * MS, 20 * MS, 1 * MS, 19);
	fs_test_sim(&wl, &em, "v6.12", FS_SIM_LAB, &r);
	const __u32 b0 = wl.tasks[1].first_act; /* B's activation at 10 + 20 i ms */

	EXPECT_EQ_U64(r.overutilized_ns, (132 - 116) * MS);
	EXPECT_EQ(r.act_how[b0 + 6], 1); /* 130 ms */
	for (int i = 7; i < 19; i++)     /* 150 .. 370 ms */
		EXPECT_EQ(r.act_how[b0 + i], 0);
	EXPECT_EQ_U64(r.migrations_misfit, 0);
	fs_sim_result_free(&r);
	fs_test_wl_free(&wl);
}

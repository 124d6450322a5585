// SPDX-License-Identifier: GPL-2.0
/* fs_system_power_uw() (docs/power-estimate.md): hand-worked landscapes, real recorded wake-ups, the formula CPU by CPU. */
#include "test.h"
#include "em_builders.h"
#include "engine/pelt.h"
#include "engine/power_estimate.h"

/* The kernel a policy follows, as the pipeline hands it over. */
static struct fs_power_opts opts_of(const char *policy)
{
	return fs_power_opts_for_policy(fs_policy_find(policy));
}

static __u64 power_at(const struct fs_em *em, const struct fs_wakeup *w, const struct fs_power_opts *o, int dst)
{
	struct fs_power_ctx x;

	fs_power_ctx_init_opts(&x, em, w, o);
	return fs_power_ctx_at(&x, dst);
}

FS_TEST(energy_power_estimate_hand_worked)
{
	struct fs_em em;
	struct fs_wakeup w;
	unsigned int util[4] = { 100, 0, 200, 0 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, util, 2, 100); /* task 100 on big cpu2 */
	/* Newest mainline (v6.8+ headroom on the request). Every CPU's util_est
	 * and runnable_avg equal its util_avg here, so the request r_i is u_i. */
	/* dst = 2: little u = 100, 0; m = 100, want = 1e6 * 125 / 512 = 244140 -> 500 MHz (50 mW).
	 *   busy = min(100 * 1e6, 512 * 5e5) = 1e8; P = 50000 * 1e8 / (512 * 5e5) = 19531.
	 * big u = 300, 0; m = 300, want = 2e6 * 375 / 1024 = 732421 -> 1 GHz (400 mW).
	 *   busy = 300 * 2e6 = 6e8; P = 400000 * 6e8 / (1024 * 1e6) = 234375.
	 * total 253906. */
	EXPECT_EQ_U64(fs_system_power_uw(&em, &w, 2), 253906);
	/* dst = 0: little u = 200, 0: want = 1e6 * 250 / 512 = 488281 -> 500 MHz:
	 *   P = 50000 * 2e8 / 2.56e8 = 39062. big u = 200: want = 2e6 * 250 / 1024 = 488281 -> 500 MHz
	 *   (200 mW): busy = min(4e8, 1024 * 5e5 = 5.12e8) = 4e8; P = 200000 * 4e8 / 5.12e8 = 156250.
	 * total 195312. */
	EXPECT_EQ_U64(fs_system_power_uw(&em, &w, 0), 195312);
	/* dst = -1: little 100 -> 19531; big 200 -> 156250: 175781. */
	EXPECT_EQ_U64(fs_system_power_uw(&em, &w, -1), 175781);
}


/*
 * schedutil asks for max(util_avg, util_est) of the rq (v4.17+): a CPU whose
 * runnable tasks are estimated above its decayed util_avg runs faster than
 * util_avg alone says. v5.15 (headroom on the util); test EM 2pd (mW, x1000).
 */
FS_TEST(power_estimate_request_takes_the_rqs_util_est)
{
	struct fs_em em;
	struct fs_wakeup w;
	unsigned int util[4] = { 100, 0, 200, 0 };
	struct fs_power_opts o = opts_of("v5.15");

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, util, 2, 100); /* task 100 (util_est 100) on big cpu2 */
	w.cpu[0].util_est = 300;               /* cpu0: a runnable task estimated at 300 */
	/* dst = 2: little r0 = max(100, 300) = 300, want = 1e6 * (300 + 75) / 512 = 732421
	 *   -> 1 GHz (150 mW); u0 = 100: P = 150000 * 1e8 / (512 * 1e6) = 29296.
	 *   (util_avg alone: 100 -> 500 MHz, 19531.)
	 * big r2 = max(300, 200 + 100) = 300 -> want 2e6 * 375 / 1024 = 732421 -> 1 GHz (400 mW);
	 *   u2 = 300 - 100 + 100 = 300: P = 400000 * 6e8 / 1.024e9 = 234375. Total 263671. */
	EXPECT_EQ_U64(power_at(&em, &w, &o, 2), 263671);
	/* dst = 0: r0 = max(100 + 100, 300 + 100) = 400 -> 1 GHz; u0 = 200: 58593.
	 * big r2 = max(300 - 100, 200) = 200 -> want 488281 -> 500 MHz (200 mW);
	 *   u2 = 200: P = 200000 * 4e8 / 5.12e8 = 156250. Total 214843. */
	EXPECT_EQ_U64(power_at(&em, &w, &o, 0), 214843);
}

/*
 * p's util_avg joins dst's util_avg and its util_est dst's util_est, and
 * schedutil takes the larger: not util_avg + task_util_est (which stacks
 * p's estimate on CPUs whose util_avg holds sleeping tasks' blocked util).
 */
FS_TEST(power_estimate_task_util_est_joins_the_rqs_util_est)
{
	struct fs_em em;
	struct fs_wakeup w;
	unsigned int util[4] = { 100, 60, 0, 0 };
	struct fs_power_opts o = opts_of("v5.15");

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, util, 0, 40); /* task util 40 on little cpu0 */
	w.task.util_est_ewma = 120;           /* _task_util_est = 120 */
	w.cpu[0].util_est = w.cpu[1].util_est = 0; /* both rqs idle: util_avg is blocked util */
	/* dst = 0: r0 = max(100 + 40, 0 + 120) = 140, want = 1e6 * 175 / 512 = 341796 -> 500 MHz;
	 *   busy u0 = 140 - 40 + 120 = 220, u1 = 60: P = 50000 * 2.8e8 / 2.56e8 = 54687.
	 *   (util_avg - 40 + 120 = 220 as the request: 1 GHz, 82031.)
	 * dst = 1: r1 = max(60 + 40, 0 + 120) = 120, r0 = 100 -> 500 MHz; u0 = 100, u1 = 180:
	 *   the same busy sum at the same OPP, 54687: the move changes nothing. Big draws 0. */
	EXPECT_EQ_U64(power_at(&em, &w, &o, 0), 54687);
	EXPECT_EQ_U64(power_at(&em, &w, &o, 1), 54687);
}

/*
 * The OPP must hold the busy time: p's estimate (160) on top of the blocked
 * util cpu0 keeps for its sleeping tasks (160) is more work than the 500 MHz
 * schedutil asks for (max(200, 160) = 200) can do, so the CPU runs faster.
 */
FS_TEST(power_estimate_opp_holds_the_busy_time)
{
	struct fs_em em;
	struct fs_wakeup w;
	unsigned int util[4] = { 160, 0, 0, 0 };
	struct fs_power_opts o = opts_of("v5.15");

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, util, 0, 40); /* task util 40 on cpu0: util_avg 200 */
	w.task.util_est_ewma = 160;
	w.cpu[0].util_est = 0;
	/* r0 = max(200, 0 + 160) = 200 -> want 1e6 * 250 / 512 = 488281 -> 500 MHz, capacity 256;
	 * u0 = 200 - 40 + 160 = 320 > 256: the lowest OPP holding it, 1e6 * 320 / 512 = 625000 -> 1 GHz:
	 * P = 150000 * 3.2e8 / 5.12e8 = 93750 (busy capped at 500 MHz would say 50000). */
	EXPECT_EQ_U64(power_at(&em, &w, &o, 0), 93750);
}

/* One little CPU busy at 205 (plus what a case adds), the task nowhere: the little PD's power. */
static __u64 little_alone(const struct fs_power_opts *o, unsigned int cfs, unsigned int dl, __u64 dl_bw,
			  bool rt)
{
	struct fs_em em;
	struct fs_wakeup w;
	unsigned int util[4] = { cfs, 0, 0, 0 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, util, 3, 0); /* task util 0 on cpu3 */
	w.cpu[0].dl_util = dl;
	w.cpu[0].dl_running_bw = dl_bw;
	w.cpu[0].flags |= rt ? FS_CPU_RT_RUNNABLE : 0;
	return power_at(&em, &w, o, -1);
}

/* get_next_freq() and effective_cpu_util(FREQUENCY_UTIL) as each era computes them. */
FS_TEST(power_estimate_frequency_request_of_each_era)
{
	struct fs_power_opts v50 = opts_of("v5.10"), v514 = opts_of("v5.15"), v68 = opts_of("v6.12");

	EXPECT_EQ(v50.dvfs, FS_DVFS_5_0);
	EXPECT_EQ(v514.dvfs, FS_DVFS_5_14);
	EXPECT_EQ(v68.dvfs, FS_DVFS_6_8);
	/* r = 205 on capacity 512, fmax 1 GHz:
	 *   v5.0:  (1e6 + 2.5e5) * 205 / 512 = 500488 -> 1 GHz: 150000 * 2.05e8 / 5.12e8 = 60058
	 *   v5.14: 1e6 * (205 + 51) / 512 = 500000 -> 500 MHz: 50000 * 2.05e8 / 2.56e8 = 40039
	 *   v6.8:  perf 205 + 51 = 256, 1e6 * 256 / 512 = 500000 -> 500 MHz: 40039 */
	EXPECT_EQ_U64(little_alone(&v50, 205, 0, 0, false), 60058);
	EXPECT_EQ_U64(little_alone(&v514, 205, 0, 0, false), 40039);
	EXPECT_EQ_U64(little_alone(&v68, 205, 0, 0, false), 40039);
	/* DL util 60 with no DL bandwidth running: before v6.8 the request is cfs + rt
	 * = 150 (DL adds its running bandwidth), -> 500 MHz; busy 210: 41015.
	 * v6.8+ counts DL util in the actual: 210 -> perf 262 -> 1 GHz: 61523. */
	EXPECT_EQ_U64(little_alone(&v514, 150, 60, 0, false), 41015);
	EXPECT_EQ_U64(little_alone(&v68, 150, 60, 0, false), 61523);
	/* running_bw 1 << 18 = 256 in capacity units: 150 + 256 = 406 -> 1 GHz. */
	EXPECT_EQ_U64(little_alone(&v514, 150, 60, 1ull << 18, false), 61523);
	/* A runnable RT task asks for the top OPP in every era: busy 10 at 1 GHz = 2929. */
	EXPECT_EQ_U64(little_alone(&v50, 10, 0, 0, true), 2929);
	EXPECT_EQ_U64(little_alone(&v68, 10, 0, 0, true), 2929);
}

/*
 * v5.16+: cpufreq skips the OPPs the EM marks inefficient when
 * em_cpufreq_update_efficiencies() set SKIP_INEFFICIENCIES on the PD.
 * One PD, capacity 1024: 500 MHz 100 mW, 800 MHz 300 mW, 1 GHz 350 mW;
 * costs fmax * P / f = 200, 375, 350: 800 MHz costs more than 1 GHz.
 */
FS_TEST(power_estimate_skips_inefficient_opps_from_v5_16)
{
	struct fs_em em;
	struct fs_wakeup w;
	char err[128];
	unsigned int util[2] = { 600, 0 };
	struct fs_power_opts v515 = opts_of("v5.15"), v61 = opts_of("v6.1");

	memset(&em, 0, sizeof(em));
	em.unit = FS_POWER_MW;
	em.nr_pd = 1;
	em.pd[0].cpus = 0x3;
	em.pd[0].flags = FS_EM_PD_SKIP_INEFFICIENT;
	fs_test_add_state(&em.pd[0], 500000, 100);
	fs_test_add_state(&em.pd[0], 800000, 300);
	fs_test_add_state(&em.pd[0], 1000000, 350);
	em.capacity[0] = em.capacity[1] = 1024;
	EXPECT_EQ(fs_em_finalize(&em, err, sizeof(err)), 0);
	fs_test_wakeup(&w, &em, util, 1, 0);
	/* r0 = 600: want = 1e6 * 750 / 1024 = 732421 -> 800 MHz:
	 *   P = 300000 * 6e8 / (1024 * 8e5) = 219726; skipped -> 1 GHz: 350000 * 6e8 / 1.024e9 = 205078. */
	EXPECT_EQ(v515.skip_inefficient, false);
	EXPECT_EQ(v61.skip_inefficient, true);
	EXPECT_EQ_U64(power_at(&em, &w, &v515, -1), 219726);
	EXPECT_EQ_U64(power_at(&em, &w, &v61, -1), 205078);
	/* The source's own flags when it gave them. */
	em.pd[0].has_inefficient = true;
	EXPECT_EQ_U64(power_at(&em, &w, &v61, -1), 219726);
	em.pd[0].ps[1].inefficient = 1;
	EXPECT_EQ_U64(power_at(&em, &w, &v61, -1), 205078);
	/* No SKIP flag (cpufreq took no efficiencies): the kernel does not skip. */
	em.pd[0].flags = 0;
	EXPECT_EQ_U64(power_at(&em, &w, &v61, -1), 219726);
	/* The table the pipeline builds answers the same. */
	static struct fs_power_lut lut;
	struct fs_power_ctx x;
	em.pd[0].flags = FS_EM_PD_SKIP_INEFFICIENT;
	fs_power_lut_build_opts(&lut, &em, &v61);
	fs_power_ctx_init_lut(&x, &em, &w, &lut);
	EXPECT_EQ_U64(fs_power_ctx_at(&x, -1), 205078);
}

/*
 * v6.5+ runnable boosting: schedutil asks for max(util_avg, runnable_avg,
 * util_est); p's runnable_avg leaves task_cpu and joins dst like its util_avg.
 */
FS_TEST(power_estimate_runnable_boost_from_v6_5)
{
	struct fs_em em;
	struct fs_wakeup w;
	unsigned int util[4] = { 0, 0, 100, 100 };
	struct fs_power_opts boost = opts_of("v6.12"), none = boost;

	none.runnable_boost = false;
	EXPECT_EQ(opts_of("v6.6").runnable_boost, true);
	EXPECT_EQ(opts_of("v6.1").runnable_boost, false);
	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, util, 2, 50); /* task util 50, util_est 50 on big cpu2 */
	w.task.runnable_avg = 200;            /* it waited on the rq a lot */
	w.cpu[2].runnable_avg = 150 + 200;    /* cpu2: 150 util_avg incl. p; p's runnable 200 */
	w.cpu[3].runnable_avg = 400;
	w.cpu[2].util_est = w.cpu[3].util_est = 0;
	/* dst = 3 with boost: r2 = max(100, 350 - 200) = 150 -> perf 187;
	 *   r3 = max(150, 400 + 200, 50) = 600 -> perf 750, want 2e6 * 750 / 1024 = 1464843 -> 2 GHz;
	 *   busy u2 = 100, u3 = 150: 1200000 * 5e8 / (1024 * 2e6) = 292968.
	 * Without boost: r3 = 150 -> 187 -> 500 MHz: 200000 * 5e8 / 5.12e8 = 195312. */
	EXPECT_EQ_U64(power_at(&em, &w, &boost, 3), 292968);
	EXPECT_EQ_U64(power_at(&em, &w, &none, 3), 195312);
	/* dst = 2 with boost: r2 = 350 -> 437, r3 = 400 -> 500 -> 1 GHz: 400000 * 5e8 / 1.024e9 = 195312. */
	EXPECT_EQ_U64(power_at(&em, &w, &boost, 2), 195312);
}

/* Which kernel's schedutil each policy family gets (and the default). */
FS_TEST(power_opts_follow_the_reference_policy)
{
	static const struct {
		const char *policy;
		enum fs_power_dvfs dvfs;
		bool skip, boost;
	} want[] = {
		{ "v5.0", FS_DVFS_5_0, false, false },    { "v5.4-nomargin", FS_DVFS_5_0, false, false },
		{ "v5.10", FS_DVFS_5_0, false, false },   { "v5.15", FS_DVFS_5_14, false, false },
		{ "v6.0", FS_DVFS_5_14, true, false },    { "v6.1+margin", FS_DVFS_5_14, true, false },
		{ "v6.6", FS_DVFS_5_14, true, true },     { "v6.12", FS_DVFS_6_8, true, true },
		{ "v6.12.97+margin", FS_DVFS_6_8, true, true },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct fs_power_opts o = opts_of(want[i].policy);

		if (o.dvfs != want[i].dvfs || o.skip_inefficient != want[i].skip ||
		    o.runnable_boost != want[i].boost)
			FS_FAIL_AT("%s: dvfs %d skip %d boost %d", want[i].policy, o.dvfs, o.skip_inefficient,
				   o.runnable_boost);
	}
	struct fs_power_opts d = fs_power_opts_for_policy(NULL);
	EXPECT_TRUE(d.dvfs == FS_DVFS_6_8 && d.skip_inefficient && d.runnable_boost);
}

/*
 * Real wake-ups (docs/power-estimate.md, worked examples): recorded in the
 * arm64 lab, Debian 6.1 guest on the 2+2 HiKey960-facts tree, replayed with
 * the guest's EM (uW; little cpu0-1 capacity 462, big cpu2-3 1024).
 */
static void lab_em(struct fs_em *em)
{
	static const __u64 lf[] = { 533000, 999000, 1402000, 1709000, 1844000 },
			   lp[] = { 28728, 70329, 124918, 187990, 245436 },
			   bf[] = { 903000, 1421000, 1805000, 2112000, 2362000 },
			   bp[] = { 243358, 500192, 804127, 1161600, 1571911 };
	char err[128];

	memset(em, 0, sizeof(*em));
	em->unit = FS_POWER_UW;
	em->nr_pd = 2;
	em->pd[0].cpus = 0x3;
	em->pd[1].cpus = 0xc;
	for (int s = 0; s < 5; s++) {
		fs_test_add_state(&em->pd[0], lf[s], lp[s]);
		fs_test_add_state(&em->pd[1], bf[s], bp[s]);
	}
	for (int p = 0; p < 2; p++) {
		em->pd[p].flags = FS_EM_PD_MICROWATTS;
		em->pd[p].has_inefficient = true; /* debugfs: none is */
	}
	em->capacity[0] = em->capacity[1] = 462;
	em->capacity[2] = em->capacity[3] = 1024;
	if (fs_em_finalize(em, err, sizeof(err)))
		FS_FAIL_AT("lab EM: %s", err);
}

struct lab_cpu {
	unsigned int util_avg, util_est, runnable, dl, capacity;
};

/* A recorded wake-up, the task's PELT already synced (no decay left to apply). */
static void lab_wakeup(struct fs_wakeup *w, const struct fs_em *em, const struct lab_cpu *c, int prev,
		       unsigned int util, unsigned int ue_enq, unsigned int ue_ewma, unsigned int runnable)
{
	unsigned int zero[4] = { 0 };

	fs_test_wakeup(w, em, zero, prev, util);
	w->task.util_est_enqueued = ue_enq;
	w->task.util_est_ewma = ue_ewma;
	w->task.runnable_avg = runnable;
	for (int i = 0; i < 4; i++) {
		w->cpu[i].util_avg = c[i].util_avg;
		w->cpu[i].util_est = c[i].util_est;
		w->cpu[i].runnable_avg = c[i].runnable;
		w->cpu[i].dl_util = c[i].dl;
		w->cpu[i].capacity = c[i].capacity;
	}
}

/*
 * ts 32089483504, pid 197 "tiny" under v5.10: prev cpu1, feec's best cpu0 in
 * the same PD. feec (before v5.12) charges p as the rise of max(util_avg,
 * util_est): 63 on cpu1 (util_est dominates), 36 on cpu0 (util_avg
 * dominates), at the same 1402 MHz: a "saving" of 9532 the margin blocks.
 * Physically p does the same work at the same OPP either way: 0.
 */
FS_TEST(power_estimate_lab_wakeup_same_opp_same_pd_saves_nothing)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	static const struct lab_cpu c[4] = {
		{ 108, 0, 189, 0, 462 }, { 150, 210, 334, 12, 446 }, { 349, 651, 379, 0, 1024 }, { 232, 0, 302, 6, 1010 },
	};
	struct fs_power_opts o = opts_of("v5.10");

	lab_em(&em);
	lab_wakeup(&w, &em, c, 1, 36, 36, 63, 137);
	/* little: prev r = (108, max(150, 210 + 63) = 273), best (max(144, 63) = 144, max(114, 210) = 210):
	 * 1402 MHz both (2305000 * 273 / 462 = 1362045); busy 108 + 189 = 171 + 126 = 297. */
	EXPECT_EQ_U64(power_at(&em, &w, &o, 1), power_at(&em, &w, &o, 0));
	EXPECT_EQ_U64(power_at(&em, &w, &o, 1) - power_at(&em, &w, &o, -1), 105621 - 83216);
	fs_test_run("v5.10", &em, &w, &r);
	EXPECT_EQ(r.reason, FS_FEEC_MARGIN_KEPT);
	EXPECT_EQ_U64(r.prev_delta, 22240); /* 163092 * (393 - 330) / 462, floors apart */
	EXPECT_EQ_U64(r.best_delta, 12708); /* 163092 * (366 - 330) / 462 */
}

/*
 * ts 31584520288, pid 195 under v6.1+margin: prev cpu0, best cpu1. The task
 * (util 104, util_est 183) already counts in cpu0's util_avg 308: schedutil
 * asks 308 (1709 MHz) with it there and max(150 + 104, 183) = 254 (1402 MHz)
 * with it on cpu1. Stacking util_est on util_avg (387 and 345) sent both to
 * the top OPP and saw no difference; feec's deltas and ours now agree.
 */
FS_TEST(power_estimate_lab_wakeup_opp_follows_the_request)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	static const struct lab_cpu c[4] = {
		{ 308, 0, 556, 0, 462 }, { 150, 0, 239, 12, 450 }, { 225, 0, 249, 0, 1024 }, { 344, 449, 472, 14, 1010 },
	};
	struct fs_power_opts o = opts_of("v6.1+margin");

	lab_em(&em);
	lab_wakeup(&w, &em, c, 0, 104, 111, 183, 128);
	__u64 none = power_at(&em, &w, &o, -1), prev = power_at(&em, &w, &o, 0), best = power_at(&em, &w, &o, 1);
	/* little: none r (204, 150) -> 1402 MHz, busy 204 + 162 = 366: 130159;
	 * prev: 187990 * 549 * 1844000 / (462 * 1709000) = 241037; best: 124918 * 549 * ... / 1402000 = 195239. */
	EXPECT_EQ_U64(prev - none, 241037 - 130159);
	EXPECT_EQ_U64(best - none, 195239 - 130159);
	fs_test_run("v6.1+margin", &em, &w, &r);
	EXPECT_EQ(r.reason, FS_FEEC_MARGIN_KEPT);
	EXPECT_EQ_U64(r.prev_delta, prev - none);
	EXPECT_EQ_U64(r.best_delta, best - none);
}

/*
 * ts 32077527744, pid 196 under v6.1+margin: prev big cpu2, best little cpu1.
 * Big runs at 1421 MHz whatever p does (its runnable tasks' util_est 287 and
 * 324); p on cpu1 asks max(225 + 53, 95) = 278 -> 1402 MHz. Moving saves
 * 43350 uW; util_avg alone (big at 903 MHz) with util_est stacked (little at
 * 1709 MHz) said it cost 23446.
 */
FS_TEST(power_estimate_lab_wakeup_runnable_tasks_set_the_big_opp)
{
	struct fs_em em;
	struct fs_wakeup w;
	static const struct lab_cpu c[4] = {
		{ 248, 0, 533, 0, 462 }, { 225, 0, 241, 16, 446 }, { 174, 287, 302, 0, 1024 }, { 142, 324, 216, 5, 1010 },
	};
	struct fs_power_opts o = opts_of("v6.1+margin");

	lab_em(&em);
	lab_wakeup(&w, &em, c, 2, 53, 61, 95, 105);
	/* little 173902 + big 294733 = 468635 vs little 207686 + big 217599 = 425285 */
	EXPECT_EQ_U64(power_at(&em, &w, &o, 2), 468635);
	EXPECT_EQ_U64(power_at(&em, &w, &o, 1), 425285);
}

/*
 * ts 31759016768, pid 194 under v6.12+margin: prev big cpu3, best little
 * cpu1. With runnable boosting cpu0 (runnable 468) already holds the little
 * PD at its top OPP, so p there only adds busy time: 38455 uW cheaper
 * (feec: 384696 in its 10 * P / perf units).
 */
FS_TEST(power_estimate_lab_wakeup_runnable_boost)
{
	struct fs_em em;
	struct fs_wakeup w;
	static const struct lab_cpu c[4] = {
		{ 217, 132, 468, 0, 462 }, { 165, 0, 271, 10, 452 }, { 250, 0, 314, 0, 1024 }, { 108, 0, 346, 99, 917 },
	};
	struct fs_power_opts o = opts_of("v6.12+margin");

	lab_em(&em);
	lab_wakeup(&w, &em, c, 3, 71, 77, 137, 268);
	/* little 208248 + big 424643 = 632891 vs little 281029 + big 313407 = 594436 */
	EXPECT_EQ_U64(power_at(&em, &w, &o, 3), 632891);
	EXPECT_EQ_U64(power_at(&em, &w, &o, 1), 594436);
}

/* Option sets the generated-wake-up tests run under. */
static const struct fs_power_opts opt_sets[] = {
	{ FS_DVFS_6_8, true, true, true },    /* mainline */
	{ FS_DVFS_5_0, false, false, false }, /* v5.0 - v5.2 */
	{ FS_DVFS_5_0, false, false, true },  /* v5.4 - v5.13 */
	{ FS_DVFS_5_14, true, false, true },  /* v6.0 - 6.1.y */
	{ FS_DVFS_5_14, false, true, true },
	{ FS_DVFS_6_8, false, false, false },
};
#define NR_OPT_SETS (int)(sizeof(opt_sets) / sizeof(opt_sets[0]))

/* Pixel 4 with cpufreq's efficiencies installed, so that skipping is exercised. */
static void pixel4_skip(struct fs_em *em)
{
	fs_test_em_pixel4(em, FS_POWER_UW);
	for (int p = 0; p < em->nr_pd; p++)
		em->pd[p].flags |= FS_EM_PD_SKIP_INEFFICIENT;
}

/*
 * Recorded from the incremental fs_power_ctx once checked against the formula
 * below: any change of the estimate's integers changes it.
 */
#define POWER_FINGERPRINT 0xef3355d6916c96d2ull

/* with_lut: the pipeline's state table (fs_power_lut_build_opts) instead of the search. */
static __u64 power_fingerprint(bool with_lut)
{
	static struct fs_em em;
	static struct fs_wakeup w;
	static struct fs_power_lut lut;
	__u64 h = 0xcbf29ce484222325ull, seed = 0x853c49e6748fea9bull;

	for (int e = 0; e < 3; e++) {
		for (int k = 0; k < NR_OPT_SETS; k++) {
			if (e == 0)
				fs_test_em_2pd(&em);
			else if (e == 1)
				fs_test_em_pixel4(&em, FS_POWER_MW);
			else
				pixel4_skip(&em);
			fs_power_lut_build_opts(&lut, &em, &opt_sets[k]);
			for (int n = 0; n < 1000; n++) {
				struct fs_power_ctx x;

				fs_test_random_wakeup(&w, &em, &seed);
				if (with_lut)
					fs_power_ctx_init_lut(&x, &em, &w, &lut);
				else
					fs_power_ctx_init_opts(&x, &em, &w, &opt_sets[k]);
				for (int d = -1; d < em.nr_cpus; d++) {
					__u64 v = fs_power_ctx_at(&x, d);

					for (int i = 0; i < 8; i++, v >>= 8)
						h = (h ^ (v & 0xff)) * 0x100000001b3ull;
				}
			}
		}
	}
	return h;
}

FS_TEST(power_estimate_over_generated_wakeups_keeps_its_fingerprint)
{
	__u64 h = power_fingerprint(false);

	if (h != POWER_FINGERPRINT)
		fprintf(stderr, "    fingerprint 0x%016llxull\n", (unsigned long long)h);
	EXPECT_EQ_U64(h, POWER_FINGERPRINT);
	/* The state table gives the same integers as the search it was built from. */
	EXPECT_EQ_U64(power_fingerprint(true), POWER_FINGERPRINT);
}

/* ---- docs/power-estimate.md evaluated CPU by CPU, no shortcut ---- */

static __u64 ref_min(__u64 a, __u64 b)
{
	return a < b ? a : b;
}

/* schedutil's request of CPU i with p on dst (-1: nowhere). */
static __u64 ref_request(const struct fs_wakeup *w, const struct fs_power_opts *o, int i, int dst, __u64 cap)
{
	const struct fs_cpu *c = &w->cpu[i];
	__u64 tu = fs_sync_entity_util_avg(&w->task), tr = fs_sync_entity_runnable_avg(&w->task);
	__u64 ue = w->task.util_est_ewma > w->task.util_est_enqueued ? w->task.util_est_ewma
								    : w->task.util_est_enqueued;
	__u64 avg = c->util_avg, run = c->runnable_avg, est = c->util_est + (i == dst ? ue : 0);

	if (i == w->task_cpu && dst != i) {
		avg = avg > tu ? avg - tu : 0;
		run = run > tr ? run - tr : 0;
	} else if (i != w->task_cpu && dst == i) {
		avg += tu;
		run += tr;
	}
	__u64 cfs = avg;
	if (o->runnable_boost && run > cfs)
		cfs = run;
	if (!(w->flags & FS_WAKE_UTIL_EST_OFF) && est > cfs)
		cfs = est;
	cfs = ref_min(cfs, cap);

	__u64 irq = c->irq_util, bw = (c->dl_running_bw * 1024) >> 20;
	bool rt = c->flags & FS_CPU_RT_RUNNABLE;
	if (irq >= cap)
		return cap;
	if (o->uclamp && (w->flags & FS_WAKE_UCLAMP_USED)) {
		/* the rq's clamps; with p enqueued, p's alone on an idle rq, else the larger */
		__u64 umin = c->uclamp_min, umax = c->uclamp_max;
		if (i == dst && (c->flags & FS_CPU_UCLAMP_IDLE)) {
			umin = w->task.uclamp_min;
			umax = w->task.uclamp_max;
		} else if (i == dst) {
			umin = umin > w->task.uclamp_min ? umin : w->task.uclamp_min;
			umax = umax > w->task.uclamp_max ? umax : w->task.uclamp_max;
		}
		if (o->dvfs == FS_DVFS_6_8) {
			__u64 act = cfs + c->rt_util + c->dl_util;
			act = act >= cap ? cap : act * (cap - irq) / cap + irq;
			__u64 perf = ref_min(act + act / 4, ref_min(cap, umax));
			__u64 floor = irq + bw > umin ? irq + bw : umin;
			return ref_min(perf > floor ? perf : floor, cap);
		}
		__u64 u = cfs + c->rt_util;
		u = umin >= umax ? umin : u < umin ? umin : ref_min(u, umax);
		if (u + c->dl_util >= cap)
			return cap;
		return ref_min(u * (cap - irq) / cap + irq + bw, cap);
	}
	if (o->dvfs == FS_DVFS_6_8) {
		__u64 act = cfs + c->rt_util + c->dl_util;
		act = act >= cap ? cap : act * (cap - irq) / cap + irq;
		__u64 perf = ref_min(act + act / 4, cap), floor = rt ? cap : irq + bw;
		return ref_min(perf > floor ? perf : floor, cap);
	}
	if (rt || cfs + c->rt_util + c->dl_util >= cap)
		return cap;
	return ref_min((cfs + c->rt_util) * (cap - irq) / cap + irq + bw, cap);
}

/* Whether state s is one cpufreq skips: a faster state costs no more. */
static bool ref_skipped(const struct fs_em_pd *pd, const struct fs_power_opts *o, int s)
{
	if (!o->skip_inefficient || !(pd->flags & FS_EM_PD_SKIP_INEFFICIENT) || s == pd->nr_ps - 1)
		return false;
	if (pd->has_inefficient)
		return pd->ps[s].inefficient;
	__u64 fmax = pd->ps[pd->nr_ps - 1].frequency, cost = fmax * pd->ps[s].power / pd->ps[s].frequency;
	for (int t = s + 1; t < pd->nr_ps; t++)
		if (fmax * pd->ps[t].power / pd->ps[t].frequency <= cost)
			return true;
	return false;
}

static __u64 power_reference(const struct fs_em *em, const struct fs_wakeup *w, const struct fs_power_opts *o,
			     int dst)
{
	__u64 tu = fs_sync_entity_util_avg(&w->task), ue = w->task.util_est_ewma, total = 0;

	if (w->task.util_est_enqueued > ue)
		ue = w->task.util_est_enqueued;
	__u64 te = tu > ue ? tu : ue;
	for (int p = 0; p < em->nr_pd; p++) {
		const struct fs_em_pd *pd = &em->pd[p];
		int first = fs_em_pd_first_cpu(pd);
		__u64 u[FS_MAX_CPUS] = { 0 }, m = 0;
		bool any = false;

		if (pd->nr_ps <= 0 || first < 0 || !em->capacity[first])
			continue;
		__u64 cap = em->capacity[first], fmax = pd->ps[pd->nr_ps - 1].frequency;
		for (int i = 0; i < em->nr_cpus; i++) {
			if (!(pd->cpus & (1ull << i)) || !(w->cpu[i].flags & FS_CPU_ONLINE))
				continue;
			__u64 cfs = w->cpu[i].util_avg;
			if (i == w->task_cpu)
				cfs = cfs > tu ? cfs - tu : 0;
			if (i == dst)
				cfs += te;
			u[i] = ref_min(cfs + w->cpu[i].rt_util + w->cpu[i].dl_util + w->cpu[i].irq_util, cap);
			__u64 r = ref_request(w, o, i, dst, cap);
			m = r > m ? r : m;
			any = true;
		}
		if (!any)
			continue;
		__u64 want = o->dvfs == FS_DVFS_5_0    ? (fmax + fmax / 4) * m / cap
			     : o->dvfs == FS_DVFS_5_14 ? fmax * (m + m / 4) / cap
						       : fmax * m / cap;
		int s = 0;
		while (s < pd->nr_ps - 1 && (pd->ps[s].frequency < want || ref_skipped(pd, o, s)))
			s++;
		/* ... and at least the lowest state whose capacity holds every u_i */
		for (int i = 0; i < em->nr_cpus; i++)
			while (s < pd->nr_ps - 1 && (ref_skipped(pd, o, s) ||
						     (unsigned __int128)cap * pd->ps[s].frequency <
							     (unsigned __int128)u[i] * fmax))
				s++;
		__u64 f = pd->ps[s].frequency;
		unsigned __int128 busy = 0;
		for (int i = 0; i < em->nr_cpus; i++)
			busy += (unsigned __int128)u[i] * fmax; /* 0 for CPUs not in the PD or offline */
		__u64 pw = em->unit == FS_POWER_MW ? pd->ps[s].power * 1000 : pd->ps[s].power;
		if (f)
			total += (__u64)((unsigned __int128)pw * busy / ((unsigned __int128)cap * f));
	}
	return total;
}

FS_TEST(power_estimate_equals_the_formula_cpu_by_cpu)
{
	static struct fs_em em;
	static struct fs_wakeup w;
	static struct fs_power_lut lut;
	__u64 seed = 0x2545f4914f6cdd1dull;
	int bad = 0, checked = 0;

	for (int e = 0; e < 3; e++) {
		for (int k = 0; k < NR_OPT_SETS; k++) {
			const struct fs_power_opts *o = &opt_sets[k];

			fs_test_em_2pd(&em);
			if (e == 1) {
				/* kHz so coarse that the lowest state meeting the headroom can sit
				 * below u * fmax / cap: the busy terms clip at cap * f */
				static const __u64 f0[] = { 1, 2 }, f1[] = { 1, 2, 10 };
				for (int s = 0; s < 2; s++)
					em.pd[0].ps[s].frequency = f0[s];
				for (int s = 0; s < 3; s++)
					em.pd[1].ps[s].frequency = f1[s];
			} else if (e == 2) {
				pixel4_skip(&em);
			}
			fs_power_lut_build_opts(&lut, &em, o);
			for (int n = 0; n < 1000; n++) {
				struct fs_power_ctx x;

				fs_test_random_wakeup(&w, &em, &seed);
				if (n & 1)
					fs_power_ctx_init_lut(&x, &em, &w, &lut);
				else
					fs_power_ctx_init_opts(&x, &em, &w, o);
				for (int d = -1; d < em.nr_cpus; d++, checked++) {
					__u64 want = power_reference(&em, &w, o, d), got = fs_power_ctx_at(&x, d);
					if (want != got && !bad++)
						fprintf(stderr, "    EM %d opts %d wake-up %d dst %d: %llu, formula %llu\n",
							e, k, n, d, (unsigned long long)got, (unsigned long long)want);
				}
			}
		}
	}
	EXPECT_EQ_U64(bad, 0);
	EXPECT_TRUE(checked > 50000);
}

/*
 * uclamp bounds schedutil's request (v5.3+): task util 100 back on little
 * cpu0 (util_avg 250 with it, util_est 150 + 100), capped at 200; cpu0's rq
 * is idle, so the enqueue gives it p's clamps alone. 2-PD test EM, little
 * 500 MHz 50 mW / 1 GHz 150 mW, capacity 512; busy u0 = 250 either way.
 */
FS_TEST(power_estimate_uclamp_bounds_the_request)
{
	struct fs_em em;
	struct fs_wakeup w;
	unsigned int util[4] = { 150, 0, 0, 0 };
	struct fs_power_opts mainline = opts_of("v7.2"), v61 = opts_of("v6.1");

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, util, 0, 100);
	w.task.uclamp_max = 200;
	w.cpu[0].flags |= FS_CPU_UCLAMP_IDLE;
	/* uclamp unused: r0 = 250 -> v6.8 perf 312 -> 1e6 * 312 / 512 = 609375 -> 1 GHz:
	 * P = 150000 * 2.5e8 / 5.12e8 = 73242. */
	EXPECT_EQ_U64(power_at(&em, &w, &mainline, 0), 73242);
	w.flags |= FS_WAKE_UCLAMP_USED;
	/* v6.8+: perf min(312, 200) = 200 -> 390625 -> 500 MHz, which holds 250 (2.56e8):
	 * P = 50000 * 2.5e8 / 2.56e8 = 48828. */
	EXPECT_EQ_U64(power_at(&em, &w, &mainline, 0), 48828);
	/* v5.3 - v6.7: clamp(250, 0, 200) = 200, then 1e6 * (200 + 50) / 512 = 488281: 500 MHz. */
	EXPECT_EQ_U64(power_at(&em, &w, &v61, 0), 48828);
	/* cpu1's rq boosted to 400 (a running boosted task), util 0: its request 400
	 * -> 781250 -> the little PD at 1 GHz whatever p asks: 73242 again. */
	w.cpu[1].uclamp_min = 400;
	EXPECT_EQ_U64(power_at(&em, &w, &mainline, 0), 73242);
	EXPECT_EQ_U64(power_at(&em, &w, &v61, 0), 73242);
	/* v5.0 - v5.2 have no uclamp: the clamps change nothing there. */
	struct fs_power_opts v50 = opts_of("v5.0");
	__u64 clamped = power_at(&em, &w, &v50, 0);
	w.flags &= ~FS_WAKE_UCLAMP_USED;
	EXPECT_EQ_U64(clamped, power_at(&em, &w, &v50, 0));
	EXPECT_EQ_U64(power_at(&em, &w, &v61, 0), 73242);
}

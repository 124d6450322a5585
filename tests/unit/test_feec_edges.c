// SPDX-License-Identifier: GPL-2.0
/*
 * Edges of the feec rules that ordinary landscapes never reach: the margin's
 * exact shift, an energy that falls below its base (wrap vs bail-out), and
 * thermal pressure capping a PD. Every energy in the comments was worked out
 * by hand from the EM and the kernel's formulas, not read off the engine.
 */
#include "test.h"
#include "em_builders.h"

/* fs_test_em_2pd() in uW: every power x 1000, MICROWATTS flag, as a v6.0+ EM. */
static void em_2pd_uw(struct fs_em *em)
{
	fs_test_em_2pd(em);
	em->unit = FS_POWER_UW;
	for (int p = 0; p < em->nr_pd; p++) {
		em->pd[p].flags = FS_EM_PD_MICROWATTS;
		for (int s = 0; s < em->pd[p].nr_ps; s++)
			em->pd[p].ps[s].power *= 1000;
	}
}

/*
 * fs_test_em_2pd() whose little PD gets cheaper per unit of work at the
 * faster state: 500 MHz 100 mW (cost 1e6 * 100 / 5e5 = 200), 1000 MHz 150 mW
 * (cost 150). No skip-inefficiencies flag, so the slow state stays in use.
 */
static void em_falling_cost(struct fs_em *em, enum fs_power_unit unit)
{
	if (unit == FS_POWER_UW)
		em_2pd_uw(em);
	else
		fs_test_em_2pd(em);
	em->pd[0].nr_ps = 0;
	fs_test_add_state(&em->pd[0], 500000, unit == FS_POWER_UW ? 100000 : 100);
	fs_test_add_state(&em->pd[0], 1000000, unit == FS_POWER_UW ? 150000 : 150);
}

/*
 * Pixel 4, util 10 on every CPU, a util-18 task (util_est 18 | 1 = 19) last
 * on the prime CPU 7; v5.4 em_pd_energy with mW costs (fmax * P / f):
 *  base: silver max 10 -> f_req 2232000 * 10 / 306 = 72941 -> 300 MHz (P 25, cost 148),
 *          E = 148 * 40 / 306 = 19; gold 3 x 10 -> 710.4 MHz (P 149, cost 507),
 *          E = 507 * 30 / 871 = 17; prime 10 -> 825.6 MHz (P 198, cost 681),
 *          E = 681 * 10 / 1024 = 6; base = 19 + 17 + 6 = 42
 *  with p: silver cpu0 at 29 (10 + 19) -> 300 MHz, E = 148 * 59 / 306 = 28: delta 9;
 *          prime cpu7 at 29 -> 825.6 MHz, E = 681 * 29 / 1024 = 19: delta 13
 *  base 42, prev_d 13, best_d 9: saving 4, prev_d + base = 55.
 * >> 4 (the kernel's) gives 3: 4 > 3, the task moves. >> 3 would give 6 and keep it,
 * so this pins the shift from the other side than feec_pixel4_margin_shift_is_four.
 */
FS_TEST(feec_pixel4_margin_moves_at_shift_four_not_three)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[8];

	for (int i = 0; i < 8; i++)
		u[i] = 10;
	fs_test_em_pixel4(&em, FS_POWER_MW);
	fs_test_wakeup(&w, &em, u, 7, 18);
	fs_test_run("v5.4", &em, &w, &r);
	EXPECT_EQ_U64(r.base_energy, 42);
	EXPECT_EQ_U64(r.prev_delta, 13);
	EXPECT_EQ_U64(r.best_delta, 9);
	EXPECT_EQ_U64(r.threshold, 3);
	EXPECT_EQ(r.cpu, 0);
	EXPECT_EQ(r.reason, FS_FEEC_MOVED);
	EXPECT_TRUE(r.prev_delta - r.best_delta <= ((r.prev_delta + r.base_energy) >> 3));
}

/*
 * A task whose extra utilization lifts the little PD into its cheaper state:
 * little CPUs at 177, big cpu2 (prev) at 390, cpu3 idle, task util 29.
 * v5.4 (mW, (f + f/4) * max / cap):
 *  little base: max 177 -> 1.25e6 * 177 / 512 = 432128 -> 500 MHz, E = 200 * 354 / 512 = 138
 *  little cpu0 with p: 206 -> 502929 -> 1000 MHz, E = 150 * 383 / 512 = 112 < 138
 *    delta = 112 - 138 wraps (unsigned long) to 2^64 - 26: never the best.
 *  big base: max 390 -> 952148 -> 1000 MHz (cost 800), E = 800 * 390 / 1024 = 304
 *  big cpu2 (prev) 419 -> 1022949 -> 2000 MHz (cost 1200), E = 1200 * 419 / 1024 = 491: prev_d 187
 *  big cpu3 (max spare, prev competes: 995 > 605) max 390, E = 800 * 419 / 1024 = 327: delta 23
 *  threshold (187 + 138 + 304) >> 4 = 39 < saving 164: cpu3.
 * v6.0 (uW, f * (u + u/4) / cap) visits big first, then little:
 *  little base: 221 -> 431640 -> 500 MHz, E = 200000 * 354 / 512 = 138281;
 *  cpu0 with p: 257 -> 501953 -> 1000 MHz, E = 150000 * 383 / 512 = 112207 < base:
 *  "CPU utilization has changed", feec returns prev (cpu2).
 */
FS_TEST(feec_v5_4_energy_below_base_wraps_v6_0_returns_prev)
{
	struct fs_em em, emu;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[4] = { 177, 177, 390, 0 };

	em_falling_cost(&em, FS_POWER_MW);
	em_falling_cost(&emu, FS_POWER_UW);
	fs_test_wakeup(&w, &em, u, 2, 29);

	fs_test_run("v5.4", &em, &w, &r);
	EXPECT_EQ(r.cpu, 3);
	EXPECT_EQ(r.reason, FS_FEEC_MOVED);
	EXPECT_EQ_U64(r.prev_delta, 187);
	EXPECT_EQ_U64(r.best_delta, 23);
	EXPECT_EQ_U64(r.base_energy, 442);
	const struct fs_feec_cand *little = fs_test_cand(&r, 0);
	ASSERT_TRUE(little != NULL);
	EXPECT_EQ_U64(little->energy, 112);
	EXPECT_EQ_U64(little->base, 138);
	EXPECT_EQ_U64(little->delta, UINT64_MAX - 25); /* 112 - 138 mod 2^64 */

	fs_test_run("v6.0", &emu, &w, &r);
	EXPECT_EQ(r.cpu, 2);
	EXPECT_EQ(r.reason, FS_FEEC_UTIL_CHANGED);
	EXPECT_TRUE(r.eligible);
}

/*
 * v6.0: the big PD's thermal pressure (its first CPU's) caps cpu_cap, pd_cap
 * and the state em_cpu_energy may pick. Little idle, big cpu2 (prev) and cpu3
 * at 370, task util 290, uW EM (costs 1e6*P/f: little 1000 MHz 150000; big
 * 1000 MHz 800000, 2000 MHz 1200000).
 *  no pressure: big base max 370 -> u 462 -> 902343 kHz -> 1000 MHz, busy 740,
 *    E = 800000 * 740 / 1024 = 578125; cpu2 with p: max 660 -> u 825 -> 2000 MHz,
 *    busy 1030, E = 1200000 * 1030 / 1024 = 1207031: prev_d 628906 (cpu3 the same);
 *    little cpu0: max 290 -> u 362 -> 1000 MHz, busy 290, E = 150000 * 290 / 512 = 84960,
 *    base 0: delta 84960 < 628906, the task moves to cpu0.
 *  pressure 600 on cpu2 (tcap 424, pd_cap 848): base unchanged (u 462 -> min 424 ->
 *    828125 kHz -> 1000 MHz); cpu2 with p: max_util min(660, 424), u = min(530, 424)
 *    -> 1000 MHz, busy min(1030, 848) = 848, E = 800000 * 848 / 1024 = 662500:
 *    prev_d 84375 < 84960, the task stays.
 */
FS_TEST(feec_v6_0_thermal_pressure_caps_the_pd_estimate)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int u[4] = { 0, 0, 370, 370 };

	em_2pd_uw(&em);
	fs_test_wakeup(&w, &em, u, 2, 290);
	fs_test_run("v6.0", &em, &w, &r);
	EXPECT_EQ(r.cpu, 0);
	EXPECT_EQ(r.reason, FS_FEEC_MOVED);
	EXPECT_EQ_U64(r.prev_delta, 1207031 - 578125);
	EXPECT_EQ_U64(r.best_delta, 84960);

	w.cpu[2].thermal_pressure = 600;
	w.cpu[3].thermal_pressure = 600;
	fs_test_run("v6.0", &em, &w, &r);
	EXPECT_EQ(r.cpu, 2);
	EXPECT_EQ(r.reason, FS_FEEC_PREV_BEST);
	EXPECT_EQ_U64(r.prev_delta, 662500 - 578125);

	/* Only the first CPU of the PD counts: pressure on cpu3 alone changes nothing. */
	w.cpu[2].thermal_pressure = 0;
	fs_test_run("v6.0", &em, &w, &r);
	EXPECT_EQ(r.cpu, 0);
}

// SPDX-License-Identifier: GPL-2.0
/* Per-era cost tables and em_*_energy() arithmetic against hand-worked values (2-PD EM of em_builders.c). */
#include "test.h"
#include "em_builders.h"
#include "engine/energy.h"
#include "engine/rules.h"

static const struct fs_feec_rules r_mw = { .cost = FS_COST_MW };
static const struct fs_feec_rules r_mw1000 = { .cost = FS_COST_MW_X1000 };
static const struct fs_feec_rules r_uw = { .cost = FS_COST_UW, .unit_uw = true, .mark_inefficient = true };
static const struct fs_feec_rules r_perf = { .cost = FS_COST_UW_PERF, .unit_uw = true, .mark_inefficient = true };

static void tables(const struct fs_feec_rules *r, struct fs_era_tables *t)
{
	struct fs_em em;
	char err[128];

	fs_test_em_2pd(&em);
	ASSERT_TRUE(fs_energy_build_tables(&em, r, t, err, sizeof(err)) == 0);
}

FS_TEST(energy_cost_mw_v5_0)
{
	struct fs_era_tables t;
	tables(&r_mw, &t);
	/* big, fmax 2 GHz: 2e6*200/5e5 = 800, 2e6*400/1e6 = 800, 1200. little: 1e6*50/5e5 = 100, 150. */
	EXPECT_EQ_U64(t.pd[1].cost[0], 800);
	EXPECT_EQ_U64(t.pd[1].cost[1], 800);
	EXPECT_EQ_U64(t.pd[1].cost[2], 1200);
	EXPECT_EQ_U64(t.pd[0].cost[0], 100);
	EXPECT_TRUE(!t.pd[1].inefficient[0]); /* no inefficiency before v5.16 */
}

FS_TEST(energy_cost_x1000_v5_15)
{
	struct fs_era_tables t;
	tables(&r_mw1000, &t);
	/* em_scale_power: 2e6 * (200 * 1000) / 5e5 = 800000. */
	EXPECT_EQ_U64(t.pd[1].cost[0], 800000);
}

FS_TEST(energy_cost_uw_v6_0_marks_inefficient)
{
	struct fs_era_tables t;
	tables(&r_uw, &t);
	/* mW source in a uW era: 200 mW -> 200000 uW; cost 800000, 800000, 1200000.
	 * From the top: 1.2M kept, 800000 < 1.2M kept, 800000 >= 800000 -> inefficient. */
	EXPECT_EQ_U64(t.pd[1].power[0], 200000);
	EXPECT_EQ_U64(t.pd[1].cost[0], 800000);
	EXPECT_TRUE(t.pd[1].inefficient[0]);
	EXPECT_TRUE(!t.pd[1].inefficient[1]);
	EXPECT_TRUE(!t.pd[1].inefficient[2]);
}

FS_TEST(energy_cost_perf_v6_9)
{
	struct fs_era_tables t;
	tables(&r_perf, &t);
	/* perf = 1024 * f / 2e6 = 256, 512, 1024; cost = 10 * P / perf:
	 * 2000000 / 256 = 7812, 4000000 / 512 = 7812, 12000000 / 1024 = 11718. */
	EXPECT_EQ_U64(t.pd[1].perf[0], 256);
	EXPECT_EQ_U64(t.pd[1].perf[1], 512);
	EXPECT_EQ_U64(t.pd[1].cost[0], 7812);
	EXPECT_EQ_U64(t.pd[1].cost[2], 11718);
	EXPECT_TRUE(t.pd[1].inefficient[0]);
}

FS_TEST(energy_em_pd_energy_v5_0_vs_v5_14_headroom_rounding)
{
	struct fs_era_tables t;
	tables(&r_mw, &t);
	/* max_util 300: v5.0 (2e6 + 5e5) * 300 / 1024 = 732421 -> 1 GHz, cost 800:
	 * 800 * 500 / 1024 = 390. v5.14: u = 300 + 75 = 375, 2e6 * 375 / 1024 = 732421: same. */
	EXPECT_EQ_U64(fs_em_pd_energy_v5_0(&t.pd[1], 300, 500), 390);
	EXPECT_EQ_U64(fs_em_cpu_energy_v5_14(&t.pd[1], 300, 500, 1024), 390);
	/* max_util 410: v5.0 2.5e6 * 410 / 1024 = 1000976 > 1 GHz -> 2 GHz, cost 1200 * 1024 / 1024;
	 * v5.14 u = 410 + 102 = 512, 2e6 * 512 / 1024 = 1000000 -> 1 GHz, cost 800. */
	EXPECT_EQ_U64(fs_em_pd_energy_v5_0(&t.pd[1], 410, 1024), 1200);
	EXPECT_EQ_U64(fs_em_cpu_energy_v5_14(&t.pd[1], 410, 1024, 1024), 800);
	/* allowed_cap clamps the request: u = min(1000 + 250, 600) -> 2e6 * 600 / 1024 = 1171875 -> 2 GHz. */
	EXPECT_EQ_U64(fs_em_cpu_energy_v5_14(&t.pd[1], 1000, 1024, 600), 1200);
	/* v5.14+: sum_util 0 short-cuts to 0. */
	EXPECT_EQ_U64(fs_em_cpu_energy_v5_14(&t.pd[1], 1000, 0, 1024), 0);
}

FS_TEST(energy_em_cpu_energy_v6_9_perf_lookup_no_division)
{
	struct fs_era_tables t;
	tables(&r_perf, &t);
	/* perf >= 300: state 1 (512), 7812 * 500 = 3906000 (no / scale). */
	EXPECT_EQ_U64(fs_em_cpu_energy_v6_9(&t.pd[1], 300, 500, 1024), 3906000);
	/* perf >= 200: state 0 (256) since the PD does not skip inefficient states. */
	EXPECT_EQ_U64(fs_em_cpu_energy_v6_9(&t.pd[1], 200, 500, 1024), 7812ull * 500);
	/* With SKIP_INEFFICIENCIES state 0 is skipped: state 1, same cost here. */
	t.pd[1].skip_inefficient = true;
	EXPECT_EQ_U64(fs_em_cpu_energy_v6_9(&t.pd[1], 200, 500, 1024), 7812ull * 500);
	/* Clamped to allowed cap 400 -> state 1. */
	EXPECT_EQ_U64(fs_em_cpu_energy_v6_9(&t.pd[1], 900, 10, 400), 78120);
}

FS_TEST(energy_power_unit_conversion_per_era)
{
	struct fs_em em;
	fs_test_em_pixel4(&em, FS_POWER_UW);
	/* uW source in an mW era: floor(uW / 1000). */
	struct fs_feec_rules mw = { .cost = FS_COST_MW };
	struct fs_em_ps ps = { .frequency = 1, .power = 28728 };
	EXPECT_EQ_U64(fs_era_power(&em, &ps, &mw), 28);
}

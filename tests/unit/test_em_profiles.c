// SPDX-License-Identifier: GPL-2.0
/* Built-in profiles: the kernel's EM arithmetic checked against hand-worked and kernel-measured values. */
#include "test.h"
#include "em/em_internal.h"

static const struct fs_em_ps *ps_at(const struct fs_em *em, int pd, __u64 khz)
{
	for (int i = 0; i < em->pd[pd].nr_ps; i++)
		if (em->pd[pd].ps[i].frequency == khz)
			return &em->pd[pd].ps[i];
	return NULL;
}

FS_TEST(em_profile_hikey960_hand_worked)
{
	struct fs_em em;
	char err[256] = "";
	const struct fs_em_ps *ps;

	ASSERT_TRUE(fs_em_profile_build("hikey960", &em, err, sizeof(err)) == 0);
	EXPECT_EQ(em.nr_pd, 2);
	EXPECT_EQ(em.nr_cpus, 8);
	EXPECT_EQ(em.unit, FS_POWER_UW);
	EXPECT_EQ_U64(em.pd[0].cpus, 0x0f);
	EXPECT_EQ_U64(em.pd[1].cpus, 0xf0);
	EXPECT_EQ(em.pd[0].flags, FS_EM_PD_MICROWATTS);
	/* little 533 MHz, 700 mV, dpc 110: 110 * 700^2 * 533 / 10^6 = 28728.7 -> 28728 uW */
	ASSERT_TRUE((ps = ps_at(&em, 0, 533000)) != NULL);
	EXPECT_EQ_U64(ps->power, 28728);
	/* cost = 1844000 * 28728 / 533000 = 99389.18 -> 99389 (em-data/README.md's worked check) */
	EXPECT_EQ_U64(ps->cost, 99389);
	/* 1402 MHz at 900 mV: 110 * 810000 * 1402 / 10^6 = 124918.2 -> 124918 */
	EXPECT_EQ_U64(ps_at(&em, 0, 1402000)->power, 124918);
	/* big 903 MHz, 700 mV, dpc 550: 550 * 490000 * 903 / 10^6 = 243358.5 -> 243358;
	 * cost = 2362000 * 243358 / 903000 = 636557.7 -> 636557 */
	ASSERT_TRUE((ps = ps_at(&em, 1, 903000)) != NULL);
	EXPECT_EQ_U64(ps->power, 243358);
	EXPECT_EQ_U64(ps->cost, 636557);
	/* top state: cost == power (fmax / freq == 1): 550 * 1100^2 * 2362 / 10^6 = 1571911 */
	EXPECT_EQ_U64(ps_at(&em, 1, 2362000)->power, 1571911);
	EXPECT_EQ_U64(ps_at(&em, 1, 2362000)->cost, 1571911);
	/* capacity: 592 * 1844 * 1024 / (1024 * 2362) = 462.17 -> 462 (LISA hikey960 cap_max 462) */
	for (int cpu = 0; cpu < 4; cpu++)
		EXPECT_EQ(em.capacity[cpu], 462);
	for (int cpu = 4; cpu < 8; cpu++)
		EXPECT_EQ(em.capacity[cpu], 1024);
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < em.pd[i].nr_ps; j++)
			EXPECT_EQ(em.pd[i].ps[j].inefficient, 0);
}

FS_TEST(em_profile_pixel4_shape_and_arithmetic)
{
	struct fs_em em;
	char err[256] = "";
	const struct fs_em_ps *ps;

	ASSERT_TRUE(fs_em_profile_build("pixel4", &em, err, sizeof(err)) == 0);
	/* The cover letter's Pixel 4: 4 + 3 + 1 */
	EXPECT_EQ(em.nr_pd, 3);
	EXPECT_EQ_U64(em.pd[0].cpus, 0x0f);
	EXPECT_EQ_U64(em.pd[1].cpus, 0x70);
	EXPECT_EQ_U64(em.pd[2].cpus, 0x80);
	EXPECT_EQ(em.pd[0].nr_ps, 18);
	EXPECT_EQ(em.pd[1].nr_ps, 17);
	EXPECT_EQ(em.pd[2].nr_ps, 20);
	/* silver 300 MHz, 600 mV, dpc 232: 232 * 360000 * 300 / 10^6 = 25056;
	 * cost = 1785600 * 25056 / 300000 = 149133.3 -> 149133 */
	ASSERT_TRUE((ps = ps_at(&em, 0, 300000)) != NULL);
	EXPECT_EQ_U64(ps->power, 25056);
	EXPECT_EQ_U64(ps->cost, 149133);
	/* capacities: scale = 1024 * 2841 (prime, MHz); silver 488 * 1785 * 1024 / 2909184 = 306.6 -> 306,
	 * gold 1024 * 2419 * 1024 / 2909184 = 871.9 -> 871 */
	EXPECT_EQ(em.capacity[0], 306);
	EXPECT_EQ(em.capacity[4], 871);
	EXPECT_EQ(em.capacity[7], 1024);
	EXPECT_CONTAINS(fs_em_profile_provenance("pixel4"), "UNVERIFIED");
}

/*
 * Kernel-measured anchors: Vincent Guittot's RB5 numbers from upstream commit
 * 775a5283c25d (v6.4-rc6, silver DPC 205): CPU0 OPP 1612800 cost 191704,
 * CPU4 OPP 710400 cost 343217, max capacities 284 / 871. They imply LUT
 * voltages 720 mV / 612 mV at those OPPs; a test-only device with exactly
 * those facts must reproduce the kernel's numbers.
 */
FS_TEST(em_profile_rb5_kernel_anchors)
{
	struct fs_dt_device dev = {
		.name = "rb5-anchor", .desc = "", .provenance = "", .nr_clusters = 3,
		.cl = {
			{ .name = "pd0", .cpus = "0-3", .dmips_mhz = 448, .dpc = 205, .cpuinfo_max_khz = 1804800,
			  .nr_opps = 2, .opp = { { 1612800, 720000 }, { 1804800, 776000 } } },
			{ .name = "pd1", .cpus = "4-6", .dmips_mhz = 1024, .dpc = 379, .cpuinfo_max_khz = 2419200,
			  .nr_opps = 2, .opp = { { 710400, 612000 }, { 2419200, 912000 } } },
			{ .name = "pd2", .cpus = "7", .dmips_mhz = 1024, .dpc = 444, .cpuinfo_max_khz = 2841600,
			  .nr_opps = 1, .opp = { { 2841600, 904000 } } },
		},
	};
	struct fs_em em;
	char err[256] = "";

	ASSERT_TRUE(fs_em_from_dt(&dev, "rb5-anchor", &em, err, sizeof(err)) == 0);
	EXPECT_EQ_U64(ps_at(&em, 0, 1612800)->cost, 191704);
	EXPECT_EQ_U64(ps_at(&em, 1, 710400)->cost, 343217);
	EXPECT_EQ(em.capacity[0], 284);
	EXPECT_EQ(em.capacity[4], 871);
	EXPECT_EQ(em.capacity[7], 1024);
}

/* The mW formula (v5.0-v5.19) against a kernel-written EM: LISA's Juno r0 dump (4.19) A53 42/58/79/97/119 mW. */
FS_TEST(em_profile_milliwatt_power_juno_r0)
{
	static const __u32 khz[] = { 450000, 575000, 700000, 775000, 850000 };
	static const __u32 uv[] = { 820000, 850000, 900000, 950000, 1000000 };
	static const __u64 mw[] = { 42, 58, 79, 97, 119 };

	for (int i = 0; i < 5; i++)
		EXPECT_EQ_U64(fs_dt_opp_power(140, khz[i], uv[i], true), mw[i]);
}

FS_TEST(em_profile_inefficient_marking)
{
	struct fs_em em;
	char err[256] = "";

	/* rb5 silver at 568 mV: costs 61134 (300 MHz) and 61104 (403.2 MHz) are not below
	 * 61089 (518.4 MHz), so em_compute_costs() marks both inefficient and the PD skips them. */
	ASSERT_TRUE(fs_em_profile_build("rb5", &em, err, sizeof(err)) == 0);
	EXPECT_EQ(em.pd[0].ps[0].inefficient, 1);
	EXPECT_EQ(em.pd[0].ps[1].inefficient, 1);
	EXPECT_EQ(em.pd[0].ps[2].inefficient, 0);
	EXPECT_EQ(em.pd[0].flags, FS_EM_PD_MICROWATTS | FS_EM_PD_SKIP_INEFFICIENT);
	EXPECT_EQ(em.pd[0].ps[em.pd[0].nr_ps - 1].inefficient, 0);
}

FS_TEST(em_profile_every_builtin_builds)
{
	for (int i = 0; i < fs_em_profile_count(); i++) {
		struct fs_em em;
		char err[256] = "";
		int rc = fs_em_profile_build(fs_em_profile_name(i), &em, err, sizeof(err));

		if (rc)
			FS_FAIL_AT("%s: %s", fs_em_profile_name(i), err);
		EXPECT_TRUE(fs_em_profile_provenance(fs_em_profile_name(i)) != NULL);
	}
	EXPECT_TRUE(fs_em_profile_count() >= 4);
}

FS_TEST(em_profile_unknown_name_lists_known)
{
	struct fs_em em;
	char err[512] = "";

	EXPECT_EQ(fs_em_profile_build("nexus5", &em, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "profile 'nexus5'");
	EXPECT_CONTAINS(err, "hikey960");
}

FS_TEST(em_profile_for_cpus_synthetic)
{
	struct fs_em em;
	char err[512] = "";

	ASSERT_TRUE(fs_em_profile_for_cpus(2, &em, err, sizeof(err)) == 0);
	EXPECT_EQ(em.nr_cpus, 2);
	EXPECT_EQ_U64(em.pd[0].cpus, 0x1);
	EXPECT_EQ_U64(em.pd[1].cpus, 0x2);
	EXPECT_EQ(em.capacity[0], 462);
	EXPECT_EQ(em.capacity[1], 1024);
	EXPECT_CONTAINS(em.source, "synthetic");
	ASSERT_TRUE(fs_em_profile_for_cpus(5, &em, err, sizeof(err)) == 0);
	EXPECT_EQ_U64(em.pd[0].cpus, 0x07); /* first (larger) half little */
	EXPECT_EQ_U64(em.pd[1].cpus, 0x18);
	EXPECT_EQ(fs_em_profile_for_cpus(1, &em, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "EAS needs CPUs of different capacities");
	EXPECT_EQ(fs_em_profile_for_cpus(33, &em, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "33 CPUs");
}

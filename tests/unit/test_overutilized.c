// SPDX-License-Identifier: GPL-2.0
/*
 * cpu_overutilized() per era (rules.h enum fs_ou_rule), worked by hand on the
 * 2-PD test EM: little cpu0-1 capacity 512, big cpu2-3 capacity 1024, no
 * pressure. fits_capacity(u, c): u * 1280 < c * 1024 (little: u <= 409).
 */
#include "test.h"
#include "em_builders.h"
#include "engine/energy.h"
#include "engine/feec_ctx.h"
#include "engine/util.h"

/* fs_rd_overutilized() of a wake-up under policy's era rules. */
static bool rd_ou(const char *policy, const struct fs_em *em, const struct fs_wakeup *w)
{
	const struct fs_feec_rules *r = fs_policy_find(policy)->rules;
	static struct fs_era_tables t;
	struct fs_feec_ctx c;
	char err[256];

	if (fs_energy_build_tables(em, r, &t, err, sizeof(err))) {
		fprintf(stderr, "    %s\n", err);
		exit(1);
	}
	fs_feec_ctx_init(&c, em, w, r, &t);
	return fs_rd_overutilized(&c);
}

/* Every CPU light (util 50) but cpu0 at util, with cpu0's rq clamps. */
static void landscape(struct fs_em *em, struct fs_wakeup *w, unsigned int util, unsigned int rq_min,
		      unsigned int rq_max)
{
	unsigned int u[4] = { util, 50, 50, 50 };

	fs_test_em_2pd(em);
	fs_test_wakeup(w, em, u, 3, 10);
	w->flags |= FS_WAKE_UCLAMP_USED;
	w->cpu[0].uclamp_min = (__u16)rq_min;
	w->cpu[0].uclamp_max = (__u16)rq_max;
}

/*
 * cpu0 util 300 fits 512 (384000 < 524288), but its rq is boosted to 600,
 * above the little capacity. 6.2's bool util_fits_cpu() (v5.10, v5.15 as
 * backported): 300 < 600 and 600 > 512 -> does not fit -> overutilized.
 * 6.4+ levels (v6.1, v6.12): -1, which !-1 reads as fitting. 7.1 passes 0:
 * fits. v6.0: plain fits_capacity, fits.
 */
FS_TEST(overutilized_boost_above_capacity_only_in_the_bool_form)
{
	struct fs_em em;
	struct fs_wakeup w;

	landscape(&em, &w, 300, 600, 1024);
	EXPECT_TRUE(rd_ou("v5.10", &em, &w));
	EXPECT_TRUE(rd_ou("v5.15", &em, &w));
	EXPECT_TRUE(!rd_ou("v6.0", &em, &w));
	EXPECT_TRUE(!rd_ou("v6.1", &em, &w));
	EXPECT_TRUE(!rd_ou("v6.12", &em, &w));
	EXPECT_TRUE(!rd_ou("v7.1", &em, &w));
	/* The same boost at 500 fits 512 for every rule. */
	w.cpu[0].uclamp_min = 500;
	EXPECT_TRUE(!rd_ou("v5.10", &em, &w));
	/* Without uclamp in use the clamps are not read at all. */
	w.cpu[0].uclamp_min = 600;
	w.flags &= ~FS_WAKE_UCLAMP_USED;
	EXPECT_TRUE(!rd_ou("v5.10", &em, &w));
}

/*
 * cpu0 util 450 does not fit 512 (576000 >= 524288): overutilized for
 * fits_capacity (v6.0). Its rq is capped at 300 <= 512, so every
 * util_fits_cpu() form calls it fitting (uclamp_max_fits).
 */
FS_TEST(overutilized_capped_rq_fits_from_6_2_on)
{
	struct fs_em em;
	struct fs_wakeup w;

	landscape(&em, &w, 450, 0, 300);
	EXPECT_TRUE(rd_ou("v6.0", &em, &w));
	EXPECT_TRUE(!rd_ou("v5.10", &em, &w));
	EXPECT_TRUE(!rd_ou("v6.1", &em, &w));
	EXPECT_TRUE(!rd_ou("v6.12", &em, &w));
	EXPECT_TRUE(!rd_ou("v7.1", &em, &w));
	EXPECT_TRUE(!rd_ou("v7.2", &em, &w));
	/* A cap above the CPU's capacity does not excuse it. */
	w.cpu[0].uclamp_max = 600;
	EXPECT_TRUE(rd_ou("v6.12", &em, &w));
	EXPECT_TRUE(rd_ou("v7.1", &em, &w));
}

/*
 * The biggest CPU with an uncapped rq must still overutilize: cpu2 util 900
 * (1152000 >= 1048576) with rq max 1024: uclamp_max_fits is false on a
 * 1024-capacity CPU with max 1024, for every form.
 */
FS_TEST(overutilized_max_capacity_cpu_still_overutilizes)
{
	struct fs_em em;
	struct fs_wakeup w;
	unsigned int u[4] = { 50, 50, 900, 50 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, u, 3, 10);
	w.flags |= FS_WAKE_UCLAMP_USED;
	EXPECT_TRUE(rd_ou("v6.0", &em, &w));
	EXPECT_TRUE(rd_ou("v5.15", &em, &w));
	EXPECT_TRUE(rd_ou("v6.12", &em, &w));
	EXPECT_TRUE(rd_ou("v7.1", &em, &w));
	/* 800 fits 1024 (1024000 < 1048576). */
	w.cpu[2].util_avg = w.cpu[2].util_est = 800;
	EXPECT_TRUE(!rd_ou("v7.1", &em, &w));
}

/*
 * 9264758066061 says the rq's uclamp_min was already useless in
 * cpu_overutilized() since the -1 level: the 7.1 and 6.4+ rules must agree
 * on any landscape (random wake-ups with clamps, pressure, offline CPUs).
 */
FS_TEST(overutilized_7_1_rule_equals_the_levels_rule)
{
	struct fs_em em;
	struct fs_wakeup w;
	__u64 seed = 0x5eed0416;
	int ou = 0;

	fs_test_em_pixel4(&em, FS_POWER_UW);
	for (int i = 0; i < 3000; i++) {
		fs_test_random_wakeup(&w, &em, &seed);
		bool a = rd_ou("v6.12", &em, &w), b = rd_ou("v7.1", &em, &w);
		EXPECT_EQ(a, b);
		ou += a;
	}
	/* Both outcomes occur, so the comparison says something. */
	EXPECT_TRUE(ou > 100 && ou < 2900);
}

/* Emulated gates: each policy decides with its own rule; recorded ones are the kernel's. */
FS_TEST(overutilized_emulated_gate_is_per_policy)
{
	struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;

	landscape(&em, &w, 300, 600, 1024);
	w.flags |= FS_WAKE_OU_EMULATED;
	fs_test_run("v5.15", &em, &w, &r);
	EXPECT_EQ(r.reason, FS_FEEC_OVERUTILIZED);
	fs_test_run("v7.1", &em, &w, &r);
	EXPECT_TRUE(r.reason != FS_FEEC_OVERUTILIZED);
	w.flags &= ~FS_WAKE_OU_EMULATED;
	w.flags |= FS_WAKE_OVERUTILIZED;
	fs_test_run("v7.1", &em, &w, &r);
	EXPECT_EQ(r.reason, FS_FEEC_OVERUTILIZED);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own EM table as read (em.h cost_as_read): a v6.9+ table
 * whose cost is not 10 * P / perf (ARTIFICIAL, or changed at run time by
 * em_dev_update_perf_domain()) is used as the kernel holds it by the
 * policies of its form, and recomputed by every other era and for a
 * profile or saved file. The 2-PD test EM in uW, v6.9 columns:
 *   little cap 512: 500 MHz 50000 uW perf 256 cost 1953, 1 GHz 150000 uW perf 512 cost 2929
 *   big cap 1024: 500 MHz 200000 uW perf 256 cost 7812, 1 GHz 400000 perf 512 cost 7812,
 *                 2 GHz 1200000 perf 1024 cost 11718
 */
#include "test.h"
#include "em_builders.h"
#include "engine/energy.h"
#include "engine/rules.h"

/* A v6.9+ kernel's table: uW, performance and cost as the kernel computes them. */
static void em_v6_9(struct fs_em *em)
{
	fs_test_em_2pd_v6_9(em);
	for (int p = 0; p < em->nr_pd; p++)
		em->pd[p].has_inefficient = true;
	/* big 500 MHz costs what 1 GHz does: the kernel flags it inefficient */
	em->pd[1].ps[0].inefficient = 1;
}

static const struct fs_feec_rules *rules(const char *policy)
{
	return fs_policy_find(policy)->rules;
}

FS_TEST(em_cost_form_of_each_kernel_layout)
{
	struct fs_em em;

	em_v6_9(&em);
	EXPECT_EQ(fs_em_cost_form(&em), FS_COST_UW_PERF);
	for (int p = 0; p < em.nr_pd; p++)
		for (int s = 0; s < em.pd[p].nr_ps; s++)
			em.pd[p].ps[s].performance = 0;
	EXPECT_EQ(fs_em_cost_form(&em), FS_COST_UW); /* v6.0 - v6.8: no performance file */
	fs_test_em_2pd(&em);
	EXPECT_EQ(fs_em_cost_form(&em), -1);         /* no cost given */
	/* mW: fmax * P / f (v5.0 - v5.14) against fmax * P * 1000 / f (v5.15 - v5.19). */
	em.pd[0].ps[0].cost = 100, em.pd[0].ps[1].cost = 150;
	em.pd[1].ps[0].cost = 800, em.pd[1].ps[1].cost = 800, em.pd[1].ps[2].cost = 1200;
	EXPECT_EQ(fs_em_cost_form(&em), FS_COST_MW);
	for (int p = 0; p < em.nr_pd; p++)
		for (int s = 0; s < em.pd[p].nr_ps; s++)
			em.pd[p].ps[s].cost *= 1000;
	EXPECT_EQ(fs_em_cost_form(&em), FS_COST_MW_X1000);
}

FS_TEST(em_kernel_cost_taken_as_read_by_its_era_only)
{
	static struct fs_em em;
	static struct fs_era_tables t;
	char err[256];

	em_v6_9(&em);
	/* A runtime update made big's middle state dear and little's top cheap. */
	em.pd[1].ps[1].cost = 20000;
	em.pd[0].ps[1].cost = 1000;
	em.pd[0].ps[1].inefficient = 0;
	em.cost_as_read = true;
	ASSERT_TRUE(fs_energy_build_tables(&em, rules("v6.12"), &t, err, sizeof(err)) == 0);
	EXPECT_EQ_U64(t.pd[1].cost[1], 20000);
	EXPECT_EQ_U64(t.pd[0].cost[1], 1000);
	EXPECT_EQ_U64(t.pd[1].perf[2], 1024);
	EXPECT_TRUE(t.pd[1].inefficient[0]);  /* the kernel's flag */
	EXPECT_TRUE(!t.pd[1].inefficient[1]); /* as read, though 20000 >= 11718 */
	/* v7.2 is of the same form; v6.1 (uW, fmax * P / f) recomputes: 150000 * 1e6 / 1e6 */
	ASSERT_TRUE(fs_energy_build_tables(&em, rules("v7.2"), &t, err, sizeof(err)) == 0);
	EXPECT_EQ_U64(t.pd[1].cost[1], 20000);
	ASSERT_TRUE(fs_energy_build_tables(&em, rules("v6.1"), &t, err, sizeof(err)) == 0);
	EXPECT_EQ_U64(t.pd[0].cost[1], 150000);
	EXPECT_EQ_U64(t.pd[1].cost[1], 800000);
	/* Not the kernel's (a profile, --em FILE): 10 * P / perf, flags by the kernel's rule. */
	em.cost_as_read = false;
	ASSERT_TRUE(fs_energy_build_tables(&em, rules("v6.12"), &t, err, sizeof(err)) == 0);
	EXPECT_EQ_U64(t.pd[1].cost[1], 7812);
	EXPECT_EQ_U64(t.pd[0].cost[1], 2929);
	EXPECT_TRUE(t.pd[1].inefficient[0]);  /* 7812 >= 7812 */
}

/*
 * feec follows the table it is given: p (util 100) waking on big cpu2 with
 * every CPU idle. Recomputed, little cpu0 is cheaper (it was for v6.12 in
 * any case: 2929 * 125 vs big's 7812 * 125); with the kernel's runtime
 * table pricing little's only usable state at 40000, feec keeps p on big.
 */
FS_TEST(em_kernel_cost_decides_feec)
{
	static struct fs_em em;
	struct fs_wakeup w;
	struct fs_feec_result r;
	unsigned int util[4] = { 0, 0, 0, 0 };

	em_v6_9(&em);
	fs_test_wakeup(&w, &em, util, 2, 100);
	fs_test_run("v6.12", &em, &w, &r);
	EXPECT_TRUE(r.cpu == 0 || r.cpu == 1);
	em.pd[0].ps[0].cost = em.pd[0].ps[1].cost = 40000;
	em.cost_as_read = true;
	fs_test_run("v6.12", &em, &w, &r);
	EXPECT_EQ(r.cpu, 2);
	em.cost_as_read = false;
	fs_test_run("v6.12", &em, &w, &r);
	EXPECT_TRUE(r.cpu == 0 || r.cpu == 1);
}

// SPDX-License-Identifier: GPL-2.0
/* fs_sim_closed_loop(): the run's policies and the kernel's, the margin's cost, the self-check. */
#include <math.h>
#include <string.h>
#include "test.h"
#include "em_builders.h"
#include "sim_builders.h"
#include "sim/closed_loop.h"

#define MS 1000000ull

/* test_sim_machine.c's periodic task on a 1+1 EM: 410 mJ with the margin, 400 mJ without. */
static void periodic(struct fs_sim_workload *wl, struct fs_em *em)
{
	fs_test_em_1p1(em, 10000, 20500);
	fs_test_wl_init(wl, 2, 1, 10, 200 * MS);
	wl->tasks[0].init_cpu = 1;
	wl->tasks[0].init_util = wl->tasks[0].init_util_est = 128;
	fs_test_wl_periodic(wl, 0, 1 * MS, 16 * MS, 2 * MS, 10);
	/* what the kernel of the recording did: every activation on little, 4 ms each */
	wl->observed.busy_ns[0] = 40 * MS;
}

FS_TEST(sim_closed_loop_margin_cost_and_self_check)
{
	struct fs_sim_workload wl;
	struct fs_em em;
	struct fs_sim_report rep;
	char err[160];
	const struct fs_policy_desc *pols[2] = { fs_policy_find("v6.1"), fs_policy_find("v6.1+margin") };
	struct fs_sim_run_in in = {
		.em = &em, .policies = pols, .nr_policies = 2, .kernel_policy = pols[0],
		.physics = FS_SIM_DEVICE, .rec_energy = 400.0, /* mW EM: mJ */
	};

	periodic(&wl, &em);
	ASSERT_TRUE(fs_sim_closed_loop(&wl, &in, &rep, err, sizeof(err)) == 0);
	EXPECT_TRUE(rep.ran);
	EXPECT_EQ(rep.nr_policies, 2);
	EXPECT_TRUE(fabs(rep.pol[0].energy_mj - 400.0) < 1e-6);
	EXPECT_TRUE(fabs(rep.pol[1].energy_mj - 410.0) < 1e-6);
	ASSERT_TRUE(rep.answer.nr_verdicts == 1);
	EXPECT_EQ(rep.answer.v[0].pol, 1);
	EXPECT_TRUE(fabs(rep.answer.v[0].delta - 10.0) < 1e-6);
	/* the kernel's own policy reproduces what it recorded: little, 40 ms, 400 mJ */
	EXPECT_TRUE(rep.has_check);
	EXPECT_TRUE(rep.check.reproduces);
	EXPECT_TRUE(fabs(rep.check.energy_pct) < 1e-6);
	fs_sim_report_free(&rep);
	fs_sim_workload_free(&wl);
}

/* A kernel policy outside the run is simulated once more, for the self-check alone. */
FS_TEST(sim_closed_loop_kernel_policy_not_in_the_run)
{
	struct fs_sim_workload wl;
	struct fs_em em;
	struct fs_sim_report rep;
	char err[160];
	const struct fs_policy_desc *pols[1] = { fs_policy_find("v6.1") };
	struct fs_sim_run_in in = {
		.em = &em, .policies = pols, .nr_policies = 1, .kernel_policy = fs_policy_find("v6.1+margin"),
		.physics = FS_SIM_DEVICE, .rec_energy = NAN,
	};

	periodic(&wl, &em);
	ASSERT_TRUE(fs_sim_closed_loop(&wl, &in, &rep, err, sizeof(err)) == 0);
	EXPECT_EQ(rep.answer.nr_verdicts, 0);
	EXPECT_TRUE(rep.has_check);
	/* the margin kernel keeps the task on big: the recording (little) is not reproduced */
	EXPECT_EQ_U64(rep.check.busy_sim_ns[1], 20 * MS);
	EXPECT_TRUE(!rep.check.reproduces);
	fs_sim_report_free(&rep);
	fs_sim_workload_free(&wl);
}

FS_TEST(sim_closed_loop_rejects_no_policy)
{
	struct fs_sim_workload wl;
	struct fs_em em;
	struct fs_sim_report rep;
	char err[160] = "";
	struct fs_sim_run_in in = { .em = &em, .nr_policies = 0 };

	periodic(&wl, &em);
	EXPECT_TRUE(fs_sim_closed_loop(&wl, &in, &rep, err, sizeof(err)) == -1);
	EXPECT_TRUE(err[0] != 0);
	fs_sim_report_free(&rep);
	fs_sim_workload_free(&wl);
}

/* A workload longer than max_span_ns is said, not simulated (the machine's cost grows with it). */
FS_TEST(sim_closed_loop_span_limit)
{
	struct fs_sim_workload wl;
	struct fs_em em;
	struct fs_sim_report rep;
	char err[160] = "";
	const struct fs_policy_desc *pols[1] = { fs_policy_find("v6.1") };
	struct fs_sim_run_in in = {
		.em = &em, .policies = pols, .nr_policies = 1, .physics = FS_SIM_DEVICE, .rec_energy = NAN,
		.max_span_ns = 100 * MS, /* the workload spans 200 ms */
	};

	periodic(&wl, &em);
	ASSERT_TRUE(fs_sim_closed_loop(&wl, &in, &rep, err, sizeof(err)) == 0);
	EXPECT_TRUE(!rep.ran);
	EXPECT_TRUE(strstr(rep.why, "spans 0.2 s, more than the simulation's 0.1 s") != NULL);
	fs_sim_report_free(&rep);
	in.max_span_ns = 0; /* the default limit: 6 h */
	ASSERT_TRUE(fs_sim_closed_loop(&wl, &in, &rep, err, sizeof(err)) == 0);
	EXPECT_TRUE(rep.ran);
	fs_sim_report_free(&rep);
	fs_sim_workload_free(&wl);
}

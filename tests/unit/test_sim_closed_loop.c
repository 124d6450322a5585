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

/*
 * The 1+1 EM with a second, lower OPP on little: its slowest work runs at
 * 512/1024 x 500/1000 MHz, 4 ns a unit; big at its only OPP, 1 ns a unit.
 */
static void em_slow_little(struct fs_em *em)
{
	char err[160];

	fs_test_em_1p1(em, 100, 400);
	em->pd[0].nr_ps = 0;
	fs_test_add_state(&em->pd[0], 500000, 40);
	fs_test_add_state(&em->pd[0], 1000000, 100);
	ASSERT_TRUE(fs_em_finalize(em, err, sizeof(err)) == 0);
}

/*
 * A recording whose records all lie at or before its first spans 0 s: the
 * machine then runs until the work is done, so the work bounds its time
 * (the records fuzzer's 4 wake-ups, the first at 1.5e19 ns, ran for
 * minutes). Worked by hand: the last wake-up at 3 ms, 25 ms of work.
 */
FS_TEST(sim_horizon_of_a_workload)
{
	struct fs_sim_workload wl;
	struct fs_em em;

	em_slow_little(&em);
	fs_test_wl_init(&wl, 2, 1, 2, 0);
	fs_test_wl_act(&wl, 0, 0, 10 * MS);
	fs_test_wl_act(&wl, 0, 3 * MS, 15 * MS);
	EXPECT_EQ_U64(fs_sim_horizon_ns(&wl, &em, FS_SIM_DEVICE), 3 * MS + 25 * MS * 4);
	EXPECT_EQ_U64(fs_sim_horizon_ns(&wl, &em, FS_SIM_LAB), 3 * MS + 25 * MS);
	/* the fuzzer's: a CPU time of 7.2e17 ns, 22.8 years (in double: a bound needs no exact ns) */
	wl.acts[1].work = 720575940379279360ull;
	EXPECT_EQ_U64(fs_sim_horizon_ns(&wl, &em, FS_SIM_LAB) / 1000000000ull, 720575940ull);
	EXPECT_TRUE(fs_sim_horizon_ns(&wl, &em, FS_SIM_LAB) > FS_SIM_MAX_SPAN_NS);
	wl.acts[0].work = wl.acts[1].work = ~0ull;
	EXPECT_EQ_U64(fs_sim_horizon_ns(&wl, &em, FS_SIM_DEVICE), FS_SIM_NEVER);
	/* a workload with a span ends there, whatever its work */
	wl.end_ns = 7 * MS;
	EXPECT_EQ_U64(fs_sim_horizon_ns(&wl, &em, FS_SIM_DEVICE), 7 * MS);
	fs_test_wl_free(&wl);
}

/* That time has to fit the simulation's limit, as a span has: said, not simulated. */
FS_TEST(sim_closed_loop_span_0_work_limit)
{
	struct fs_sim_workload wl;
	struct fs_em em;
	struct fs_sim_report rep;
	char err[160] = "";
	const struct fs_policy_desc *pols[1] = { fs_policy_find("v6.1") };
	struct fs_sim_run_in in = {
		.em = &em, .policies = pols, .nr_policies = 1, .physics = FS_SIM_DEVICE, .rec_energy = NAN,
		.max_span_ns = 100 * MS,
	};

	em_slow_little(&em);
	fs_test_wl_init(&wl, 2, 1, 2, 0);
	fs_test_wl_act(&wl, 0, 0, 10 * MS);
	fs_test_wl_act(&wl, 0, 3 * MS, 15 * MS);
	ASSERT_TRUE(fs_sim_closed_loop(&wl, &in, &rep, err, sizeof(err)) == 0);
	EXPECT_TRUE(!rep.ran);
	EXPECT_CONTAINS(rep.why, "spans 0 s and its work could take 0.103 s at the slowest CPU, more than the "
			"simulation's 0.1 s");
	fs_sim_report_free(&rep);
	/* under LAB physics the same work takes 28 ms at most: simulated to its end, as before */
	in.physics = FS_SIM_LAB;
	ASSERT_TRUE(fs_sim_closed_loop(&wl, &in, &rep, err, sizeof(err)) == 0);
	EXPECT_TRUE(rep.ran);
	EXPECT_EQ_U64(rep.pol[0].busy_ns, 25 * MS);
	fs_sim_report_free(&rep);
	fs_test_wl_free(&wl);
}

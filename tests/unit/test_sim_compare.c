// SPDX-License-Identifier: GPL-2.0
/*
 * The simulation's answer (user/sim/compare.c) on fabricated results: each
 * margin's closed-loop cost, whatever the order of the policies, and the
 * processes' energies summing to it.
 */
#include <math.h>
#include "test.h"
#include "em_builders.h"
#include "sim/compare.h"

#define MS 1000000ull

static struct fs_em em;
static struct fs_sim_result res[3];

/*
 * Five threads in three processes; energies per policy chosen so that
 * E(v5.4) - E(v5.4-nomargin) = 4.75 - 4.0 = 0.75, all of it in process 100,
 * and 0.25 of each policy's energy in no task's share.
 */
static struct fs_sim_task tasks[5] = {
	{ .pid = 100, .tgid = 100, .comm = "app", .first_act = 0, .nr_act = 1 },
	{ .pid = 101, .tgid = 100, .comm = "app-worker", .first_act = 1, .nr_act = 1 },
	{ .pid = 200, .tgid = 200, .comm = "kworker", .first_act = 2, .nr_act = 1 },
	{ .pid = 301, .tgid = 300, .comm = "small", .first_act = 3, .nr_act = 1 },
	{ .pid = 302, .tgid = 300, .comm = "busy", .first_act = 4, .nr_act = 1 },
};
static struct fs_sim_act acts[5] = {
	{ .rec_cpu_ns = 1 * MS }, { .rec_cpu_ns = 9 * MS }, { .rec_cpu_ns = 2 * MS },
	{ .rec_cpu_ns = 5 * MS }, { .rec_cpu_ns = 7 * MS },
};
static const double task_e[3][5] = {
	{ 3.0, 1.0, 0.5, 0, 0 },   /* v5.4 */
	{ 2.0, 1.25, 0.5, 0, 0 },  /* v5.4-nomargin */
	{ 2.5, 1.0, 0.25, 0, 0 },  /* v6.12.97 */
};
static struct fs_sim_task_result tr[3][5];

static void answer_for(const char *const *names, struct fs_sim_answer *a, int ref)
{
	static const char *const all[3] = { "v5.4", "v5.4-nomargin", "v6.12.97" };
	struct fs_sim_workload wl = { .nr_tasks = 5, .tasks = tasks, .nr_acts = 5, .acts = acts };
	const struct fs_policy_desc *pols[3];
	char err[128];

	fs_test_em_2pd(&em);
	memset(res, 0, sizeof(res));
	for (int i = 0; i < 3; i++) {
		int k = 0;

		while (strcmp(all[k], names[i]))
			k++;
		pols[i] = fs_policy_find(names[i]);
		res[i].nr_tasks = 5;
		res[i].task = tr[i];
		res[i].energy = 0.25;
		res[i].energy_x = 250000000; /* EM unit x ns: 0.25 x 1e9 */
		for (int t = 0; t < 5; t++) {
			tr[i][t].energy = task_e[k][t];
			tr[i][t].energy_x = (unsigned __int128)(task_e[k][t] * 1e9);
			res[i].energy += task_e[k][t];
			res[i].energy_x += tr[i][t].energy_x;
		}
		res[i].energy_mj = res[i].energy; /* mW x s */
	}
	if (fs_sim_answer_build(&wl, pols, res, 3, ref, a, err, sizeof(err)))
		FS_FAIL_AT("answer: %s", err);
}

FS_TEST(sim_answer_margin_and_processes)
{
	static const char *const order[3] = { "v5.4", "v5.4-nomargin", "v6.12.97" };
	struct fs_sim_answer a;

	answer_for(order, &a, 2);
	ASSERT_TRUE(a.nr_verdicts == 1 && a.nr_procs == 4);
	EXPECT_EQ(a.v[0].pol, 0);
	EXPECT_EQ(a.v[0].twin, 1);
	EXPECT_NEAR(a.v[0].delta, 0.75);
	EXPECT_NEAR(a.v[0].delta_mj, 0.75);
	EXPECT_NEAR(a.vs_ref[0], 0.75);
	EXPECT_NEAR(a.vs_ref[1], 0.0);
	/* process 100 first (its delta), then by tgid, the remainder last */
	EXPECT_EQ(a.procs[0].tgid, 100);
	EXPECT_STR(a.procs[0].comm, "app"); /* the leader names it, though its worker ran more */
	EXPECT_EQ(a.procs[0].nr_threads, 2);
	EXPECT_EQ_U64(a.procs[0].rec_cpu_ns, 10 * MS);
	EXPECT_NEAR(a.procs[0].energy[0], 4.0);
	EXPECT_NEAR(a.procs[0].delta[0], 0.75);
	EXPECT_EQ(a.procs[1].tgid, 200);
	EXPECT_EQ(a.procs[2].tgid, 300);
	EXPECT_STR(a.procs[2].comm, "busy"); /* no leader: the busiest thread */
	EXPECT_EQ(a.procs[3].tgid, FS_SIM_UNATTRIBUTED);
	EXPECT_NEAR(a.procs[3].energy[2], 0.25);
	/* the rows sum to each policy's energy and to the verdict */
	for (int i = 0; i < 3; i++) {
		double sum = 0;

		for (size_t r = 0; r < a.nr_procs; r++)
			sum += a.procs[r].energy[i];
		EXPECT_NEAR(sum, a.energy[i]);
	}
	double d = 0;

	for (size_t r = 0; r < a.nr_procs; r++)
		d += a.procs[r].delta[0];
	EXPECT_NEAR(d, a.v[0].delta);
	/* exactly, in the machine's integer EM unit x ns */
	__int128 dx = 0;

	for (size_t r = 0; r < a.nr_procs; r++)
		dx += a.procs[r].delta_x[0];
	EXPECT_TRUE(dx == a.v[0].delta_x && dx == 750000000);
	/* no blocks kept: no interval */
	EXPECT_TRUE(a.v[0].blocks == 0 && isnan(a.v[0].lo) && !a.v[0].measurable);
	fs_sim_answer_free(&a);
}

/* The same results in another order, with another reference: the same verdict and processes. */
FS_TEST(sim_answer_does_not_depend_on_the_policy_order)
{
	static const char *const o1[3] = { "v5.4", "v5.4-nomargin", "v6.12.97" };
	static const char *const o2[3] = { "v6.12.97", "v5.4-nomargin", "v5.4" };
	static const char *const o3[3] = { "v5.4-nomargin", "v6.12.97", "v5.4" };
	const char *const *orders[3] = { o1, o2, o3 };
	struct fs_sim_answer a[3];

	for (int k = 0; k < 3; k++)
		answer_for(orders[k], &a[k], 0);
	for (int k = 0; k < 3; k++) {
		ASSERT_TRUE(a[k].nr_verdicts == 1 && a[k].nr_procs == a[0].nr_procs);
		EXPECT_STR(fs_policy_find(orders[k][a[k].v[0].pol])->name, "v5.4");
		EXPECT_STR(fs_policy_find(orders[k][a[k].v[0].twin])->name, "v5.4-nomargin");
		EXPECT_TRUE(a[k].v[0].delta == a[0].v[0].delta);
		for (size_t r = 0; r < a[0].nr_procs; r++) {
			EXPECT_EQ(a[k].procs[r].tgid, a[0].procs[r].tgid);
			EXPECT_TRUE(a[k].procs[r].delta[0] == a[0].procs[r].delta[0]);
		}
	}
	for (int k = 0; k < 3; k++)
		fs_sim_answer_free(&a[k]);
}

FS_TEST(sim_answer_rejects_mismatched_results)
{
	struct fs_sim_workload wl = { .nr_tasks = 5, .tasks = tasks, .nr_acts = 5, .acts = acts };
	const struct fs_policy_desc *pols[1] = { fs_policy_find("v6.12.97") };
	struct fs_sim_result r = { .nr_tasks = 4 };
	struct fs_sim_answer a;
	char err[128];

	EXPECT_EQ(fs_sim_answer_build(&wl, pols, &r, 1, 0, &a, err, sizeof(err)), -1);
	EXPECT_STR(err, "simulation answer: v6.12.97's result has 4 tasks, the workload 5");
	EXPECT_EQ(fs_sim_answer_build(&wl, pols, &r, 1, 1, &a, err, sizeof(err)), -1);
	EXPECT_STR(err, "simulation answer: 1 policies, reference 1 (want 1..24 and one of them)");
}

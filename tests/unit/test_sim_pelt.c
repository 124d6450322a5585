// SPDX-License-Identifier: GPL-2.0
/* The simulated machine's PELT clock and util_est rules (user/sim/pelt_run.c), on hand-set state. */
#include <string.h>
#include "test.h"
#include "sim_builders.h"
#include "sim/sim_internal.h"

#define MS 1000000ull

/* A machine on the 1+1 EM with one task, set up without running anything. */
static void machine(struct sim *s, struct fs_em *em, struct fs_sim_task *t, struct sim_task *st,
		    const char *policy)
{
	static const struct fs_sim_workload wl = { .nr_cpus = 2 };

	memset(s, 0, sizeof(*s));
	memset(t, 0, sizeof(*t));
	memset(st, 0, sizeof(*st));
	fs_test_em_1p1(em, 100, 400);
	s->em = em;
	s->wl = &wl;
	s->ncpu = 2;
	s->task = st;
	st->t = t;
	st->cpu = -1;
	sim_kernel_of(fs_policy_find(policy), &s->k);
	sim_sugov_init(s);
	for (int c = 0; c < 2; c++) {
		s->cpu[c].pd = em->cpu_pd[c];
		s->cpu[c].cap = em->capacity[c];
	}
}

/*
 * update_rq_clock_pelt(): 1 ms running on little (cap 512) at its top OPP
 * advances the PELT clock 1e6 x 512 / 1024 = 500,000 ns; idle, the clock is
 * the task clock. Going idle with util_sum at the ceiling turns the gap
 * into lost idle time, so rq_clock_pelt() does not jump.
 */
FS_TEST(sim_pelt_clock_scales_by_capacity_and_loses_idle_time)
{
	struct fs_sim_task t;
	struct sim_task st;
	struct fs_em em;
	struct sim s;
	int q[1] = { 0 };

	machine(&s, &em, &t, &st, "v6.12");
	s.cpu[0].q = q;
	s.cpu[0].nr = 1;
	sim_clock_advance(&s, 0, 1 * MS);
	EXPECT_EQ_U64(sim_rq_clock_pelt(&s.cpu[0]), 500000);
	s.now = 1 * MS;
	s.cpu[0].avg.util_sum = ((47742 - 1024) << 10) - 47742; /* the ceiling */
	sim_idle_enter(&s, 0);
	EXPECT_EQ_U64(s.cpu[0].lost_idle_time, 500000);
	EXPECT_EQ_U64(sim_rq_clock_pelt(&s.cpu[0]), 500000);
	/* Below the ceiling the idle CPU's clock catches up: decay time. */
	s.cpu[1].clock_pelt = 200000;
	s.cpu[1].avg.util_sum = 1000;
	sim_idle_enter(&s, 1);
	EXPECT_EQ_U64(s.cpu[1].lost_idle_time, 0);
	EXPECT_EQ_U64(sim_rq_clock_pelt(&s.cpu[1]), 1 * MS);
}

/*
 * A task migrated to a CPU whose PELT clock has just caught up with the
 * task clock (it went idle at this instant, 30 ms behind) joins the rq at
 * that clock: attach_entity_load_avg() after update_cfs_rq_load_avg() in
 * update_load_avg() (v5.0 - v6.12). Its util stays 500 at the enqueue's
 * update; joining at the rq's last update (10 ms) would decay it over the
 * 30 ms jump as if it had slept there, to 269.
 */
FS_TEST(sim_pelt_migrated_task_joins_at_the_rqs_present)
{
	struct fs_sim_task t;
	struct sim_task st;
	struct fs_em em;
	struct sim s;

	machine(&s, &em, &t, &st, "v6.12");
	s.now = 40 * MS;
	s.cpu[1].clock_pelt = 10 * MS;
	s.cpu[1].avg.last_update_time = 10 * MS;
	sim_idle_enter(&s, 1);
	EXPECT_EQ_U64(sim_rq_clock_pelt(&s.cpu[1]), 40 * MS);
	st.avg.util_avg = st.avg.runnable_avg = 500;
	sim_attach(&s, 0, 1);
	sim_task_pelt_update(&s, 0); /* the enqueue's blocked update */
	EXPECT_EQ_U64(st.avg.util_avg, 500);
	EXPECT_TRUE(st.avg.last_update_time + 1024 > 40 * MS);
	EXPECT_EQ_U64(s.cpu[1].avg.util_avg, 500);
}

/*
 * util_est_update() at a sleep, ewma 400: a dequeued util of 500 raises
 * the ewma to 500 at once from v5.5 (v6.12), by a quarter before (v5.4:
 * (4 x 400 + 100) / 4 = 425, and _task_util_est() has bit 0 set: 501 is
 * max(425, enqueued 500) | 1). A util within 1 % of the ewma leaves it;
 * and nothing changes while UTIL_AVG_UNCHANGED.
 */
FS_TEST(sim_util_est_update_rules)
{
	struct fs_sim_task t;
	struct sim_task st;
	struct fs_em em;
	struct sim s;

	machine(&s, &em, &t, &st, "v6.12");
	st.cpu = 1; /* big: no util above its capacity */
	st.ue_ewma = st.ue_enqueued = 400;
	st.avg.util_avg = 500;
	sim_util_est_dequeue(&s, 0);
	EXPECT_EQ(st.ue_ewma, 500);
	EXPECT_EQ(sim_task_ue(&s, 0), 500);
	st.avg.util_avg = 300; /* UTIL_AVG_UNCHANGED: no new util_avg since */
	sim_util_est_dequeue(&s, 0);
	EXPECT_EQ(st.ue_ewma, 500);
	st.ue_unchanged = false;
	sim_util_est_dequeue(&s, 0);
	EXPECT_EQ(st.ue_ewma, 450); /* (4 x 500 - 200) / 4 */
	EXPECT_EQ(st.ue_enqueued, 300);
	st.ue_unchanged = false;
	st.avg.util_avg = 445; /* within 10 of 450: left alone */
	sim_util_est_dequeue(&s, 0);
	EXPECT_EQ(st.ue_ewma, 450);
	EXPECT_EQ(st.ue_enqueued, 445); /* v5.13+: 145 from the last enqueued (the test below) */

	machine(&s, &em, &t, &st, "v5.4");
	st.ue_ewma = st.ue_enqueued = 400;
	st.avg.util_avg = 500;
	sim_util_est_dequeue(&s, 0);
	EXPECT_EQ(st.ue_ewma, 425);
	EXPECT_EQ(sim_task_ue(&s, 0), 501);
}

/*
 * The filters before util_est's quarter step, ewma 600 and a dequeued util
 * of 300 (the step would give (4 x 600 - 300) / 4 = 525):
 * - v6.7+ (v6.12 here): the task's runnable_avg 320 passes its util by more
 *   than the 1 % margin (300 + 10 < 320), it waited: the ewma stays 600;
 *   runnable 310 is within it: 525. v6.6 has no such filter: 525.
 * - v5.13+: a util above the CPU's capacity (little: 512) updates nothing:
 *   util 600 on little leaves ewma 900 and enqueued 900; v5.4 takes it:
 *   (4 x 900 - 300) / 4 = 825.
 */
FS_TEST(sim_util_est_skips_waited_and_saturated_tasks)
{
	static const struct {
		const char *pol;
		int cpu;
		__u32 ewma, util, runnable, want_ewma, want_enq;
	} c[] = {
		{ "v6.12", 1, 600, 300, 320, 600, 300 },
		{ "v6.12", 1, 600, 300, 310, 525, 300 },
		{ "v6.6", 1, 600, 300, 320, 525, 300 },
		{ "v6.12", 0, 900, 600, 600, 900, 900 },
		{ "v5.15", 0, 900, 600, 600, 900, 900 },
		{ "v5.4", 0, 900, 600, 600, 825, 600 },
	};
	struct fs_sim_task t;
	struct sim_task st;
	struct fs_em em;
	struct sim s;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		machine(&s, &em, &t, &st, c[i].pol);
		st.cpu = c[i].cpu;
		st.ue_ewma = st.ue_enqueued = c[i].ewma;
		st.avg.util_avg = c[i].util;
		st.avg.runnable_avg = c[i].runnable;
		sim_util_est_dequeue(&s, 0);
		EXPECT_EQ(st.ue_ewma, c[i].want_ewma);
		EXPECT_EQ(st.ue_enqueued, c[i].want_enq);
	}
}

/*
 * A trace's root cfs_rq util (sim_rq_traced_start()): a task of util 200
 * attached to little makes its rq 200; a traced 500 lifts it to 500 with
 * the sum at 500 x the divider (LOAD_AVG_MAX - 1024 + period_contrib 0 =
 * 46,718); one below what the tasks bring (100) leaves it; one above 1024
 * is cut there. Then 32 idle periods of 1024 us halve it: decay_load(sum,
 * 32) = sum >> 1, less one from its multiply by 0xffffffff / 2^32 (y^0),
 * 23,919,615 / 46,718 = 511.
 */
FS_TEST(sim_pelt_rq_starts_from_traced_util)
{
	struct fs_sim_task t;
	struct sim_task st;
	struct fs_em em;
	struct sim s;

	machine(&s, &em, &t, &st, "v6.12");
	st.avg.util_avg = st.avg.runnable_avg = 200;
	sim_attach(&s, 0, 0);
	EXPECT_EQ_U64(s.cpu[0].avg.util_avg, 200);
	sim_rq_traced_start(&s, 0, 500);
	EXPECT_EQ_U64(s.cpu[0].avg.util_avg, 500);
	EXPECT_EQ_U64(s.cpu[0].avg.util_sum, 500ull * 46718);
	sim_rq_traced_start(&s, 0, 100);
	EXPECT_EQ_U64(s.cpu[0].avg.util_avg, 500);
	sim_rq_traced_start(&s, 1, 3000);
	EXPECT_EQ_U64(s.cpu[1].avg.util_avg, 1024);
	EXPECT_EQ_U64(s.cpu[1].avg.util_sum, 1024ull * 46718);
	s.cpu[1].clock_pelt = 32ull * 1024 * 1024;
	sim_rq_pelt_update(&s, 1);
	EXPECT_EQ_U64(s.cpu[1].avg.util_sum, 23919615);
	EXPECT_EQ_U64(s.cpu[1].avg.util_avg, 511);
}

/*
 * UTIL_AVG_UNCHANGED at the enqueue (v6.1 kernel/sched/fair.c,
 * update_load_avg() -> __update_load_avg_se() -> cfs_se_util_change()): a
 * task that slept 10 ms on big (9.54 PELT periods of 1.048576 ms) with util
 * 200 is aged at its enqueue, which clears the flag: its next sleep, even
 * after a run too short to cross a period, updates util_est. The aged util
 * is 200 x y^9 = 164.7 over the divider grown by the part period
 * (46718 / (46718 + 553)): 162; the ewma 320 moves a quarter of the way,
 * (4 x 320 - 158) / 4 = 280. A task migrated there instead joins at the
 * rq's present (sim_attach()), is not aged, and keeps the flag: 320 stays,
 * as the recorded kworker/2:1 of a 4+3+1 A/B run did not (its ewma 320,
 * 240, 180, 135 at wake-ups a second apart).
 */
FS_TEST(sim_util_est_flag_cleared_by_the_enqueues_aging)
{
	struct fs_sim_task t;
	struct sim_task st;
	struct fs_em em;
	struct sim s;

	machine(&s, &em, &t, &st, "v6.1");
	st.cpu = 1;
	st.ue_ewma = st.ue_enqueued = 320;
	st.ue_unchanged = true;
	st.avg.util_avg = 200;
	st.avg.util_sum = 200 * (47742 - 1024);
	sim_clock_advance(&s, 1, 10 * MS);
	s.now = 10 * MS;
	sim_task_pelt_enqueue(&s, 0);
	EXPECT_EQ(st.avg.util_avg, 162);
	EXPECT_TRUE(!st.ue_unchanged);
	sim_util_est_dequeue(&s, 0);
	EXPECT_EQ(st.ue_ewma, 280);
	EXPECT_EQ(st.ue_enqueued, 162);

	machine(&s, &em, &t, &st, "v6.1");
	st.ue_ewma = st.ue_enqueued = 320;
	st.ue_unchanged = true;
	st.avg.util_avg = 200;
	sim_clock_advance(&s, 1, 10 * MS);
	s.now = 10 * MS;
	sim_attach(&s, 0, 1);
	sim_task_pelt_enqueue(&s, 0);
	EXPECT_TRUE(st.ue_unchanged);
	sim_util_est_dequeue(&s, 0);
	EXPECT_EQ(st.ue_ewma, 320);
}

/*
 * util_est_update() within the ewma's 1 % (v6.1 kernel/sched/fair.c,
 * last_enqueued_diff, v5.13+): ewma 450, enqueued 300, a dequeued util of
 * 445 leaves the ewma but becomes enqueued (it moved 145 from the last
 * enqueued) and sets the flag; a dequeued 442 after that is within 1 % of
 * both, and nothing is written, the flag included. Before v5.13 (v5.4)
 * the first already drops the whole update: enqueued stays 300. v6.8+'s
 * one word (v6.12) sets the flag there too.
 */
FS_TEST(sim_util_est_enqueued_moves_within_the_ewmas_margin)
{
	static const struct {
		const char *pol;
		__u32 want_enq;
		bool want_flag;
	} c[] = { { "v6.1", 445, true }, { "v5.4", 300, false }, { "v6.12", 445, true } };
	struct fs_sim_task t;
	struct sim_task st;
	struct fs_em em;
	struct sim s;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		machine(&s, &em, &t, &st, c[i].pol);
		st.cpu = 1;
		st.ue_ewma = 450;
		st.ue_enqueued = 300;
		st.avg.util_avg = 445;
		sim_util_est_dequeue(&s, 0);
		EXPECT_EQ(st.ue_ewma, 450);
		EXPECT_EQ(st.ue_enqueued, c[i].want_enq);
		EXPECT_TRUE(st.ue_unchanged == c[i].want_flag);
	}
	machine(&s, &em, &t, &st, "v6.1");
	st.cpu = 1;
	st.ue_ewma = 450;
	st.ue_enqueued = 445;
	st.avg.util_avg = 442;
	sim_util_est_dequeue(&s, 0);
	EXPECT_EQ(st.ue_enqueued, 445);
	EXPECT_TRUE(!st.ue_unchanged);
}

/*
 * A task's first wake-up in the workload, pinned to little (v6.1, 1+1 EM):
 * util 0, ewma 320 (the recorded kworker/1:1 of a 4+3+1 A/B run: 320, 240,
 * 180 at wake-ups a second apart). The machine joins it to its rq at the
 * wake-up with the workload's synced PELT; the kernel's enqueue ages it from
 * its real last update, which crosses a period after a sleep of a second,
 * so UTIL_AVG_UNCHANGED is cleared and the first sleep already moves the
 * ewma: (4 x 320 - 320) / 4 = 240 at the second wake-up, 180 at the third.
 * A workload whose task slept less than a period (init_aged false) keeps
 * the flag: 320, then 240.
 */
FS_TEST(sim_util_est_first_wakeup_aged_by_the_sleep_before)
{
	for (int aged = 0; aged < 2; aged++) {
		struct fs_sim_workload wl;
		struct fs_sim_result r;
		struct fs_em em;

		fs_test_em_1p1(&em, 100, 400);
		fs_test_wl_init(&wl, 2, 1, 3, 3000 * MS);
		wl.tasks[0].cpus_allowed = 0x1;
		wl.tasks[0].init_util_est = 320;
		wl.tasks[0].init_aged = aged;
		fs_test_wl_periodic(&wl, 0, 100 * MS, 1000 * MS, 10000, 3);
		fs_test_sim(&wl, &em, "v6.1", FS_SIM_DEVICE, &r);
		EXPECT_EQ(r.act_util[1] >> 16, aged ? 240 : 320);
		EXPECT_EQ(r.act_util[2] >> 16, aged ? 180 : 240);
		fs_sim_result_free(&r);
		fs_test_wl_free(&wl);
	}
}

/*
 * A fork's sched_avg starts zeroed (init_entity_runnable_average(), v6.1
 * kernel/sched/fair.c), UTIL_AVG_UNCHANGED with it, so its first sleep
 * updates util_est even when the run crossed no PELT period: a fork on big
 * at 10 ms with util 200 (post_init_entity_util_avg()) runs 100 us and
 * sleeps; util_est takes 200 (fast ramp-up from 0). It wakes 100 ms later
 * and its enqueue ages it over 95 whole periods (the 99.9 ms are 97,558 us
 * after the run's end, 647 us into a period: 98,205 / 1024), to 200 x y^95
 * = 25.7, 25 in the kernel's integers; it runs 100 us again and sleeps: the
 * ewma moves a quarter of the way, (4 x 200 - 175) / 4 = 156,
 * task_util_est() at its third wake-up. With the flag kept at the fork the
 * first sleep updated nothing and the second took the ewma from 0 up to
 * the util: 25.
 */
FS_TEST(sim_util_est_fork_updates_at_its_first_sleep)
{
	struct fs_sim_workload wl;
	struct fs_sim_result r;
	struct fs_em em;

	fs_test_em_1p1(&em, 100, 400);
	fs_test_wl_init(&wl, 2, 1, 3, 300 * MS);
	wl.tasks[0].cpus_allowed = 0x2;
	wl.tasks[0].init_cpu = 1;
	wl.tasks[0].init_util = 200;
	fs_test_wl_periodic(&wl, 0, 10 * MS, 100 * MS, 100000, 3);
	wl.acts[0].flags = FS_SIM_ACT_FORK;
	fs_test_sim(&wl, &em, "v6.1", FS_SIM_DEVICE, &r);
	EXPECT_EQ(r.act_util[1] >> 16, 200);
	EXPECT_EQ(r.act_util[2] & 0xffff, 25);
	EXPECT_EQ(r.act_util[2] >> 16, 156);
	fs_sim_result_free(&r);
	fs_test_wl_free(&wl);
}

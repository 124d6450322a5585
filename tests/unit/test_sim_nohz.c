// SPDX-License-Identifier: GPL-2.0
/* An idle CPU's blocked load as the kernel reads it between nohz stats updates (user/sim/nohz.c). */
#include <string.h>
#include "test.h"
#include "sim_builders.h"
#include "sim/sim_internal.h"

#define MS 1000000ull

/* The 1+1 machine, both CPUs idle, no task: cpu1 (big) left util 400 at t0. */
static void machine(struct sim *s, struct fs_em *em)
{
	static const struct fs_sim_workload wl = { .nr_cpus = 2 };
	static const struct fs_sim_params prm = { .sugov_rate_limit_ns = 0 };
	const __u32 divider = FS_LOAD_AVG_MAX - 1024; /* period_contrib 0 */

	memset(s, 0, sizeof(*s));
	fs_test_em_1p1(em, 100, 400);
	s->em = em;
	s->wl = &wl;
	s->p = &prm;
	s->ncpu = 2;
	sim_kernel_of(fs_policy_find("v6.1"), &s->k);
	sim_sugov_init(s);
	for (int c = 0; c < 2; c++) {
		s->cpu[c].pd = em->cpu_pd[c];
		s->cpu[c].cap = em->capacity[c];
	}
	s->cpu[1].avg.util_avg = 400;
	s->cpu[1].avg.util_sum = 400 * divider;
	s->tick_ns = 4 * MS;
	s->blocked_ticks = 8; /* 32 ms at 250 Hz */
	sim_nohz_idle_enter(s, 1); /* tick 0 >= next_blocked 0: a stats update, the next due after tick 8 */
}

/* Time moves on to ms (the tick count with it): cpu1's rq decays there, idle on the task clock. */
static void at(struct sim *s, __u64 ms)
{
	sim_clock_advance(s, 1, ms * MS - s->now);
	s->now = ms * MS;
	s->ticks = ms / 4;
	sim_rq_pelt_update(s, 1);
}

/*
 * cpu1 went idle at 0 with util 400. Its rq decays: 16 ms is 15.26 PELT
 * periods of 1.048576 ms, 15 whole ones, 400 x y^15 = 289.1 (y^32 = 1/2),
 * over the divider grown by the part period (46718 / (46718 + 266)): 287.
 * But a tickless
 * idle CPU's cfs_rq is not updated: until a stats update, feec's landscape
 * and schedutil read 400 (cpu_util_next(), sugov_get_util()). A busy CPU's
 * tick asks for the update only once jiffies is after nohz.next_blocked
 * (nohz_balancer_kick(), kernel/sched/fair.c, v6.1): tick 8 (32 ms) is not,
 * tick 9 (36 ms, 34.33 periods) is, and then cpu1 reads its decayed
 * 400 x y^34 x 46718 / (46718 + 338) = 190. Without a busy CPU no tick asks.
 */
FS_TEST(sim_nohz_idle_cpu_util_is_stale_until_the_stats_update)
{
	struct fs_em em;
	struct sim s;
	int q[1] = { 0 };

	machine(&s, &em);
	EXPECT_EQ_U64(s.next_blocked, 8);
	at(&s, 16);
	EXPECT_EQ_U64(s.cpu[1].avg.util_avg, 287);
	EXPECT_EQ_U64(sim_cpu_util_cfs(&s, 1), 400);
	EXPECT_EQ_U64(sim_cpu_avg_seen(&s, 1)->last_update_time, 0);

	at(&s, 32);
	sim_nohz_tick(&s); /* nothing runs: no tick asks */
	EXPECT_EQ_U64(sim_cpu_util_cfs(&s, 1), 400);
	s.cpu[0].q = q, s.cpu[0].nr = 1;
	sim_nohz_tick(&s); /* busy, but jiffies 8 is not after next_blocked 8 */
	EXPECT_EQ_U64(sim_cpu_util_cfs(&s, 1), 400);

	at(&s, 36);
	sim_nohz_tick(&s);
	EXPECT_EQ_U64(sim_cpu_util_cfs(&s, 1), 190);
	EXPECT_EQ_U64(s.next_blocked, 17);
	/*
	 * An idle-balance kick brings NOHZ_STATS_KICK with it, due or not: at
	 * 48 ms (45.78 periods) 400 x y^45 x 46718 / (46718 + 799) = 148.
	 */
	at(&s, 48);
	sim_nohz_tick(&s);
	EXPECT_EQ_U64(sim_cpu_util_cfs(&s, 1), 190);
	s.kicked = true;
	sim_nohz_tick(&s);
	EXPECT_EQ_U64(sim_cpu_util_cfs(&s, 1), 148);
	EXPECT_EQ_U64(s.next_blocked, 20);
	/* A CPU with tasks reads live. */
	EXPECT_TRUE(sim_cpu_avg_seen(&s, 0) == &s.cpu[0].avg);
}

/*
 * The newly idle path: a CPU going idle once jiffies has reached
 * nohz.next_blocked (nohz_newidle_balance(): not time_before()) updates
 * every idle CPU's blocked load, its own included; before that only its own.
 */
FS_TEST(sim_nohz_newly_idle_cpu_updates_blocked_load_when_due)
{
	struct fs_em em;
	struct sim s;

	machine(&s, &em);
	at(&s, 16);
	sim_nohz_idle_enter(&s, 0); /* tick 4 < 8: cpu0 only */
	EXPECT_EQ_U64(sim_cpu_util_cfs(&s, 1), 400);
	at(&s, 32);
	sim_nohz_idle_enter(&s, 0);
	EXPECT_EQ_U64(sim_cpu_util_cfs(&s, 1), 206); /* 400 x y^30 x 46718 / (46718 + 532) */
	EXPECT_EQ_U64(s.next_blocked, 16);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * An idle CPU's blocked load as the rest of the kernel reads it. A CPU in
 * nohz idle does not tick, so nothing updates its cfs_rq: feec
 * (cpu_util_next() reads cfs_rq->avg.util_avg as it stands), schedutil's
 * shared policy (sugov_next_freq_shared() reads every CPU's
 * cpu_util_cfs()), the overutilized test and the balancer's group stats see
 * its util_avg as its last update left it, not decayed to now. The machine
 * keeps each rq's PELT exact (pelt_run.c) and shows an idle CPU's through
 * `seen`, refreshed where kernel/sched/fair.c (v5.0 - v6.12) updates
 * blocked load: the dequeue that idles the CPU, and _nohz_idle_balance()
 * with NOHZ_STATS_KICK, which updates every nohz-idle CPU's blocked load
 * (update_nohz_stats()) at most once per LOAD_AVG_PERIOD (32 ms,
 * nohz.next_blocked). A busy CPU's tick asks for it (nohz_balancer_kick():
 * time_after(jiffies, nohz.next_blocked)), and so does a CPU going idle
 * (nohz_newidle_balance(): not time_before(jiffies, nohz.next_blocked)).
 * Simplified: every idle CPU counts as nohz idle, and the newly idle path's
 * avg_idle >= sysctl_sched_migration_cost gate is taken as passed.
 */
#include "sim_internal.h"

/* The rq's cfs avg as others read it: live while it has tasks, else as last updated. */
const struct fs_pelt_avg *sim_cpu_avg_seen(const struct sim *s, int cpu)
{
	const struct sim_cpu *c = &s->cpu[cpu];

	return c->nr ? &c->avg : &c->seen;
}

/* update_blocked_averages() of an idle CPU: whether its cfs_rq decayed since last seen. */
static bool blocked_update(struct sim_cpu *c)
{
	if (c->nr || c->seen.last_update_time == c->avg.last_update_time)
		return false;
	c->seen = c->avg;
	return true;
}

/*
 * update_blocked_averages() of every idle CPU (update_nohz_stats()), each
 * followed by cpufreq_update_util() where it decayed; nohz.next_blocked
 * moves LOAD_AVG_PERIOD on.
 */
static void stats_update(struct sim *s)
{
	__u64 pds = 0;

	for (int cpu = 0; cpu < s->ncpu; cpu++)
		if (blocked_update(&s->cpu[cpu]))
			pds |= 1ull << s->cpu[cpu].pd;
	s->next_blocked = s->ticks + s->blocked_ticks;
	for (int pd = 0; pd < s->em->nr_pd; pd++)
		if (pds >> pd & 1)
			sim_sugov_update(s, pd);
}

/* An idle CPU's own balance: update_blocked_averages() of that CPU, then cpufreq_update_util(). */
void sim_nohz_own_update(struct sim *s, int cpu)
{
	if (blocked_update(&s->cpu[cpu]))
		sim_sugov_update(s, s->cpu[cpu].pd);
}

/* The dequeue that idles the CPU updated its cfs_rq at this instant; then the newly idle kick. */
void sim_nohz_idle_enter(struct sim *s, int cpu)
{
	s->cpu[cpu].seen = s->cpu[cpu].avg;
	if (s->ticks >= s->next_blocked)
		stats_update(s);
}

/*
 * A tick: a busy CPU's nohz_balancer_kick() asks for the stats update once
 * it is due, and with every idle-balance kick (NOHZ_STATS_KICK comes with
 * NOHZ_BALANCE_KICK), before that balance reads the CPUs (balance.c).
 */
void sim_nohz_tick(struct sim *s)
{
	bool busy = false;

	for (int cpu = 0; cpu < s->ncpu && !busy; cpu++)
		busy = s->cpu[cpu].nr > 0;
	if (busy && (s->kicked || s->ticks > s->next_blocked))
		stats_update(s);
}

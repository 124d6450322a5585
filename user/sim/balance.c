// SPDX-License-Identifier: GPL-2.0
/*
 * The root domain's overutilized flag, misfit tasks and the load
 * balancer's pulls on the simulated machine, at tick granularity.
 */
#include "sim_internal.h"

/*
 * cpu_overutilized() (v5.4 - 6.1.0 form): !fits_capacity(cpu_util_cfs(),
 * capacity_of()), i.e. not util x 1280 < cap x 1024. v5.0 - v5.3 differ at
 * equality; the later uclamp forms agree without uclamp.
 */
bool sim_cpu_overutilized(const struct sim *s, int cpu)
{
	return !(sim_cpu_util_cfs(s, cpu) * 1280 < (__u64)s->cpu[cpu].cap * 1024);
}

/*
 * What a load balance at the root domain writes (update_sd_lb_stats() at
 * the top level, v5.0 - v7.1 kernel/sched/fair.c): rd->overutilized from
 * every CPU's status, and rd->overload from every rq with a second task or
 * a misfit (update_sg_lb_stats()'s SG_OVERLOAD).
 */
static void root_balance_stats(struct sim *s)
{
	bool over = false, load = false;

	for (int cpu = 0; cpu < s->ncpu; cpu++) {
		over |= sim_cpu_overutilized(s, cpu);
		load |= s->cpu[cpu].nr >= 2 || s->cpu[cpu].misfit;
	}
	s->overutilized = over;
	s->overload = load;
}

/*
 * The flag as the tick leaves it: set by task_tick_fair()'s
 * update_overutilized_status(), which runs on a CPU with a task only (an
 * idle CPU does not tick), and rewritten by the root domain's load balance
 * from every CPU's status, idle ones at their blocked load as last updated
 * (update_sg_lb_stats(), update_sd_lb_stats(), v5.0 - v7.1; nohz.c); the
 * balance runs at its own interval (sim_balance_due()).
 */
void sim_overutilized_update(struct sim *s)
{
	if (s->balance_due) {
		root_balance_stats(s);
		return;
	}
	for (int cpu = 0; cpu < s->ncpu && !s->overutilized; cpu++)
		s->overutilized = s->cpu[cpu].nr > 0 && sim_cpu_overutilized(s, cpu);
}

/*
 * update_misfit_status() at the tick (v5.0 - v7.1): the running task is a
 * misfit when task_util_est() does not fit the CPU's capacity
 * (fits_capacity()), it may run elsewhere, and a CPU of higher capacity is
 * allowed (a misfit on the biggest CPU has nowhere to go).
 */
void sim_misfit_update(struct sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpu[cpu];

	c->misfit = false;
	if (!c->nr)
		return;
	const int ti = c->q[0];

	if ((__u64)sim_task_util_est(s, ti) * 1280 < (__u64)c->cap * 1024)
		return;
	for (int d = 0; d < s->ncpu; d++)
		if (d != cpu && s->cpu[d].cap > c->cap && sim_allowed(s, ti, d))
			c->misfit = true;
}

/*
 * Whether this tick balances the root domain, the balance that rewrites
 * the overutilized flag (update_sd_lb_stats() at the top level, v5.0 -
 * v7.1 kernel/sched/fair.c).
 *
 * An idle CPU balances at its own deadline (rebalance_domains() with
 * CPU_IDLE: sd->last_balance + the domain's balance_interval, not scaled
 * by busy_factor), from its own tick or, when its tick is stopped, from
 * the idle load balancer that a busy CPU kicks (_nohz_idle_balance()
 * runs rebalance_domains() for each idle CPU whose rq->next_balance is
 * due). Either way the balance's own CPU updates its blocked load first
 * (run_rebalance_domains() -> update_blocked_averages(); update_nohz_stats()).
 * Simplified: every idle CPU balances at its deadline, as if its tick
 * ran or a kick came; which ones a NO_HZ_IDLE kernel skips depends on
 * its timers (docs/simulation.md, "The balancer").
 *
 * The busy CPUs' own balances run at a busy CPU's interval, the
 * interval x busy_factor (get_sd_balance_interval(): 8 x 16 ms less a
 * jiffy on 8 CPUs), simplified to one deadline for the machine. A busy
 * CPU's tick with a second runnable task or a misfit kicks the idle load
 * balancer (nohz_balancer_kick(): nr_running >= 2, check_misfit_status()),
 * whose NOHZ_STATS_KICK updates every idle CPU's blocked load (nohz.c).
 */
void sim_balance_due(struct sim *s)
{
	bool kick = false;

	s->balance_due = s->busy_due = s->kicked = false;
	for (int cpu = 0; cpu < s->ncpu; cpu++) {
		struct sim_cpu *c = &s->cpu[cpu];

		kick |= c->nr >= 2 || c->misfit;
		c->balancing = !c->nr && s->ticks >= c->next_balance;
		if (!c->balancing)
			continue;
		s->balance_due = true;
		c->next_balance = s->ticks + sim_ms_to_ticks(s, c->balance_ms);
		sim_nohz_own_update(s, cpu);
	}
	if (kick && s->ticks >= s->next_kick) {
		s->kicked = true;
		s->next_kick = s->ticks + s->balance_ticks;
	}
	if (s->ticks >= s->next_busy) {
		s->balance_due = s->busy_due = true;
		s->next_busy = s->ticks + s->busy_balance_ticks;
	}
}

/*
 * load_balance()'s tuning of an idle CPU's interval (v5.0 - v7.1): back to
 * min_interval (sd_weight ms) when it pulled a task, else doubled up to
 * max_interval (twice that), as a balanced domain is.
 */
static void balance_interval_update(struct sim *s)
{
	for (int cpu = 0; cpu < s->ncpu; cpu++) {
		struct sim_cpu *c = &s->cpu[cpu];

		if (!c->balancing)
			continue;
		if (c->nr)
			c->balance_ms = (__u32)s->ncpu;
		else if (c->balance_ms < 2u * (__u32)s->ncpu)
			c->balance_ms *= 2;
		c->balancing = false;
	}
}

/*
 * A move outside a wake-up: the task leaves its rq's queue and PELT
 * (detach_task() -> remove_entity_load_avg()) and joins dst's
 * (attach_task() -> attach_entity_load_avg() at the enqueue).
 */
void sim_migrate(struct sim *s, int ti, int dst)
{
	struct sim_task *t = &s->task[ti];
	const bool queued = t->queued;

	if (queued)
		sim_dequeue(s, ti);
	sim_detach(s, ti);
	sim_attach(s, ti, dst);
	if (queued)
		sim_enqueue(s, ti, dst, SIM_ENQ_MIGRATE);
}

/*
 * Whether a busy CPU balances the root domain for its PD and may pull a
 * misfit there (v5.7 - v6.12 kernel/sched/fair.c). should_we_balance(): a
 * group's first idle CPU balances for it, else its first CPU, so a busy
 * CPU does only when no CPU of its group is idle, at its own (busy)
 * interval. update_sd_pick_busiest() then takes a misfit group when the
 * local group has spare capacity (group_has_spare), which
 * group_has_capacity() grants with fewer tasks than CPUs (not the case
 * here: none of its CPUs is idle), or else when the group's runnable_avg
 * is at most and its utilization under its capacity x 100 /
 * imbalance_pct (117 at this level): a big CPU running a
 * light task has room, and the misfit (moved by active balance,
 * need_active_balance()'s migrate_misfit) queues behind that task. The
 * root domain's groups are taken to be the PDs (clusters).
 */
static bool busy_pd_takes_misfit(const struct sim *s, int d)
{
	const int pd = s->cpu[d].pd;
	__u64 util = 0, run = 0, cap = 0;
	int first = -1;

	for (int x = 0; x < s->ncpu; x++) {
		if (s->cpu[x].pd != pd)
			continue;
		if (!s->cpu[x].nr)
			return false; /* an idle CPU balances for the group, not d */
		first = first < 0 ? x : first;
		util += sim_cpu_util_cfs(s, x);
		run += sim_cpu_avg_seen(s, x)->runnable_avg;
		cap += s->cpu[x].cap;
	}
	if (d != first)
		return false;
	if (cap * 117 < run * 100)
		return false;
	return cap * 100 > util * 117;
}

/*
 * The CPU that pulls src's misfit: allowed, of higher capacity
 * (update_sd_pick_busiest() takes a misfit group only for a dst of greater
 * capacity) and, at an idle balance, less busy than src (a fully busy
 * local group is balanced); at a busy CPU's own balance also a busy CPU
 * whose group has room (busy_pd_takes_misfit()). The idlest first, then
 * the lowest id.
 */
static int misfit_dst(const struct sim *s, int src)
{
	const struct sim_cpu *c = &s->cpu[src];
	int best = -1;

	for (int d = 0; d < s->ncpu; d++) {
		const struct sim_cpu *x = &s->cpu[d];

		if (x->cap <= c->cap || !sim_allowed(s, c->q[0], d))
			continue;
		if (x->nr >= c->nr && !(s->busy_due && busy_pd_takes_misfit(s, d)))
			continue;
		if (best < 0 || x->nr < s->cpu[best].nr)
			best = d;
	}
	return best;
}

/*
 * A CPU with nothing to run pulls a waiting task from the busiest CPU with
 * at least two runnable (load_balance() with CPU_NEWLY_IDLE / CPU_IDLE,
 * detach_tasks() from the tail of the source's list). With EAS the balancer
 * does nothing unless the root domain is overutilized (find_busiest_group(),
 * v5.0 - v7.1).
 */
void sim_newidle(struct sim *s, int cpu)
{
	int src = -1, pick = -1;

	if (!s->overutilized || s->cpu[cpu].nr)
		return;
	for (int c = 0; c < s->ncpu; c++) {
		const struct sim_cpu *x = &s->cpu[c];

		if (c == cpu || x->nr < 2 || (src >= 0 && x->nr <= s->cpu[src].nr))
			continue;
		for (int i = x->nr - 1; i >= 1; i--)
			if (sim_allowed(s, x->q[i], cpu)) {
				src = c;
				pick = x->q[i];
				break;
			}
	}
	if (pick < 0)
		return;
	sim_migrate(s, pick, cpu);
	s->task[pick].via = 2;
	s->r->migrations_newidle++;
}

/*
 * A CPU going idle (newidle_balance(); sched_balance_newidle() in the
 * 6.1.192 stable tree, kernel/sched/fair.c): while rd->overload is set it
 * updates its blocked load and load-balances each of its domains up to the
 * root, whose statistics rewrite the overutilized flag
 * (root_balance_stats()) before any pull. Simplified: the gates on the
 * CPU's avg_idle against each domain's max_newidle_lb_cost, and the stable
 * tree's NI_RANDOM skipping of a domain by its success ratio, are taken as
 * passed.
 */
void sim_newidle_balance(struct sim *s, int cpu)
{
	if (s->cpu[cpu].nr || !s->overload)
		return;
	root_balance_stats(s);
	sim_newidle(s, cpu);
}

/*
 * The tick's balance, while overutilized: each misfit running on a CPU is
 * pushed to a bigger, less busy one (active balance, need_active_balance()'s
 * misfit case, v5.0 - v7.1), then idle CPUs pull waiting tasks (the periodic
 * and nohz idle balance, counted with the newly idle pulls).
 */
void sim_balance_tick(struct sim *s)
{
	if (!s->overutilized || !s->balance_due) {
		balance_interval_update(s);
		return;
	}
	for (int cpu = 0; cpu < s->ncpu; cpu++) {
		if (!s->cpu[cpu].misfit || !s->cpu[cpu].nr)
			continue;
		const int dst = misfit_dst(s, cpu);

		s->cpu[cpu].misfit = false;
		if (dst < 0)
			continue;
		s->task[s->cpu[cpu].q[0]].via = 1;
		sim_migrate(s, s->cpu[cpu].q[0], dst);
		s->r->migrations_misfit++;
	}
	for (int cpu = 0; cpu < s->ncpu; cpu++)
		sim_newidle(s, cpu);
	balance_interval_update(s);
}

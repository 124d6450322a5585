// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated machine's event loop: activations waking, running tasks
 * completing them, and the scheduler tick, in time order.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sim_internal.h"

/* Time order; at equal times the workload's order (task, then its own wake order). */
static int ev_cmp(const void *a, const void *b)
{
	const struct sim_ev *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	return x->act < y->act ? -1 : x->act > y->act;
}

/*
 * The activations not woken yet (each task's from its `woken` on: all of
 * them in a new machine, the new part in a resumed one), in time order.
 */
int sim_loop_events(struct sim *s)
{
	const struct fs_sim_workload *wl = s->wl;
	struct sim_loop *lp = &s->lp;
	__u64 n = 0;

	for (int ti = 0; ti < wl->nr_tasks; ti++)
		n += wl->tasks[ti].nr_act - s->task[ti].woken;
	free(lp->ev);
	lp->n = lp->i = 0;
	lp->ev = calloc(n + 1, sizeof(*lp->ev));
	if (!lp->ev)
		return -1;
	for (int ti = 0; ti < wl->nr_tasks; ti++)
		for (__u32 i = s->task[ti].woken; i < wl->tasks[ti].nr_act; i++) {
			const __u32 ai = wl->tasks[ti].first_act + i;

			lp->ev[lp->n].ns = wl->acts[ai].wake_ns;
			lp->ev[lp->n].act = ai;
			lp->ev[lp->n].task = ti;
			lp->n++;
		}
	qsort(lp->ev, lp->n, sizeof(*lp->ev), ev_cmp);
	return 0;
}

static unsigned int log2_bucket(__u64 v)
{
	return v < 2 ? 0 : (unsigned int)(63 - __builtin_clzll(v));
}

/* The running task's head activation is done: on to the next one it has woken for, or sleep. */
static void complete(struct sim *s, int cpu)
{
	const int ti = s->cpu[cpu].q[0];
	struct sim_task *t = &s->task[ti];
	const struct fs_sim_act *a = &s->wl->acts[t->t->first_act + t->head];

	s->r->lat_hist[log2_bucket(s->now - a->wake_ns)]++;
	s->r->wait_hist[log2_bucket(t->head_wait_ns)]++;
	t->acts_done++;
	if (t->head + 1 < t->woken) {
		t->head++;
		t->work_left = s->wl->acts[t->t->first_act + t->head].work;
		t->head_wait_ns = 0;
		return;
	}
	/* dequeue_task_fair(): the entity's PELT, then util_est_update() (v5.13+ order). */
	sim_dequeue(s, ti);
	sim_util_est_dequeue(s, ti);
	/* task_dead_fair() -> remove_entity_load_avg(): an exited task's util leaves its rq. */
	if (t->t->exit_ns <= s->now) {
		sim_detach(s, ti);
		t->exited = true;
	}
	sim_newidle_balance(s, cpu);
}

/*
 * An activation wakes its task. A task still runnable only queues the work
 * behind its current activation (no wake-up happens). A fork starts where
 * the recording saw it (no feec under WF_FORK; find_idlest_cpu() not
 * modelled); any other wake-up is placed by the policy (place.c).
 */
static void wake(struct sim *s, int ti, __u32 ai)
{
	const struct fs_sim_act *a = &s->wl->acts[ai];
	struct sim_task *t = &s->task[ti];
	const __u32 rel = ai - t->t->first_act;
	int cpu;

	s->r->work_given += a->work;
	t->woken = rel + 1;
	if (t->queued)
		return;
	if (t->cpu < 0) { /* a fork, or a task woken again after its exit time */
		sim_task_arrive(s, ti, sim_home_cpu(s, ti));
		t->exited = false;
	} else if (rel == 0) {
		/* The workload's PELT is the task's at its first wake-up: it
		 * waited blocked on its rq since t0, now it has those values.
		 * Joined at the rq's present, it is aged at the enqueue only
		 * where the workload says its sleep crossed a period. */
		const int cpu0 = t->cpu;

		sim_detach(s, ti);
		sim_task_arrive(s, ti, cpu0);
		t->aged_at_enqueue = t->t->init_aged;
	}
	if (rel == 0 && (a->flags & FS_SIM_ACT_FORK)) {
		/* init_entity_runnable_average() zeroes the new task's sched_avg,
		 * UTIL_AVG_UNCHANGED with it (v6.1 kernel/sched/fair.c): its first
		 * sleep updates util_est. */
		t->ue_unchanged = false;
		cpu = t->cpu;
		s->r->wakeups++;
		s->how = 3;
		s->dec = (struct fs_sim_act_dec){ .wake_ns = s->now, .prev_delta = UINT64_MAX, .best_delta = UINT64_MAX,
			.threshold = UINT64_MAX, .prev_cpu = cpu, .feec_cpu = -1, .reason = FS_FEEC_FORK };
	} else {
		cpu = sim_place(s, ti, a);
		if (cpu != t->cpu) {
			t->aged_at_enqueue = false; /* migrate_task_rq_fair(): synced blocked, not aged */
			sim_detach(s, ti);
			sim_attach(s, ti, cpu);
			s->r->migrations_wakeup++;
		}
	}
	s->r->act_cpu[ai] = cpu;
	s->r->act_util[ai] = t->avg.util_avg | sim_task_util_est(s, ti) << 16;
	s->r->act_how[ai] = (__s8)s->how;
	if (s->r->act_dec) {
		s->dec.cpu = cpu;
		s->dec.task_util = s->r->act_util[ai] >> 16;
		s->dec.how = (__s8)s->how;
		s->r->act_dec[ai] = s->dec;
	}
	s->r->wakeups_cpu[cpu]++;
	if (s->overutilized)
		s->r->ou_wakeups_cpu[cpu]++;
	t->via = 0;
	t->head = rel;
	t->work_left = a->work;
	t->head_wait_ns = 0;
	sim_enqueue(s, ti, cpu, rel == 0 && (a->flags & FS_SIM_ACT_FORK) ? SIM_ENQ_FORK : SIM_ENQ_WAKEUP);
}

/* Tasks past their exit time that sleep leave their rq's PELT. */
static void exits(struct sim *s)
{
	for (int ti = 0; ti < s->wl->nr_tasks; ti++) {
		struct sim_task *t = &s->task[ti];

		if (!t->queued && !t->exited && t->cpu >= 0 && t->t->exit_ns <= s->now) {
			sim_detach(s, ti);
			t->exited = true;
		}
	}
}

/* The tick's state for fs_sim_result.timeline, while it has room. */
static void timeline_keep(struct sim *s)
{
	struct fs_sim_result *r = s->r;

	if (!r->timeline || r->nr_timeline >= s->p->timeline_ticks)
		return;
	struct fs_sim_tick_state *ts = &r->timeline[r->nr_timeline++];

	ts->now_ns = s->now;
	ts->overutilized = s->overutilized;
	for (int cpu = 0; cpu < s->ncpu; cpu++) {
		ts->util[cpu] = (__u32)sim_cpu_util_cfs(s, cpu);
		ts->nr[cpu] = (__u8)(s->cpu[cpu].nr > 255 ? 255 : s->cpu[cpu].nr);
	}
}

/*
 * scheduler_tick() on every CPU at once: the running task's PELT
 * (entity_tick()), CFS's slice check, update_misfit_status(), the
 * overutilized flag, schedutil (cpufreq_update_util() from the PELT
 * update), then the balancer.
 */
static void tick(struct sim *s)
{
	++s->ticks;
	exits(s);
	for (int cpu = 0; cpu < s->ncpu; cpu++) {
		if (!s->cpu[cpu].nr)
			continue;
		sim_task_pelt_update(s, s->cpu[cpu].q[0]);
		sim_tick_rotate(s, cpu);
	}
	for (int cpu = 0; cpu < s->ncpu; cpu++)
		sim_misfit_update(s, cpu);
	sim_balance_due(s);
	sim_nohz_tick(s);
	sim_overutilized_update(s);
	for (int pd = 0; pd < s->em->nr_pd; pd++)
		sim_sugov_update(s, pd);
	sim_balance_tick(s);
	timeline_keep(s);
}

static bool all_idle(const struct sim *s)
{
	for (int cpu = 0; cpu < s->ncpu; cpu++)
		if (s->cpu[cpu].nr)
			return false;
	return true;
}

/*
 * A machine with nothing to run and the overutilized flag clear changes no
 * state at a tick (no running task, nothing to rotate, pull or push), and a
 * nohz-idle kernel does not tick there either: jump to the last tick before
 * the next activation, keeping the tick count (the balance interval's
 * phase). Without this an idle stretch of hours costs a tick every 4 ms.
 */
static __u64 skip_idle_ticks(struct sim *s, __u64 next_tick, __u64 next_act)
{
	if (!all_idle(s) || s->overutilized || next_act <= next_tick || next_act == FS_SIM_NEVER)
		return next_tick;
	__u64 skip = (next_act - next_tick) / s->tick_ns;

	s->ticks += skip;
	return next_tick + skip * s->tick_ns;
}

/* The next event's time: a completion, an activation, the tick, or the end. */
static __u64 next_event(const struct sim *s, const struct sim_ev *ev, __u64 i, __u64 n, __u64 tick, __u64 end)
{
	__u64 t = end < tick ? end : tick;

	if (i < n && ev[i].ns < t)
		t = ev[i].ns;
	for (int cpu = 0; cpu < s->ncpu; cpu++) {
		const __u64 c = sim_completion_ns(s, cpu);

		t = c < t ? c : t;
	}
	return t;
}

static int blocks_reach(struct sim_blocks *b, size_t n)
{
	if (n <= b->n)
		return 0;
	if (n > b->cap) {
		size_t cap = b->cap ? b->cap : 16;

		while (cap < n)
			cap *= 2;
		unsigned __int128 *e = realloc(b->e, cap * sizeof(*e));

		if (!e)
			return -1;
		b->e = e;
		b->cap = cap;
	}
	for (size_t i = b->n; i < n; i++)
		b->e[i] = 0;
	b->n = n;
	return 0;
}

/*
 * sim_advance() to `to`, each running task's energy in the span added to
 * the time block of its current activation's wake-up: the accounting's
 * rule (a placement's energy goes to the bin of the wake-up that started
 * it), and what pairs the two simulations block by block: the same
 * activations, wherever queueing put the time they ran. Every busy ns is
 * charged to the task that ran, so the blocks sum to the machine's energy.
 */
static int advance(struct sim *s, __u64 to)
{
	struct sim_blocks *b = &s->lp.blk;
	const __u64 bns = b->ns;
	unsigned __int128 e0[FS_MAX_CPUS];

	for (int cpu = 0; bns && cpu < s->ncpu; cpu++)
		e0[cpu] = s->cpu[cpu].nr ? s->task[s->cpu[cpu].q[0]].energy_x : 0;
	sim_advance(s, to);
	for (int cpu = 0; bns && cpu < s->ncpu; cpu++) {
		if (!s->cpu[cpu].nr)
			continue;
		const struct sim_task *t = &s->task[s->cpu[cpu].q[0]];
		const size_t k = s->wl->acts[t->t->first_act + t->head].wake_ns / bns;

		if (blocks_reach(b, k + 1))
			return -1;
		b->e[k] += t->energy_x - e0[cpu];
	}
	return 0;
}

/* The blocks in the result, every block up to the end (or the last energy) counted, empty ones too. */
int sim_loop_blocks_result(struct sim *s)
{
	struct sim_blocks *b = &s->lp.blk;
	const __u64 bns = b->ns;

	if (!bns)
		return 0;
	if (s->wl->end_ns && blocks_reach(b, s->wl->end_ns / bns + 1))
		return -1;
	s->r->block_energy = calloc(b->n ? b->n : 1, sizeof(*s->r->block_energy));
	if (!s->r->block_energy)
		return -1;
	for (size_t i = 0; i < b->n; i++)
		s->r->block_energy[i] = (double)b->e[i] / 1e9;
	s->r->nr_blocks = b->n;
	s->r->block_ns = bns;
	return 0;
}

void sim_loop_free(struct sim_loop *lp)
{
	free(lp->blk.e);
	free(lp->ev);
	memset(lp, 0, sizeof(*lp));
}

/*
 * The loop, from its state at a top: the idle skip the last tick left due
 * is made here, with the next activation of the workload being run, so a
 * state at a top holds nothing of the workload past `now` and a resumed
 * run takes the same steps as one run whole.
 */
int sim_loop_run(struct sim *s, int (*top)(void *ctx, struct sim *s), void *ctx)
{
	struct sim_loop *lp = &s->lp;
	const __u64 end = s->wl->end_ns ? s->wl->end_ns : FS_SIM_NEVER;

	for (;;) {
		if (top && top(ctx, s))
			return -1;
		if (lp->skip_due) {
			lp->next_tick = skip_idle_ticks(s, lp->next_tick, lp->i < lp->n ? lp->ev[lp->i].ns : end);
			lp->skip_due = false;
		}
		if (end == FS_SIM_NEVER && lp->i == lp->n && all_idle(s))
			return 0;
		const __u64 t = next_event(s, lp->ev, lp->i, lp->n, lp->next_tick, end);

		if (t >= end)
			return advance(s, end);
		if (advance(s, t))
			return -1;
		for (int cpu = 0; cpu < s->ncpu; cpu++)
			while (s->cpu[cpu].nr && !s->task[s->cpu[cpu].q[0]].work_left)
				complete(s, cpu);
		for (; lp->i < lp->n && lp->ev[lp->i].ns <= s->now; lp->i++)
			wake(s, lp->ev[lp->i].task, lp->ev[lp->i].act);
		if (s->now == lp->next_tick) {
			tick(s);
			lp->next_tick += s->tick_ns;
			lp->skip_due = true;
		}
	}
}

int sim_loop(struct sim *s)
{
	s->lp.next_tick = s->tick_ns;
	s->lp.blk.ns = s->p->block_ns;
	if (sim_loop_events(s) || sim_loop_run(s, NULL, NULL))
		return -1;
	return sim_loop_blocks_result(s);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Runqueues of the simulated machine: who runs, CFS-like time sharing
 * between tasks of equal weight, and what a span of time does (work, busy
 * time, energy, PELT clocks).
 */
#include "sim_internal.h"

bool sim_allowed(const struct sim *s, int ti, int cpu)
{
	const __u64 m = s->task[ti].t->cpus_allowed;

	return cpu >= 0 && cpu < s->ncpu && (!m || ((m >> cpu) & 1));
}

/* Work a CPU does in dt ns: LAB one unit a ns; DEVICE cap/1024 x f/fmax of one. */
static __u64 work_in(const struct sim *s, int cpu, __u64 dt)
{
	const struct sim_cpu *c = &s->cpu[cpu];

	if (s->p->physics == FS_SIM_LAB)
		return dt;
	unsigned __int128 w = (unsigned __int128)dt * c->cap * sim_pd_freq(s, c->pd);
	return (__u64)(w / ((unsigned __int128)1024 * s->pd[c->pd].fmax));
}

/* When the running task's head activation completes at the current OPP. */
__u64 sim_completion_ns(const struct sim *s, int cpu)
{
	const struct sim_cpu *c = &s->cpu[cpu];

	if (!c->nr)
		return FS_SIM_NEVER;
	const __u64 w = s->task[c->q[0]].work_left;

	if (s->p->physics == FS_SIM_LAB)
		return s->now + w;
	unsigned __int128 num = (unsigned __int128)w * 1024 * s->pd[c->pd].fmax;
	unsigned __int128 den = (unsigned __int128)c->cap * sim_pd_freq(s, c->pd);
	return s->now + (__u64)((num + den - 1) / den);
}

/* One CPU's span of dt: the running task's work, busy time and energy at the OPP; the waiters' wait. */
static void cpu_span(struct sim *s, int cpu, __u64 dt)
{
	struct sim_cpu *c = &s->cpu[cpu];

	if (!c->nr)
		return;
	struct sim_task *t = &s->task[c->q[0]];
	const int opp = s->pd[c->pd].opp;
	const unsigned __int128 e = (unsigned __int128)dt * s->em->pd[c->pd].ps[opp].power;
	__u64 done = work_in(s, cpu, dt);

	done = done < t->work_left ? done : t->work_left;
	t->work_left -= done;
	s->r->work_done += done;
	t->run_ns += dt;
	t->run_pd_ns[c->pd] += dt;
	s->r->busy_via_pd[t->via][c->pd] += dt;
	t->energy_x += e;
	c->energy_x += e;
	s->energy_x += e;
	s->r->busy_ns[cpu] += dt;
	s->r->opp_busy_ns[c->pd][opp] += dt;
	for (int i = 1; i < c->nr; i++) {
		s->task[c->q[i]].wait_ns += dt;
		s->task[c->q[i]].head_wait_ns += dt;
	}
}

/*
 * Everything up to `to` with nothing changing on the way: the machine's
 * state only changes at events, so each span is linear. The rqs' PELT is
 * brought to `to` after the spans, with the state that held during them.
 */
void sim_advance(struct sim *s, __u64 to)
{
	const __u64 dt = to - s->now;

	if (!dt)
		return;
	for (int cpu = 0; cpu < s->ncpu; cpu++) {
		cpu_span(s, cpu, dt);
		sim_clock_advance(s, cpu, dt);
	}
	if (s->overutilized)
		s->r->overutilized_ns += dt;
	s->now = to;
	for (int cpu = 0; cpu < s->ncpu; cpu++)
		sim_rq_pelt_update(s, cpu);
}

/*
 * Give the CPU to the task at q[pos]: the outgoing and incoming tasks' PELT
 * is brought up to now in the state each had (running, waiting) first.
 */
static void set_curr(struct sim *s, int cpu, int pos)
{
	struct sim_cpu *c = &s->cpu[cpu];
	const int ti = c->q[pos];

	sim_task_pelt_update(s, c->q[0]);
	sim_task_pelt_update(s, ti);
	for (int i = pos; i > 0; i--)
		c->q[i] = c->q[i - 1];
	c->q[0] = ti;
	c->picked_ns = s->now;
}

/*
 * A task joins cpu's rq (it is attached there). A waking task preempts the
 * running one when that has run at least the wakeup granularity in its turn:
 * CFS's check_preempt_wakeup() (v2.6.23 - v6.5) preempts when the waker's
 * vruntime leads by more than that granularity, and a sleeper's vruntime is
 * placed half a latency behind min_vruntime (place_entity(),
 * GENTLE_FAIR_SLEEPERS), so a fresh wake-up wins against a task that has run
 * that long; EEVDF (v6.6+, RUN_TO_PARITY) lets the running task finish its
 * base slice first, the granularity there (machine.c). Otherwise it queues
 * at the tail (docs/simulation.md).
 */
void sim_enqueue(struct sim *s, int ti, int cpu, enum sim_enqueue_how how)
{
	struct sim_cpu *c = &s->cpu[cpu];
	struct sim_task *t = &s->task[ti];

	sim_task_pelt_enqueue(s, ti); /* the decay up to now of a task that slept here */
	t->queued = true;
	c->q[c->nr++] = ti;
	c->util_est += sim_task_ue(s, ti); /* util_est_enqueue() */
	if (c->nr >= 2)
		s->overload = true; /* add_nr_running() (v5.0 - v6.8 kernel/sched/sched.h) */
	if (c->nr == 1)
		c->picked_ns = s->now;
	else if (how != SIM_ENQ_MIGRATE && s->now - c->picked_ns >= s->wakeup_gran_ns)
		set_curr(s, cpu, c->nr - 1);
	/*
	 * update_overutilized_status() in enqueue_task_fair() (v5.0 - v7.1):
	 * set only, and only at a wake-up's enqueue (task_new =
	 * !(flags & ENQUEUE_WAKEUP), 6.1.192 kernel/sched/fair.c): a fork's
	 * first enqueue (wake_up_new_task()) and the balancer's attach_task()
	 * leave the flag to the tick and the balance.
	 */
	if (how == SIM_ENQ_WAKEUP && !s->overutilized && sim_cpu_overutilized(s, cpu))
		s->overutilized = true;
	sim_sugov_update(s, c->pd);
}

/* A queued task leaves its rq (sleep or migration); the next in line runs. */
void sim_dequeue(struct sim *s, int ti)
{
	struct sim_task *t = &s->task[ti];
	struct sim_cpu *c = &s->cpu[t->cpu];
	int pos = 0;

	while (pos < c->nr && c->q[pos] != ti)
		pos++;
	if (pos == c->nr)
		return;
	if (pos == 0 && c->nr > 1) {
		set_curr(s, t->cpu, 1);
		pos = 1;
	} else {
		sim_task_pelt_update(s, ti);
	}
	for (int i = pos; i + 1 < c->nr; i++)
		c->q[i] = c->q[i + 1];
	c->nr--;
	c->util_est -= sim_task_ue(s, ti); /* util_est_dequeue(), before util_est_update() changes it */
	t->queued = false;
	if (!c->nr) {
		sim_idle_enter(s, t->cpu);
		sim_nohz_idle_enter(s, t->cpu);
	}
	sim_sugov_update(s, c->pd);
}

/*
 * The tick's preemption: the running task yields once it has run its slice,
 * under CFS (check_preempt_tick(), v2.6.23 - v6.5) the latency period
 * shared between the runnable tasks and at least the minimum granularity,
 * under EEVDF (update_deadline(), v6.6+) the base slice (latency_ns 0). The
 * yielding task goes to the tail: with equal weights both orders are round
 * robin.
 */
void sim_tick_rotate(struct sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpu[cpu];

	if (c->nr < 2)
		return;
	__u64 slice = s->latency_ns / (__u64)c->nr;

	slice = slice > s->min_gran_ns ? slice : s->min_gran_ns;
	if (s->now - c->picked_ns < slice)
		return;
	const int ti = c->q[0];

	set_curr(s, cpu, 1);
	for (int i = 1; i + 1 < c->nr; i++)
		c->q[i] = c->q[i + 1];
	c->q[c->nr - 1] = ti;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Where a longer workload first differs from the one before it, as the
 * machine reads it (resume.h): a state the machine had at time c holds
 * only what it read up to c (events.c's loop top), so it stays valid for
 * the new workload when every difference lies after c.
 */
#include <string.h>
#include "resume.h"

static __u64 min_ns(__u64 a, __u64 b)
{
	return a < b ? a : b;
}

/*
 * The task's fields the machine reads from t0 on (set-up, placement), field
 * by field (padding is no field): not its activations, exit or uid.
 */
static bool task_differs(const struct fs_sim_task *a, const struct fs_sim_task *b)
{
	/* uid: the machine passes it to feec, which reads none (user/engine/feec_*.c); the builder learns it late */
	return a->pid != b->pid || a->tgid != b->tgid || memcmp(a->comm, b->comm, sizeof(a->comm)) ||
	       a->cpus_allowed != b->cpus_allowed || a->uclamp_min != b->uclamp_min ||
	       a->uclamp_max != b->uclamp_max || a->init_util != b->init_util ||
	       a->init_util_est != b->init_util_est || a->init_cpu != b->init_cpu ||
	       a->init_aged != b->init_aged;
}

/* A task's earliest difference: its activations in wake order, then its exit. */
static __u64 task_change(const struct fs_sim_workload *prev, const struct fs_sim_workload *wl, int i)
{
	const struct fs_sim_task *o = &prev->tasks[i], *t = &wl->tasks[i];
	const struct fs_sim_act *oa = prev->acts + o->first_act, *ta = wl->acts + t->first_act;
	__u64 d = FS_SIM_NEVER;

	if (task_differs(o, t) || t->nr_act < o->nr_act)
		return 0;
	/* whether it arrives at t0 or at its fork is read at set-up */
	if (o->nr_act && (oa[0].flags & FS_SIM_ACT_FORK) != (ta[0].flags & FS_SIM_ACT_FORK))
		return 0;
	if (!o->nr_act && t->nr_act && (ta[0].flags & FS_SIM_ACT_FORK))
		return 0;
	for (__u32 k = 0; k < t->nr_act; k++)
		if (k >= o->nr_act || memcmp(&oa[k], &ta[k], sizeof(oa[k]))) {
			d = ta[k].wake_ns; /* each task's activations are in wake order */
			break;
		}
	/* the machine asks exit_ns <= now: both times read the same before the earlier one */
	if (o->exit_ns != t->exit_ns)
		d = min_ns(d, min_ns(o->exit_ns, t->exit_ns));
	return d;
}

/* A task new in wl: a fork arrives at its fork, any other was on its CPU from t0. */
static __u64 new_task_change(const struct fs_sim_workload *wl, int i)
{
	const struct fs_sim_task *t = &wl->tasks[i];

	if (t->nr_act && (wl->acts[t->first_act].flags & FS_SIM_ACT_FORK))
		return wl->acts[t->first_act].wake_ns;
	return 0;
}

/* An activation whose waker is a task new in wl: the machine read no waker there before. */
static __u64 new_waker_change(const struct fs_sim_workload *prev, const struct fs_sim_workload *wl)
{
	__u64 d = FS_SIM_NEVER;

	for (__u64 k = 0; k < wl->nr_acts; k++)
		if (wl->acts[k].waker >= prev->nr_tasks && wl->acts[k].waker < wl->nr_tasks)
			d = min_ns(d, wl->acts[k].wake_ns);
	return d;
}

__u64 fs_sim_wl_changed(const struct fs_sim_workload *prev, const struct fs_sim_workload *wl)
{
	if (!prev || !wl || prev->t0_ns != wl->t0_ns || prev->nr_cpus != wl->nr_cpus ||
	    prev->physics != wl->physics || prev->nr_tasks > wl->nr_tasks || !wl->end_ns || !prev->end_ns)
		return 0;
	__u64 d = wl->end_ns < prev->end_ns ? wl->end_ns : FS_SIM_NEVER;

	for (int i = 0; i < prev->nr_tasks && d; i++)
		d = min_ns(d, task_change(prev, wl, i));
	for (int i = prev->nr_tasks; i < wl->nr_tasks && d; i++)
		d = min_ns(d, new_task_change(wl, i));
	if (d && wl->nr_tasks > prev->nr_tasks)
		d = min_ns(d, new_waker_change(prev, wl));
	return d;
}

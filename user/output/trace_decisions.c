// SPDX-License-Identifier: GPL-2.0
/* A kernel trace's decision rows from its simulations (trace_decisions.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace_decisions.h"
#include "../filter.h"

struct act_ref {
	__u64 wake_ns;
	__u64 ai;
};

static int by_wake(const void *a, const void *b)
{
	const struct act_ref *x = a, *y = b;

	if (x->wake_ns != y->wake_ns)
		return x->wake_ns < y->wake_ns ? -1 : 1;
	return x->ai < y->ai ? -1 : (x->ai > y->ai);
}

/*
 * How long the traced placement held: to the task's next traced wake-up,
 * its exit, or the trace's end; runtime is the CPU time the trace gave it.
 * No ΔP is priced (window 0): a trace's energy is the simulation's.
 */
static void fill_interval(const struct fs_sim_workload *wl, const struct fs_sim_task *t, __u64 ai,
			  struct fs_interval *iv)
{
	const struct fs_sim_act *a = &wl->acts[ai];

	memset(iv, 0, sizeof(*iv));
	iv->start_ns = wl->t0_ns + a->wake_ns;
	iv->run_cpu = a->rec_cpu;
	if (ai + 1 < (__u64)t->first_act + t->nr_act) {
		iv->end = FS_END_WAKEUP;
		iv->dt_ns = wl->acts[ai + 1].wake_ns - a->wake_ns;
	} else if (t->exit_ns != FS_SIM_NEVER && t->exit_ns >= a->wake_ns) {
		iv->end = FS_END_EXIT;
		iv->dt_ns = t->exit_ns - a->wake_ns;
	} else {
		iv->end = FS_END_TRACE;
		iv->dt_ns = wl->end_ns > a->wake_ns ? wl->end_ns - a->wake_ns : 0;
	}
	iv->runtime_known = !(a->flags & FS_SIM_ACT_UNKNOWN);
	iv->runtime_ns = iv->runtime_known ? a->rec_cpu_ns : 0;
}

/* Policy i's columns: where its simulation placed the task and why. */
static void fill_pol(const struct fs_sim_act_dec *d, struct fs_decision_pol *p)
{
	memset(p, 0, sizeof(*p));
	p->cpu = d->feec_cpu;
	p->acct_cpu = d->cpu;
	p->reason = d->reason < FS_FEEC__NR ? (enum fs_feec_reason)d->reason : FS_FEEC__NR;
	p->prev_delta = d->prev_delta;
	p->best_delta = d->best_delta;
	p->has_threshold = d->has_threshold;
	p->threshold = d->has_threshold ? d->threshold : UINT64_MAX;
}

static void fill_row(const struct fs_sim_workload *wl, const struct fs_sim_report *rep, int nr, int ti, __u64 ai,
		     struct fs_decision_row *r)
{
	const struct fs_sim_task *t = &wl->tasks[ti];
	const struct fs_sim_act *a = &wl->acts[ai];
	const struct fs_sim_act_dec *d0 = &rep->dec[0][ai];

	r->ts_ns = wl->t0_ns + a->wake_ns;
	r->pid = t->pid;
	r->tgid = t->tgid;
	r->uid = t->uid;
	memcpy(r->comm, t->comm, FS_COMM_LEN);
	/* the reference's simulation: its CPU and the task's util as it woke there */
	r->prev_cpu = d0->prev_cpu;
	r->kernel_cpu = a->rec_cpu;
	r->task_util = d0->task_util;
	r->flags = FS_WAKE_FLAGS_KNOWN | (a->flags & FS_SIM_ACT_FORK ? FS_WAKE_FORK : 0) |
		   (a->flags & FS_SIM_ACT_SYNC ? FS_WAKE_SYNC : 0) | (d0->how == 1 ? FS_WAKE_OVERUTILIZED : 0);
	fill_interval(wl, t, ai, &r->iv);
	for (int i = 0; i < nr; i++)
		fill_pol(&rep->dec[i][ai], &r->pol[i]);
}

int fs_trace_decisions(const struct fs_sim_workload *wl, const struct fs_sim_report *rep, int nr_policies,
		       struct fs_filter *filter, __u64 *kept, __u64 *filtered, fs_trace_row_fn fn, void *ctx,
		       char *err, size_t errlen)
{
	struct act_ref *order = malloc(((size_t)wl->nr_acts + 1) * sizeof(*order));
	int *task_of = malloc(((size_t)wl->nr_acts + 1) * sizeof(*task_of));
	struct fs_decision_row *row = calloc(1, sizeof(*row));
	__u64 seq = 0;
	int ret = 0;

	*filtered = 0;
	*kept = 0;
	if (!order || !task_of || !row) {
		snprintf(err, errlen, "decision rows: out of memory for %llu activations",
			 (unsigned long long)wl->nr_acts);
		ret = -1;
		goto out;
	}
	for (int ti = 0; ti < wl->nr_tasks; ti++)
		for (__u32 k = 0; k < wl->tasks[ti].nr_act; k++)
			task_of[wl->tasks[ti].first_act + k] = ti;
	for (__u64 ai = 0; ai < wl->nr_acts; ai++)
		order[ai] = (struct act_ref){ .wake_ns = wl->acts[ai].wake_ns, .ai = ai };
	qsort(order, (size_t)wl->nr_acts, sizeof(*order), by_wake);
	for (__u64 k = 0; k < wl->nr_acts && !ret; k++) {
		const __u64 ai = order[k].ai;
		const struct fs_sim_task *t = &wl->tasks[task_of[ai]];

		if (filter && !fs_filter_keep(filter, t->pid, t->tgid, t->comm)) {
			(*filtered)++;
			continue;
		}
		fill_row(wl, rep, nr_policies, task_of[ai], ai, row);
		row->seq = ++seq;
		*kept = seq;
		ret = fn(ctx, row, err, errlen);
	}
out:
	free(order);
	free(task_of);
	free(row);
	return ret;
}

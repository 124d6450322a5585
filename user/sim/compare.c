// SPDX-License-Identifier: GPL-2.0
/*
 * The closed-loop answer (compare.h): each policy's simulated energy, each
 * margin's cost as the difference of two whole simulations, and the same per
 * process. Nothing here looks at which policy came first: a verdict is
 * E(with margin) - E(without) of its own pair, whatever else ran.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"

void fs_sim_answer_free(struct fs_sim_answer *a)
{
	if (!a)
		return;
	free(a->procs);
	memset(a, 0, sizeof(*a));
}

/* The sort key: |delta of the first verdict|, without one |energy vs the reference| of another policy. */
static double rank_of(const struct fs_sim_answer *a, const struct fs_sim_process *p)
{
	if (a->nr_verdicts)
		return fabs(p->delta[0]);
	return a->nr_policies > 1 ? fabs(p->energy[a->ref ? 0 : 1] - p->energy[a->ref]) : 0;
}

static int cmp_proc(const void *pa, const void *pb)
{
	const struct fs_sim_process *x = pa, *y = pb;

	if ((x->tgid == FS_SIM_UNATTRIBUTED) != (y->tgid == FS_SIM_UNATTRIBUTED))
		return x->tgid == FS_SIM_UNATTRIBUTED ? 1 : -1; /* the remainder row last */
	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;
	return x->tgid < y->tgid ? -1 : x->tgid > y->tgid;
}

/* The row of tgid among procs[0..n), or NULL. */
static struct fs_sim_process *row_of(struct fs_sim_process *procs, size_t n, __s32 tgid)
{
	for (size_t i = 0; i < n; i++)
		if (procs[i].tgid == tgid)
			return &procs[i];
	return NULL;
}

int fs_sim_answer_build(const struct fs_sim_workload *wl, const struct fs_policy_desc *const *pols,
			const struct fs_sim_result *res, int n, int ref, struct fs_sim_answer *a,
			char *err, size_t errlen)
{
	memset(a, 0, sizeof(*a));
	if (n < 1 || n > FS_MAX_POLICIES || ref < 0 || ref >= n) {
		snprintf(err, errlen, "simulation answer: %d policies, reference %d (want 1..%d and one of them)", n,
			 ref, FS_MAX_POLICIES);
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (res[i].nr_tasks != wl->nr_tasks) {
			snprintf(err, errlen, "simulation answer: %s's result has %d tasks, the workload %d",
				 pols[i]->name, res[i].nr_tasks, wl->nr_tasks);
			return -1;
		}
	a->nr_policies = n;
	a->ref = ref;
	for (int i = 0; i < n; i++)
		a->energy[i] = res[i].energy;
	for (int i = 0; i < n; i++)
		a->vs_ref[i] = a->energy[i] - a->energy[ref];

	struct fs_verdict pairs[FS_MAX_VERDICTS];

	a->nr_verdicts = fs_verdict_pairs(pols, n, pairs);
	for (int v = 0; v < a->nr_verdicts; v++) {
		a->v[v].pol = pairs[v].pol;
		a->v[v].twin = pairs[v].twin;
		a->v[v].delta = a->energy[pairs[v].pol] - a->energy[pairs[v].twin];
		/* mJ: the ratio energy_mj / energy of any result with energy says the EM's unit */
		double mj = NAN;

		for (int i = 0; i < n && isnan(mj); i++)
			if (res[i].energy != 0 && !isnan(res[i].energy_mj))
				mj = a->v[v].delta * (res[i].energy_mj / res[i].energy);
		a->v[v].delta_mj = mj;
	}

	/* Processes: threads by tgid, in first-seen order until sorted; one more row for the remainder. */
	a->procs = calloc((size_t)wl->nr_tasks + 1, sizeof(*a->procs));
	if (!a->procs) {
		snprintf(err, errlen, "simulation answer: out of memory");
		return -1;
	}
	__u64 *busiest = calloc((size_t)wl->nr_tasks + 1, sizeof(*busiest));

	if (!busiest) {
		fs_sim_answer_free(a);
		snprintf(err, errlen, "simulation answer: out of memory");
		return -1;
	}
	for (int k = 0; k < wl->nr_tasks; k++) {
		const struct fs_sim_task *t = &wl->tasks[k];
		struct fs_sim_process *p = row_of(a->procs, a->nr_procs, t->tgid);
		__u64 cpu_ns = 0;

		for (__u32 j = 0; j < t->nr_act; j++)
			cpu_ns += wl->acts[t->first_act + j].rec_cpu_ns;
		if (!p) {
			p = &a->procs[a->nr_procs++];
			p->tgid = t->tgid;
		}
		size_t at = (size_t)(p - a->procs);
		bool leader = t->pid == t->tgid;

		/* named after the group leader, else the busiest thread */
		if (leader || (busiest[at] != UINT64_MAX && (!p->nr_threads || cpu_ns > busiest[at]))) {
			memcpy(p->comm, t->comm, FS_COMM_LEN);
			busiest[at] = leader ? UINT64_MAX : cpu_ns;
		}
		p->nr_threads++;
		p->rec_cpu_ns += cpu_ns;
		for (int i = 0; i < n; i++)
			p->energy[i] += res[i].task[k].energy;
	}
	free(busiest);
	/* What the machine's energy holds beyond its tasks' shares, so the rows sum to the totals. */
	struct fs_sim_process rest = { .tgid = FS_SIM_UNATTRIBUTED, .comm = "(unattributed)" };
	bool any = false;

	for (int i = 0; i < n; i++) {
		double sum = 0;

		for (size_t r = 0; r < a->nr_procs; r++)
			sum += a->procs[r].energy[i];
		rest.energy[i] = a->energy[i] - sum;
		any |= rest.energy[i] != 0;
	}
	if (any)
		a->procs[a->nr_procs++] = rest;
	for (size_t r = 0; r < a->nr_procs; r++) {
		for (int v = 0; v < a->nr_verdicts; v++)
			a->procs[r].delta[v] = a->procs[r].energy[a->v[v].pol] - a->procs[r].energy[a->v[v].twin];
		a->procs[r].rank = rank_of(a, &a->procs[r]);
	}
	qsort(a->procs, a->nr_procs, sizeof(*a->procs), cmp_proc);
	return 0;
}

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
	for (int v = 0; v < a->nr_verdicts; v++)
		free(a->v[v].block_delta);
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

/* Each verdict's delta, exact, and its interval over the simulations' time blocks. */
static int verdicts(struct fs_sim_answer *a, const struct fs_policy_desc *const *pols,
		    const struct fs_sim_result *res, int n)
{
	struct fs_verdict pairs[FS_MAX_VERDICTS];
	/* mJ: the ratio energy_mj / energy of any result with energy says the EM's unit */
	double mj = NAN;

	for (int i = 0; i < n && isnan(mj); i++)
		if (res[i].energy != 0 && !isnan(res[i].energy_mj))
			mj = res[i].energy_mj / res[i].energy;
	a->nr_verdicts = fs_verdict_pairs(pols, n, pairs);
	for (int v = 0; v < a->nr_verdicts; v++) {
		struct fs_sim_verdict *V = &a->v[v];

		V->pol = pairs[v].pol;
		V->twin = pairs[v].twin;
		V->delta_x = a->energy_x[V->pol] - a->energy_x[V->twin];
		V->delta = (double)V->delta_x / 1e9;
		V->delta_mj = V->delta * mj;
		if (fs_sim_verdict_interval(V, res, mj))
			return -1;
	}
	return 0;
}

/* Threads by tgid, in first-seen order (sorted later), named after the group leader, else the busiest thread. */
static int group(struct fs_sim_answer *a, const struct fs_sim_workload *wl, const struct fs_sim_result *res, int n)
{
	__u64 *busiest = calloc((size_t)wl->nr_tasks + 1, sizeof(*busiest));

	if (!busiest)
		return -1;
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

		if (leader || (busiest[at] != UINT64_MAX && (!p->nr_threads || cpu_ns > busiest[at]))) {
			memcpy(p->comm, t->comm, FS_COMM_LEN);
			busiest[at] = leader ? UINT64_MAX : cpu_ns;
		}
		p->nr_threads++;
		p->rec_cpu_ns += cpu_ns;
		for (int i = 0; i < n; i++)
			p->energy_x[i] += (__int128)res[i].task[k].energy_x;
	}
	free(busiest);
	return 0;
}

/* The remainder row (the machine's energy beyond its tasks' shares), the deltas, the order. */
static void close_rows(struct fs_sim_answer *a, int n)
{
	struct fs_sim_process rest = { .tgid = FS_SIM_UNATTRIBUTED, .comm = "(unattributed)" };
	bool any = false;

	for (int i = 0; i < n; i++) {
		__int128 sum = 0;

		for (size_t r = 0; r < a->nr_procs; r++)
			sum += a->procs[r].energy_x[i];
		rest.energy_x[i] = a->energy_x[i] - sum;
		any |= rest.energy_x[i] != 0;
	}
	if (any)
		a->procs[a->nr_procs++] = rest;
	for (size_t r = 0; r < a->nr_procs; r++) {
		struct fs_sim_process *p = &a->procs[r];

		for (int i = 0; i < n; i++)
			p->energy[i] = (double)p->energy_x[i] / 1e9;
		for (int v = 0; v < a->nr_verdicts; v++) {
			p->delta_x[v] = p->energy_x[a->v[v].pol] - p->energy_x[a->v[v].twin];
			p->delta[v] = (double)p->delta_x[v] / 1e9;
		}
		p->rank = rank_of(a, p);
	}
	qsort(a->procs, a->nr_procs, sizeof(*a->procs), cmp_proc);
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
	for (int i = 0; i < n; i++) {
		a->energy_x[i] = (__int128)res[i].energy_x;
		a->energy[i] = (double)a->energy_x[i] / 1e9;
	}
	for (int i = 0; i < n; i++)
		a->vs_ref[i] = (double)(a->energy_x[i] - a->energy_x[ref]) / 1e9;
	a->procs = calloc((size_t)wl->nr_tasks + 1, sizeof(*a->procs));
	if (!a->procs || verdicts(a, pols, res, n) || group(a, wl, res, n)) {
		fs_sim_answer_free(a);
		snprintf(err, errlen, "simulation answer: out of memory");
		return -1;
	}
	close_rows(a, n);
	return 0;
}

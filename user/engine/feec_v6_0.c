// SPDX-License-Identifier: GPL-2.0
/*
 * feec of v6.0 - v6.1 (Donnefort series): struct energy_env busy-time
 * model, thermal-capped PD capacity, "CPU utilization has changed" exit, and
 * b812fc9768e0 removed the margin: move iff best_delta < prev_delta.
 * The "+margin" twin puts back the v5.14 - v5.19 rule with the base summed
 * over the PDs that had a candidate, as this kernel computes it.
 */
#include "util.h"

struct energy_env {
	__u64 task_busy_time;
	__u64 pd_busy_time;
	__u64 cpu_cap;
	__u64 pd_cap;
};

/* eenv_task_busy_time(): p's util_est scaled by prev_cpu's irq, for every PD. */
static __u64 eenv_task_busy_time(const struct fs_feec_ctx *c, int prev)
{
	__u64 max_cap = fs_arch_cap(c, prev), irq = c->w->cpu[prev].irq_util;

	if (irq >= max_cap)
		return max_cap;
	return fs_scale_irq_capacity(c->task_util_est, irq, max_cap);
}

/* eenv_pd_busy_time(): the PD's ENERGY_UTIL without p, capped at pd_cap. */
static void eenv_pd_busy_time(const struct fs_feec_ctx *c, struct energy_env *e, __u64 cpus)
{
	__u64 busy = 0;

	for (int cpu = 0; cpu < c->em->nr_cpus; cpu++) {
		if (!(cpus & (1ull << cpu)))
			continue;
		__u64 u = fs_cpu_util_next(c, cpu, -1, false);
		busy += fs_effective_cpu_util_old(c, cpu, u, fs_arch_cap(c, cpu), FS_ENERGY_UTIL, false);
	}
	e->pd_busy_time = busy < e->pd_cap ? busy : e->pd_cap;
}

/* eenv_pd_max_util(): the frequency request with p on dst, capped at cpu_cap. */
static __u64 eenv_pd_max_util(const struct fs_feec_ctx *c, const struct energy_env *e, __u64 cpus,
			      int dst)
{
	__u64 max_util = 0;

	for (int cpu = 0; cpu < c->em->nr_cpus; cpu++) {
		if (!(cpus & (1ull << cpu)))
			continue;
		__u64 u = fs_cpu_util_next(c, cpu, dst, false);
		u = fs_effective_cpu_util_old(c, cpu, u, fs_arch_cap(c, cpu), FS_FREQUENCY_UTIL, cpu == dst);
		if (u > max_util)
			max_util = u;
	}
	return max_util < e->cpu_cap ? max_util : e->cpu_cap;
}

static __u64 compute_energy(const struct fs_feec_ctx *c, const struct energy_env *e, int pdi,
			    __u64 cpus, int dst)
{
	__u64 max_util = eenv_pd_max_util(c, e, cpus, dst);
	__u64 busy = e->pd_busy_time;

	if (dst >= 0) {
		busy += e->task_busy_time;
		if (busy > e->pd_cap)
			busy = e->pd_cap;
	}
	return fs_em_cpu_energy_v5_14(&c->t->pd[pdi], max_util, busy, e->cpu_cap);
}

void fs_feec_v6_0(const struct fs_feec_ctx *c, struct fs_feec_result *out)
{
	const int prev = c->w->prev_cpu;
	__u64 prev_delta = UINT64_MAX, best_delta = UINT64_MAX, base_sum = 0;
	int best = -1; /* uninitialised in the kernel, only read when best_delta < prev_delta */
	struct energy_env eenv = { 0 };

	if (fs_feec_entry_exit(c, out))
		return;
	if (!c->task_util_est) {
		out->cpu = prev;
		out->reason = FS_FEEC_ZERO_UTIL;
		return;
	}
	eenv.task_busy_time = eenv_task_busy_time(c, prev);

	for (int i = c->em->nr_pd - 1; i >= 0; i--) {
		const struct fs_em_pd *pd = &c->em->pd[i];
		__u64 cpus = 0, max_spare = 0;
		int ms = -1, first = -1;
		bool prev_in = false;

		for (int cpu = 0; cpu < c->em->nr_cpus; cpu++)
			if ((pd->cpus & (1ull << cpu)) && fs_cpu_online(c, cpu)) {
				cpus |= 1ull << cpu;
				if (first < 0)
					first = cpu;
			}
		if (!cpus)
			continue;
		/* Thermal pressure of the first online CPU caps the whole PD. */
		__u64 tcap = fs_lsub(fs_arch_cap(c, first), c->w->cpu[first].thermal_pressure);
		eenv.cpu_cap = tcap;
		eenv.pd_cap = 0;

		for (int cpu = 0; cpu < c->em->nr_cpus; cpu++) {
			if (!(cpus & (1ull << cpu)))
				continue;
			eenv.pd_cap += tcap; /* every online CPU, in the sd span or not */
			if (!fs_cpu_in_sd(c, cpu) || !fs_cpu_allowed(c, cpu))
				continue;
			__u64 util = fs_cpu_util_next(c, cpu, cpu, false);
			__u64 cap = fs_capacity_of(c, cpu);
			/* v6.0 - v6.1: fit and spare both on the clamped util. */
			util = fs_uclamp_rq_util_with(c, cpu, util, true);
			if (!fs_fits_capacity(util, cap))
				continue;
			cap = fs_lsub(cap, util);
			if (cpu == prev) {
				prev_in = true;
			} else if (cap > max_spare) {
				max_spare = cap;
				ms = cpu;
			}
		}
		if (ms < 0 && !prev_in)
			continue;

		eenv_pd_busy_time(c, &eenv, cpus);
		__u64 base = compute_energy(c, &eenv, i, cpus, -1);
		base_sum += base;
		if (prev_in) {
			__u64 e = compute_energy(c, &eenv, i, cpus, prev);
			fs_feec_add_cand(out, prev, i, 1, e, base, e >= base ? e - base : 0);
			if (e < base)
				goto util_changed;
			prev_delta = e - base;
			if (prev_delta < best_delta)
				best_delta = prev_delta;
		}
		if (ms >= 0) {
			__u64 e = compute_energy(c, &eenv, i, cpus, ms);
			fs_feec_add_cand(out, ms, i, 1, e, base, e >= base ? e - base : 0);
			if (e < base)
				goto util_changed;
			__u64 cur = e - base;
			if (cur < best_delta) {
				best_delta = cur;
				best = ms;
			}
		}
	}

	out->base_energy = base_sum;
	out->prev_delta = prev_delta;
	out->best_delta = best_delta;
	bool margin = c->r->margin == FS_MARGIN_PREV_DELTA_BASE;
	bool move;
	if (margin) {
		/* Twin: v5.14 - v5.19 rule on this kernel's numbers. */
		if (prev_delta != UINT64_MAX) {
			out->threshold = (prev_delta + base_sum) >> c->r->margin_shift;
			out->has_threshold = true;
		}
		move = best >= 0 && (prev_delta == UINT64_MAX || prev_delta - best_delta > out->threshold);
	} else {
		move = best >= 0 && best_delta < prev_delta;
	}
	if (best < 0 && prev_delta != UINT64_MAX)
		best = prev; /* prev was the only, hence cheapest, candidate */
	fs_feec_conclude(out, prev, best, move, margin);
	return;

util_changed:
	/* An energy below its base means the landscape moved under us: keep prev. */
	out->base_energy = base_sum;
	out->prev_delta = prev_delta;
	out->best_delta = best_delta;
	out->eligible = true;
	out->cpu = prev;
	out->reason = FS_FEEC_UTIL_CHANGED;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * feec of v5.4 (eb92692b2544 "Speed-up energy-aware wake-ups"): energies
 * per PD as deltas against that PD's base energy; the base of EVERY PD is
 * summed and joins the margin: move iff prev_d - best_d > (prev_d + base) >> 4.
 */
#include "util.h"

/*
 * compute_energy(p, dst, pd) of v5.4 - v5.11: busy time from ENERGY_UTIL,
 * frequency from FREQUENCY_UTIL with p's clamps on dst; max is the arch
 * capacity of the PD's first CPU (online or not).
 */
static __u64 compute_energy(const struct fs_feec_ctx *c, int dst, int pdi)
{
	const struct fs_em_pd *pd = &c->em->pd[pdi];
	const struct fs_pd_table *t = &c->t->pd[pdi];
	__u64 cpu_cap = fs_arch_cap(c, t->first_cpu);
	__u64 max_util = 0, sum_util = 0;

	for (int cpu = 0; cpu < c->em->nr_cpus; cpu++) {
		if (!(pd->cpus & (1ull << cpu)) || !fs_cpu_online(c, cpu))
			continue;
		__u64 util_cfs = fs_cpu_util_next(c, cpu, dst, false);
		sum_util += fs_effective_cpu_util_old(c, cpu, util_cfs, cpu_cap, FS_ENERGY_UTIL, false);
		__u64 f = fs_effective_cpu_util_old(c, cpu, util_cfs, cpu_cap, FS_FREQUENCY_UTIL, cpu == dst);
		if (f > max_util)
			max_util = f;
	}
	return fs_em_pd_energy_v5_0(t, max_util, sum_util);
}

void fs_feec_v5_4(const struct fs_feec_ctx *c, struct fs_feec_result *out)
{
	const int prev = c->w->prev_cpu;
	__u64 prev_delta = UINT64_MAX, best_delta = UINT64_MAX, base_energy = 0;
	int best = prev;
	bool any = false;

	if (fs_feec_entry_exit(c, out))
		return;
	/* Dead in v5.4: _task_util_est() still ORs bit 0. */
	if (!c->task_util_est) {
		out->cpu = prev;
		out->reason = FS_FEEC_ZERO_UTIL;
		return;
	}

	for (int i = c->em->nr_pd - 1; i >= 0; i--) {
		const struct fs_em_pd *pd = &c->em->pd[i];
		__u64 max_spare = 0;
		int ms = -1;

		/* v5.4 - v5.13: the base of every PD, candidates or not. */
		__u64 base_pd = compute_energy(c, -1, i);
		base_energy += base_pd;

		for (int cpu = 0; cpu < c->em->nr_cpus; cpu++) {
			if (!(pd->cpus & (1ull << cpu)) || !fs_cpu_in_sd(c, cpu) || !fs_cpu_allowed(c, cpu))
				continue;
			__u64 util = fs_cpu_util_next(c, cpu, cpu, false);
			__u64 cap = fs_capacity_of(c, cpu);
			/* v5.4 - v5.5: plain fits_capacity() on the unclamped util. */
			if (!fs_fits_capacity(util, cap))
				continue;
			if (cpu == prev) {
				__u64 e = compute_energy(c, prev, i);
				/* Unsigned: wraps if the energy fell below the base. */
				prev_delta = e - base_pd;
				fs_feec_add_cand(out, prev, i, 1, e, base_pd, prev_delta);
				any = true;
				if (prev_delta < best_delta)
					best_delta = prev_delta;
			}
			/* prev competes for max spare (v5.4 - v5.13): when it wins, no
			 * other CPU of its PD is evaluated. */
			__u64 spare = cap - util;
			if (spare > max_spare) {
				max_spare = spare;
				ms = cpu;
			}
		}
		if (ms >= 0 && ms != prev) {
			__u64 e = compute_energy(c, ms, i);
			__u64 cur = e - base_pd; /* may wrap, as in the kernel */
			fs_feec_add_cand(out, ms, i, 1, e, base_pd, cur);
			any = true;
			if (cur < best_delta) {
				best_delta = cur;
				best = ms;
			}
		}
	}

	out->base_energy = base_energy;
	out->prev_delta = prev_delta;
	out->best_delta = best_delta;
	bool margin = c->r->margin == FS_MARGIN_PREV_DELTA_BASE;
	bool move;
	if (prev_delta == UINT64_MAX) {
		move = true;
	} else if (margin) {
		out->threshold = (prev_delta + base_energy) >> c->r->margin_shift;
		out->has_threshold = true;
		move = prev_delta - best_delta > out->threshold;
	} else {
		move = best_delta < prev_delta;
	}
	fs_feec_conclude(out, prev, any ? best : -1, move, margin);
}

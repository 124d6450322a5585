// SPDX-License-Identifier: GPL-2.0
/*
 * feec of v6.0 and 6.1.0 (Donnefort series): struct energy_env busy-time
 * model, thermal-capped PD capacity, "CPU utilization has changed" exit, and
 * b812fc9768e0 removed the margin: move iff best_delta < prev_delta.
 * The "+margin" twin puts back the v5.14 - v5.19 rule with the base summed
 * over the PDs that had a candidate, as this kernel computes it.
 *
 * A deliberate per-version copy: this body follows its kernel range's
 * find_energy_efficient_cpu() line for line (the feec_v*.c files share
 * only what feec_common.c holds).
 */
#include "eenv.h"
#include "util.h"

void fs_feec_v6_0(const struct fs_feec_ctx *c, struct fs_feec_result *out)
{
	const int prev = c->w->prev_cpu;
	__u64 prev_delta = UINT64_MAX, best_delta = UINT64_MAX, base_sum = 0;
	int best = -1; /* uninitialised in the kernel, only read when best_delta < prev_delta */
	struct energy_env eenv = { 0 };

	if (fs_feec_entry_exit(c, out))
		return;
	if (fs_feec_zero_util_exit(c, out, !c->task_util_est))
		return;
	eenv.task_busy_time = fs_eenv_task_busy_time(c, prev);

	for (int i = c->em->nr_pd - 1; i >= 0; i--) {
		__u64 max_spare = 0;
		int ms = -1, first, cpu;
		bool prev_in = false;
		__u64 cpus = fs_pd_online_cpus(c, i, &first);

		if (!cpus)
			continue;
		/* Thermal pressure of the first online CPU caps the whole PD. */
		__u64 tcap = fs_lsub(fs_arch_cap(c, first), c->w->cpu[first].thermal_pressure);
		eenv.cpu_cap = tcap;
		eenv.pd_cap = 0;

		fs_for_each_cpu(cpu, cpus, left) {
			eenv.pd_cap += tcap; /* every online CPU, in the sd span or not */
			if (!(c->cand_mask & (1ull << cpu)))
				continue;
			__u64 util = fs_cpu_util_next(c, cpu, cpu, false);
			__u64 cap = fs_capacity_of(c, cpu);
			/* v6.0 - 6.1.0: fit and spare both on the clamped util. */
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

		fs_eenv_pd_prepare(c, &eenv, cpus);
		__u64 base = fs_compute_energy(c, &eenv, i, -1);
		base_sum += base;
		if (prev_in) {
			__u64 e = fs_compute_energy(c, &eenv, i, prev);
			fs_feec_add_cand(out, prev, i, 1, e, base, e >= base ? e - base : 0);
			if (e < base)
				goto util_changed;
			prev_delta = e - base;
			if (prev_delta < best_delta)
				best_delta = prev_delta;
		}
		if (ms >= 0) {
			__u64 e = fs_compute_energy(c, &eenv, i, ms);
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

	/* The "+margin" twin: the v5.14 - v5.19 rule on this kernel's numbers. */
	fs_feec_conclude(c, out, base_sum, prev_delta, best_delta,
			 (struct fs_feec_rule_in){ .valid = true, .prev = prev, .best = best });
	return;

util_changed:
	fs_feec_util_changed(out, prev, base_sum, prev_delta, best_delta);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * feec with util_fits_cpu() levels: 6.1.y (Debian 6.1.192), 6.6.y, 6.12.y
 * (checked against Debian 6.12.118 and 6.12.20) and mainline to 7.3 (feec,
 * its helpers and select_task_rq_fair() of Debian's 7.3.4 equal 7.1.3's but
 * for cpu_util(); 7.1.3 equals 6.12 but for RCU plumbing). 6.12.97+ and 7.2+
 * (29922fdfc2a4) also move p's own runnable_avg in the boosted cpu_util():
 * the boost_task_runnable rule (util.h).
 * One body: levels with uclamp aggregated per PD, long spare caps with
 * -1 = none (6.7, in 6.1.63+/6.6.2+), max-spare CPU evaluated only when it
 * beats prev's spare, zero-util exit only without uclamp_min (6.7), and the
 * fits-aware final rule. The eras differ in the helpers the rules pick
 * (eenv.c, util.c): runnable boost for the frequency (6.5+, v6.6 on),
 * effective_cpu_util(*min, *max) + sugov_effective_cpu_perf() headroom (6.8),
 * runtime EM state by performance with cost = 10 * P / perf and no division
 * (6.9), get_actual_cpu_capacity() = arch - max(hw_load_avg,
 * cpufreq_pressure) (6.10); before, arch - thermal_pressure.
 * The "+margin" twins add the v5.x 6.25 % rule to the energy clause.
 *
 * A deliberate per-version copy: this body follows its kernel range's
 * find_energy_efficient_cpu() line for line (the feec_v*.c files share
 * only what feec_common.c holds).
 */
#include "eenv.h"
#include "util.h"

/*
 * Over 80 lines on purpose: it mirrors kernel/sched/fair.c's
 * find_energy_efficient_cpu() line for line, and split it would no longer
 * read side by side with the kernel source.
 */
void fs_feec_v6_12(const struct fs_feec_ctx *c, struct fs_feec_result *out)
{
	const int prev = c->w->prev_cpu;
	__u64 prev_delta = UINT64_MAX, best_delta = UINT64_MAX, base_sum = 0;
	__u64 best_actual_cap = 0, prev_actual_cap = 0;
	int prev_fits = -1, best_fits = -1, best = -1;
	struct energy_env eenv = { 0 };

	if (fs_feec_entry_exit(c, out))
		return;
	/* v6.7+: a uclamp_min-boosted task with no utilization still goes on. */
	if (fs_feec_zero_util_exit(c, out, !c->task_util_est && c->p_min == 0))
		return;
	eenv.task_busy_time = fs_eenv_task_busy_time(c, prev);

	for (int i = c->em->nr_pd - 1; i >= 0; i--) {
		__u64 util_min = c->p_min, util_max = c->p_max; /* carried across the PD's CPUs */
		long long prev_spare = -1, max_spare = -1;
		int ms = -1, max_fits = -1, first, cpu;
		__u64 cpus = fs_pd_online_cpus(c, i, &first);

		if (!cpus)
			continue;
		__u64 actual_cap = fs_actual_cpu_capacity(c, first);
		eenv.cpu_cap = actual_cap;
		eenv.pd_cap = 0;

		fs_for_each_cpu(cpu, cpus, left) {
			eenv.pd_cap += actual_cap;
			if (!(c->cand_mask & (1ull << cpu)))
				continue;
			const struct fs_cpu *rq = &c->w->cpu[cpu];
			__u64 util = fs_cpu_util_next(c, cpu, cpu, false);
			__u64 cap = fs_capacity_of(c, cpu);

			/* Max-aggregate rq and p clamps, but test the unclamped util. */
			if (c->uclamp_used && !(rq->flags & FS_CPU_UCLAMP_IDLE)) {
				util_min = rq->uclamp_min > c->p_min ? rq->uclamp_min : c->p_min;
				util_max = rq->uclamp_max > c->p_max ? rq->uclamp_max : c->p_max;
			}
			int fits = fs_util_fits_cpu(c, util, util_min, util_max, cpu);
			if (!fits)
				continue;
			cap = fs_lsub(cap, util);
			if (cpu == prev) {
				prev_spare = (long long)cap;
				prev_fits = fits;
			} else if (fits > max_fits || (fits == max_fits && (long long)cap > max_spare)) {
				max_spare = (long long)cap;
				ms = cpu;
				max_fits = fits;
			}
		}
		if (ms < 0 && prev_spare < 0)
			continue;

		fs_eenv_pd_prepare(c, &eenv, cpus);
		__u64 base = fs_compute_energy(c, &eenv, i, -1);
		base_sum += base;
		if (prev_spare > -1) {
			__u64 e = fs_compute_energy(c, &eenv, i, prev);
			fs_feec_add_cand(out, prev, i, prev_fits, e, base, e >= base ? e - base : 0);
			if (e < base)
				goto util_changed;
			prev_delta = e - base;
			prev_actual_cap = actual_cap;
			if (prev_delta < best_delta)
				best_delta = prev_delta;
		}
		/* In prev's PD the max-spare CPU must beat prev's spare capacity. */
		if (ms >= 0 && max_spare > prev_spare) {
			if (max_fits < best_fits)
				continue; /* the current best fits better */
			if (max_fits < 0 && actual_cap <= best_actual_cap)
				continue; /* neither meets uclamp_min; best has more capacity */
			__u64 e = fs_compute_energy(c, &eenv, i, ms);
			fs_feec_add_cand(out, ms, i, max_fits, e, base, e >= base ? e - base : 0);
			if (e < base)
				goto util_changed;
			__u64 cur = e - base;
			if (max_fits > 0 && best_fits > 0 && cur >= best_delta)
				continue;
			best_delta = cur;
			best = ms;
			best_fits = max_fits;
			best_actual_cap = actual_cap;
		}
	}

	/* The "+margin" twins add the 6.25 % rule to the energy clause. */
	fs_feec_conclude(c, out, base_sum, prev_delta, best_delta, (struct fs_feec_rule_in){
		.valid = true, .prev = prev, .best = best, .prev_fits = prev_fits,
		.best_fits = best_fits, .prev_cap = prev_actual_cap, .best_cap = best_actual_cap,
	});
	return;

util_changed:
	fs_feec_util_changed(out, prev, base_sum, prev_delta, best_delta);
}

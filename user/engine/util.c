// SPDX-License-Identifier: GPL-2.0
/*
 * Utilization inputs of feec, per era. Each helper names the kernel function
 * it follows; branches on ctx->r name the versions that differ.
 *
 * uclamp assumption: before v5.9 there is no uclamp_is_used() static key and
 * the uclamp paths depend on CONFIG_UCLAMP_TASK alone. We read
 * FS_WAKE_UCLAMP_USED as "this kernel has uclamp in effect"; without it the
 * era behaves as built without CONFIG_UCLAMP_TASK (rt shortcut taken, no
 * clamping), which is also what an unused uclamp amounts to (rq clamps 0/1024)
 * apart from that shortcut.
 */
#include "util.h"

__u64 fs_effective_cpu_util_v6_8(const struct fs_feec_ctx *c, int cpu, __u64 util_cfs, __u64 *min,
				 __u64 *max)
{
	const struct fs_cpu *rq = &c->w->cpu[cpu];
	__u64 scale = fs_arch_cap(c, cpu);
	__u64 irq = rq->irq_util, util;
	/* uclamp_rq_get(): without uclamp in effect the rq clamps are 0/1024. */
	__u64 rq_min = c->uclamp_used ? rq->uclamp_min : 0;
	__u64 rq_max = c->uclamp_used ? rq->uclamp_max : FS_SCHED_CAPACITY_SCALE;

	if (irq >= scale) {
		if (min)
			*min = scale;
		if (max)
			*max = scale;
		return scale;
	}
	if (min) {
		/* DL bandwidth and irq are the floor the CPU must deliver. */
		*min = irq + fs_cpu_bw_dl(rq->dl_running_bw);
		if (rq_min > *min)
			*min = rq_min;
		if (!c->uclamp_used && (rq->flags & FS_CPU_RT_RUNNABLE))
			*min = scale > *min ? scale : *min;
	}
	util = util_cfs + rq->rt_util + rq->dl_util;
	if (max)
		*max = rq_max < scale ? rq_max : scale;
	if (util >= scale)
		return scale;
	util = fs_scale_irq_capacity(util, irq, scale) + irq;
	return util < scale ? util : scale;
}

__u64 fs_sugov_effective_cpu_perf(__u64 actual, __u64 min, __u64 max)
{
	actual += actual >> 2; /* map_util_perf(): 25 % DVFS headroom */
	if (actual < max)
		max = actual;
	return min > max ? min : max;
}

__u64 fs_actual_cpu_capacity(const struct fs_feec_ctx *c, int cpu)
{
	const struct fs_cpu *rq = &c->w->cpu[cpu];
	__u64 cap = fs_arch_cap(c, cpu), p;

	if (c->r->hw_cpufreq_pressure)
		p = rq->hw_load_avg > rq->cpufreq_pressure ? rq->hw_load_avg : rq->cpufreq_pressure;
	else
		p = rq->thermal_pressure; /* arch_scale_thermal_pressure(): instantaneous */
	return fs_lsub(cap, p);
}

int fs_util_fits_cpu(const struct fs_feec_ctx *c, __u64 util, __u64 umin, __u64 umax, int cpu)
{
	__u64 orig = fs_arch_cap(c, cpu);
	bool fits = fs_fits_capacity(util, fs_capacity_of(c, cpu)), uclamp_max_fits;

	if (!c->uclamp_used)
		return fits;
	/* A task capped to the CPU's capacity fits it, except a max-capacity
	 * CPU with an uncapped task: that must still be able to overutilize. */
	uclamp_max_fits = (orig == FS_SCHED_CAPACITY_SCALE) && (umax == FS_SCHED_CAPACITY_SCALE);
	uclamp_max_fits = !uclamp_max_fits && (umax <= orig);
	fits = fits || uclamp_max_fits;
	if (umin > umax)
		umin = umax;
	if (fits && util < umin && umin > fs_actual_cpu_capacity(c, cpu))
		return -1;
	return fits;
}

__u64 fs_capacity_inverted(const struct fs_feec_ctx *c, int cpu)
{
	__u64 orig = fs_arch_cap(c, cpu);
	/* Unsigned as in the kernel: a thermal load above the capacity wraps. */
	__u64 inv_cap = orig - c->w->cpu[cpu].hw_load_avg;

	for (int i = c->em->nr_pd - 1; i >= 0; i--) {
		const struct fs_pd_table *t = &c->t->pd[i];
		__u64 pd_orig;

		if (c->em->pd[i].cpus & (1ull << cpu))
			continue; /* not against its own PD */
		pd_orig = fs_arch_cap(c, t->first_cpu);
		if (orig < pd_orig)
			continue;
		/* Equal arch caps: inverted when the other PD keeps more after
		 * its thermal load; a smaller PD: when it beats what is left. */
		if (orig == pd_orig) {
			if (pd_orig - c->w->cpu[t->first_cpu].hw_load_avg > inv_cap)
				return inv_cap;
		} else if (pd_orig > inv_cap) {
			return inv_cap;
		}
	}
	return 0;
}

bool fs_util_fits_cpu_stable(const struct fs_feec_ctx *c, __u64 util, __u64 umin, __u64 umax, int cpu)
{
	bool fits = fs_fits_capacity(util, fs_capacity_of(c, cpu)), uclamp_max_fits;
	__u64 orig, orig_thermal;

	if (!c->uclamp_used)
		return fits;
	/* An inverted CPU is judged by its inverted capacity for both clamps. */
	orig = fs_capacity_inverted(c, cpu);
	if (orig) {
		orig_thermal = orig;
	} else {
		orig = fs_arch_cap(c, cpu);
		orig_thermal = orig - c->w->cpu[cpu].thermal_pressure;
	}
	uclamp_max_fits = (orig == FS_SCHED_CAPACITY_SCALE) && (umax == FS_SCHED_CAPACITY_SCALE);
	uclamp_max_fits = !uclamp_max_fits && (umax <= orig);
	fits = fits || uclamp_max_fits;
	if (umin > umax)
		umin = umax;
	/* A boost must fit the thermally capped capacity (not on a max-cap CPU). */
	if (util < umin && orig != FS_SCHED_CAPACITY_SCALE)
		fits = fits && (umin <= orig_thermal);
	return fits;
}

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

__u64 fs_cpu_util_next(const struct fs_feec_ctx *c, int cpu, int dst, bool boost)
{
	const struct fs_cpu *rq = &c->w->cpu[cpu];
	__u64 util = rq->util_avg;
	int task_cpu = c->w->task_cpu;

	/* v6.5+: runnable boosting, only asked for by eenv_pd_max_util. */
	if (boost && rq->runnable_avg > util)
		util = rq->runnable_avg;

	/* p's blocked contribution leaves task_cpu(p) and lands on dst. v5.0 -
	 * v5.13 use sub_positive, later lsub_positive: same result. */
	if (task_cpu == cpu && dst != cpu)
		util = fs_lsub(util, c->task_util);
	else if (task_cpu != cpu && dst == cpu)
		util += c->task_util;

	if (c->util_est_on) {
		__u64 ue = rq->util_est;

		if (dst == cpu)
			ue += c->task_ue;
		/* v5.19+: p still counted in an rq's util_est when queued or
		 * current. At a wake-up p is neither, except when the collector
		 * saw p as the running task of the CPU executing feec. */
		else if (c->r->ue_remove_queued && c->w->waker_cpu >= 0 &&
			 c->w->waker_cpu < FS_MAX_CPUS &&
			 (c->w->cpu[c->w->waker_cpu].flags & FS_CPU_CURR_IS_P))
			ue = fs_lsub(ue, c->task_ue);
		if (ue > util)
			util = ue;
	}
	/* capacity_orig_of() (<= v6.7) and arch_scale_cpu_capacity() (v6.8+)
	 * are the same number. */
	__u64 cap = fs_arch_cap(c, cpu);
	return util < cap ? util : cap;
}

__u64 fs_uclamp_rq_util_with(const struct fs_feec_ctx *c, int cpu, __u64 util, bool with_p)
{
	const struct fs_cpu *rq = &c->w->cpu[cpu];
	__u64 min_util = 0, max_util = 0;

	if (!c->uclamp_used)
		return util;
	if (with_p) {
		min_util = c->p_min;
		max_util = c->p_max;
		/* v5.14+: an idle rq's clamps are the last task's; p resets them. */
		if (c->r->eff >= FS_EFF_5_14 && (rq->flags & FS_CPU_UCLAMP_IDLE))
			goto out;
	}
	if (rq->uclamp_min > min_util)
		min_util = rq->uclamp_min;
	if (rq->uclamp_max > max_util)
		max_util = rq->uclamp_max;
out:
	/* Max-aggregated clamps can invert; min wins. */
	if (min_util >= max_util)
		return min_util;
	if (util < min_util)
		return min_util;
	return util > max_util ? max_util : util;
}

__u64 fs_effective_cpu_util_old(const struct fs_feec_ctx *c, int cpu, __u64 util_cfs, __u64 max,
				enum fs_util_type type, bool with_p)
{
	const struct fs_cpu *rq = &c->w->cpu[cpu];
	__u64 util, irq, dl;

	/* RT runnable asks for fmax: always in v5.0 - v5.2, only without
	 * uclamp from v5.3 (CONFIG_UCLAMP_TASK, v5.9+ the static key). */
	if (type == FS_FREQUENCY_UTIL && (rq->flags & FS_CPU_RT_RUNNABLE) &&
	    (c->r->eff == FS_EFF_5_0 || !c->uclamp_used))
		return max;

	irq = rq->irq_util;
	if (irq >= max)
		return max;

	util = util_cfs + rq->rt_util;
	if (type == FS_FREQUENCY_UTIL && c->r->eff >= FS_EFF_5_3)
		util = fs_uclamp_rq_util_with(c, cpu, util, with_p);

	dl = rq->dl_util;
	/* No idle time left: the CPU runs at max whatever the mix. */
	if (util + dl >= max)
		return max;
	if (type == FS_ENERGY_UTIL)
		util += dl;

	util = fs_scale_irq_capacity(util, irq, max) + irq;
	if (type == FS_FREQUENCY_UTIL)
		util += fs_cpu_bw_dl(rq->dl_running_bw);
	return util < max ? util : max;
}

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

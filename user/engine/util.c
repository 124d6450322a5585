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

/* cpu_util_cfs(cpu): max(util_avg, util_est) with UTIL_EST on, at most the arch capacity. */
static __u64 cpu_util_cfs(const struct fs_feec_ctx *c, int cpu)
{
	const struct fs_cpu *rq = &c->w->cpu[cpu];
	__u64 util = rq->util_avg, cap = fs_arch_cap(c, cpu);

	if (c->util_est_on && rq->util_est > util)
		util = rq->util_est;
	return util < cap ? util : cap;
}

bool fs_rd_overutilized(const struct fs_feec_ctx *c)
{
	int cpu;

	fs_for_each_cpu(cpu, c->online, left) {
		const struct fs_cpu *rq = &c->w->cpu[cpu];
		__u64 util = cpu_util_cfs(c, cpu);
		/* uclamp_rq_get(): the rq's max-aggregated clamps (defaults when unused). */
		__u64 rq_min = c->uclamp_used ? rq->uclamp_min : 0;
		__u64 rq_max = c->uclamp_used ? rq->uclamp_max : FS_SCHED_CAPACITY_SCALE;
		bool ou;

		switch (c->r->ou) {
		case FS_OU_BOOL_UCLAMP:
			ou = !fs_util_fits_cpu_stable(c, util, rq_min, rq_max, cpu);
			break;
		case FS_OU_LEVELS: /* -1 counts as fitting: !(-1) is false */
			ou = !fs_util_fits_cpu(c, util, rq_min, rq_max, cpu);
			break;
		case FS_OU_NO_MIN:
			ou = !fs_util_fits_cpu(c, util, 0, rq_max, cpu);
			break;
		case FS_OU_FITS:
		default:
			ou = !fs_fits_capacity(util, fs_capacity_of(c, cpu));
			break;
		}
		if (ou)
			return true;
	}
	return false;
}

/* SPDX-License-Identifier: GPL-2.0 */
/* CPU and task utilization helpers of kernel/sched/fair.c, core.c and cpufreq_schedutil.c, per era. */
#ifndef FEECSCOPE_ENGINE_UTIL_H
#define FEECSCOPE_ENGINE_UTIL_H

#include "feec_ctx.h"

enum fs_util_type { FS_FREQUENCY_UTIL, FS_ENERGY_UTIL };

/* fits_capacity(): util * 1280 < cap * 1024 (v5.4+). */
static inline bool fs_fits_capacity(__u64 util, __u64 cap)
{
	return util * 1280 < cap * 1024;
}

/* v5.0 - v5.3 open-coded skip "cap * 1024 < util * capacity_margin": equality fits. */
static inline bool fs_fits_capacity_v5_0(__u64 util, __u64 cap)
{
	return !(cap * 1024 < util * 1280);
}

/* lsub_positive(): saturating a - b. */
static inline __u64 fs_lsub(__u64 a, __u64 b)
{
	return a > b ? a - b : 0;
}

/* scale_irq_capacity(): util * (max - irq) / max. */
static inline __u64 fs_scale_irq_capacity(__u64 util, __u64 irq, __u64 max)
{
	return util * (max - irq) / max;
}

/* cpu_bw_dl(): running_bw (BW_SHIFT = 20) in capacity units. */
static inline __u64 fs_cpu_bw_dl(__u64 running_bw)
{
	return (running_bw * FS_SCHED_CAPACITY_SCALE) >> 20;
}

/* arch_scale_cpu_capacity(cpu), from the EM. */
static inline __u64 fs_arch_cap(const struct fs_feec_ctx *c, int cpu)
{
	return c->em->capacity[cpu];
}

/* capacity_of(cpu) = rq->cpu_capacity as recorded. */
static inline __u64 fs_capacity_of(const struct fs_feec_ctx *c, int cpu)
{
	return c->w->cpu[cpu].capacity;
}

/*
 * cpu_util_next(cpu, p, dst) (v5.0 - v6.4) / cpu_util(cpu, p, dst, boost) (v6.5+).
 * Inline with the two below: called per CPU per candidate, and the constant
 * arguments fold the era branches away (forced: with the 6.12.97 branch gcc
 * stopped inlining it, +10 % instructions per wake-up).
 */
static inline __attribute__((always_inline)) __u64 fs_cpu_util_next(const struct fs_feec_ctx *c, int cpu,
								       int dst, bool boost)
{
	const struct fs_cpu *rq = &c->w->cpu[cpu];
	__u64 util = rq->util_avg;
	const int task_cpu = c->w->task_cpu;
	const bool sub = task_cpu == cpu && dst != cpu, add = task_cpu != cpu && dst == cpu;

	if (boost && c->r->boost_task_runnable) {
		/* 6.12.97+ (29922fdfc2a4): util and runnable each move p's own share,
		 * then the larger wins. */
		__u64 runnable = rq->runnable_avg;

		util = sub ? fs_lsub(util, c->task_util) : add ? util + c->task_util : util;
		runnable = sub ? fs_lsub(runnable, c->task_runnable) : add ? runnable + c->task_runnable : runnable;
		if (runnable > util)
			util = runnable;
	} else {
		/* v6.5 - 6.12.96: runnable boosting (eenv_pd_max_util only) on the rq's sums. */
		if (boost && rq->runnable_avg > util)
			util = rq->runnable_avg;
		/* p's blocked contribution leaves task_cpu(p) and lands on dst. v5.0 -
		 * v5.13 use sub_positive, later lsub_positive: same result. */
		if (sub)
			util = fs_lsub(util, c->task_util);
		else if (add)
			util += c->task_util;
	}

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

/* uclamp_util_with() (v5.3 - v5.8) / uclamp_rq_util_with() (v5.9 - v6.7); the uclamp assumption is in util.c. */
static inline __u64 fs_uclamp_rq_util_with(const struct fs_feec_ctx *c, int cpu, __u64 util, bool with_p)
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

/*
 * schedutil_freq_util() (v5.0 - v5.2), schedutil_cpu_util() (v5.3 - v5.11),
 * effective_cpu_util(cpu, util, max, type, p) (v5.12 - v6.7; max internal from v6.0).
 */
static inline __u64 fs_effective_cpu_util_old(const struct fs_feec_ctx *c, int cpu, __u64 util_cfs,
						__u64 max, enum fs_util_type type, bool with_p)
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

/*
 * fs_effective_cpu_util_old() of one util for ENERGY_UTIL (*e) and
 * FREQUENCY_UTIL without p (*f): the same integers as the two calls, with the
 * shared reads and tests done once and the irq scaling skipped where it is
 * the identity (irq == 0).
 */
static inline void fs_effective_cpu_util_old_ef(const struct fs_feec_ctx *c, int cpu, __u64 util_cfs,
						__u64 max, __u64 *e, __u64 *f)
{
	const struct fs_cpu *rq = &c->w->cpu[cpu];
	const __u64 irq = rq->irq_util, dl = rq->dl_util;
	const bool rt_max = (rq->flags & FS_CPU_RT_RUNNABLE) && (c->r->eff == FS_EFF_5_0 || !c->uclamp_used);

	if (irq >= max) {
		*e = *f = max;
		return;
	}
	__u64 util = util_cfs + rq->rt_util, uf = util;

	if (util + dl >= max)
		*e = max;
	else if (!irq)
		*e = util + dl;
	else
		*e = fs_scale_irq_capacity(util + dl, irq, max) + irq;
	if (*e > max)
		*e = max;

	if (rt_max) {
		*f = max;
		return;
	}
	if (c->r->eff >= FS_EFF_5_3)
		uf = fs_uclamp_rq_util_with(c, cpu, util, false);
	if (uf + dl >= max) {
		*f = max;
		return;
	}
	uf = (irq ? fs_scale_irq_capacity(uf, irq, max) + irq : uf) + fs_cpu_bw_dl(rq->dl_running_bw);
	*f = uf < max ? uf : max;
}

/* v6.8+ effective_cpu_util(cpu, util_cfs, *min, *max); min/max may be NULL. Inline: per CPU per candidate. */
static inline __u64 fs_effective_cpu_util_v6_8(const struct fs_feec_ctx *c, int cpu, __u64 util_cfs,
						__u64 *min, __u64 *max)
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
	if (irq) /* the scaling is the identity without irq time */
		util = fs_scale_irq_capacity(util, irq, scale) + irq;
	return util < scale ? util : scale;
}

/* v6.8+ sugov_effective_cpu_perf(): headroom on actual, bounded by [min, max]. */
static inline __u64 fs_sugov_effective_cpu_perf(__u64 actual, __u64 min, __u64 max)
{
	actual += actual >> 2; /* map_util_perf(): 25 % DVFS headroom */
	if (actual < max)
		max = actual;
	return min > max ? min : max;
}


/* v6.10+ get_actual_cpu_capacity(); v5.14 - v6.9: arch cap - thermal_pressure. */
__u64 fs_actual_cpu_capacity(const struct fs_feec_ctx *c, int cpu);

/* v6.4+ util_fits_cpu(): 1 fits, -1 fits except uclamp_min, 0 does not fit. */
int fs_util_fits_cpu(const struct fs_feec_ctx *c, __u64 util, __u64 umin, __u64 umax, int cpu);

/*
 * rq->cpu_capacity_inverted of late 5.10.y / 5.15.y (6.2's 44c7b80bffc3,
 * update_cpu_capacity()): the CPU's arch cap minus its thermal_load_avg when
 * another PD of no higher arch cap is left with more after its own thermal
 * load, else 0. Computed from the wake-up's landscape, not at the last
 * load-balance tick where the kernel computes it.
 */
__u64 fs_capacity_inverted(const struct fs_feec_ctx *c, int cpu);

/* util_fits_cpu() of late 5.10.y / 5.15.y (6.2 form, bool): capacity inversion honoured. */
bool fs_util_fits_cpu_stable(const struct fs_feec_ctx *c, __u64 util, __u64 umin, __u64 umax, int cpu);

/*
 * rd->overutilized as the era's cpu_overutilized() finds it on the recorded
 * landscape: some online CPU overutilized (rules.h enum fs_ou_rule).
 */
bool fs_rd_overutilized(const struct fs_feec_ctx *c);

#endif

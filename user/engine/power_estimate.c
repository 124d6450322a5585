// SPDX-License-Identifier: GPL-2.0
/*
 * fs_system_power_uw(): a policy-independent estimate of the CPUs' power
 * with the waking task on dst_cpu, for energy accounting (docs/power-estimate.md).
 *
 * Per CPU i online, p on dst (or nowhere):
 *   busy     u_i = min(cap, util_avg_i - task_util [i == task_cpu] + task_est [i == dst] + rt + dl + irq)
 *   request  r_i = schedutil's frequency request once p is enqueued on dst:
 *                  cpu_util_cfs() = max(util_avg', util_est' [UTIL_EST], runnable_avg' [v6.5+])
 *                  (p's util_avg/runnable_avg leave task_cpu and join dst, its util_est joins dst),
 *                  then the era's effective_cpu_util(FREQUENCY_UTIL) and headroom.
 * Per PD:     m = max r_i; state = the OPP cpufreq resolves get_next_freq()'s target for m
 *             to (lowest at or above, inefficient ones skipped on v5.16+), raised if
 *             needed to the lowest OPP whose capacity holds every u_i
 *             busy_i = u_i * fmax / (cap * f)                (u_i / capacity at f, <= 1)
 *             P_pd = P_uW(state) * sum(busy_i)               (floor)
 * Result:     sum over PDs of P_pd.
 *
 * A placement only changes the PD of dst (task_cpu's PD has the task removed
 * whatever dst is), so fs_power_ctx computes every PD once without the task
 * and then one PD per asked-for dst: same sums, same per-PD floors.
 */
#include <string.h>
#include "feec_ctx.h"
#include "pelt.h"
#include "power_estimate.h"
#include "state_lut.h"
#include "util.h"

const struct fs_power_opts fs_power_opts_mainline = {
	.dvfs = FS_DVFS_6_8, .skip_inefficient = true, .runnable_boost = true, .uclamp = true,
};

struct fs_power_opts fs_power_opts_for_policy(const struct fs_policy_desc *d)
{
	const struct fs_feec_rules *r = d ? d->rules : NULL;

	if (!r)
		return fs_power_opts_mainline;
	/* schedutil changes with the same commits as feec's own frequency model:
	 * map_util_perf() in v5.14 (not in late 5.10.y, whose EM keeps the v5.0
	 * form), sugov_effective_cpu_perf() in v6.8, inefficient OPPs in v5.16,
	 * runnable boosting in v6.5 (not in 6.1.y). */
	return (struct fs_power_opts){
		.dvfs = r->energy == FS_EM_PD_ENERGY_5_0 ? FS_DVFS_5_0
			: r->eff >= FS_EFF_6_8           ? FS_DVFS_6_8
							 : FS_DVFS_5_14,
		.skip_inefficient = r->mark_inefficient,
		.runnable_boost = r->boost_max_util,
		.uclamp = r->eff >= FS_EFF_5_3, /* schedutil honours uclamp from v5.3 */
	};
}

static __u64 power_uw(const struct fs_em *em, const struct fs_em_ps *ps)
{
	return em->unit == FS_POWER_MW ? ps->power * 1000 : ps->power;
}

static inline __u64 lsub(__u64 a, __u64 b)
{
	return a > b ? a - b : 0;
}

/* v6.8+ effective_cpu_util()'s actual utilization: cfs + rt + dl, irq-scaled, at most cap. */
static inline __u64 actual_util_6_8(const struct fs_cpu *c, __u64 cfs, __u64 cap)
{
	const __u64 irq = c->irq_util, u = cfs + c->rt_util + c->dl_util;

	if (u >= cap)
		return cap;
	return irq ? fs_scale_irq_capacity(u, irq, cap) + irq : u;
}

/*
 * sugov_get_util() of CPU i from its cpu_util_cfs() value: v5.0 - v6.7
 * effective_cpu_util(FREQUENCY_UTIL), or v6.8+'s (*min, *max) form through
 * sugov_effective_cpu_perf() (the headroom is then in the result). uclamp is
 * not modelled (docs). Out of line: most CPUs take cpu_terms()'s fast path.
 */
static __attribute__((noinline)) __u64 freq_util(const struct fs_cpu *c, __u64 cfs, __u64 cap,
						  enum fs_power_dvfs dvfs)
{
	const __u64 irq = c->irq_util, bw = (c->dl_running_bw * FS_SCHED_CAPACITY_SCALE) >> 20;
	const bool rt = c->flags & FS_CPU_RT_RUNNABLE;
	__u64 u;

	if (irq >= cap)
		return cap;
	if (dvfs == FS_DVFS_6_8) {
		__u64 floor = rt ? cap : irq + bw; /* an RT task runs at the top */

		u = actual_util_6_8(c, cfs, cap);
		u += u >> 2;
		if (u > cap)
			u = cap;
		if (floor > u)
			u = floor < cap ? floor : cap;
		return u;
	}
	if (rt)
		return cap;
	u = cfs + c->rt_util;
	if (u + c->dl_util >= cap)
		return cap; /* no idle time left */
	if (irq)
		u = fs_scale_irq_capacity(u, irq, cap) + irq;
	u += bw;
	return u < cap ? u : cap;
}

/*
 * freq_util() with uclamp in use and the CPU's clamps umin/umax (v5.3+): no
 * RT shortcut (an RT task's own uclamp_min asks for the top). v5.3 - v6.7
 * clamp cfs + rt in uclamp_rq_util_with() (min wins when they cross); v6.8+
 * bound the perf: max(max(irq + DL bandwidth, umin), min(actual * 1.25,
 * min(cap, umax))). At most cap: cpufreq gives nothing above the top.
 */
static __attribute__((noinline)) __u64 freq_util_uclamp(const struct fs_cpu *c, __u64 cfs, __u64 cap,
							 enum fs_power_dvfs dvfs, __u64 umin, __u64 umax)
{
	const __u64 irq = c->irq_util, bw = (c->dl_running_bw * FS_SCHED_CAPACITY_SCALE) >> 20;
	__u64 u;

	if (irq >= cap)
		return cap;
	if (dvfs == FS_DVFS_6_8) {
		__u64 floor = irq + bw > umin ? irq + bw : umin, top = umax < cap ? umax : cap;

		u = actual_util_6_8(c, cfs, cap);
		u += u >> 2;
		u = u < top ? u : top;
		u = floor > u ? floor : u;
		return u < cap ? u : cap;
	}
	u = cfs + c->rt_util;
	if (umin >= umax)
		u = umin;
	else
		u = u < umin ? umin : u > umax ? umax : u;
	if (u + c->dl_util >= cap)
		return cap;
	if (irq)
		u = fs_scale_irq_capacity(u, irq, cap) + irq;
	u += bw;
	return u < cap ? u : cap;
}

/* The request from cpu_util_cfs() value v (at most cap): freq_util(), short when only CFS runs. */
static inline __attribute__((always_inline)) __u64 request_of(const struct fs_cpu *c, __u64 v, __u64 oth,
							       __u64 cap, enum fs_power_dvfs dvfs)
{
	if ((oth | c->dl_running_bw) || (c->flags & FS_CPU_RT_RUNNABLE))
		return freq_util(c, v, cap, dvfs);
	if (dvfs == FS_DVFS_6_8) {
		v += v >> 2;
		v = v < cap ? v : cap;
	}
	return v;
}

/*
 * Busy u_i and request r_i of CPU i, with the task enqueued on it (on) or not.
 * Busy: util_avg without p's blocked util, plus task_est on dst, plus RT, DL
 * and irq. Request: p's util_avg and runnable_avg leave task_cpu and are
 * attached on dst, its _task_util_est() joins dst's util_est, and
 * cpu_util_cfs() takes the largest, at most the capacity (util_est: v4.17+;
 * runnable_avg: cpu_util_cfs_boost(), v6.5+).
 */
static inline __attribute__((always_inline)) void cpu_terms(const struct fs_power_ctx *x, int i, bool on,
							     __u64 cap, bool boost, enum fs_power_dvfs dvfs,
							     __u64 *u_out, __u64 *r_out)
{
	const struct fs_cpu *c = &x->w->cpu[i];
	const bool here = i == x->w->task_cpu, leaves = here && !on, joins = !here && on;
	const __u64 avg = c->util_avg, oth = c->rt_util + c->dl_util + c->irq_util;
	__u64 u = here ? lsub(avg, x->task_util) : avg, v, ue;

	u += (on ? x->task_est : 0) + oth;
	*u_out = u < cap ? u : cap;

	v = leaves ? lsub(avg, x->task_util) : joins ? avg + x->task_util : avg;
	if (boost) {
		__u64 run = c->runnable_avg;

		run = leaves ? lsub(run, x->task_run) : joins ? run + x->task_run : run;
		v = run > v ? run : v;
	}
	ue = (c->util_est + (on ? x->task_ue : 0)) & x->ue_mask;
	v = ue > v ? ue : v;
	v = v < cap ? v : cap;
	if (x->uclamp) {
		/* p's enqueue on dst: an idle rq takes p's clamps, else the larger of each. */
		__u64 umin = c->uclamp_min, umax = c->uclamp_max;

		if (on && (c->flags & FS_CPU_UCLAMP_IDLE)) {
			umin = x->p_min;
			umax = x->p_max;
		} else if (on) {
			umin = x->p_min > umin ? x->p_min : umin;
			umax = x->p_max > umax ? x->p_max : umax;
		}
		*r_out = freq_util_uclamp(c, v, cap, dvfs, umin, umax);
		return;
	}
	*r_out = request_of(c, v, oth, cap, dvfs);
}

/* cpu_terms() of task_cpu without the task: once per wake-up, out of the PD loop's way. */
static __attribute__((noinline)) void task_cpu_terms(const struct fs_power_ctx *x, int i, __u64 cap, __u64 *u,
						     __u64 *r)
{
	cpu_terms(x, i, false, cap, x->opts.runnable_boost, x->opts.dvfs, u, r);
}

/* cpu_terms() of a CPU the task neither leaves nor joins: most CPUs of most PDs. */
static inline __attribute__((always_inline)) void other_cpu_terms(const struct fs_cpu *c, __u64 cap,
								   __u64 ue_mask, bool boost, bool uclamp,
								   enum fs_power_dvfs dvfs, __u64 *u_out,
								   __u64 *r_out)
{
	const __u64 avg = c->util_avg, oth = c->rt_util + c->dl_util + c->irq_util, ue = c->util_est & ue_mask;
	__u64 u = avg + oth, v = avg;

	*u_out = u < cap ? u : cap;
	if (boost)
		v = c->runnable_avg > v ? c->runnable_avg : v;
	v = ue > v ? ue : v;
	v = v < cap ? v : cap;
	*r_out = uclamp ? freq_util_uclamp(c, v, cap, dvfs, c->uclamp_min, c->uclamp_max)
			: request_of(c, v, oth, cap, dvfs);
}

/*
 * cpufreq_driver_resolve_freq(): the lowest OPP at or above want, skipping
 * the inefficient ones (v5.16+ CPUFREQ_RELATION_LE), else the top.
 */
static int lowest_state_from(const struct fs_em_pd *pd, const struct fs_power_pd_const *k, __u64 want, int from)
{
	int s;

	for (s = from; s < pd->nr_ps - 1; s++)
		if (pd->ps[s].frequency >= want && !(k->skip >> s & 1))
			break;
	return s;
}

static int lowest_state(const struct fs_em_pd *pd, const struct fs_power_pd_const *k, __u64 want)
{
	return lowest_state_from(pd, k, want, 0);
}

/* The OPP for a largest request m: get_next_freq()'s target, headroom as the era puts it. */
static __u64 request_freq(const struct fs_power_pd_const *k, enum fs_power_dvfs dvfs, __u64 m)
{
	switch (dvfs) {
	case FS_DVFS_5_0:
		return (k->fmax + (k->fmax >> 2)) * m / k->cap;
	case FS_DVFS_5_14:
		return k->fmax * (m + (m >> 2)) / k->cap;
	case FS_DVFS_6_8:
	default:
		return k->fmax * m / k->cap;
	}
}

static int request_state(const struct fs_em_pd *pd, const struct fs_power_pd_const *k, enum fs_power_dvfs dvfs,
			 __u64 m)
{
	return lowest_state(pd, k, request_freq(k, dvfs, m));
}

/*
 * The lowest OPP whose capacity holds a busy utilization u (cap * f >= u *
 * fmax): a CPU given more work than its OPP delivers raises its util_avg,
 * and schedutil's request with it, until it does.
 */
static __u64 work_freq(const struct fs_power_pd_const *k, __u64 u)
{
	return (k->fmax * u + k->cap - 1) / k->cap;
}

static int work_state(const struct fs_em_pd *pd, const struct fs_power_pd_const *k, __u64 u)
{
	return lowest_state(pd, k, work_freq(k, u));
}

/* max(request_state(m), work_state(u)), from the tables where they cover m and u. */
static inline __attribute__((always_inline)) int pd_state_of(const struct fs_power_ctx *x, int pdi,
							    const struct fs_power_pd_const *k, __u64 m, __u64 u)
{
	const struct fs_em_pd *pd = &x->em->pd[pdi];
	int s = x->lut && m < FS_POWER_LUT ? x->lut->state[pdi][m] : request_state(pd, k, x->opts.dvfs, m);

	/* Mostly the headroom leaves room for the busy time already. */
	if (k->cap * pd->ps[s].frequency >= u * k->fmax)
		return s;
	int w = x->lut && u < FS_POWER_LUT ? x->lut->work[pdi][u] : work_state(pd, k, u);
	return s > w ? s : w;
}

/*
 * The states em_compute_costs() flags inefficient (a faster one costs no
 * more; the source's own flags when it gave them); cpufreq skips them when
 * em_cpufreq_update_efficiencies() set SKIP_INEFFICIENCIES on the PD (v5.16+).
 */
static __u64 skip_mask(const struct fs_em_pd *pd, const struct fs_power_opts *o)
{
	__u64 mask = 0, prev_cost = UINT64_MAX, fmax = pd->ps[pd->nr_ps - 1].frequency;

	if (!o->skip_inefficient || !(pd->flags & FS_EM_PD_SKIP_INEFFICIENT))
		return 0;
	for (int s = pd->nr_ps - 1; s >= 0; s--) {
		const struct fs_em_ps *ps = &pd->ps[s];
		bool ineff;

		if (pd->has_inefficient) {
			ineff = ps->inefficient;
		} else {
			__u64 cost = ps->frequency ? fmax * ps->power / ps->frequency : UINT64_MAX;

			ineff = cost >= prev_cost;
			if (!ineff)
				prev_cost = cost;
		}
		/* The top state is never inefficient: cpufreq always has it. */
		if (ineff && s < pd->nr_ps - 1)
			mask |= 1ull << s;
	}
	return mask;
}

static void pd_const(const struct fs_em *em, int pdi, const struct fs_power_opts *o, struct fs_power_pd_const *k)
{
	const struct fs_em_pd *pd = &em->pd[pdi];
	int first = fs_em_pd_first_cpu(pd);

	k->usable = pd->nr_ps > 0 && pd->nr_ps <= FS_MAX_PS && first >= 0 && first < FS_MAX_CPUS &&
		    em->capacity[first];
	k->cap = k->usable ? em->capacity[first] : 0;
	k->fmax = k->usable ? pd->ps[pd->nr_ps - 1].frequency : 0;
	k->skip = k->usable ? skip_mask(pd, o) : 0;
}

/* One PD's searches, for fs_state_lut_fill. */
struct pd_search {
	const struct fs_em_pd *pd;
	const struct fs_power_pd_const *k;
	enum fs_power_dvfs dvfs;
};

static int request_search(const void *ctx, __u64 m, int from)
{
	const struct pd_search *s = ctx;

	return lowest_state_from(s->pd, s->k, request_freq(s->k, s->dvfs, m), from);
}

static int work_search(const void *ctx, __u64 u, int from)
{
	const struct pd_search *s = ctx;

	return lowest_state_from(s->pd, s->k, work_freq(s->k, u), from);
}

void fs_power_lut_build_opts(struct fs_power_lut *lut, const struct fs_em *em, const struct fs_power_opts *o)
{
	lut->em = em;
	lut->opts = *o;
	for (int p = 0; p < em->nr_pd && p < FS_MAX_PDS; p++) {
		const struct fs_power_pd_const *k = &lut->pdc[p];
		const struct pd_search ps = { &em->pd[p], k, o->dvfs };

		pd_const(em, p, o, &lut->pdc[p]);
		if (!k->usable) {
			memset(lut->state[p], 0, sizeof(lut->state[p]));
			memset(lut->work[p], 0, sizeof(lut->work[p]));
			continue;
		}
		/*
		 * The wanted frequency never falls as m grows, so a state that failed
		 * one m fails the next, and the answers never fall (fs_state_lut_fill).
		 * Not where fmax * (2 * FS_POWER_LUT + cap) wraps (any era's largest
		 * product), where every m is searched from state 0.
		 */
		__u64 top;
		if (!__builtin_mul_overflow(k->fmax, 2 * FS_POWER_LUT + k->cap, &top)) {
			fs_state_lut_fill(lut->state[p], FS_POWER_LUT, request_search, &ps);
			fs_state_lut_fill(lut->work[p], FS_POWER_LUT, work_search, &ps);
			continue;
		}
		for (__u64 m = 0; m < FS_POWER_LUT; m++) {
			lut->state[p][m] = (__u8)request_search(&ps, m, 0);
			lut->work[p][m] = (__u8)work_search(&ps, m, 0);
		}
	}
}

int fs_power_lut_search(const struct fs_power_lut *lut, int pd, bool work, __u64 m)
{
	const struct fs_power_pd_const *k = &lut->pdc[pd];

	if (!k->usable)
		return 0;
	return work ? work_state(&lut->em->pd[pd], k, m) : request_state(&lut->em->pd[pd], k, lut->opts.dvfs, m);
}

void fs_power_lut_build(struct fs_power_lut *lut, const struct fs_em *em)
{
	fs_power_lut_build_opts(lut, em, &fs_power_opts_mainline);
}

static __u64 pd_watts(const struct fs_em *em, const struct fs_em_pd *pd, int s, unsigned __int128 busy,
		      __u64 capf)
{
	__u64 pw = power_uw(em, &pd->ps[s]), prod;

	/* Same floor either way; the 64-bit division is the common, cheap case. */
	if (busy <= UINT64_MAX && !__builtin_mul_overflow(pw, (__u64)busy, &prod))
		return prod / capf;
	return (__u64)((unsigned __int128)pw * busy / capf);
}

static const struct fs_power_pd_const *pd_const_of(const struct fs_power_ctx *x, int pdi,
						   struct fs_power_pd_const *scratch)
{
	if (x->lut)
		return &x->lut->pdc[pdi];
	pd_const(x->em, pdi, &x->opts, scratch);
	return scratch;
}

/* P_pd with the task nowhere; keeps what fs_power_ctx_at() reuses. */
static inline __attribute__((always_inline)) __u64 pd_base(struct fs_power_ctx *x, int pdi, bool boost,
							    enum fs_power_dvfs dvfs)
{
	const struct fs_em *em = x->em;
	const struct fs_em_pd *pd = &em->pd[pdi];
	struct fs_power_pd *b = &x->pd[pdi];
	struct fs_power_pd_const scratch;
	const struct fs_power_pd_const *k = pd_const_of(x, pdi, &scratch);

	b->cpus = pd->cpus & x->online;
	b->usable = k->usable && b->cpus;
	if (!b->usable)
		return 0;
	b->cap = k->cap;
	b->fmax = k->fmax;
	/* Locals, not b's fields, in the loop: x->u[] stores could alias them. */
	const struct fs_cpu *cpu = x->w->cpu;
	const int task_cpu = x->w->task_cpu;
	const __u64 cap = k->cap, ue_mask = x->ue_mask;
	struct fs_top2 top;
	__u64 sum_u = 0, max_u = 0;

	fs_top2_init(&top);
	for (__u64 left = b->cpus; left; left &= left - 1) {
		int i = __builtin_ctzll(left);
		__u64 u, r;

		if (i == task_cpu)
			task_cpu_terms(x, i, cap, &u, &r);
		else
			other_cpu_terms(&cpu[i], cap, ue_mask, boost, x->uclamp, dvfs, &u, &r);
		x->u[i] = u;
		sum_u += u;
		max_u = u > max_u ? u : max_u;
		fs_top2_add(&top, i, r);
	}
	b->top = top;
	b->sum_u = sum_u;
	b->max_u = max_u;
	int s = pd_state_of(x, pdi, k, top.v[0], max_u);
	b->state = s;
	/* The state holds every u_i: sum(busy_i) is sum_u * fmax / (cap * f). */
	b->busy = (unsigned __int128)sum_u * b->fmax;
	return pd_watts(em, pd, s, b->busy, b->cap * pd->ps[s].frequency);
}

/* Every PD without the task, one loop per option set (constants fold the branches away). */
static inline __attribute__((always_inline)) void all_bases(struct fs_power_ctx *x, bool boost,
							     enum fs_power_dvfs dvfs)
{
	x->base_total = 0;
	for (int p = 0; p < x->em->nr_pd; p++) {
		x->base_pd[p] = pd_base(x, p, boost, dvfs);
		x->base_total += x->base_pd[p];
	}
}

static void bases_6_8_boost(struct fs_power_ctx *x)
{
	all_bases(x, true, FS_DVFS_6_8);
}

static void bases_6_8(struct fs_power_ctx *x)
{
	all_bases(x, false, FS_DVFS_6_8);
}

static void bases_boost(struct fs_power_ctx *x)
{
	all_bases(x, true, FS_DVFS_5_14); /* 5_0 and 5_14 differ in the state search only */
}

static void bases(struct fs_power_ctx *x)
{
	all_bases(x, false, FS_DVFS_5_14);
}

/*
 * P_pd with the task on dst, a CPU of the PD: only dst's u and r differ from
 * the base, so m is r_dst against the others' top and the busy sum swaps one
 * term.
 */
static inline __attribute__((always_inline)) __u64 pd_with_task_t(const struct fs_power_ctx *x, int pdi, int dst,
								    int *state_out, bool boost,
								    enum fs_power_dvfs dvfs)
{
	const struct fs_em_pd *pd = &x->em->pd[pdi];
	const struct fs_power_pd *b = &x->pd[pdi];
	struct fs_power_pd_const scratch;
	const struct fs_power_pd_const *k = x->lut ? &x->lut->pdc[pdi] : NULL;
	__u64 u, r, m = fs_top2_without(&b->top, dst);

	cpu_terms(x, dst, true, b->cap, boost, dvfs, &u, &r);

	if (r > m)
		m = r;
	if (!k) {
		pd_const(x->em, pdi, &x->opts, &scratch);
		k = &scratch;
	}
	int s = pd_state_of(x, pdi, k, m, u > b->max_u ? u : b->max_u);
	__u64 capf = b->cap * pd->ps[s].frequency;
	/* b->max_u counts dst without the task, never more than u: the max with the task. */
	unsigned __int128 busy = (unsigned __int128)(b->sum_u - x->u[dst] + u) * b->fmax;

	*state_out = s;
	return pd_watts(x->em, pd, s, busy, capf);
}

static __u64 pd_with_task(const struct fs_power_ctx *x, int pdi, int dst, int *state_out)
{
	const bool boost = x->opts.runnable_boost;

	if (x->opts.dvfs == FS_DVFS_6_8)
		return boost ? pd_with_task_t(x, pdi, dst, state_out, true, FS_DVFS_6_8)
			     : pd_with_task_t(x, pdi, dst, state_out, false, FS_DVFS_6_8);
	return boost ? pd_with_task_t(x, pdi, dst, state_out, true, FS_DVFS_5_14)
		     : pd_with_task_t(x, pdi, dst, state_out, false, FS_DVFS_5_14);
}

static void ctx_init(struct fs_power_ctx *x, const struct fs_em *em, const struct fs_wakeup *w,
		     const struct fs_power_opts *o, const struct fs_power_lut *lut)
{
	__u64 ue = w->task.util_est_ewma > w->task.util_est_enqueued ? w->task.util_est_ewma
								     : w->task.util_est_enqueued;
	x->em = em;
	x->lut = lut && lut->em == em ? lut : NULL;
	x->opts = *o;
	x->w = w;
	x->task_util = fs_sync_entity_util_avg(&w->task);
	x->task_ue = ue;
	x->task_est = x->task_util > ue ? x->task_util : ue;
	x->task_run = o->runnable_boost ? fs_sync_entity_runnable_avg(&w->task) : 0;
	x->ue_mask = w->flags & FS_WAKE_UTIL_EST_OFF ? 0 : ~0ull; /* sched_feat(UTIL_EST) */
	/* uclamp_is_used(): the task's and the rqs' clamps bound each request. */
	x->uclamp = o->uclamp && (w->flags & FS_WAKE_UCLAMP_USED);
	x->p_min = w->task.uclamp_min;
	x->p_max = w->task.uclamp_max;
	__u64 online = 0;
	const int n = w->hdr.nr_cpus < FS_MAX_CPUS ? w->hdr.nr_cpus : FS_MAX_CPUS;
	for (int i = 0; i < n; i++)
		online |= (__u64)!!(w->cpu[i].flags & FS_CPU_ONLINE) << i;
	x->online = online;
	if (o->dvfs == FS_DVFS_6_8)
		(o->runnable_boost ? bases_6_8_boost : bases_6_8)(x);
	else
		(o->runnable_boost ? bases_boost : bases)(x);
}

void fs_power_ctx_init(struct fs_power_ctx *x, const struct fs_em *em, const struct fs_wakeup *w)
{
	ctx_init(x, em, w, &fs_power_opts_mainline, NULL);
}

void fs_power_ctx_init_opts(struct fs_power_ctx *x, const struct fs_em *em, const struct fs_wakeup *w,
			    const struct fs_power_opts *o)
{
	ctx_init(x, em, w, o, NULL);
}

void fs_power_ctx_init_lut(struct fs_power_ctx *x, const struct fs_em *em, const struct fs_wakeup *w,
			   const struct fs_power_lut *lut)
{
	ctx_init(x, em, w, lut ? &lut->opts : &fs_power_opts_mainline, lut);
}

/* The PD of cpu when the task can sit there, -1 otherwise (no PD, offline, unusable PD). */
static int pd_of_dst(const struct fs_power_ctx *x, int cpu)
{
	int p = cpu >= 0 && cpu < x->em->nr_cpus && cpu < FS_MAX_CPUS ? x->em->cpu_pd[cpu] : -1;

	return p >= 0 && x->pd[p].usable && (x->pd[p].cpus & (1ull << cpu)) ? p : -1;
}

__u64 fs_power_ctx_at_state(const struct fs_power_ctx *x, int dst_cpu, int *state)
{
	int p = pd_of_dst(x, dst_cpu);

	*state = -1;
	/* Nowhere, or a CPU the task adds nothing on. */
	if (p < 0)
		return x->base_total;
	return x->base_total - x->base_pd[p] + pd_with_task(x, p, dst_cpu, state);
}

__u64 fs_power_ctx_at(const struct fs_power_ctx *x, int dst_cpu)
{
	int state;

	return fs_power_ctx_at_state(x, dst_cpu, &state);
}

int fs_power_ctx_state_at(const struct fs_power_ctx *x, int cpu)
{
	int p = pd_of_dst(x, cpu);

	if (p < 0)
		return -1;
	/* pd_with_task()'s state, without its busy sum */
	const struct fs_power_pd *b = &x->pd[p];
	struct fs_power_pd_const scratch;
	const struct fs_power_pd_const *k = pd_const_of(x, p, &scratch);
	__u64 u, r, m = fs_top2_without(&b->top, cpu);

	cpu_terms(x, cpu, true, b->cap, x->opts.runnable_boost, x->opts.dvfs, &u, &r);
	return pd_state_of(x, p, k, r > m ? r : m, u > b->max_u ? u : b->max_u);
}

void fs_power_ctx_window(const struct fs_power_ctx *x, int cpu, int state, __u64 *num, __u64 *den)
{
	int p = cpu >= 0 && cpu < x->em->nr_cpus && cpu < FS_MAX_CPUS ? x->em->cpu_pd[cpu] : -1;

	*num = *den = 0;
	if (p < 0 || state < 0 || !x->pd[p].usable || !x->task_est)
		return;
	__u64 f = x->em->pd[p].ps[state].frequency;
	__u64 capf = x->pd[p].cap * f, ufmax = x->task_est * x->pd[p].fmax;

	if (ufmax < capf) { /* else the task is busy all the time there: β = 1 */
		*num = capf;
		*den = ufmax;
	}
}

void fs_power_ctx_states(const struct fs_power_ctx *x, int run_cpu, int run_state, int *state)
{
	int run_pd = run_cpu >= 0 && run_cpu < x->em->nr_cpus && run_cpu < FS_MAX_CPUS ? x->em->cpu_pd[run_cpu] : -1;

	for (int d = 0; d < x->em->nr_pd; d++)
		state[d] = d == run_pd && run_state >= 0 ? run_state : x->pd[d].usable ? x->pd[d].state : -1;
}

__u64 fs_system_power_uw(const struct fs_em *em, const struct fs_wakeup *w, int dst_cpu)
{
	struct fs_power_ctx x;

	fs_power_ctx_init(&x, em, w);
	return fs_power_ctx_at(&x, dst_cpu);
}

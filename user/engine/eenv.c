// SPDX-License-Identifier: GPL-2.0
/*
 * The energy_env model of fair.c (v6.0+, Donnefort series): busy time and
 * frequency request per PD, then the era's em_cpu_energy(). v6.0 - v6.7 use
 * effective_cpu_util(cpu, util, type, p); v6.8+ the (*min, *max) form with
 * sugov_effective_cpu_perf(), chosen by ctx->r->eff.
 */
#include "eenv.h"
#include "util.h"

__u64 fs_pd_online_cpus(const struct fs_feec_ctx *c, int pdi, int *first)
{
	__u64 cpus = c->em->pd[pdi].cpus & c->online;

	*first = cpus ? __builtin_ctzll(cpus) : -1;
	return cpus;
}

__u64 fs_eenv_task_busy_time(const struct fs_feec_ctx *c, int prev)
{
	__u64 max_cap = fs_arch_cap(c, prev), irq = c->w->cpu[prev].irq_util;

	if (irq >= max_cap)
		return max_cap;
	return fs_scale_irq_capacity(c->task_util_est, irq, max_cap);
}

/* ENERGY_UTIL of one CPU without p's clamps. */
static __u64 energy_util(const struct fs_feec_ctx *c, int cpu, __u64 util)
{
	if (c->r->eff >= FS_EFF_6_8)
		return fs_effective_cpu_util_v6_8(c, cpu, util, NULL, NULL);
	return fs_effective_cpu_util_old(c, cpu, util, fs_arch_cap(c, cpu), FS_ENERGY_UTIL, false);
}

/* v6.8+: p's clamps join the rq's on dst, then the 1.25 headroom in perf space. */
static __u64 freq_util_v6_8(const struct fs_feec_ctx *c, int cpu, __u64 util, bool on_dst)
{
	__u64 mn, mx;
	__u64 eff = fs_effective_cpu_util_v6_8(c, cpu, util, &mn, &mx);

	if (on_dst && c->uclamp_used) {
		if (c->p_min > mn)
			mn = c->p_min;
		/* No active max clamp on an idle rq: p's own applies. */
		if (c->w->cpu[cpu].flags & FS_CPU_UCLAMP_IDLE)
			mx = c->p_max;
		else if (c->p_max > mx)
			mx = c->p_max;
	}
	return fs_sugov_effective_cpu_perf(eff, mn, mx);
}

/* One CPU's frequency request in eenv_pd_max_util(), p on dst. */
static __u64 freq_request(const struct fs_feec_ctx *c, int cpu, int dst)
{
	/* v6.5+: runnable boosting on this path only. */
	__u64 u = fs_cpu_util_next(c, cpu, dst, c->r->boost_max_util);

	if (c->r->eff >= FS_EFF_6_8)
		return freq_util_v6_8(c, cpu, u, cpu == dst);
	return fs_effective_cpu_util_old(c, cpu, u, fs_arch_cap(c, cpu), FS_FREQUENCY_UTIL, cpu == dst);
}

void fs_eenv_pd_prepare(const struct fs_feec_ctx *c, struct energy_env *e, __u64 cpus)
{
	__u64 busy = 0;
	int cpu;

	e->cpus = cpus;
	fs_top2_init(&e->freq);
	fs_for_each_cpu(cpu, cpus, left) {
		busy += energy_util(c, cpu, fs_cpu_util_next(c, cpu, -1, false));
		fs_top2_add(&e->freq, cpu, freq_request(c, cpu, -1));
	}
	e->pd_busy_time = busy < e->pd_cap ? busy : e->pd_cap;
}

/*
 * eenv_pd_max_util(): the largest request with p on dst, capped at cpu_cap;
 * only dst's own request differs from the prepared ones.
 */
static __u64 eenv_pd_max_util(const struct fs_feec_ctx *c, const struct energy_env *e, int dst)
{
	__u64 max_util = e->freq.v[0];

	if (dst >= 0 && dst < FS_MAX_CPUS && (e->cpus & (1ull << dst))) {
		__u64 f = freq_request(c, dst, dst);

		max_util = fs_top2_without(&e->freq, dst);
		if (f > max_util)
			max_util = f;
	}
	return max_util < e->cpu_cap ? max_util : e->cpu_cap;
}

__u64 fs_compute_energy(const struct fs_feec_ctx *c, const struct energy_env *e, int pdi, int dst)
{
	__u64 max_util = eenv_pd_max_util(c, e, dst);
	__u64 busy = e->pd_busy_time;

	if (dst >= 0) {
		busy += e->task_busy_time;
		if (busy > e->pd_cap)
			busy = e->pd_cap;
	}
	return fs_em_energy(c->r, &c->t->pd[pdi], max_util, busy, e->cpu_cap);
}

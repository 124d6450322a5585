// SPDX-License-Identifier: GPL-2.0
/*
 * schedutil on the simulated machine: one frequency per PD from its CPUs'
 * CFS utilization, the era's headroom, the EM's OPPs and the rate limit.
 */
#include <stdint.h>
#include "sim_internal.h"

__u64 sim_pd_freq(const struct sim *s, int pd)
{
	return s->em->pd[pd].ps[s->pd[pd].opp].frequency;
}

/*
 * The OPPs em_compute_costs() flags inefficient (a faster one costs no more;
 * the EM's own flags when it gave them), which cpufreq skips from v5.16 when
 * the PD has EM_PERF_DOMAIN_SKIP_INEFFICIENCIES. The top one never is.
 */
static __u64 skip_mask(const struct fs_em_pd *pd, bool skip)
{
	const __u64 fmax = pd->ps[pd->nr_ps - 1].frequency;
	__u64 mask = 0, faster = UINT64_MAX;

	if (!skip || !(pd->flags & FS_EM_PD_SKIP_INEFFICIENT))
		return 0;
	for (int i = pd->nr_ps - 1; i >= 0; i--) {
		const struct fs_em_ps *ps = &pd->ps[i];
		const __u64 cost = ps->frequency ? fmax * ps->power / ps->frequency : UINT64_MAX;
		const bool ineff = pd->has_inefficient ? ps->inefficient != 0 : cost >= faster;

		if (ineff && i < pd->nr_ps - 1)
			mask |= 1ull << i;
		else
			faster = cost;
	}
	return mask;
}

void sim_sugov_init(struct sim *s)
{
	for (int i = 0; i < s->em->nr_pd; i++) {
		const struct fs_em_pd *pd = &s->em->pd[i];
		struct sim_pd *p = &s->pd[i];

		p->fmax = pd->ps[pd->nr_ps - 1].frequency;
		p->cap = s->em->capacity[fs_em_pd_first_cpu(pd)];
		p->cpus = pd->cpus;
		p->skip = skip_mask(pd, s->k.skip_inefficient);
		p->opp = pd->nr_ps - 1;
		p->changed_once = false;
	}
}

/*
 * get_next_freq()'s target for the PD's largest utilization u (at most cap):
 * (fmax + fmax/4) u / cap until v5.13, fmax (u + u/4) / cap from v5.14
 * (map_util_perf()), and from v6.8 the headroom capped at the capacity
 * before the mapping (sugov_effective_cpu_perf()).
 */
static __u64 target_freq(const struct sim *s, const struct sim_pd *p, __u64 u)
{
	switch (s->k.dvfs) {
	case FS_DVFS_5_0:
		return (p->fmax + (p->fmax >> 2)) * u / p->cap;
	case FS_DVFS_5_14:
		return p->fmax * (u + (u >> 2)) / p->cap;
	case FS_DVFS_6_8:
	default:
		u += u >> 2;
		return p->fmax * (u < p->cap ? u : p->cap) / p->cap;
	}
}

/* sugov_get_util(): cpu_util_cfs(), max'ed with runnable_avg from v6.5 (cpu_util_cfs_boost()). */
static __u64 sugov_util(const struct sim *s, int cpu)
{
	__u64 u = sim_cpu_util_cfs(s, cpu);

	if (s->k.runnable_boost) {
		__u64 r = sim_cpu_avg_seen(s, cpu)->runnable_avg;

		r = r < s->cpu[cpu].cap ? r : s->cpu[cpu].cap;
		u = r > u ? r : u;
	}
	return u;
}

/*
 * sugov_update_shared() (kernel/sched/cpufreq_schedutil.c, v5.0 - v7.1):
 * the PD's largest utilization, its target frequency resolved to the lowest
 * OPP at or above it (cpufreq_driver_resolve_freq(), RELATION_L; inefficient
 * OPPs skipped as above), no change within the rate limit of the last one
 * (sugov_should_update_freq(); last_freq_update_time moves only when the
 * frequency does). Single-CPU PDs take the same path here: the kernel's
 * sugov_update_single_freq() also holds the frequency of a CPU that did not
 * idle since (sugov_cpu_is_busy()), not modelled (docs).
 */
void sim_sugov_update(struct sim *s, int pd)
{
	struct sim_pd *p = &s->pd[pd];
	const struct fs_em_pd *e = &s->em->pd[pd];
	const __u64 limit = (s->p->pd_rate_limit_set >> pd) & 1 ? s->p->pd_rate_limit_ns[pd] : s->p->sugov_rate_limit_ns;
	__u64 u = 0;
	int opp;

	if (p->changed_once && limit && s->now - p->last_change_ns < limit)
		return;
	for (int cpu = 0; cpu < s->ncpu; cpu++)
		if ((p->cpus >> cpu) & 1) {
			__u64 v = sugov_util(s, cpu);
			u = v > u ? v : u;
		}
	const __u64 want = target_freq(s, p, u);

	for (opp = 0; opp < e->nr_ps - 1; opp++)
		if (e->ps[opp].frequency >= want && !((p->skip >> opp) & 1))
			break;
	if (opp == p->opp)
		return;
	p->opp = opp;
	p->last_change_ns = s->now;
	p->changed_once = true;
}

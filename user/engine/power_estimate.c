// SPDX-License-Identifier: GPL-2.0
/*
 * fs_system_power_uw(): a policy-independent estimate of the CPUs' power
 * with the waking task on dst_cpu, for energy accounting (docs/power-estimate.md).
 *
 * Per CPU i online:   u_i = min(cap_i, cfs_i + rt_i + dl_i + irq_i)
 *   where cfs_i = util_avg_i - task_util (i == task_cpu, saturating) + task_util_est (i == dst)
 * Per PD:             m = max u_i; state = lowest with f >= fmax * (m + m/4) / cap, else the top
 *                     busy_i = min(u_i * fmax, cap * f)              (u_i / capacity at f, <= 1)
 *                     P_pd = P_uW(state) * sum(busy_i) / (cap * f)   (floor)
 * Result:             sum over PDs of P_pd.
 * task_util / task_util_est are taken after the PELT sync, with the MSB flag rule.
 *
 * A placement only changes the PD of dst (task_cpu's PD has the task removed
 * whatever dst is), so fs_power_ctx computes every PD once without the task
 * and then one PD per asked-for dst: same sums, same per-PD floors.
 */
#include "feec_ctx.h"
#include "pelt.h"
#include "power_estimate.h"

static __u64 power_uw(const struct fs_em *em, const struct fs_em_ps *ps)
{
	return em->unit == FS_POWER_MW ? ps->power * 1000 : ps->power;
}

/* P_pd with the task on dst_cpu (-1 or a CPU outside the PD: not in it). */
static __u64 pd_power(const struct fs_power_ctx *x, int pdi, int dst_cpu)
{
	const struct fs_em *em = x->em;
	const struct fs_wakeup *w = x->w;
	const struct fs_em_pd *pd = &em->pd[pdi];
	int first = fs_em_pd_first_cpu(pd);
	__u64 u[FS_MAX_CPUS], m = 0;
	__u64 cpus = pd->cpus & x->online;

	if (pd->nr_ps <= 0 || first < 0 || first >= FS_MAX_CPUS || !em->capacity[first] || !cpus)
		return 0;
	__u64 cap = em->capacity[first];
	for (__u64 left = cpus; left; left &= left - 1) {
		int i = __builtin_ctzll(left);
		const struct fs_cpu *c = &w->cpu[i];
		__u64 cfs = c->util_avg;
		if (i == w->task_cpu)
			cfs = cfs > x->task_util ? cfs - x->task_util : 0;
		if (i == dst_cpu)
			cfs += x->task_est;
		__u64 v = cfs + c->rt_util + c->dl_util + c->irq_util;
		u[i] = v < cap ? v : cap;
		if (u[i] > m)
			m = u[i];
	}
	__u64 fmax = pd->ps[pd->nr_ps - 1].frequency;
	__u64 want = fmax * (m + (m >> 2)) / cap;
	int s;
	for (s = 0; s < pd->nr_ps - 1; s++)
		if (pd->ps[s].frequency >= want)
			break;
	__u64 f = pd->ps[s].frequency;
	if (!f)
		return 0;
	unsigned __int128 busy = 0;
	for (__u64 left = cpus; left; left &= left - 1) {
		int i = __builtin_ctzll(left);
		__u64 b = u[i] * fmax;
		busy += b < cap * f ? b : cap * f;
	}
	__u64 pw = power_uw(em, &pd->ps[s]);
	/* Same floor either way; the 64-bit division is the common, cheap case. */
	if (busy <= UINT64_MAX && (!pw || (__u64)busy <= UINT64_MAX / pw))
		return pw * (__u64)busy / (cap * f);
	return (__u64)((unsigned __int128)pw * busy / ((unsigned __int128)cap * f));
}

void fs_power_ctx_init(struct fs_power_ctx *x, const struct fs_em *em, const struct fs_wakeup *w)
{
	__u64 ue = w->task.util_est_ewma > w->task.util_est_enqueued ? w->task.util_est_ewma
								     : w->task.util_est_enqueued;
	x->em = em;
	x->w = w;
	x->task_util = fs_sync_entity_util_avg(&w->task);
	x->task_est = x->task_util > ue ? x->task_util : ue;
	x->online = 0;
	for (int i = 0; i < w->hdr.nr_cpus && i < FS_MAX_CPUS; i++)
		if (w->cpu[i].flags & FS_CPU_ONLINE)
			x->online |= 1ull << i;
	x->base_total = 0;
	for (int p = 0; p < em->nr_pd; p++) {
		x->base_pd[p] = pd_power(x, p, -1);
		x->base_total += x->base_pd[p];
	}
}

__u64 fs_power_ctx_at(const struct fs_power_ctx *x, int dst_cpu)
{
	if (dst_cpu < 0 || dst_cpu >= FS_MAX_CPUS || dst_cpu >= x->em->nr_cpus)
		return x->base_total;
	int p = x->em->cpu_pd[dst_cpu];
	if (p < 0)
		return x->base_total;
	return x->base_total - x->base_pd[p] + pd_power(x, p, dst_cpu);
}

__u64 fs_system_power_uw(const struct fs_em *em, const struct fs_wakeup *w, int dst_cpu)
{
	struct fs_power_ctx x;

	fs_power_ctx_init(&x, em, w);
	return fs_power_ctx_at(&x, dst_cpu);
}

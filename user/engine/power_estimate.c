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
 */
#include "feec_ctx.h"
#include "pelt.h"

static __u64 power_uw(const struct fs_em *em, const struct fs_em_ps *ps)
{
	return em->unit == FS_POWER_MW ? ps->power * 1000 : ps->power;
}

__u64 fs_system_power_uw(const struct fs_em *em, const struct fs_wakeup *w, int dst_cpu)
{
	__u64 task_util = fs_sync_entity_util_avg(&w->task);
	__u64 ue = w->task.util_est_ewma > w->task.util_est_enqueued ? w->task.util_est_ewma
								     : w->task.util_est_enqueued;
	__u64 task_est = task_util > ue ? task_util : ue;
	unsigned __int128 total = 0;

	for (int p = 0; p < em->nr_pd; p++) {
		const struct fs_em_pd *pd = &em->pd[p];
		int first = fs_em_pd_first_cpu(pd);
		__u64 u[FS_MAX_CPUS], m = 0;
		bool any = false;

		if (pd->nr_ps <= 0 || first < 0 || first >= FS_MAX_CPUS || !em->capacity[first])
			continue;
		__u64 cap = em->capacity[first];
		for (int i = 0; i < FS_MAX_CPUS; i++) {
			u[i] = 0;
			if (!(pd->cpus & (1ull << i)) || i >= w->hdr.nr_cpus || !(w->cpu[i].flags & FS_CPU_ONLINE))
				continue;
			const struct fs_cpu *c = &w->cpu[i];
			__u64 cfs = c->util_avg;
			if (i == w->task_cpu)
				cfs = cfs > task_util ? cfs - task_util : 0;
			if (i == dst_cpu)
				cfs += task_est;
			__u64 v = cfs + c->rt_util + c->dl_util + c->irq_util;
			u[i] = v < cap ? v : cap;
			if (u[i] > m)
				m = u[i];
			any = true;
		}
		if (!any)
			continue;
		__u64 fmax = pd->ps[pd->nr_ps - 1].frequency;
		__u64 want = fmax * (m + (m >> 2)) / cap;
		int s;
		for (s = 0; s < pd->nr_ps - 1; s++)
			if (pd->ps[s].frequency >= want)
				break;
		__u64 f = pd->ps[s].frequency;
		unsigned __int128 busy = 0;
		for (int i = 0; i < FS_MAX_CPUS; i++) {
			__u64 b = u[i] * fmax;
			busy += b < cap * f ? b : cap * f;
		}
		if (f)
			total += (unsigned __int128)power_uw(em, &pd->ps[s]) * busy / ((unsigned __int128)cap * f);
	}
	return (__u64)total;
}

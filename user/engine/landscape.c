// SPDX-License-Identifier: GPL-2.0
/* emulate_eas: what feec would have seen had this EM been the kernel's (docs/accounting.md). */
#include <stdio.h>
#include <string.h>
#include "landscape.h"
#include "rules.h"

__u32 fs_cpu_util_cfs(const struct fs_cpu *c, bool util_est_on)
{
	__u32 util = c->util_avg;
	if (util_est_on && c->util_est > util)
		util = c->util_est;
	return util < c->capacity_orig ? util : c->capacity_orig;
}

bool fs_landscape_overutilized(const struct fs_wakeup *w)
{
	bool ue = !(w->flags & FS_WAKE_UTIL_EST_OFF);
	for (int cpu = 0; cpu < w->hdr.nr_cpus; cpu++) {
		const struct fs_cpu *c = &w->cpu[cpu];
		if (!(c->flags & FS_CPU_ONLINE))
			continue;
		if (!fs_fits_capacity(fs_cpu_util_cfs(c, ue), c->capacity))
			return true;
	}
	return false;
}

/* EAS needs asymmetric CPU capacities: without them the kernel builds no perf domains (v5.0+). */
static bool em_asymmetric(const struct fs_em *em)
{
	for (int cpu = 1; cpu < em->nr_cpus; cpu++)
		if (em->capacity[cpu] != em->capacity[0])
			return true;
	return false;
}

int fs_landscape_apply(const struct fs_em *em, const struct fs_wakeup *in, bool emulate,
		       bool rd_overutilized, struct fs_wakeup *out, char *err, size_t errlen)
{
	/* Only the wire prefix: out's cpu[] beyond nr_cpus is the caller's (the pipeline zeroes it once). */
	if (out != in)
		memcpy(out, in, fs_wakeup_size(in->hdr.nr_cpus < FS_MAX_CPUS ? in->hdr.nr_cpus : FS_MAX_CPUS));
	if (in->hdr.nr_cpus != em->nr_cpus) {
		snprintf(err, errlen, "the EM has %d CPUs but the recording has %u", em->nr_cpus, in->hdr.nr_cpus);
		return -1;
	}
	if (!emulate) {
		/* Collector could not read rd: the last sched_overutilized state stands in for it. */
		if (in->flags & FS_WAKE_EAS_UNKNOWN) {
			out->flags &= ~FS_WAKE_OVERUTILIZED;
			if (rd_overutilized)
				out->flags |= FS_WAKE_OVERUTILIZED;
		}
		return 0;
	}
	for (int cpu = 0; cpu < em->nr_cpus; cpu++) {
		struct fs_cpu *c = &out->cpu[cpu];
		__u32 em_cap = em->capacity[cpu];
		/* capacity_of keeps the recorded share of capacity_orig left after RT/DL/IRQ/thermal. */
		if (c->capacity_orig)
			c->capacity = (__u32)((__u64)c->capacity * em_cap / c->capacity_orig);
		else
			c->capacity = em_cap;
		if (!c->capacity)
			c->capacity = 1; /* update_cpu_capacity() never lets capacity_of reach 0 */
		c->capacity_orig = em_cap;
		c->flags &= ~FS_CPU_IN_SD;
		if ((c->flags & FS_CPU_ONLINE) && em->cpu_pd[cpu] >= 0)
			c->flags |= FS_CPU_IN_SD;
	}
	bool eas = em->nr_pd > 0 && em_asymmetric(em);
	out->flags &= ~(FS_WAKE_NO_PD | FS_WAKE_NO_ASYM | FS_WAKE_OVERUTILIZED | FS_WAKE_EAS_UNKNOWN);
	if (!eas)
		out->flags |= FS_WAKE_NO_PD | FS_WAKE_NO_ASYM;
	if (fs_landscape_overutilized(out))
		out->flags |= FS_WAKE_OVERUTILIZED;
	out->flags |= FS_WAKE_OU_EMULATED;
	return 0;
}

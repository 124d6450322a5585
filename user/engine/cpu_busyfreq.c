// SPDX-License-Identifier: GPL-2.0
/*
 * The busyfreq records' part of the CPU energy (cpu_energy.h): each CPU's
 * busy time at each EM state between its first and latest record.
 */
#include <stdio.h>
#include <string.h>
#include "cpu_energy.h"

int fs_cpu_energy_busyfreq(struct fs_cpu_energy *ce, const struct fs_busyfreq *bf, char *why, size_t whylen)
{
	__u64 ns[FS_MAX_PS + 1] = { 0 };

	if (bf->cpu < 0 || bf->cpu >= ce->nr_cpus || bf->nr > FS_MAX_FREQS) {
		snprintf(why, whylen, "busyfreq of CPU %d with %u frequencies (CPUs 0..%d, at most %d)",
			 bf->cpu, bf->nr, ce->nr_cpus - 1, FS_MAX_FREQS);
		return -1;
	}
	int p = ce->em->cpu_pd[bf->cpu];

	if (p < 0)
		return 0; /* a CPU without a PD draws nothing in the model */
	const struct fs_em_pd *pd = &ce->em->pd[p];

	ns[FS_MAX_PS] = bf->unknown_ns;
	for (__u32 i = 0; i < bf->nr; i++) {
		int s = 0;

		while (s < pd->nr_ps && pd->ps[s].frequency != bf->st[i].khz)
			s++;
		ns[s < pd->nr_ps ? s : FS_MAX_PS] += bf->st[i].ns; /* a frequency the EM lacks: unknown */
	}
	if (!ce->nr_busyfreq[bf->cpu]++)
		memcpy(ce->bf_first[bf->cpu], ns, sizeof(ns));
	memcpy(ce->bf_last[bf->cpu], ns, sizeof(ns));
	return 0;
}

bool fs_cpu_energy_bf_delta(const struct fs_cpu_energy *ce, int cpu, __u64 *ns)
{
	if (ce->nr_busyfreq[cpu] < 2)
		return false;
	for (int s = 0; s <= FS_MAX_PS; s++)
		ns[s] = ce->bf_last[cpu][s] >= ce->bf_first[cpu][s] ? ce->bf_last[cpu][s] - ce->bf_first[cpu][s] : 0;
	return true;
}

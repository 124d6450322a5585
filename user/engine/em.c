// SPDX-License-Identifier: GPL-2.0
/* fs_em_finalize: the invariants every EM must meet before the engine uses it. */
#include <stdio.h>
#include <string.h>
#include "em.h"

#define ERR(...) (snprintf(err, errlen, __VA_ARGS__), -1)

static void sort_pds_by_first_cpu(struct fs_em *em)
{
	/* Insertion sort: at most FS_MAX_PDS entries, and usually already sorted. */
	for (int i = 1; i < em->nr_pd; i++) {
		struct fs_em_pd tmp = em->pd[i];
		int first = fs_em_pd_first_cpu(&tmp), j = i - 1;

		while (j >= 0 && fs_em_pd_first_cpu(&em->pd[j]) > first) {
			em->pd[j + 1] = em->pd[j];
			j--;
		}
		em->pd[j + 1] = tmp;
	}
}

static int check_pd(const struct fs_em_pd *pd, char *err, size_t errlen)
{
	if (pd->nr_ps <= 0)
		return ERR("pd %s: no performance states", pd->name);
	if (pd->nr_ps > FS_MAX_PS)
		return ERR("pd %s: %d performance states, more than FS_MAX_PS (%d)", pd->name,
			   pd->nr_ps, FS_MAX_PS);
	if (!pd->cpus)
		return ERR("pd %s: cpus: empty CPU mask", pd->name);
	if (pd->cpus >> FS_MAX_CPUS)
		return ERR("pd %s: cpus: CPU %d is beyond FS_MAX_CPUS (%d)", pd->name,
			   63 - __builtin_clzll(pd->cpus), FS_MAX_CPUS);
	for (int i = 0; i < pd->nr_ps; i++) {
		const struct fs_em_ps *ps = &pd->ps[i];

		if (!ps->frequency)
			return ERR("pd %s: state %d: frequency is 0", pd->name, i);
		if (i && ps->frequency <= pd->ps[i - 1].frequency)
			return ERR("pd %s: state %d: frequency %llu kHz is not above the previous state's %llu kHz",
				   pd->name, i, (unsigned long long)ps->frequency,
				   (unsigned long long)pd->ps[i - 1].frequency);
		/* em_create_perf_table() refuses a zero power (all versions). */
		if (!ps->power)
			return ERR("pd %s: state %llu kHz: power is 0", pd->name,
				   (unsigned long long)ps->frequency);
		if (ps->inefficient > 1)
			return ERR("pd %s: state %llu kHz: inefficient is %u, not 0 or 1", pd->name,
				   (unsigned long long)ps->frequency, ps->inefficient);
	}
	return 0;
}

int fs_em_finalize(struct fs_em *em, char *err, size_t errlen)
{
	__u64 seen = 0;

	if (em->nr_pd <= 0)
		return ERR("energy model: no CPU performance domains");
	if (em->nr_pd > FS_MAX_PDS)
		return ERR("energy model: %d performance domains, more than FS_MAX_PDS (%d)",
			   em->nr_pd, FS_MAX_PDS);
	if (em->unit != FS_POWER_UW && em->unit != FS_POWER_MW && em->unit != FS_POWER_BOGO)
		return ERR("energy model: unknown power unit %d", (int)em->unit);
	for (int i = 0; i < em->nr_pd; i++) {
		struct fs_em_pd *pd = &em->pd[i];

		if (check_pd(pd, err, errlen))
			return -1;
		if (pd->cpus & seen) {
			int cpu = __builtin_ctzll(pd->cpus & seen);
			return ERR("pd %s: cpus: CPU %d is already in another performance domain",
				   pd->name, cpu);
		}
		seen |= pd->cpus;
	}
	sort_pds_by_first_cpu(em);

	em->nr_cpus = 64 - __builtin_clzll(seen);
	for (int cpu = 0; cpu < FS_MAX_CPUS; cpu++)
		em->cpu_pd[cpu] = -1;
	for (int i = 0; i < em->nr_pd; i++)
		for (int cpu = 0; cpu < em->nr_cpus; cpu++)
			if (em->pd[i].cpus & (1ull << cpu))
				em->cpu_pd[cpu] = (__s8)i;
	for (int cpu = 0; cpu < em->nr_cpus; cpu++) {
		if (em->cpu_pd[cpu] < 0)
			continue;
		if (!em->capacity[cpu])
			return ERR("cpu%d: cpu_capacity: missing (0) for a CPU of pd %s", cpu,
				   em->pd[em->cpu_pd[cpu]].name);
		if (em->capacity[cpu] > FS_SCHED_CAPACITY_SCALE)
			return ERR("cpu%d: cpu_capacity: %u is above SCHED_CAPACITY_SCALE (%d)", cpu,
				   em->capacity[cpu], FS_SCHED_CAPACITY_SCALE);
	}
	return 0;
}

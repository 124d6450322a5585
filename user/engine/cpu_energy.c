// SPDX-License-Identifier: GPL-2.0
/* Total CPU active energy from busy time and frequency residency (cpu_energy.h). */
#include <stdio.h>
#include <string.h>
#include "cpu_energy.h"

void fs_cpu_energy_init(struct fs_cpu_energy *ce, const struct fs_em *em)
{
	memset(ce, 0, sizeof(*ce));
	ce->em = em;
	ce->nr_cpus = em->nr_cpus;
	for (int p = 0; p < FS_MAX_PDS; p++)
		ce->sample_state[p] = -1;
}

int fs_cpu_energy_cpustat(struct fs_cpu_energy *ce, const struct fs_cpustat *cs, char *why, size_t whylen)
{
	if ((int)cs->nr_cpus != ce->nr_cpus) {
		snprintf(why, whylen, "cpustat of %u CPUs, the EM has %d", cs->nr_cpus, ce->nr_cpus);
		return -1;
	}
	if (cs->source != FS_CPUSTAT_SCHEDSTAT && cs->source != FS_CPUSTAT_PROC_STAT) {
		snprintf(why, whylen, "cpustat source %u is not schedstat (1) or proc_stat (2)", cs->source);
		return -1;
	}
	if (ce->nr_cpustat && cs->source != ce->busy_src) {
		snprintf(why, whylen, "cpustat source changed from %u to %u", ce->busy_src, cs->source);
		return -1;
	}
	if (!ce->nr_cpustat++) {
		ce->busy_src = cs->source;
		memcpy(ce->busy_first, cs->busy_ns, sizeof(ce->busy_first));
	}
	memcpy(ce->busy_last, cs->busy_ns, sizeof(ce->busy_last));
	return 0;
}

/* EM state of PD pd at exactly khz, -1 if none. */
static int state_of(const struct fs_em_pd *pd, __u32 khz)
{
	for (int s = 0; s < pd->nr_ps; s++)
		if (pd->ps[s].frequency == khz)
			return s;
	return -1;
}

int fs_cpu_energy_freqstat(struct fs_cpu_energy *ce, const struct fs_freqstat *fq, char *why, size_t whylen)
{
	if (fq->cpu < 0 || fq->cpu >= ce->nr_cpus || fq->nr > FS_MAX_FREQS) {
		snprintf(why, whylen, "freqstat of CPU %d with %u frequencies (CPUs 0..%d, at most %d)",
			 fq->cpu, fq->nr, ce->nr_cpus - 1, FS_MAX_FREQS);
		return -1;
	}
	int pdi = ce->em->cpu_pd[fq->cpu];

	if (pdi < 0)
		return 0; /* a CPU without a PD draws nothing in the model */
	const struct fs_em_pd *pd = &ce->em->pd[pdi];
	__u64 tis[FS_MAX_PS] = { 0 };

	for (__u32 i = 0; i < fq->nr; i++) {
		int s = state_of(pd, fq->st[i].khz);

		if (s < 0) {
			if (fq->st[i].ns)
				ce->freq_unusable[pdi] = true; /* time at a frequency the EM lacks */
			continue;
		}
		tis[s] = fq->st[i].ns;
	}
	if (!ce->nr_freqstat[pdi]++)
		memcpy(ce->tis_first[pdi], tis, sizeof(tis));
	memcpy(ce->tis_last[pdi], tis, sizeof(tis));
	return 0;
}

void fs_cpu_energy_sample(struct fs_cpu_energy *ce, __u64 ts, const int *state)
{
	for (int p = 0; p < ce->em->nr_pd; p++)
		fs_cpu_energy_sample_pd(ce, p, ts, state[p]);
}

void fs_cpu_energy_close(struct fs_cpu_energy *ce, __u64 ts)
{
	for (int p = 0; p < ce->em->nr_pd; p++)
		fs_cpu_energy_sample_pd(ce, p, ts, -1);
}

static __u64 power_uw(const struct fs_em *em, const struct fs_em_ps *ps)
{
	return em->unit == FS_POWER_MW ? ps->power * 1000 : ps->power;
}

/* Residency-weighted EM power of PD p from ns[] per state; 0 if no time at all. */
static __u64 mean_power(const struct fs_em *em, int p, const __u64 *ns)
{
	unsigned __int128 e = 0, t = 0;

	for (int s = 0; s < em->pd[p].nr_ps; s++) {
		e += (unsigned __int128)ns[s] * power_uw(em, &em->pd[p].ps[s]);
		t += ns[s];
	}
	return t ? (__u64)(e / t) : 0;
}

/* PD p's residency from time_in_state, if usable: deltas of the first and latest freqstat. */
static bool tis_residency(const struct fs_cpu_energy *ce, int p, __u64 *ns)
{
	if (ce->nr_freqstat[p] < 2 || ce->freq_unusable[p])
		return false;
	__u64 any = 0;

	for (int s = 0; s < ce->em->pd[p].nr_ps; s++) {
		ns[s] = ce->tis_last[p][s] >= ce->tis_first[p][s] ? ce->tis_last[p][s] - ce->tis_first[p][s] : 0;
		any |= ns[s];
	}
	return any != 0;
}

void fs_cpu_energy_result(const struct fs_cpu_energy *ce, const __u64 *run_cpu_ns,
			  struct fs_cpu_energy_result *out)
{
	const struct fs_em *em = ce->em;
	int tis_pds = 0, sample_pds = 0;

	memset(out, 0, sizeof(*out));
	if (ce->nr_cpustat >= 2) {
		out->busy_src = ce->busy_src == FS_CPUSTAT_SCHEDSTAT ? FS_BUSY_SCHEDSTAT : FS_BUSY_PROC_STAT;
		/* A CPU was busy at least while the observed tasks ran there:
		 * /proc/stat's ticks can miss short runs entirely (an idle x86 VM
		 * read 0 busy ticks in 5 s of live). */
		for (int c = 0; c < ce->nr_cpus; c++) {
			__u64 d = ce->busy_last[c] >= ce->busy_first[c] ? ce->busy_last[c] - ce->busy_first[c] : 0;

			out->busy_ns[c] = d >= run_cpu_ns[c] ? d : run_cpu_ns[c];
			out->busy_floored += d < run_cpu_ns[c];
		}
	} else {
		out->busy_src = FS_BUSY_TASK_RUNTIME;
		for (int c = 0; c < ce->nr_cpus; c++)
			out->busy_ns[c] = run_cpu_ns[c];
	}
	for (int p = 0; p < em->nr_pd; p++) {
		__u64 ns[FS_MAX_PS];

		if (tis_residency(ce, p, ns)) {
			out->mean_power_uw[p] = mean_power(em, p, ns);
			tis_pds++;
		} else {
			out->mean_power_uw[p] = mean_power(em, p, ce->sample_ns[p]);
			sample_pds += out->mean_power_uw[p] != 0;
		}
	}
	out->freq_src = tis_pds && sample_pds ? FS_FREQ_MIXED : tis_pds ? FS_FREQ_TIME_IN_STATE :
			sample_pds ? FS_FREQ_UTIL_SAMPLES : FS_FREQ_NONE;
	for (int c = 0; c < ce->nr_cpus; c++) {
		int p = em->cpu_pd[c];

		if (p >= 0)
			out->total_fj += (fs_fj_t)out->busy_ns[c] * (fs_fj_t)out->mean_power_uw[p];
	}
}

const char *fs_busy_source_name(enum fs_busy_source s)
{
	static const char *const n[] = { "none", "schedstat", "proc_stat", "task CPU time" };

	return (unsigned)s < 4 ? n[s] : "?";
}

const char *fs_freq_source_name(enum fs_freq_source s)
{
	static const char *const n[] = { "none", "time_in_state", "util samples", "time_in_state+util samples" };

	return (unsigned)s < 4 ? n[s] : "?";
}

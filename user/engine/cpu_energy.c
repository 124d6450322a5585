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

/* The kept step of PD p in force at ts: the last one at or before it, else the oldest kept. */
static __u64 step_at(const struct fs_cpu_energy *ce, int p, __u64 ts)
{
	__u64 n = ce->hist_n[p], lo = n > FS_CE_HIST ? n - FS_CE_HIST : 0, hi = n - 1;

	while (lo < hi) { /* steps are in time order: the last with .ts <= ts */
		__u64 mid = lo + (hi - lo + 1) / 2;

		if (ce->hist[p][mid % FS_CE_HIST].ts <= ts)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

void fs_cpu_energy_busy(struct fs_cpu_energy *ce, int cpu, __u64 from, __u64 busy_ns)
{
	if (cpu < 0 || cpu >= ce->nr_cpus || !busy_ns)
		return;
	ce->task_ns[cpu] += busy_ns;
	int p = ce->em->cpu_pd[cpu];

	if (p < 0 || !ce->hist_n[p])
		return;
	__u64 to = from + busy_ns;

	for (__u64 i = step_at(ce, p, from); i < ce->hist_n[p]; i++) {
		const struct fs_ce_step *s = &ce->hist[p][i % FS_CE_HIST];
		__u64 a = s->ts > from ? s->ts : from;
		__u64 b = i + 1 < ce->hist_n[p] ? ce->hist[p][(i + 1) % FS_CE_HIST].ts : to;

		if (b > to)
			b = to;
		if (b > a && s->state >= 0)
			ce->busy_state_ns[p][s->state] += b - a;
		if (b >= to)
			break;
	}
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

/*
 * PD p's residency at busy time, false without busy-weighted util samples. With
 * time_in_state (tis, its wall-time residency in ns[]): each state's measured time
 * scaled by the share of busy time the util samples had at that state (their busy
 * time over their wall time there; the PD's overall share where they never sat
 * there), so the frequencies stay the measured ones but idle time drops out.
 * Without it: the util samples' busy time at each state.
 */
static bool busy_residency(const struct fs_cpu_energy *ce, int p, bool tis, __u64 *ns)
{
	const __u64 *b = ce->busy_state_ns[p], *w = ce->sample_ns[p];
	double bs = 0, ws = 0;
	int nr = ce->em->pd[p].nr_ps;

	for (int s = 0; s < nr; s++) {
		bs += (double)b[s];
		ws += (double)w[s];
	}
	if (bs == 0)
		return false;
	for (int s = 0; s < nr; s++)
		ns[s] = !tis ? b[s] : (__u64)((double)ns[s] * (w[s] ? (double)b[s] / (double)w[s] : bs / ws));
	return true;
}

/* Per CPU: cpustat's busy time, never below the observed tasks' CPU time there. */
static void busy_times(const struct fs_cpu_energy *ce, const __u64 *run_cpu_ns, struct fs_cpu_energy_result *out)
{
	for (int c = 0; c < ce->nr_cpus; c++) {
		__u64 run = run_cpu_ns[c] > ce->task_ns[c] ? run_cpu_ns[c] : ce->task_ns[c];
		__u64 d = ce->busy_last[c] >= ce->busy_first[c] ? ce->busy_last[c] - ce->busy_first[c] : 0;

		if (ce->nr_cpustat < 2) {
			out->busy_ns[c] = run;
			continue;
		}
		/* /proc/stat's ticks miss short runs (an idle x86 VM read 0 busy ticks in 5 s
		 * of live) and, in the A/B lab's guests, about a tenth of busy time */
		out->busy_ns[c] = d >= run ? d : run;
		out->busy_floored += d < run;
	}
	out->busy_src = ce->nr_cpustat < 2 ? FS_BUSY_TASK_RUNTIME :
			ce->busy_src == FS_CPUSTAT_SCHEDSTAT ? FS_BUSY_SCHEDSTAT : FS_BUSY_PROC_STAT;
}

/* Did every CPU with a PD send two busyfreq records (the collector ran them all along)? */
static bool bf_complete(const struct fs_cpu_energy *ce)
{
	bool any = false;

	for (int c = 0; c < ce->nr_cpus; c++) {
		if (ce->em->cpu_pd[c] < 0)
			continue;
		if (ce->nr_busyfreq[c] < 2)
			return false;
		any = true;
	}
	return any;
}

/*
 * The A/B meter's definition where busyfreq records cover every CPU (tests/ab/meter.py):
 * Σ_cpu Σ_s busy_ns(cpu, s) × P(s). Busy time at no known state is priced at the PD's
 * power as found without them (out->mean_power_uw on entry). Not raised to the tasks' CPU
 * time, as the other busy sources are: these spans are every switch into and out of each
 * CPU's idle task, while a task's CPU time between two of its records is counted from
 * before the first busyfreq read and goes to the CPU it was placed on (a lab 2+2 light run
 * with every span recorded: floored per CPU 3.8 % over the meter, as a whole 1.6 %).
 */
static void bf_result(const struct fs_cpu_energy *ce, struct fs_cpu_energy_result *out)
{
	const struct fs_em *em = ce->em;
	fs_fj_t pd_fj[FS_MAX_PDS] = { 0 };
	__u64 pd_ns[FS_MAX_PDS] = { 0 }, known = 0;

	out->total_fj = 0;
	out->busy_floored = 0;
	for (int c = 0; c < ce->nr_cpus; c++) {
		__u64 ns[FS_MAX_PS + 1], busy = 0;
		int p = em->cpu_pd[c];
		fs_fj_t fj;

		if (p < 0 || !fs_cpu_energy_bf_delta(ce, c, ns))
			continue;
		fj = (fs_fj_t)ns[FS_MAX_PS] * (fs_fj_t)out->mean_power_uw[p];
		busy = ns[FS_MAX_PS];
		for (int s = 0; s < em->pd[p].nr_ps; s++) {
			fj += (fs_fj_t)ns[s] * (fs_fj_t)power_uw(em, &em->pd[p].ps[s]);
			busy += ns[s];
			known += ns[s];
		}
		out->unknown_freq_ns += ns[FS_MAX_PS];
		out->busy_ns[c] = busy;
		pd_fj[p] += fj;
		pd_ns[p] += busy;
		out->total_fj += fj;
	}
	for (int p = 0; p < em->nr_pd; p++)
		if (pd_ns[p])
			out->mean_power_uw[p] = (__u64)(pd_fj[p] / pd_ns[p]);
	out->busy_src = FS_BUSY_SWITCH;
	if (known) /* else every busy ns at an unknown frequency (no cpufreq): the residency stands */
		out->freq_src = out->unknown_freq_ns ? FS_FREQ_BUSY_AT_FREQ_MIXED : FS_FREQ_BUSY_AT_FREQ;
}

void fs_cpu_energy_result(const struct fs_cpu_energy *ce, const __u64 *run_cpu_ns,
			  struct fs_cpu_energy_result *out)
{
	const struct fs_em *em = ce->em;
	bool by_tis = false, by_samples = false, at_busy = false; /* over the PDs that ran */

	memset(out, 0, sizeof(*out));
	busy_times(ce, run_cpu_ns, out);
	for (int p = 0; p < em->nr_pd; p++) {
		__u64 ns[FS_MAX_PS];
		bool tis = tis_residency(ce, p, ns), busy = false, scaled = false;

		out->wall_power_uw[p] = mean_power(em, p, tis ? ns : ce->sample_ns[p]);
		out->mean_power_uw[p] = out->wall_power_uw[p];
		if (busy_residency(ce, p, tis, ns)) {
			out->mean_power_uw[p] = mean_power(em, p, ns);
			scaled = true;
		}
		for (int c = 0; c < ce->nr_cpus; c++)
			busy |= em->cpu_pd[c] == p && out->busy_ns[c];
		if (!busy || !out->mean_power_uw[p]) /* a PD that ran nothing: its source does not matter */
			continue;
		by_tis |= tis;
		by_samples |= !tis;
		at_busy |= scaled;
	}
	out->freq_src = by_tis && by_samples ? FS_FREQ_MIXED :
			by_tis ? (at_busy ? FS_FREQ_TIS_BUSY : FS_FREQ_TIME_IN_STATE) :
			by_samples ? (at_busy ? FS_FREQ_BUSY_SAMPLES : FS_FREQ_UTIL_SAMPLES) : FS_FREQ_NONE;
	for (int c = 0; c < ce->nr_cpus; c++) {
		int p = em->cpu_pd[c];

		if (p < 0)
			continue;
		out->total_fj += (fs_fj_t)out->busy_ns[c] * (fs_fj_t)out->mean_power_uw[p];
		out->wall_total_fj += (fs_fj_t)out->busy_ns[c] * (fs_fj_t)out->wall_power_uw[p];
	}
	if (bf_complete(ce))
		bf_result(ce, out);
}

const char *fs_busy_source_name(enum fs_busy_source s)
{
	static const char *const n[] = { "none", "schedstat", "proc_stat", "task CPU time", "sched_switch" };

	return (unsigned)s < 5 ? n[s] : "?";
}

const char *fs_freq_source_name(enum fs_freq_source s)
{
	static const char *const n[] = { "none", "time_in_state", "util samples", "time_in_state+util samples",
					 "util samples at busy time", "time_in_state at busy time",
					 "cpu_frequency at busy time", "cpu_frequency at busy time+util samples" };

	return (unsigned)s < 8 ? n[s] : "?";
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPUs' active energy over the observation, the denominator of "% of CPU
 * energy" (docs/accounting.md): each CPU's busy time times the EM power of
 * its PD's frequency residency,
 *
 *     E = Σ_cpu busy_cpu × Σ_s share_pd(s) × P(s)
 *
 * Busy time: the difference between the first and last cpustat records
 * (/proc/schedstat, else /proc/stat), never less than the CPU time the
 * observed tasks ran there; without cpustat, that CPU time. Residency: cpufreq's time_in_state between the first and last
 * freqstat records where every frequency is one of the PD's EM states, else
 * the states fs_system_power_uw() picks (schedutil's 1.25 headroom) at each
 * wake-up, weighted by the time to the next one. Where placements' CPU time is
 * known, the residency is those states weighted by the busy time at each
 * (fs_cpu_energy_busy), not wall time: busy periods run at higher OPPs than
 * idle ones, which time_in_state counts at whatever OPP the policy sat (the A/B
 * lab measured time_in_state's figure at 38 - 114 % of the meter's, issue 30;
 * docs/validation.md has the busy-weighted one). The same EM power × busy
 * time as the energy differences, so their ratio compares like with like.
 */
#ifndef FEECSCOPE_CPU_ENERGY_H
#define FEECSCOPE_CPU_ENERGY_H

#include "em.h"
#include "fj.h"

enum fs_busy_source {
	FS_BUSY_NONE = 0,        /* nothing to measure busy time with */
	FS_BUSY_SCHEDSTAT,       /* /proc/schedstat deltas */
	FS_BUSY_PROC_STAT,       /* /proc/stat deltas (USER_HZ ticks) */
	FS_BUSY_TASK_RUNTIME,    /* sum of the observed tasks' CPU time (a lower bound) */
	FS_BUSY_SWITCH,          /* busyfreq records: sched_switch out of and into idle */
};

enum fs_freq_source {
	FS_FREQ_NONE = 0,        /* no residency at all */
	FS_FREQ_TIME_IN_STATE,   /* cpufreq stats for every PD */
	FS_FREQ_UTIL_SAMPLES,    /* schedutil-style states from the util samples for every PD */
	FS_FREQ_MIXED,           /* time_in_state for some PDs, util samples for the others */
	FS_FREQ_BUSY_SAMPLES,    /* util samples for every PD, weighted by busy time where any ran */
	FS_FREQ_TIS_BUSY,        /* time_in_state for every PD, scaled to busy time where any ran */
	FS_FREQ_BUSY_AT_FREQ,    /* busyfreq records: busy time at each cpu_frequency (the meter's) */
	FS_FREQ_BUSY_AT_FREQ_MIXED, /* the same, and some busy time at a frequency it did not know */
};

/* Per PD, the latest util-sampled state changes kept (a power of two): at 1000 wake-ups a
 * second about 2 s, longer than a placement's CPU time runs after its wake-up nearly always. */
#define FS_CE_HIST 2048

struct fs_ce_step {
	__u64 ts;
	int state;
};

struct fs_cpu_energy {
	const struct fs_em *em;
	int nr_cpus;
	/* cpustat: the first and the latest */
	int nr_cpustat;
	__u32 busy_src;
	__u64 busy_first[FS_MAX_CPUS], busy_last[FS_MAX_CPUS];
	/* freqstat per PD: the first and the latest, mapped onto EM states */
	int nr_freqstat[FS_MAX_PDS];
	bool freq_unusable[FS_MAX_PDS];    /* a frequency that is no EM state */
	__u64 tis_first[FS_MAX_PDS][FS_MAX_PS], tis_last[FS_MAX_PDS][FS_MAX_PS];
	/* util samples: per PD its state and since when */
	__u64 sample_since[FS_MAX_PDS];
	int sample_state[FS_MAX_PDS];       /* -1: none yet */
	__u64 sample_ns[FS_MAX_PDS][FS_MAX_PS];
	/* the same states as steps in time, and the busy time spent at each (fs_cpu_energy_busy) */
	struct fs_ce_step hist[FS_MAX_PDS][FS_CE_HIST];
	__u64 hist_n[FS_MAX_PDS];           /* steps pushed; step i at hist[p][i % FS_CE_HIST] */
	__u64 busy_state_ns[FS_MAX_PDS][FS_MAX_PS];
	__u64 task_ns[FS_MAX_CPUS];         /* all CPU time given to fs_cpu_energy_busy, per CPU */
	/* busyfreq per CPU: the first and the latest, on the PD's EM states, [FS_MAX_PS] unknown */
	int nr_busyfreq[FS_MAX_CPUS];
	__u64 bf_first[FS_MAX_CPUS][FS_MAX_PS + 1], bf_last[FS_MAX_CPUS][FS_MAX_PS + 1];
};

struct fs_cpu_energy_result {
	fs_fj_t total_fj;
	enum fs_busy_source busy_src;
	enum fs_freq_source freq_src;
	__u64 busy_ns[FS_MAX_CPUS];
	__u64 mean_power_uw[FS_MAX_PDS]; /* busy power of the PD's residency (0: none) */
	/* the same from wall-time residency only (time_in_state, else util samples by wall time):
	 * the figure before busy-time weighting, kept to show what the weighting changes */
	fs_fj_t wall_total_fj;
	__u64 wall_power_uw[FS_MAX_PDS];
	int busy_floored;                /* CPUs whose cpustat busy time was below the tasks' CPU time there */
	__u64 unknown_freq_ns;           /* busyfreq: busy time at no known EM state (priced as without) */
};

void fs_cpu_energy_init(struct fs_cpu_energy *ce, const struct fs_em *em);
/* A cpustat record; -1 and why if it does not fit the EM's CPUs. */
int fs_cpu_energy_cpustat(struct fs_cpu_energy *ce, const struct fs_cpustat *cs, char *why, size_t whylen);
/*
 * A busyfreq record (cpu_busyfreq.c); -1 and why if its CPU or frequency count is out of
 * range. With two of every CPU with a PD, the denominator is the A/B meter's: Σ busy ns at
 * each EM state × its power, busy time at an unknown frequency priced as without them.
 */
int fs_cpu_energy_busyfreq(struct fs_cpu_energy *ce, const struct fs_busyfreq *bf, char *why, size_t whylen);
/* CPU cpu's busy ns at each state of its PD between its first and latest busyfreq ([FS_MAX_PS]:
 * at no known state); false unless it has two. */
bool fs_cpu_energy_bf_delta(const struct fs_cpu_energy *ce, int cpu, __u64 *ns);
/* A freqstat record; -1 and why if its policy CPU or state count is out of range. */
int fs_cpu_energy_freqstat(struct fs_cpu_energy *ce, const struct fs_freqstat *fq, char *why, size_t whylen);
/* At a wake-up at ts: each PD's state from now on (state[pd], -1 = none). */
void fs_cpu_energy_sample(struct fs_cpu_energy *ce, __u64 ts, const int *state);
/* The same for one PD (p < em->nr_pd): the time since its last change goes to the state it was at. */
static inline void fs_cpu_energy_sample_pd(struct fs_cpu_energy *ce, int p, __u64 ts, int state)
{
	if (state == ce->sample_state[p])
		return;
	if (ce->sample_state[p] >= 0 && ts > ce->sample_since[p])
		ce->sample_ns[p][ce->sample_state[p]] += ts - ce->sample_since[p];
	ce->sample_state[p] = state;
	if (ts > ce->sample_since[p])
		ce->sample_since[p] = ts;
	ce->hist[p][ce->hist_n[p]++ % FS_CE_HIST] = (struct fs_ce_step){ .ts = ce->sample_since[p], .state = state };
}
/*
 * busy_ns of CPU time on cpu from `from` on (a placement's CPU time, run from its
 * wake-up: a task runs when it wakes and sleeps when done), at the states its PD was
 * sampled at over [from, from + busy_ns]. Time before the oldest step kept is not counted.
 */
void fs_cpu_energy_busy(struct fs_cpu_energy *ce, int cpu, __u64 from, __u64 busy_ns);
/* End of trace at ts. */
void fs_cpu_energy_close(struct fs_cpu_energy *ce, __u64 ts);
/* The total; run_cpu_ns: per CPU, the CPU time observed tasks ran there (the busy fallback),
 * raised to task_ns where that is more (it also has the time after balance migrations). */
void fs_cpu_energy_result(const struct fs_cpu_energy *ce, const __u64 *run_cpu_ns,
			  struct fs_cpu_energy_result *out);

const char *fs_busy_source_name(enum fs_busy_source s);
const char *fs_freq_source_name(enum fs_freq_source s);

#endif /* FEECSCOPE_CPU_ENERGY_H */

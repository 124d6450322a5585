/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel trace's part of the self-check (docs/traces.md): what the trace
 * gave and what was assumed or reconstructed, and the simulation of the
 * traced kernel's policy against the trace's own placements and OPP
 * residency. Pure C, as the rest of the simulation.
 */
#ifndef FEECSCOPE_SIM_TRACE_CHECK_H
#define FEECSCOPE_SIM_TRACE_CHECK_H

#include <stdbool.h>
#include "sim.h"
#include "rails.h"

/* What the trace held, for the summary's "traced / reconstructed" lines. */
struct fs_sim_trace_inputs {
	char format[24];            /* the reader's ("ftrace text", "trace.dat") */
	__u64 events;               /* events read (lost-events reports included) */
	__u64 unknown_events;       /* events of other kinds, skipped */
	char first_unknown[32];     /* the first one's name */
	__u64 lost_events;
	__u64 switch_events, wake_events, freq_events, migrate_events;
	__u64 pelt_events;          /* sched_pelt_se / sched_util_est_se of tasks (LISA's sched_tp) */
	__u64 pelt_tasks;           /* tasks that started from a traced PELT or util_est (the rest: util 0) */
	__u64 wake_utils;           /* wake-ups with the task's traced util (sched_pelt_se before it ran) */
	__u64 cfs_events;           /* sched_pelt_cfs / sched_util_est_cfs of root cfs_rqs */
	__u64 rq_traced_cpus;       /* CPUs whose rq PELT started from the trace's (mask) */
	__u64 freq_assumed_cpus;    /* CPUs that ran before any cpu_frequency (mask) */
	__u64 freq_assumed_ns;      /* CPU time taken at the PD's top frequency */
	int tgid_assumed;           /* tasks whose tgid no event gave */
	bool has_rails;             /* the trace had power rails (rails.h): rails says what they measured */
	struct fs_sim_rails rails;
};

struct fs_sim_trace_check {
	__u64 placed;                /* wake-ups (not forks) the trace and the simulation both placed */
	__u64 agree;                 /* ... on the same CPU */
	double agree_pct;            /* agree / placed x 100; NAN if none */
	int nr_pd;
	bool opp_known[FS_MAX_PDS];  /* the trace's cpu_frequency covered some of the PD's busy time */
	double opp_pct[FS_MAX_PDS];  /* OPP residency apart: half the sum of |share sim - share trace|, 0..100 */
	double mhz_obs[FS_MAX_PDS];  /* busy-time weighted mean frequency, the trace's */
	double mhz_sim[FS_MAX_PDS];  /* ... the simulation's */
	/*
	 * PELT: at the wake-ups where the trace gave the task's util_avg
	 * (FS_SIM_ACT_UTIL_TRACED) and the simulation placed it, the
	 * simulation's own util_avg then against the traced one.
	 */
	__u64 util_n;
	double util_mad;             /* mean |simulated - traced|, util units (of 1024); NAN if none */
	double util_bias;            /* mean simulated - traced */
	double util_traced_mean;     /* mean traced util_avg */
	/*
	 * The EM's energy per PD, EM unit x s (rails.h, fs_sim_rails_model()),
	 * beside the trace's power rails: for the trace's own busy time at its
	 * traced OPPs, and for the simulation.
	 */
	double energy_traced[FS_MAX_PDS];
	double energy_sim[FS_MAX_PDS];
};

/* The OPP of em's PD pd a cpu_frequency of khz stands for: the lowest at or above it, else the top. */
int fs_sim_opp_of_khz(const struct fs_em *em, int pd, __u32 khz);
/* wl (a trace's workload) against r, the simulation of the traced kernel's policy. */
void fs_sim_trace_check(const struct fs_em *em, const struct fs_sim_workload *wl, const struct fs_sim_result *r,
			struct fs_sim_trace_check *c);

#endif /* FEECSCOPE_SIM_TRACE_CHECK_H */

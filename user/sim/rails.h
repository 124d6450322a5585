/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A trace's measured power rails against the model (docs/traces.md, "Power
 * rails"): which rails are the CPUs', their energy over the window the
 * simulated workload covers, and which of the EM's perf domains each
 * stands for. Pure C, as the rest of the simulation.
 */
#ifndef FEECSCOPE_SIM_RAILS_H
#define FEECSCOPE_SIM_RAILS_H

#include <stdbool.h>
#include "sim.h"
#include "../records/power_rails.h"

#define FS_SIM_MAX_RAILS 32 /* Perfetto's android.power keeps 32 a session; more are counted, not kept */

struct fs_sim_rail {
	char name[48], subsys[32];
	bool cpu;              /* fs_sim_rail_is_cpu() */
	int cluster;           /* fs_sim_rail_cluster(): its cluster's rank; -1 unknown */
	int pd;                /* the EM's PD it is matched with; -1 none */
	__u32 sampling_hz;
	__u64 samples;         /* all the rail's, in and out of the window */
	/*
	 * The part of the window its samples bracket: from the window's start
	 * (or its first sample after it) to the end (or its last sample
	 * before it), ns since the window's start; covered_ns 0: none.
	 */
	__u64 from_ns, covered_ns;
	double mj;             /* its counter's growth over that part, interpolated linearly; 0 if none */
	/* how far its nearest samples lie outside the window: before the start, after the end; -1: none there */
	__s64 before_ns, after_ns;
};

struct fs_sim_rails {
	int nr;                /* rails kept: the CPU rails first */
	__u64 nr_more;         /* rails past FS_SIM_MAX_RAILS, left out */
	__u64 nr_undescribed;  /* rails the trace sampled but never described, left out */
	int nr_cpu;
	bool matched;          /* each CPU rail stands for one PD, one to one */
	__u64 window_ns;       /* the workload's span */
	struct fs_sim_rail rail[FS_SIM_MAX_RAILS];
};

/* The CPU rails summed: energy where each covers the whole window, else mean power where covered. */
struct fs_sim_rails_sum {
	int cpu, covered, full;     /* CPU rails; with a covered part; covering the whole window */
	bool no_before, no_after;   /* some CPU rail had no sample before the start / after the end */
	double mj, mw;              /* over the covered rails: energy, and the sum of their mean powers */
	__u64 covered_ns;           /* the least any covered CPU rail covers */
};

void fs_sim_rails_sum(const struct fs_sim_rails *r, struct fs_sim_rails_sum *s);

/*
 * The CPU rule (docs/traces.md): a rail is a CPU's supply when its name
 * holds "VDD_CPU" or starts "power.rails.cpu", or its subsystem starts
 * "CPU" (any case); a name ending "_M" is a cluster's memory (Pixel's
 * S4M_VDD_CPUCL0_M), not a CPU rail.
 */
bool fs_sim_rail_is_cpu(const char *name, const char *subsys);
/*
 * A CPU rail's cluster, for the order by capacity: the digits after
 * "CPUCL" in its name, else 0, 1, 2 for "little", "mid", "big" in its
 * name or subsystem (any case); -1 when neither tells.
 */
int fs_sim_rail_cluster(const char *name, const char *subsys);
/*
 * in's rails over the window [t0, t0 + span] (ns on the trace's clock)
 * into out; with em, the CPU rails matched to its PDs by capacity.
 */
void fs_sim_rails_measure(const struct fs_em *em, const struct fs_power_rails *in, __u64 t0, __u64 span,
			  struct fs_sim_rails *out);
/*
 * The EM's energy of each PD for a trace, EM unit x s: traced[] for the
 * trace's own busy time at its traced OPPs (before a CPU's first
 * cpu_frequency at its PD's top one, as the workload assumes), sim[] for
 * r, a simulation of it (NULL: left alone).
 */
void fs_sim_rails_model(const struct fs_em *em, const struct fs_sim_observed *obs, const struct fs_sim_result *r,
			double traced[FS_MAX_PDS], double sim[FS_MAX_PDS]);

#endif /* FEECSCOPE_SIM_RAILS_H */

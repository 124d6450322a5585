/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A recording's closed-loop answer in one call (docs/simulation.md): the
 * workload simulated under every policy of the run and under the recorded
 * kernel's own, each margin's cost, and the self-check. Pure C: the
 * pipeline feeds the builder and hands the workload here at the end.
 */
#ifndef FEECSCOPE_SIM_CLOSED_LOOP_H
#define FEECSCOPE_SIM_CLOSED_LOOP_H

#include "compare.h"
#include "trace_check.h"

/* The machine's settings where the recording cannot tell (docs/simulation.md, "Settings"). */
#define FS_SIM_DEFAULT_HZ 250                    /* Debian's and Android's arm64 CONFIG_HZ */
#define FS_SIM_DEFAULT_RATE_LIMIT_NS 1000000ull  /* schedutil: 1000 us, cpufreq's LATENCY_MULTIPLIER default */
/* Where one of the machine's settings came from. */
enum fs_sim_src {
	FS_SIM_ASSUMED,  /* nothing told it: the default above */
	FS_SIM_RECORDED, /* the recording (the live collector read it) */
	FS_SIM_GIVEN,    /* an option (--sim-hz, --sim-rate-limit-us) */
};

/*
 * The settings a recording or the command line gave (docs/simulation.md,
 * "Settings the recording does not tell"); all zero: every one assumed.
 * In the report every one is filled, the assumed with the defaults.
 */
struct fs_sim_settings {
	unsigned int hz;
	enum fs_sim_src hz_src;
	__u64 rate_limit_ns[FS_MAX_PDS];      /* schedutil's rate_limit_us x 1000, per PD */
	enum fs_sim_src rate_src[FS_MAX_PDS];
	char governor[FS_MAX_PDS][16];        /* the PD's cpufreq governor as recorded; "" unknown */
};

/* The name of a source as the summary and the JSON print it. */
const char *fs_sim_src_name(enum fs_sim_src src);

/*
 * The longest recording simulated: the machine ticks every CPU every 1/HZ
 * while anything runs, so its cost grows with the span (docs/simulation.md).
 */
#define FS_SIM_MAX_SPAN_NS (6 * 3600 * 1000000000ull)

/* One policy's simulated figures the outputs show besides its energy. */
struct fs_sim_policy_row {
	double energy;          /* EM unit x s */
	double energy_mj;       /* NAN for a bogoWatt EM */
	__u64 busy_ns;          /* every CPU's */
	__u64 wait_p50_ns, wait_p99_ns; /* an activation's runnable wait */
	__u64 done_p50_ns, done_p99_ns; /* an activation's wake -> completion */
	__u64 migrations;       /* wake-up placements off prev + misfit and newly-idle pulls */
	__u64 overutilized_ns;
};

struct fs_sim_report {
	bool ran;                      /* false: not simulated, why[] says why */
	char why[160];
	enum fs_sim_physics physics;
	unsigned int hz;
	struct fs_sim_settings set;    /* every PD's settings and where each came from */
	int nr_pds;
	int nr_policies;               /* the run's policies, in the run's order */
	struct fs_sim_policy_row pol[FS_MAX_POLICIES];
	struct fs_sim_answer answer;   /* verdicts and processes; answer.ref is the run's reference */
	bool has_check;                /* the recorded kernel's policy was known */
	const struct fs_policy_desc *kernel_policy;
	struct fs_sim_selfcheck check;
	__u64 tasks, activations;      /* the workload's */
	__u64 acts_unknown_work;
	bool from_trace;                       /* the workload came from a kernel trace (trace_check.h) */
	struct fs_sim_trace_inputs trace;      /* what it held */
	struct fs_sim_trace_check tcheck;      /* with has_check: its placements and OPPs against the simulation */
	/* with keep_decisions: each policy's decision at every activation, freed with the report */
	struct fs_sim_act_dec *dec[FS_MAX_POLICIES];
};

struct fs_sim_run_in {
	const struct fs_em *em;
	const struct fs_policy_desc *const *policies; /* the run's, policy 0 the reference */
	int nr_policies;
	const struct fs_policy_desc *kernel_policy;   /* NULL: no self-check */
	enum fs_sim_physics physics;
	double rec_energy;                            /* the recording's CPU energy, EM unit x s; NAN if none */
	__u64 max_span_ns;                            /* longer workloads are not simulated; 0: FS_SIM_MAX_SPAN_NS */
	const struct fs_sim_trace_inputs *trace;      /* the workload is a kernel trace's; NULL: a recording's */
	bool keep_decisions;                          /* fill rep->dec (a trace's decision CSV) */
	const struct fs_sim_settings *settings;       /* what the recording or options gave; NULL: all assumed */
};

/*
 * Simulate wl under every policy (and the kernel's, for the self-check) and
 * fill rep. 0, or -1 with err (out of memory, bad params). A workload longer
 * than max_span_ns is not simulated: 0, rep->ran false and rep->why says so.
 * rep is freed with fs_sim_report_free, also after an error.
 */
int fs_sim_closed_loop(const struct fs_sim_workload *wl, const struct fs_sim_run_in *in, struct fs_sim_report *rep,
		       char *err, size_t errlen);
void fs_sim_report_free(struct fs_sim_report *rep);
/*
 * The same from a log of records (each at an 8-byte offset, as fed to a
 * builder) built with bo (rerun.c): live's verdict at an interval. A record
 * the builder refuses leaves rep->ran false with rep->why; 0, or -1 with err.
 */
int fs_sim_closed_loop_records(const unsigned char *log, size_t len, const struct fs_sim_builder_opts *bo,
			       const struct fs_sim_run_in *in, struct fs_sim_report *rep, char *err, size_t errlen);

#endif /* FEECSCOPE_SIM_CLOSED_LOOP_H */

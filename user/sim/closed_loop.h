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
#include "resume.h"

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
/*
 * The latest simulated time the machine can reach on wl: its span, where
 * the loop stops; for a workload that spans 0 s (every record at or before
 * the first: the loop then runs until the work is done), its last wake-up
 * plus all its work at the slowest CPU's lowest OPP. FS_SIM_NEVER if past
 * 2^64 ns. The closed loop does not simulate past the limit above.
 */
__u64 fs_sim_horizon_ns(const struct fs_sim_workload *wl, const struct fs_em *em, enum fs_sim_physics physics);

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
	/*
	 * Replicas of the workload that widen each verdict's interval
	 * (replicas.h, FS_SIM_REPLICAS); 0: batch means alone. Not run by
	 * fs_sim_closed_loop_with() (live's intervals).
	 */
	unsigned int replicas;
};

/*
 * Simulate wl under every policy (and the kernel's, for the self-check) and
 * fill rep. 0, or -1 with err (out of memory, bad params). A workload longer
 * than max_span_ns, or whose work could take the machine past it
 * (fs_sim_horizon_ns()), is not simulated: 0, rep->ran false and rep->why
 * says so.
 * rep is freed with fs_sim_report_free, also after an error.
 */
int fs_sim_closed_loop(const struct fs_sim_workload *wl, const struct fs_sim_run_in *in, struct fs_sim_report *rep,
		       char *err, size_t errlen);
void fs_sim_report_free(struct fs_sim_report *rep);
/*
 * One policy's simulation for fs_sim_closed_loop_with(): slot is the
 * policy's index in the run, nr_policies for the self-check's kernel
 * policy when it is not among them. As fs_sim_run(): 0 or -1 with err.
 */
typedef int (*fs_sim_run_fn)(void *ctx, int slot, const struct fs_sim_workload *wl, const struct fs_sim_params *p,
			     struct fs_sim_result *r, char *err, size_t errlen);
/* fs_sim_closed_loop() with each simulation run by fn (rerun.c: resumed between intervals). */
int fs_sim_closed_loop_with(const struct fs_sim_workload *wl, const struct fs_sim_run_in *in, fs_sim_run_fn fn,
			    void *ctx, struct fs_sim_report *rep, char *err, size_t errlen);

/*
 * Live's closed loop at each interval (rerun.c): a builder kept between
 * intervals takes the records that came since the last one, and each
 * policy's simulation resumes from the last interval's (resume.h), so an
 * interval costs its new records, not the whole window, and gives the
 * answer fs_sim_closed_loop() gives for every record so far.
 */
struct fs_sim_live;

/* The builder's EM and options, as the pipeline's own builder has them. NULL with err. */
struct fs_sim_live *fs_sim_live_new(const struct fs_em *em, enum fs_sim_physics physics,
				    const struct fs_sim_builder_opts *bo, char *err, size_t errlen);
void fs_sim_live_free(struct fs_sim_live *l);
/*
 * The records since the last call (each at an 8-byte offset, as fed to a
 * builder), then the answer of every record so far into rep. A record the
 * builder refuses leaves rep->ran false with rep->why, for good. 0, or -1
 * with err (out of memory: the state is then unusable).
 */
int fs_sim_live_answer(struct fs_sim_live *l, const unsigned char *log, size_t len, const struct fs_sim_run_in *in,
		       struct fs_sim_report *rep, char *err, size_t errlen);
/* Simulated time run and what runs from t0 would have run, over every policy and interval. */
void fs_sim_live_stats(const struct fs_sim_live *l, struct fs_sim_resume_stats *st);

#endif /* FEECSCOPE_SIM_CLOSED_LOOP_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every result feecscope writes goes through this one interface: the
 * pipeline calls each output with every record (recording), every closed
 * placement (decision CSV, trace), each live interval (the live view) and
 * the final report (summary, JSON); report's outputs get its recordings'
 * results instead. An output implements the hooks it needs; the others
 * stay NULL.
 */
#ifndef FEECSCOPE_OUTPUT_H
#define FEECSCOPE_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "../record.h"
#include "../engine/accounting.h"
#include "../engine/blocked_hist.h"
#include "../sim/closed_loop.h"
#include "../engine/cpu_energy.h"
#include "../engine/verdict.h"

/* One policy's answer for a wake-up. */
struct fs_decision_pol {
	__s32 cpu;            /* feec's answer, -1 = fell back */
	__s32 acct_cpu;       /* where accounting puts the task (fs_acct_effective_cpu) */
	enum fs_feec_reason reason;
	bool has_threshold;
	__u64 prev_delta, best_delta, threshold; /* UINT64_MAX = none */
	__u64 power_uw;       /* fs_system_power_uw with the task on acct_cpu */
	__s64 dpower_uw;      /* power_uw - policy 0's */
};

/* A wake-up's decisions and, once its placement closed, what that placement charged. */
struct fs_decision_row {
	__u64 seq;            /* wake-up number (1-based, after filters) */
	__u64 ts_ns;
	__s32 pid, tgid;
	__u32 uid;            /* FS_NO_UID if unknown */
	char comm[FS_COMM_LEN];
	__s32 prev_cpu, kernel_cpu;
	__u32 task_util;      /* policy 0's task_util_est after the PELT sync */
	__u32 flags;          /* FS_WAKE_* as the policies saw them */
	struct fs_interval iv;
	struct fs_decision_pol pol[FS_MAX_POLICIES];
	/*
	 * The decision's inputs, for the decision hook only (the trace's
	 * annotations): the wake-up as the policies saw it and each policy's
	 * whole result (its candidates). NULL in the interval hook: by then
	 * both belong to a later wake-up.
	 */
	const struct fs_wakeup *wakeup;
	const struct fs_feec_result *res;
};

#define FS_HIST_BUCKETS FS_ACCT_HIST /* blocked-saving histogram, see accounting docs */

/* What the pipeline counted (fs_pipeline_stats()): the report's figures. */
struct fs_policy_stats {
	const struct fs_policy_desc *desc;
	__u64 decided;       /* feec returned a CPU (not -1) */
	__u64 eligible;      /* feec reached the energy comparison */
	__u64 differ;        /* chose another CPU than policy 0 (both decided) */
	__u64 kernel_known;  /* eligible wake-ups whose kernel placement is known */
	__u64 agree_kernel;  /* ... where the kernel chose what this policy chose */
	__u64 reasons[FS_FEEC__NR];
	__u64 pd_moves[FS_MAX_PDS][FS_MAX_PDS]; /* PD of prev_cpu -> PD of the chosen CPU */
	__u64 blocked_hist[FS_HIST_BUCKETS];    /* savings a margin blocked: policy 0 moved, this kept prev (or the reverse) */
	/* Added by the pipeline (docs/accounting.md): the same blocked wake-ups, by saving in µW. */
	__u64 blocked;                          /* wake-ups counted in blocked_hist */
	__u64 blocked_hist_uw[FS_HIST_BUCKETS]; /* system power on prev minus on the blocked CPU */
};

struct fs_stats {
	__u64 records;       /* every record fed */
	__u64 wakeups;       /* FS_REC_WAKEUP passing the filters */
	__u64 forks;         /* of which sched_wakeup_new */
	__u64 migrations;    /* FS_REC_MIGRATE outside wake-up */
	__u64 exits;         /* FS_REC_EXIT */
	__u64 lost;          /* records the kernel could not deliver (FS_REC_LOST sum) */
	__u64 filtered;      /* dropped by --pid/--comm (the report's filter says which kept what) */
	__u64 trace_rows;    /* a trace's: activations the filters kept (output/trace_decisions.h); 0 for records */
	__u64 overutilized;  /* wake-ups seen with rd->overutilized */
	__u64 feec_eligible; /* wake-ups where policy 0 reached the energy comparison */
	__u64 kernel_known;  /* wake-ups with a known kernel placement */
	__u64 flags_unknown; /* unpinned wake-ups (not forks) without FS_WAKE_FLAGS_KNOWN: no fentry on select_task_rq_fair */
	__u64 em_updates;    /* FS_REC_EM: the kernel's EM changed at run time (applied unless emulated) */
	__u64 first_ts, last_ts;
	int nr_policies;
	struct fs_policy_stats pol[FS_MAX_POLICIES];
};

struct fs_filter;
struct fs_apps;

/* The end of a run (or a live snapshot of it): what the summary and JSON print. */
struct fs_report {
	const struct fs_stats *st;            /* counts, per-policy statistics */
	const struct fs_em *em;
	bool emulate_eas;
	const char *kernel_release;
	const char *head;                     /* "policies: ..." line printed above the summary, or NULL */
	const struct fs_filter *filter;       /* --pid / --comm and what each item kept; NULL = none */
	bool wall_time;                       /* no CPU times in the input: the old wall-time estimate */
	__u64 span_ns;                        /* observation: last - first timestamp */
	const struct fs_acct_totals *tot;     /* per-policy energy vs the reference, CPU time */
	struct fs_cpu_energy_result cpu;      /* the CPUs' energy (the % denominator) */
	int nr_verdicts;
	const struct fs_verdict *verdicts;
	const fs_fj_t *blocks0;               /* the first verdict's time-block sums (verdicts[0].units) */
	size_t nr_procs;
	const struct fs_process *procs;       /* sorted: largest |Δ| first */
	const struct fs_acct *acct;           /* per-thread detail */
	bool threads;                         /* list threads under each process */
	const struct fs_apps *apps;           /* uid -> app (packages.list); NULL = none: by process only */
	const struct fs_sim_report *sim;      /* the closed-loop answer, at finish (NULL before) */
	const struct fs_sim_workload *workload; /* the workload it simulated, at finish; NULL: none was built */
};

struct fs_view_sample; /* view_frame.h: the run so far, at a live interval */
struct fs_many;        /* many_report.h: report's recordings, groups and combination */

struct fs_output_ops {
	/* every record fed, before filters */
	int (*record)(void *self, const struct fs_rec_hdr *rec, char *err, size_t errlen);
	/* a wake-up was decided, in wake-up order; row->iv is not filled yet */
	int (*decision)(void *self, const struct fs_decision_row *row, char *err, size_t errlen);
	/* a placement closed: its row is complete */
	int (*interval)(void *self, const struct fs_decision_row *row, char *err, size_t errlen);
	/* write what is buffered (live calls it every interval) */
	int (*flush)(void *self, char *err, size_t errlen);
	/* a live interval, after flush: the run so far (the live view draws it) */
	int (*tick)(void *self, const struct fs_view_sample *s, char *err, size_t errlen);
	/* the run ended: write the report and complete the file */
	int (*finish)(void *self, const struct fs_report *rep, char *err, size_t errlen);
	/* report's end, in place of finish: every recording's result, written whole */
	int (*many)(void *self, const struct fs_many *m, char *err, size_t errlen);
	/* release; after finish, or on an error path without it */
	void (*free)(void *self);
};

struct fs_output {
	const struct fs_output_ops *ops;
	void *self;
};

/* Constructors: each returns 0, or -1 with err naming the file. A path ending in .gz writes gzip. */
/* Decision CSV, layout 2: a row per wake-up and policy, in wake-up order (docs/csv.md). */
int fs_output_decisions_long(struct fs_output *o, const char *path, int nr_policies,
			     const struct fs_policy_desc *const *pols, char *err, size_t errlen);
/* Decision CSV, the wide layout: a row per wake-up as its placement closes, columns per policy. */
int fs_output_decisions_csv(struct fs_output *o, const char *path, int nr_policies,
			    const struct fs_policy_desc *const *pols, char *err, size_t errlen);
/* Summary text into out (not closed); or into a file created at path when out is NULL. */
int fs_output_summary(struct fs_output *o, FILE *out, const char *path, char *err, size_t errlen);
/* JSON report (docs/json.md) into path, "-" = stdout. */
int fs_output_json(struct fs_output *o, const char *path, char *err, size_t errlen);
/* Perfetto trace (docs/perfetto.md) into path; "*.gz" writes gzip. */
int fs_output_perfetto(struct fs_output *o, const char *path, int nr_cpus, int nr_policies,
		       const struct fs_policy_desc *const *pols, const char *kernel_release, char *err,
		       size_t errlen);
/* The workload CSV (docs/csv.md): a row per task of the closed loop's workload, at the finish. */
int fs_output_workload_csv(struct fs_output *o, const char *path, char *err, size_t errlen);
struct fs_rec_meta;
/* Binary recording (docs/recording.md) of every record, meta->em_text required. */
int fs_output_recording(struct fs_output *o, const char *path, const struct fs_rec_meta *meta,
			char *err, size_t errlen);

#endif /* FEECSCOPE_OUTPUT_H */

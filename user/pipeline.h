/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The path every record takes, live or replayed: filters -> policies ->
 * energy accounting (user/engine/) -> outputs (user/output/). Live and replay
 * both call fs_pipeline_feed() with the same records, which is why a
 * recording replays to the numbers seen live.
 */
#ifndef FEECSCOPE_PIPELINE_H
#define FEECSCOPE_PIPELINE_H

#include <stdbool.h>
#include <stdio.h>
#include "record.h"
#include "engine/em.h"
#include "engine/policy.h"
#include "engine/blocked_hist.h"
#include "filter.h"
#include "output/output.h"
#include "sim/sim.h"
#include "sim/trace_check.h"
#include "sim/closed_loop.h"

/* Every output kind once (fs_outputs_open() adds at most seven) and live's view, with room. */
#define FS_MAX_OUTPUTS 12

struct fs_pipeline_opts {
	const struct fs_em *em;
	const struct fs_policy_desc *policies[FS_MAX_POLICIES]; /* policy 0 is the reference */
	int nr_policies;
	const char *kernel_release; /* "" if unknown */
	const char *head;           /* line printed above the summary ("policies: ..."), or NULL */
	struct fs_filter filter;    /* --pid / --comm; none = every task */
	bool threads;               /* reports list each process's threads */
	const struct fs_apps *apps; /* uid -> app (packages.list), NULL = none */
	/*
	 * The EM is not the observed kernel's own (a built-in profile on a machine
	 * without EAS, or --em on a recording): take CPU capacities from the EM
	 * and decide the EAS gates (perf domains, asym domain, overutilized) from
	 * the landscape instead of the recorded flags. See docs/accounting.md.
	 */
	bool emulate_eas;
	/* Evaluate every policy in full, margin twins too (the benchmark's side-by-side baseline). */
	bool no_twin_sharing;
	/* Charge wall time even where CPU times are known (the benchmark's old-estimate baseline). */
	bool force_wall_time;
	/* The closed-loop simulation (docs/simulation.md): off, and how work takes time. */
	bool no_sim;
	enum fs_sim_physics sim_physics;
	/* The recorded kernel's policy for the self-check; NULL: the one kernel_release maps to. */
	const struct fs_policy_desc *sim_kernel_policy;
	struct fs_sim_settings sim_settings; /* HZ and rate limits recorded or given; zero: assumed */
	__u64 sim_max_span_ns; /* 0: FS_SIM_MAX_SPAN_NS (the fuzz harnesses set less) */
	bool sim_live;         /* keep the records for fs_pipeline_sim_job() (live's verdict at intervals) */
	/* Where results go; the pipeline owns them from fs_pipeline_new() on (freed with it). */
	struct fs_output outputs[FS_MAX_OUTPUTS];
	int nr_outputs;
};

struct fs_pipeline;

/* On failure the outputs in o are freed too. */
struct fs_pipeline *fs_pipeline_new(const struct fs_pipeline_opts *o, char *err, size_t errlen);
/* Feed one record (any enum fs_rec_type). Returns 0, or -1 with err set. */
int fs_pipeline_feed(struct fs_pipeline *p, const struct fs_rec_hdr *rec, char *err, size_t errlen);
/* Write buffered outputs (live calls it every interval). */
int fs_pipeline_flush(struct fs_pipeline *p, char *err, size_t errlen);
/* Live's interval, after the flush: s, the run so far, to each output's tick hook (the live view). */
int fs_pipeline_tick(struct fs_pipeline *p, const struct fs_view_sample *s, char *err, size_t errlen);
const struct fs_stats *fs_pipeline_stats(const struct fs_pipeline *p);
/* The filter with what each item kept so far. */
const struct fs_filter *fs_pipeline_filter(const struct fs_pipeline *p);

/* Tasks with an open placement, in wake-up order (live reads their CPU time when it ends). */
typedef void (*fs_open_task_fn)(void *ctx, __s32 pid, __s32 tgid);
void fs_pipeline_open_tasks(const struct fs_pipeline *p, fs_open_task_fn fn, void *ctx);

/*
 * The report as of now (live view): valid until the next call or feed.
 * Open placements are not charged yet; before fs_pipeline_finish() the
 * interval comes from FS_BOOTSTRAP_ROUNDS_LIVE rounds, after it from all.
 */
const struct fs_report *fs_pipeline_snapshot(struct fs_pipeline *p);
/* Close the accounting (open placements end at the last timestamp), give every output the report. */
int fs_pipeline_finish(struct fs_pipeline *p, char *err, size_t errlen);
/* The report fs_pipeline_finish() gave the outputs; NULL before it. */
const struct fs_report *fs_pipeline_report(const struct fs_pipeline *p);
void fs_pipeline_free(struct fs_pipeline *p);
/*
 * A kernel trace's workload (source.h's take), owned by p from here: the
 * closed-loop simulation runs it at the finish in place of the one built
 * from records, and the report's span is the trace's. in says what the
 * trace held (the summary's trace lines).
 */
void fs_pipeline_set_workload(struct fs_pipeline *p, struct fs_sim_workload *wl, const struct fs_sim_trace_inputs *in);

/*
 * Live's closed-loop verdict at intervals (docs/simulation.md, "Live"): a
 * job holds a copy of the records so far and the run's settings, so it can
 * run on another thread while the pipeline goes on; its answer becomes
 * fs_pipeline_snapshot()'s sim when published (on the pipeline's thread).
 * NULL: not simulating, not asked for (o.sim_live), or out of memory.
 */
struct fs_sim_job;
struct fs_sim_job *fs_pipeline_sim_job(struct fs_pipeline *p);
int fs_sim_job_run(struct fs_sim_job *j);                      /* any thread; 0 or -1 */
void fs_pipeline_sim_publish(struct fs_pipeline *p, struct fs_sim_job *j); /* frees j */
void fs_sim_job_free(struct fs_sim_job *j);

#endif /* FEECSCOPE_PIPELINE_H */

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

#define FS_HIST_BUCKETS FS_ACCT_HIST /* blocked-saving histogram, see accounting docs */
#define FS_TOP_TASKS 10
#define FS_MAX_OUTPUTS 8

struct fs_pipeline_opts {
	const struct fs_em *em;
	const struct fs_policy_desc *policies[FS_MAX_POLICIES]; /* policy 0 is the reference */
	int nr_policies;
	const char *kernel_release; /* "" if unknown */
	const char *head;           /* line printed above the summary ("policies: ..."), or NULL */
	struct fs_filter filter;    /* --pid / --comm; none = every task */
	bool threads;               /* reports list each process's threads */
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
	/* Where results go; the pipeline owns them from fs_pipeline_new() on (freed with it). */
	struct fs_output outputs[FS_MAX_OUTPUTS];
	int nr_outputs;
};

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
	__u64 overutilized;  /* wake-ups seen with rd->overutilized */
	__u64 feec_eligible; /* wake-ups where policy 0 reached the energy comparison */
	__u64 kernel_known;  /* wake-ups with a known kernel placement */
	__u64 flags_unknown; /* unpinned wake-ups (not forks) without FS_WAKE_FLAGS_KNOWN: no fentry on select_task_rq_fair */
	__u64 em_updates;    /* FS_REC_EM: the kernel's EM changed at run time (applied unless emulated) */
	__u64 first_ts, last_ts;
	int nr_policies;
	struct fs_policy_stats pol[FS_MAX_POLICIES];
};

struct fs_pipeline;

/* On failure the outputs in o are freed too. */
struct fs_pipeline *fs_pipeline_new(const struct fs_pipeline_opts *o, char *err, size_t errlen);
/* Feed one record (any enum fs_rec_type). Returns 0, or -1 with err set. */
int fs_pipeline_feed(struct fs_pipeline *p, const struct fs_rec_hdr *rec, char *err, size_t errlen);
/* Write buffered outputs (live calls it every interval). */
int fs_pipeline_flush(struct fs_pipeline *p, char *err, size_t errlen);
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
void fs_pipeline_free(struct fs_pipeline *p);

#endif /* FEECSCOPE_PIPELINE_H */

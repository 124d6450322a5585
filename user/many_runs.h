/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Many recordings at once (feecscope report): each replayed once through its
 * default policies (its kernel's policy and the twin) on worker threads, with
 * bounded memory (one pipeline per worker; per recording only its totals and
 * processes are kept), then grouped by device EM and kernel release and
 * combined. A group's and the combined interval bootstrap over all their
 * recordings' processes, as one recording's does over its own.
 */
#ifndef FEECSCOPE_MANY_RUNS_H
#define FEECSCOPE_MANY_RUNS_H

#include <stdbool.h>
#include <stddef.h>
#include "record.h"
#include "engine/fj.h"

struct fs_run_proc {
	char comm[FS_COMM_LEN];
	__u64 wakeups, runtime_ns;
	fs_fj_t delta_fj;               /* what the margin costs in this process */
};

/* One recording's result. */
struct fs_run {
	const char *path;
	char error[512];                /* non-empty: it could not be replayed (fully) */
	bool partial;                   /* replayed up to a damage, the error says where */
	char kernel_release[64];
	char em[256];                   /* the EM's source line */
	char policy[32], twin[32];      /* the verdict's margin policy and its twin ("" = no verdict) */
	bool has_verdict;
	__u64 wakeups;
	__u64 span_ns;
	fs_fj_t cpu_fj;                 /* the CPUs' energy */
	fs_fj_t delta_fj, lo_fj, hi_fj; /* the verdict and its interval */
	bool has_ci;                    /* else too few units (FS_VERDICT_MIN_UNITS) for lo..hi */
	bool measurable;
	size_t nr_procs;
	struct fs_run_proc *procs;
};

/* A set of recordings summed: a group (same EM and kernel) or all of them. */
struct fs_runs_total {
	const char *em, *kernel_release; /* NULL for the combination of all */
	int recordings;                 /* with a verdict */
	__u64 wakeups, span_ns;
	fs_fj_t cpu_fj, delta_fj, lo_fj, hi_fj;
	bool has_ci, measurable;
};

struct fs_many {
	size_t nr_runs;
	struct fs_run *runs;            /* in the order given */
	size_t nr_groups;
	struct fs_runs_total *groups;   /* in order of first appearance */
	struct fs_runs_total all;
	size_t nr_procs;
	struct fs_run_proc *procs;      /* all recordings' processes by comm, largest |delta| first */
};

/* Progress callback: done of total recordings replayed (called from the worker threads, serialised). */
typedef void (*fs_many_progress_fn)(void *ctx, size_t done, size_t total);

/*
 * Replay paths[0..n) with `threads` workers (0: one per online CPU). Returns
 * 0 with *out filled (per-recording errors are in runs[i].error), -1 out of
 * memory.
 */
int fs_many_run(const char *const *paths, size_t n, int threads, fs_many_progress_fn progress, void *ctx,
		struct fs_many *out);
void fs_many_free(struct fs_many *m);

#endif /* FEECSCOPE_MANY_RUNS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live view: a top-like screen in plain ANSI (works in adb shell) when
 * stdout is a terminal, one plain line per interval otherwise.
 */
#ifndef FEECSCOPE_LIVE_VIEW_H
#define FEECSCOPE_LIVE_VIEW_H

#include <stdbool.h>
#include <stdio.h>
#include "pipeline.h"
#include "source/live_wire.h"
#include "source/live_pair.h"

/* What does not change during a run: the banner. */
struct fs_live_view_info {
	const char *kernel_release;
	const char *em_source;      /* fs_em.source */
	bool emulate_eas;           /* a built-in or --em model, not the kernel's */
	const struct fs_em *em;
	int nr_policies;
	const char *policy_names[FS_MAX_POLICIES];
	const char *collector;      /* "tp_btf + fentry select_task_rq_fair, rq from cfs_rq->rq" */
	double interval_s;
};

/* One refresh: cumulative numbers; the view keeps the previous sample for rates. */
struct fs_live_sample {
	double elapsed_s;
	const struct fs_stats *st;
	const struct fs_report *rep;    /* fs_pipeline_snapshot(): verdicts, energies, processes; may be NULL */
	__u64 cnt[FS_CNT__NR];      /* collector counters, cumulative */
	const struct fs_pair_stats *pair;
};

struct fs_live_view;

struct fs_live_view *fs_live_view_new(FILE *out, bool tty, const struct fs_live_view_info *info);
void fs_live_view_update(struct fs_live_view *v, const struct fs_live_sample *s);
void fs_live_view_free(struct fs_live_view *v);

#endif /* FEECSCOPE_LIVE_VIEW_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live view's screen as text: given the terminal's size and a snapshot
 * of the run, the rows to show. The verdict and the totals come first, then
 * the policies, then as many processes as fit; a taller screen also shows
 * the collector's counters, the CPUs' load and the PD transitions. No row
 * is longer than the width and there are never more rows than the height.
 * Pure (no terminal, no I/O), so tests and the docs render it too.
 */
#ifndef FEECSCOPE_VIEW_FRAME_H
#define FEECSCOPE_VIEW_FRAME_H

#include <stdbool.h>
#include "output.h"
#include "../records/live_wire.h"

#define FS_FRAME_MAX_ROWS 200
#define FS_FRAME_MAX_COLS 400
#define FS_VIEW_MAX_STATUS 8
#define FS_VIEW_STATUS_LEN 320

enum fs_view_sort { FS_SORT_MARGIN, FS_SORT_WAKEUPS, FS_SORT_CPU, FS_SORT__NR };

/* What stays the same during a run: the header. */
struct fs_view_info {
	const char *kernel_release;
	double interval_s;
	int nr_status;
	char status[FS_VIEW_MAX_STATUS][FS_VIEW_STATUS_LEN]; /* the EM, the collector, what it lacks */
};

/* One refresh. */
struct fs_view_sample {
	double elapsed_s;
	const struct fs_stats *st;
	const struct fs_report *rep;   /* fs_pipeline_snapshot(); NULL if it failed */
	bool have_collector;           /* cnt and expired are known (live, not a recording) */
	__u64 cnt[FS_CNT__NR];         /* collector counters, cumulative */
	__u64 expired;                 /* snapshots sent without a placement */
	/* filled by fs_view_rates_update() */
	double wakeup_rate;            /* per second over the last interval */
	double mw[FS_MAX_POLICIES];    /* energy vs the reference over the last interval */
	double busy_pct[FS_MAX_CPUS];  /* each CPU's busy time over the last interval, -1 unknown */
};

/* The previous sample, for the rates. */
struct fs_view_rates {
	bool have_prev;
	double t;
	__u64 wakeups;
	double mj[FS_MAX_POLICIES];
	__u64 busy_ns[FS_MAX_CPUS];
};

void fs_view_rates_update(struct fs_view_rates *r, struct fs_view_sample *s);

/* The keys' state and the newest warning. */
struct fs_view_state {
	enum fs_view_sort sort;
	bool paused;
	const char *warning;  /* shown on the last row, or NULL */
	int more_warnings;    /* older ones not shown */
};

const char *fs_view_sort_name(enum fs_view_sort s);

struct fs_frame {
	int cols, rows; /* the size it was made for */
	int n;          /* rows used, <= rows */
	char line[FS_FRAME_MAX_ROWS][FS_FRAME_MAX_COLS + 1];
};

/* Render; cols and rows are clamped to the maximums. */
void fs_view_frame(struct fs_frame *f, int cols, int rows, const struct fs_view_info *in,
		   const struct fs_view_sample *s, const struct fs_view_state *vs);

#endif /* FEECSCOPE_VIEW_FRAME_H */

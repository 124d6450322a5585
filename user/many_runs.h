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

#include <stddef.h>
#include "output/many_report.h"

/* Progress callback: done of total recordings replayed (called from the worker threads, serialised). */
typedef void (*fs_many_progress_fn)(void *ctx, size_t done, size_t total);

/*
 * Replay paths[0..n) with `threads` workers (0: one per online CPU). Returns
 * 0 with *out filled (per-recording errors are in runs[i].error), -1 out of
 * memory.
 */
int fs_many_run(const char *const *paths, size_t n, int threads, const struct fs_apps *apps,
		fs_many_progress_fn progress, void *ctx, struct fs_many *out);
void fs_many_free(struct fs_many *m);

#endif /* FEECSCOPE_MANY_RUNS_H */

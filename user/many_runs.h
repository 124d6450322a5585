/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Many recordings at once (feecscope report): each replayed once through its
 * default policies (its kernel's policy and the twin) on worker threads, with
 * bounded memory (one pipeline per worker; per recording only its totals and
 * processes are kept), then grouped by device EM and kernel release and
 * combined. A group's and the combined interval resample each recording's
 * time blocks within it, as one recording's interval does its own.
 */
#ifndef FEECSCOPE_MANY_RUNS_H
#define FEECSCOPE_MANY_RUNS_H

#include <stddef.h>
#include "output/many_report.h"

/* Progress callback: done of total recordings replayed (called from the worker threads, serialised). */
typedef void (*fs_many_progress_fn)(void *ctx, size_t done, size_t total);

/*
 * Replay paths[0..n) with `threads` workers (0: one per online CPU); apps
 * (--packages, may be NULL; an empty list: no app) names every recording's apps, else each
 * recording's own list does where it kept one; processes are grouped by
 * app across recordings by package names (not uid). em_spec (report --em: a profile,
 * saved EM or debugfs tree, may be NULL) is the EM of kernel traces. Returns
 * 0 with *out filled (per-recording errors are in runs[i].error), -1 out of
 * memory.
 */
int fs_many_run(const char *const *paths, size_t n, int threads, const struct fs_apps *apps, const char *em_spec,
		fs_many_progress_fn progress, void *ctx, struct fs_many *out);
/*
 * Give m to each of outs[0..n) (output.h's many hook) and free them all:
 * 0, or -1 when one failed, each failure said in a line "feecscope CMD: ...".
 */
struct fs_output;
int fs_many_write(const struct fs_many *m, struct fs_output *outs, int n, const char *cmd);
void fs_many_free(struct fs_many *m);

/*
 * Recordings of different devices are one answer only when asked (--mix):
 * 1 with why naming the first two files whose CPU counts or EMs (their
 * numbers, not how they were read) differ; 0 when all agree. Files that
 * cannot be opened are left to the replay to report.
 */
int fs_many_mixed(const char *const *paths, size_t n, char *why, size_t len);

#endif /* FEECSCOPE_MANY_RUNS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the live header and the end report say about the collector: how it
 * attached, and what a program the kernel refused costs. One line each, so
 * the view can show them as a list.
 */
#ifndef FEECSCOPE_LIVE_STATUS_H
#define FEECSCOPE_LIVE_STATUS_H

#include <stdio.h>
#include "live_bpf.h"
#include "live_pair.h"
#include "engine/em.h"

/*
 * The header's lines: the EM, whether EAS is emulated, how its run-time
 * changes are noticed (em_watch; NULL when the EM is not the kernel's), what
 * feecscope mounted, the collector, its fallbacks. Returns how many.
 */
int fs_live_status_lines(const struct fs_live_features *f, const struct fs_live_bpf_opts *bo,
			 const struct fs_em *em, bool emulate_eas, const char *em_watch, char (*lines)[320],
			 int max);

/* What a missing program costs (the header's and the end report's line): false when nothing is missing. */
bool fs_live_fallback_line(const struct fs_live_features *f, const struct fs_live_bpf_opts *bo, char *buf,
			   size_t len);

/* The collector's counters, pairing, programs and fallback (stderr at the end, and every interval with -v). */
void fs_live_collector_report(FILE *out, struct fs_live_bpf *b, const struct fs_live_bpf_opts *bo,
			      const __u64 *cnt, const struct fs_pair_stats *ps);

#endif /* FEECSCOPE_LIVE_STATUS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel trace's decision rows (docs/traces.md, "The decision CSV"): one
 * per activation of the trace's workload, in the trace's wake-up order,
 * each policy's column what that policy's own simulation decided there.
 */
#ifndef FEECSCOPE_TRACE_DECISIONS_H
#define FEECSCOPE_TRACE_DECISIONS_H

#include "output.h"

struct fs_filter;

/* Called with each row; 0, or -1 with err (an output's write failed). */
typedef int (*fs_trace_row_fn)(void *ctx, const struct fs_decision_row *row, char *err, size_t errlen);

/*
 * The rows of wl as rep's simulations decided them (rep->dec, all
 * nr_policies set), the tasks filter keeps only (NULL: all); *kept and
 * *filtered count the activations it kept and dropped. 0, or -1 with err.
 */
int fs_trace_decisions(const struct fs_sim_workload *wl, const struct fs_sim_report *rep, int nr_policies,
		       struct fs_filter *filter, __u64 *kept, __u64 *filtered, fs_trace_row_fn fn, void *ctx,
		       char *err, size_t errlen);

#endif /* FEECSCOPE_TRACE_DECISIONS_H */

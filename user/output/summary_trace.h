/* SPDX-License-Identifier: GPL-2.0 */
/* The summary's lines about a kernel trace (summary_trace.c, docs/traces.md). */
#ifndef FEECSCOPE_SUMMARY_TRACE_H
#define FEECSCOPE_SUMMARY_TRACE_H

#include <stdio.h>
#include "output.h"

/* Nothing unless the simulated workload came from a trace; wrap is the summary's line wrapper. */
void fs_summary_trace(FILE *out, const struct fs_report *r, void (*wrap)(FILE *, const char *, const char *, int));

/*
 * The whole summary of a run whose workload is a trace's (no records: the
 * per-decision blocks would be empty): verdicts, closed loop, processes.
 */
void fs_summary_trace_print(FILE *out, const struct fs_report *r,
			    void (*wrap)(FILE *, const char *, const char *, int));

#endif /* FEECSCOPE_SUMMARY_TRACE_H */

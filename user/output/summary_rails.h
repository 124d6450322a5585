/* SPDX-License-Identifier: GPL-2.0 */
/* The summary's power-rail lines of a trace (summary_rails.c, docs/traces.md). */
#ifndef FEECSCOPE_SUMMARY_RAILS_H
#define FEECSCOPE_SUMMARY_RAILS_H

#include <stdio.h>
#include "output.h"

/* The summary's line wrapper: prefix, text, the indent of the lines after the first. */
typedef void (*fs_wrap_fn)(FILE *out, const char *prefix, const char *text, int indent);

/* A line or two when the trace had power rails (r->sim->trace.has_rails), nothing otherwise. */
void fs_summary_rails(FILE *out, const struct fs_report *r, fs_wrap_fn wrap);

#endif /* FEECSCOPE_SUMMARY_RAILS_H */

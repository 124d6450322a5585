/* SPDX-License-Identifier: GPL-2.0 */
/* The summary's closed-loop block (summary_sim.c). */
#ifndef FEECSCOPE_SUMMARY_SIM_H
#define FEECSCOPE_SUMMARY_SIM_H

#include <stdio.h>
#include "output.h"

/* Nothing when r->sim is NULL; wrap is the summary's line wrapper. */
void fs_summary_sim(FILE *out, const struct fs_report *r, void (*wrap)(FILE *, const char *, const char *, int));

#endif /* FEECSCOPE_SUMMARY_SIM_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* feecscope report's outputs (docs/analysis.md): the many-run report as text, JSON or CSV. */
#ifndef FEECSCOPE_MANY_REPORT_H
#define FEECSCOPE_MANY_REPORT_H

#include <stdio.h>
#include "../many_runs.h"

void fs_many_print_text(FILE *o, const struct fs_many *m);
void fs_many_print_json(FILE *o, const struct fs_many *m);
/* One row per recording. */
void fs_many_print_csv(FILE *o, const struct fs_many *m);

#endif /* FEECSCOPE_MANY_REPORT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* The per-decision CSV's wide layout (--csv-layout wide, docs/csv.md): one row per wake-up, every policy's outputs in columns named after it. */
#ifndef FEECSCOPE_DECISIONS_CSV_H
#define FEECSCOPE_DECISIONS_CSV_H

#include <stdio.h>
#include "output.h"

int fs_decisions_csv_header(FILE *out, int nr, const struct fs_policy_desc *const *pols);
int fs_decisions_csv_row(FILE *out, const struct fs_decision_row *r, int nr);

#endif /* FEECSCOPE_DECISIONS_CSV_H */

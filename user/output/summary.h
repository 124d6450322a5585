/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The end-of-run text summary: the verdict first, then the counts, agreement,
 * PD transitions, blocked savings and processes. Deterministic; every line
 * fits 80 columns; every figure is defined in docs/accounting.md.
 */
#ifndef FEECSCOPE_SUMMARY_H
#define FEECSCOPE_SUMMARY_H

#include <stdio.h>
#include "output.h"

#define FS_COLUMNS 80
#define FS_TOP_TASKS 10 /* processes the summary lists */

void fs_summary_print(FILE *out, const struct fs_report *r);

/*
 * Verdict v of r as one line of at most FS_COLUMNS characters (no newline):
 * the longest of a few forms that fits, e.g.
 * "margin costs +412 mJ (+310..+520) over 25.0 s (+16.5 mW, +3.1% of CPU energy)".
 */
int fs_verdict_line(char *buf, size_t len, const struct fs_report *r, int v);

/* The process table's rows for r (at most max), printed as the summary prints them. */
void fs_print_processes(FILE *out, const struct fs_report *r, size_t max);
/* The threads of process g, indented under its row. */
void fs_print_threads(FILE *out, const struct fs_report *r, const struct fs_process *g);
/* Its header and one process's row as text (no newline), for views that sort them their own way. */
int fs_process_header(char *buf, size_t len);
int fs_process_row(char *buf, size_t len, const struct fs_report *r, const struct fs_process *g);
/* The energy a process's row shows: the first verdict's margin cost, else policy 1 vs the reference. */
fs_fj_t fs_process_delta(const struct fs_report *r, const struct fs_process *g);

#endif /* FEECSCOPE_SUMMARY_H */

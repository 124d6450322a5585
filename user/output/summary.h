/* SPDX-License-Identifier: GPL-2.0 */
/* The end-of-run text summary (fs_pipeline_finish): deterministic, every figure defined in docs/accounting.md. */
#ifndef FEECSCOPE_SUMMARY_H
#define FEECSCOPE_SUMMARY_H

#include <stdio.h>
#include "../pipeline.h"
#include "../engine/accounting.h"

struct fs_summary {
	const struct fs_stats *st;
	const struct fs_em *em;
	bool emulate_eas;
	const char *kernel_release;
	__s32 pid_filter;
	const char *comm_filter;
	fs_fj_t total_fj;                       /* est_cpu_energy, exact */
	fs_fj_t pol_fj[FS_MAX_POLICIES];        /* energy_mj, exact */
	const struct fs_task_stats *top;
	const fs_fj_t (*top_fj)[FS_MAX_POLICIES];
	int nr_top;
};

void fs_summary_print(FILE *out, const struct fs_summary *s);

/* a/b as a percentage with `decimals` digits, exact rounding ("12.35"); "-" when b == 0. */
int fs_fmt_ratio_pct(char *buf, size_t len, fs_fj_t a, fs_fj_t b, int decimals);

#endif /* FEECSCOPE_SUMMARY_H */

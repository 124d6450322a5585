/* SPDX-License-Identifier: GPL-2.0 */
/* The per-decision CSV (--csv, docs/csv.md): one row per wake-up, its inputs and every policy's outputs. */
#ifndef FEECSCOPE_DECISIONS_CSV_H
#define FEECSCOPE_DECISIONS_CSV_H

#include <stdio.h>
#include "../engine/accounting.h"

enum fs_interval_end { FS_END_WAKEUP = 0, FS_END_MIGRATE, FS_END_TRACE };

struct fs_decision_pol {
	__s32 cpu;            /* feec's answer, -1 = fell back */
	__s32 acct_cpu;       /* where accounting puts the task (fs_acct_effective_cpu) */
	enum fs_feec_reason reason;
	bool has_threshold;
	__u64 prev_delta, best_delta, threshold; /* UINT64_MAX = none */
	__u64 power_uw;       /* fs_system_power_uw with the task on acct_cpu */
	__s64 dpower_uw;      /* power_uw - policy 0's */
};

struct fs_decision_row {
	__u64 seq;            /* wake-up number (1-based, after filters) */
	__u64 ts_ns;
	__s32 pid;
	char comm[FS_COMM_LEN];
	__s32 prev_cpu, kernel_cpu;
	__u32 task_util;      /* policy 0's task_util_est after the PELT sync */
	__u32 flags;          /* FS_WAKE_* as the policies saw them */
	__u64 dt_ns;          /* how long the placement held */
	enum fs_interval_end end;
	struct fs_decision_pol pol[FS_MAX_POLICIES];
};

int fs_decisions_csv_header(FILE *out, int nr, const struct fs_policy_desc *const *pols);
int fs_decisions_csv_row(FILE *out, const struct fs_decision_row *r, int nr);

#endif /* FEECSCOPE_DECISIONS_CSV_H */

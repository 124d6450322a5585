/* SPDX-License-Identifier: GPL-2.0 */
/* Margin-blocked saving histograms (docs/accounting.md): buckets and their labels. */
#ifndef FEECSCOPE_BLOCKED_HIST_H
#define FEECSCOPE_BLOCKED_HIST_H

#include <linux/types.h>

#define FS_ACCT_HIST 12
/* Saving as a share of the margin threshold it failed to beat. */
int fs_acct_pct_bucket(__u64 saving, __u64 threshold);
/* Saving in µW by the common power estimate: <= 0, then decades by 1-3-10. */
int fs_acct_uw_bucket(__s64 saving_uw);
const char *fs_acct_pct_label(int bucket);
const char *fs_acct_uw_label(int bucket);

#endif /* FEECSCOPE_BLOCKED_HIST_H */

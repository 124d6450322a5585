/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Energy accounting (docs/accounting.md): power differences between policies'
 * placements held over each task's placement interval, the system-power step
 * function for the total, and the margin-blocked savings histograms. Integer
 * arithmetic in µW and ns; energies in fJ (1 µW·ns = 1e-15 J) kept exact.
 */
#ifndef FEECSCOPE_ACCOUNTING_H
#define FEECSCOPE_ACCOUNTING_H

#include <stdbool.h>
#include <stddef.h>
#include "policy.h"

typedef __int128 fs_fj_t; /* signed femtojoules: µW × ns, exact for any trace we can hold */

/* One task's open placement interval: what each policy's placement costs vs policy 0. */
struct fs_acct_task {
	bool open;
	__u64 since_ns;
	__s64 dpower_uw[FS_MAX_POLICIES]; /* P_i - P_0 at the wake-up that opened it */
};

/* System power under policy 0's placements as a step function between wake-ups. */
struct fs_acct_sys {
	bool open;
	__u64 since_ns;
	__u64 power_uw;
	fs_fj_t total_fj;
};

/* dt for an interval [since, now]; out-of-order timestamps count as 0, never negative. */
static inline __u64 fs_acct_dt(__u64 since, __u64 now)
{
	return now > since ? now - since : 0;
}

/*
 * Close t's interval at now: add dpower_i·dt to energy_fj[i] (i < nr).
 * Returns dt in ns (0 if the interval was not open); t is left closed.
 */
__u64 fs_acct_task_close(struct fs_acct_task *t, __u64 now, int nr, fs_fj_t *energy_fj);
/* Open a new interval at now with power differences dp[0..nr). */
void fs_acct_task_open(struct fs_acct_task *t, __u64 now, int nr, const __s64 *dp);

/* Close the current step at now (adding its energy) and start one at power_uw. */
void fs_acct_sys_step(struct fs_acct_sys *s, __u64 now, __u64 power_uw);
/* End of trace: close the current step at now. */
void fs_acct_sys_close(struct fs_acct_sys *s, __u64 now);

/*
 * The CPU a policy's decision leaves the task on, for accounting: feec's CPU;
 * when feec returned -1 the kernel's fallback did the placing, so the
 * kernel's observed CPU if known, else prev_cpu.
 */
int fs_acct_effective_cpu(const struct fs_feec_result *r, const struct fs_wakeup *w);

/* Margin-blocked saving histograms (FS_HIST_BUCKETS = 12 each). */
#define FS_ACCT_HIST 12
int fs_acct_pct_bucket(__u64 saving, __u64 threshold);
int fs_acct_uw_bucket(__s64 saving_uw);
const char *fs_acct_pct_label(int bucket);
const char *fs_acct_uw_label(int bucket);

/* fJ -> mJ as a double (for struct fs_stats). */
static inline double fs_fj_to_mj(fs_fj_t fj)
{
	return (double)fj / 1e12;
}

/*
 * Fixed-point text of fj / 10^scale_pow10 with `decimals` digits, rounded
 * half away from zero, e.g. scale 12, decimals 3 -> "-1.234" mJ. Exact, so
 * output is identical everywhere.
 */
int fs_fmt_fj(char *buf, size_t len, fs_fj_t fj, int scale_pow10, int decimals);

#endif /* FEECSCOPE_ACCOUNTING_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The answer (docs/accounting.md, "The verdict"): for every policy with a
 * margin whose no-margin twin also ran, what the margin costs,
 *
 *     Δ = E(with margin) − E(without) = Σ_tasks (energy_fj[margin] − energy_fj[twin])
 *
 * positive when the margin costs energy, whichever policy the kernel follows,
 * with a 95 % interval from a bootstrap (over time blocks for a run,
 * time_blocks.h; over processes for feecscope report's pools); and the
 * processes (threads grouped by tgid) with their CPU time and Δ.
 */
#ifndef FEECSCOPE_VERDICT_H
#define FEECSCOPE_VERDICT_H

#include "accounting.h"

#define FS_MAX_VERDICTS (FS_MAX_POLICIES / 2)
#ifndef FS_BOOTSTRAP_ROUNDS /* the fuzz build draws 40 (Makefile): the same code, run faster */
#define FS_BOOTSTRAP_ROUNDS 2000    /* the report's interval */
#endif
#define FS_BOOTSTRAP_ROUNDS_LIVE 200 /* the live view's, refreshed every interval: a rougher interval */
#define FS_BOOTSTRAP_SEED 0x6665656373636f70ull /* fixed: live and replay give the same interval */
/*
 * Fewer units than this give no interval: with n units every draw repeats
 * one unit with probability n^(1-n), which is above the 2.5 % tail for n <= 3,
 * so the percentiles would just be n times the smallest and largest unit.
 */
#define FS_VERDICT_MIN_UNITS 4

struct fs_verdict {
	int pol, twin;          /* indices of the margin policy and its no-margin twin */
	fs_fj_t delta_fj;       /* E(pol) - E(twin) */
	fs_fj_t lo_fj, hi_fj;   /* 95 % interval (2.5th and 97.5th bootstrap percentiles) */
	size_t units;           /* what the bootstrap drew from: time blocks (or processes) */
	__u64 block_ns;         /* the blocks' width, 0 for processes */
	bool measurable;        /* there is an interval (fs_verdict_has_interval) and it excludes 0 */
	__u64 decisions;        /* wake-ups both decided on (every wake-up after the filters) */
	__u64 differ;           /* ... where their CPUs differ */
};

struct fs_process {
	__s32 tgid;
	__u32 uid;              /* FS_NO_UID if unknown */
	char comm[FS_COMM_LEN]; /* the group leader's, else the busiest thread's */
	int nr_threads;
	__u64 wakeups, runtime_ns;
	fs_fj_t delta_fj[FS_MAX_VERDICTS];
	fs_fj_t energy_fj[FS_MAX_POLICIES]; /* vs the reference, summed over threads */
	fs_fj_t rank_fj;        /* |delta_fj[0]| (no verdict: |energy_fj[1]|): the sort key */
};

static inline bool fs_verdict_has_interval(const struct fs_verdict *v)
{
	return v->units >= FS_VERDICT_MIN_UNITS;
}

static inline bool fs_verdict_measurable(const struct fs_verdict *v)
{
	return fs_verdict_has_interval(v) && (v->lo_fj > 0 || v->hi_fj < 0);
}

/* The (margin, twin) pairs among pols[0..n), in run order; returns how many. */
int fs_verdict_pairs(const struct fs_policy_desc *const *pols, int n, struct fs_verdict *out);

/*
 * Group a's tasks into processes (out allocated, *nr set; sorted by
 * descending |delta_fj[0]|, then CPU time, then tgid; with no verdict by
 * |energy_fj[1]|). Returns 0, or -1 out of memory.
 */
int fs_processes_build(const struct fs_acct *a, const struct fs_verdict *v, int nv, int nr_policies,
		       struct fs_process **out, size_t *nr);

/*
 * A 95 % interval of the sum of units[0..n) (time blocks, processes): rounds
 * draws (40 .. FS_BOOTSTRAP_ROUNDS, else FS_BOOTSTRAP_ROUNDS) of n units with
 * replacement (splitmix64 from FS_BOOTSTRAP_SEED), their 2.5th and 97.5th
 * percentiles. n == 0: [0, 0].
 */
void fs_bootstrap_sum(const fs_fj_t *units, size_t n, int rounds, fs_fj_t *lo_fj, fs_fj_t *hi_fj);

/*
 * feecscope report's groups: k recordings' time blocks (units[j], n[j] of
 * them), each recording resampled within itself and the draws summed; the
 * 2.5th and 97.5th percentiles. k == 1 is fs_bootstrap_sum().
 */
void fs_bootstrap_strata(const fs_fj_t *const *units, const size_t *n, size_t k, int rounds, fs_fj_t *lo_fj,
			 fs_fj_t *hi_fj);

#endif /* FEECSCOPE_VERDICT_H */

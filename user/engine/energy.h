/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-era EM cost tables and the kernel's em_pd_energy()/em_cpu_energy()
 * variants. A policy re-derives its table from fs_em frequency + power at
 * init with its era's formula, so integer truncation matches that kernel.
 */
#ifndef FEECSCOPE_ENGINE_ENERGY_H
#define FEECSCOPE_ENGINE_ENERGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "em.h"
#include "rules.h"

/* One PD's table as the emulated kernel would hold it. */
/*
 * Every era picks the state from one utilization-like key (v5.0: max_util;
 * v5.14 - v6.8: u after headroom and the allowed-cap clamp; v6.9+: max_util
 * after the clamp). Keys below FS_STATE_LUT are looked up in state_lut[],
 * built once per policy with the era's own search; larger keys search.
 */
#define FS_STATE_LUT 1280

struct fs_pd_table {
	int nr;
	int first_cpu;
	__u64 scale_cpu;          /* arch_scale_cpu_capacity(first cpu) */
	bool skip_inefficient;    /* EM_PERF_DOMAIN_SKIP_INEFFICIENCIES (v5.16+ eras only) */
	__u64 freq[FS_MAX_PS];    /* kHz */
	__u64 power[FS_MAX_PS];   /* mW for <= v5.19 eras, uW after */
	__u64 perf[FS_MAX_PS];    /* v6.9+ performance; 0 before */
	__u64 cost[FS_MAX_PS];
	bool inefficient[FS_MAX_PS];
	enum fs_energy_fn energy; /* the era whose search filled state_lut[] */
	__u8 state_lut[FS_STATE_LUT];
};

struct fs_era_tables {
	int nr_pd;
	struct fs_pd_table pd[FS_MAX_PDS];
};

/*
 * Power of one state in the era's unit. mW eras take floor(uW / 1000) of a uW
 * source (what the v5.x DT callback computes); uW eras take mW * 1000 of an mW
 * source (an approximation: the real uW value had 3 more digits).
 */
__u64 fs_era_power(const struct fs_em *em, const struct fs_em_ps *ps, const struct fs_feec_rules *r);

/*
 * The form of the cost column the EM's source gave (a v6.9+ table has
 * performance; µW: v6.0 - v6.8; mW: x1000 (v5.15 - v5.19) when the costs are
 * that much above fmax * P / f, else plain), or -1 when some state has none.
 */
int fs_em_cost_form(const struct fs_em *em);

/* The era's state search for one key, state by state: what state_lut[] holds below FS_STATE_LUT. */
int fs_pd_table_search(const struct fs_pd_table *t, enum fs_energy_fn fn, __u64 key);

/*
 * Each PD's table as r's kernel holds it: cost and inefficient recomputed
 * from frequency and power with the era's formula, or, for an em with
 * cost_as_read whose cost form is the era's, taken from the EM as read.
 */
int fs_energy_build_tables(const struct fs_em *em, const struct fs_feec_rules *r,
			   struct fs_era_tables *t, char *err, size_t errlen);

/* v5.0 - v5.13 em_pd_energy()/em_cpu_energy(pd, max_util, sum_util). */
__u64 fs_em_pd_energy_v5_0(const struct fs_pd_table *t, __u64 max_util, __u64 sum_util);
/* v5.14 - v6.7 em_cpu_energy(pd, max_util, sum_util, allowed_cpu_cap). */
__u64 fs_em_cpu_energy_v5_14(const struct fs_pd_table *t, __u64 max_util, __u64 sum_util,
			     __u64 allowed_cap);
/* v6.9 - v7.1 em_cpu_energy(): performance-based state, cost * sum_util. */
__u64 fs_em_cpu_energy_v6_9(const struct fs_pd_table *t, __u64 max_util, __u64 sum_util,
			    __u64 allowed_cap);

/* Dispatch on r->energy (allowed_cap ignored by the v5.0 form). */
__u64 fs_em_energy(const struct fs_feec_rules *r, const struct fs_pd_table *t, __u64 max_util,
		   __u64 sum_util, __u64 allowed_cap);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * feec policies: each one is a kernel version range's find_energy_efficient_cpu()
 * — its energy estimate, candidates, early exits and decision rule — replayed
 * bit-exactly on a recorded wake-up. Pure computation on plain structs.
 */
#ifndef FEECSCOPE_POLICY_H
#define FEECSCOPE_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include "em.h"

#define FS_MAX_POLICIES 24
#define FS_MAX_CAND (2 * FS_MAX_PDS)

/* Why feec returned what it did. */
enum fs_feec_reason {
	FS_FEEC_FORK = 0,        /* wake-up of a new task: feec never runs (WF_FORK) */
	FS_FEEC_AFFINE,          /* nr_cpus_allowed == 1: select_task_rq() does not call the class */
	FS_FEEC_NO_PD,           /* no perf domains in the root domain: return -1 */
	FS_FEEC_OVERUTILIZED,    /* rd->overutilized: return -1 */
	FS_FEEC_NO_ASYM,         /* no sd_asym_cpucapacity spanning prev_cpu: return -1 */
	FS_FEEC_SYNC,            /* Android sync shortcut took this_cpu */
	FS_FEEC_ZERO_UTIL,       /* task utilization is 0: stay on prev */
	FS_FEEC_UTIL_CHANGED,    /* an energy fell below its base ("CPU utilization has changed"): prev */
	FS_FEEC_NO_CANDIDATE,    /* no CPU fits: prev (best_energy_cpu stays prev_cpu) */
	FS_FEEC_PREV_UNFIT,      /* prev did not fit / not allowed: best candidate taken */
	FS_FEEC_PREV_BEST,       /* prev is the cheapest candidate */
	FS_FEEC_MARGIN_KEPT,     /* a cheaper CPU exists but its saving is below the margin threshold */
	FS_FEEC_MOVED,           /* the cheaper CPU was taken */
	FS_FEEC_FITS_RULE,       /* v6.4+: decided by the util_fits_cpu() level, not energy */
	FS_FEEC_CURRENT_CPU,     /* v6.6+ WF_CURRENT_CPU: the waker's CPU taken before feec */
	FS_FEEC__NR
};

struct fs_feec_cand {
	__s32 cpu;
	__s32 pd;       /* index into fs_em.pd[] */
	__s32 fits;     /* util_fits_cpu() level where the policy has one, else 1 */
	__u32 pad;
	__u64 energy;   /* compute_energy() with the task on cpu, in the policy's own units */
	__u64 base;     /* that PD's base energy (without the task) where the policy has one */
	__u64 delta;    /* energy - base (v5.4+) or the system energy (v5.0) */
};

/*
 * What a body's scan hands to the final rule besides the deltas and the base
 * (the rule's inputs of the reference's 1.f table). The scan never reads the
 * margin, so a policy's twin re-decides from these alone.
 */
struct fs_feec_rule_in {
	bool valid;            /* the body reached its final rule (no early exit) */
	__s32 prev;            /* prev_cpu */
	__s32 best;            /* best_energy_cpu as the scan left it, -1: none */
	__s32 prev_fits;       /* util_fits_cpu() levels (fits_levels bodies only) */
	__s32 best_fits;
	__u64 prev_cap;        /* actual capacity of prev's / best's PD (fits_levels bodies) */
	__u64 best_cap;
};

struct fs_feec_result {
	__s32 cpu;             /* feec's answer; -1 = it returned -1 (kernel falls back) */
	__s32 best_cpu;        /* cheapest candidate, -1 if none */
	enum fs_feec_reason reason;
	bool eligible;         /* feec got as far as comparing energies */
	__u32 task_util;       /* task_util_est(p) after the sync */
	int nr_cand;
	__u64 base_energy;     /* sum of base energies the rule uses (0 if none) */
	__u64 prev_delta;      /* ULONG_MAX style "none" is UINT64_MAX */
	__u64 best_delta;
	__u64 threshold;       /* margin threshold when has_threshold */
	bool has_threshold;
	struct fs_feec_rule_in in;
	/* Last, so only the first nr_cand entries need clearing or copying. */
	struct fs_feec_cand cand[FS_MAX_CAND];
};

struct fs_policy_desc {
	const char *name;     /* "v5.4", "v5.4-nomargin", "v6.0", "v6.0+margin", ... */
	const char *kernels;  /* kernel range followed, e.g. "v5.4 - v5.13" */
	const char *summary;  /* one line: what distinguishes it */
	const char *twin;     /* the same kernel with/without the margin, or NULL */
	bool has_margin;
	/* Implementation hooks; opaque to callers. */
	int (*init)(void **state, const struct fs_policy_desc *d, const struct fs_em *em,
		    char *err, size_t errlen);
	void (*feec)(const void *state, const struct fs_policy_desc *d, const struct fs_em *em,
		     const struct fs_wakeup *w, struct fs_feec_result *out);
	void (*fini)(void *state);
	const void *rules;    /* era parameters, owned by the implementation */
};

struct fs_policy {
	const struct fs_policy_desc *desc;
	const struct fs_em *em;
	void *state;          /* per-policy derived tables (cost per era, ...) */
};

/* Registry, in kernel order. */
int fs_policy_count(void);
const struct fs_policy_desc *fs_policy_at(int i);
const struct fs_policy_desc *fs_policy_find(const char *name); /* also accepts aliases such as "v4.20" */

/*
 * The policy that follows a kernel release string ("6.1.0-13-arm64",
 * "5.10.198-android12-9-..."): nearest earlier policy. why gets one line
 * saying which rule matched (or that it fell back).
 */
const struct fs_policy_desc *fs_policy_for_release(const char *release, char *why, size_t whylen);
/* Whether release starts with [v]MAJOR.MINOR (what fs_policy_for_release() can map). */
bool fs_release_valid(const char *release);

int fs_policy_init(struct fs_policy *p, const struct fs_policy_desc *d, const struct fs_em *em,
		   char *err, size_t errlen);
void fs_policy_fini(struct fs_policy *p);
/* Fills out (cand[] past out->nr_cand is left undefined). */
void fs_policy_feec(const struct fs_policy *p, const struct fs_wakeup *w, struct fs_feec_result *out);

/*
 * Whether twin's result can be had from p's result on the same wake-up by
 * fs_policy_redecide(): same body, EM and rules but for the margin.
 */
bool fs_policy_can_redecide(const struct fs_policy *p, const struct fs_policy *from);
/* twin's fs_policy_feec() result from p's (fs_policy_can_redecide(twin, p)). */
void fs_policy_redecide(const struct fs_policy *twin, const struct fs_feec_result *from,
			struct fs_feec_result *out);

const char *fs_feec_reason_name(enum fs_feec_reason r);
/* One line, e.g. "margin kept prev: saving 112 < threshold 356". Returns bytes written. */
int fs_feec_explain(const struct fs_feec_result *r, char *buf, size_t len);

/*
 * Common physical estimate used for energy accounting, independent of any
 * policy's units: estimated CPU power in microwatts of the whole system with
 * the waking task on dst_cpu (-1: task nowhere). Definition in accounting docs.
 */
__u64 fs_system_power_uw(const struct fs_em *em, const struct fs_wakeup *w, int dst_cpu);

#endif /* FEECSCOPE_POLICY_H */

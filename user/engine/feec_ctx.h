/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every feec body works on: the EM, the recorded wake-up, the era's
 * rules and tables, and the task's utilization after sync_entity_load_avg().
 * Engine-internal.
 */
#ifndef FEECSCOPE_ENGINE_FEEC_CTX_H
#define FEECSCOPE_ENGINE_FEEC_CTX_H

#include "energy.h"
#include "policy.h"
#include "rules.h"

struct fs_policy_state {
	struct fs_era_tables tables;
};

struct fs_feec_ctx {
	const struct fs_em *em;
	const struct fs_wakeup *w;
	const struct fs_feec_rules *r;
	const struct fs_era_tables *t;
	__u64 task_util;     /* task_util(p): p->se.avg.util_avg after the sync */
	__u64 task_runnable; /* p->se.avg.runnable_avg after the sync (boost_task_runnable rules only) */
	__u64 task_ue;       /* _task_util_est(p) with the era's flag rule */
	__u64 task_util_est; /* task_util_est(p) = max(task_util, _task_util_est) */
	bool uclamp_used;    /* uclamp_is_used() (pre-v5.9: CONFIG_UCLAMP_TASK, see util.c) */
	bool util_est_on;    /* sched_feat(UTIL_EST) */
	__u64 p_min, p_max;  /* uclamp_eff_value(p, MIN/MAX) when uclamp is used, else 0/1024 */
	__u64 online;        /* recorded CPUs (of the EM and the record) flagged online */
	__u64 cand_mask;     /* online, in the sd span (FS_CPU_IN_SD; without rd/sd from the
			      * collector every CPU with a PD) and in p's cpus_allowed */
};

void fs_feec_ctx_init(struct fs_feec_ctx *c, const struct fs_em *em, const struct fs_wakeup *w,
		      const struct fs_feec_rules *r, const struct fs_era_tables *t);

/* for_each_cpu() over a mask, lowest CPU first as the kernel's loops. */
#define fs_for_each_cpu(cpu, mask, left)                                                       \
	for (__u64 left = (mask); left && ((cpu) = __builtin_ctzll(left), 1); left &= left - 1)

/*
 * The common entry gates: fills out->reason/cpu and returns true when feec
 * returns before comparing energies (fork, affinity, WF_CURRENT_CPU, no pd,
 * overutilized, no asym domain). out must be zeroed by the caller.
 */
bool fs_feec_entry_exit(const struct fs_feec_ctx *c, struct fs_feec_result *out);

/* Append a candidate evaluation; returns its index or -1 when full. Inline: once per candidate. */
static inline int fs_feec_add_cand(struct fs_feec_result *out, int cpu, int pd, int fits, __u64 energy,
				   __u64 base, __u64 delta)
{
	if (out->nr_cand >= FS_MAX_CAND)
		return -1;
	out->cand[out->nr_cand] = (struct fs_feec_cand){
		.cpu = cpu, .pd = pd, .fits = fits, .energy = energy, .base = base, .delta = delta,
	};
	return out->nr_cand++;
}

/*
 * The final rule of every body, over out->in, the deltas and the base: the
 * margin (if any), the fits levels (fits_levels eras), then the reason. Sets
 * cpu, best_cpu, reason, eligible, threshold.
 */
void fs_feec_decide(const struct fs_feec_rules *r, struct fs_feec_result *out);

/*
 * Every body's end once the candidates are priced: the comparison's figures
 * (base, prev's and the best delta) into out, then fs_feec_decide() over in.
 */
void fs_feec_conclude(const struct fs_feec_ctx *c, struct fs_feec_result *out, __u64 base, __u64 prev_delta,
		      __u64 best_delta, struct fs_feec_rule_in in);

/*
 * v5.14+ "CPU utilization has changed" (an energy fell below its base, or a
 * delta would wrap): feec returns prev with the figures it had so far.
 */
void fs_feec_util_changed(struct fs_feec_result *out, int prev, __u64 base, __u64 prev_delta, __u64 best_delta);

/* The task's utilization is 0: feec keeps prev. Returns whether it did. */
static inline bool fs_feec_zero_util_exit(const struct fs_feec_ctx *c, struct fs_feec_result *out, bool zero)
{
	if (!zero)
		return false;
	out->cpu = c->w->prev_cpu;
	out->reason = FS_FEEC_ZERO_UTIL;
	return true;
}

/*
 * Body of each era, in its own file. The bodies are deliberate per-version
 * copies: each follows its kernel range's find_energy_efficient_cpu() line
 * for line, so a reader can hold one against fair.c of that range.
 */
void fs_feec_v5_0(const struct fs_feec_ctx *c, struct fs_feec_result *out);
void fs_feec_v5_4(const struct fs_feec_ctx *c, struct fs_feec_result *out);
void fs_feec_v6_0(const struct fs_feec_ctx *c, struct fs_feec_result *out);
void fs_feec_v6_12(const struct fs_feec_ctx *c, struct fs_feec_result *out);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* fs_system_power_uw() for many destinations of one wake-up: PDs without the task computed once. */
#ifndef FEECSCOPE_ENGINE_POWER_ESTIMATE_H
#define FEECSCOPE_ENGINE_POWER_ESTIMATE_H

#include "em.h"
#include "policy.h"
#include "top2.h"

/*
 * How the modelled kernel's schedutil and cpufreq turn a CPU's utilization
 * into an OPP (docs/power-estimate.md). The pipeline takes them from its
 * reference policy (fs_power_opts_for_policy).
 */
enum fs_power_dvfs {
	FS_DVFS_5_0,  /* v5.0 - v5.13: f = (fmax + fmax/4) * util / cap; DL bandwidth added */
	FS_DVFS_5_14, /* v5.14 - v6.7: f = fmax * (util + util/4) / cap; DL bandwidth added */
	FS_DVFS_6_8,  /* v6.8+: headroom on the actual util only; irq + DL bandwidth a floor */
};

struct fs_power_opts {
	enum fs_power_dvfs dvfs;
	bool skip_inefficient; /* v5.16+: cpufreq skips the EM's inefficient OPPs (CPUFREQ_RELATION_E) */
	bool runnable_boost;   /* v6.5+: schedutil asks for max(util_avg, runnable_avg, util_est) */
	bool uclamp;           /* v5.3+: the rq's clamps (p's on dst) bound the request */
};

/* The newest mainline kernel's: what fs_system_power_uw() and fs_power_lut_build() use. */
extern const struct fs_power_opts fs_power_opts_mainline;
/* The schedutil and cpufreq of the kernel policy d follows. */
struct fs_power_opts fs_power_opts_for_policy(const struct fs_policy_desc *d);

/* One PD without the task: what a destination in it changes is one CPU's term. */
struct fs_power_pd {
	__u64 cpus;              /* online CPUs of the PD */
	__u64 cap, fmax;
	struct fs_top2 top;      /* the two largest frequency requests r_i */
	int state;               /* the base's state */
	bool usable;             /* states, CPUs and a capacity: else the PD draws nothing */
	__u64 sum_u, max_u;      /* sum and largest of the busy utilizations u_i */
	unsigned __int128 busy;  /* sum of busy_i at that state */
};

/* What a PD's estimate needs of the EM and the options alone. */
struct fs_power_pd_const {
	bool usable;             /* states, a first CPU with a capacity */
	__u64 cap, fmax;
	__u64 skip;              /* states cpufreq never picks (bit s: state s is inefficient) */
};

/*
 * pd_state() answers per PD and per largest request m < FS_POWER_LUT, built
 * once per EM and options with the same search (fs_power_lut_build*); optional.
 */
#define FS_POWER_LUT 1025

struct fs_power_lut {
	const struct fs_em *em; /* the EM it was built for */
	struct fs_power_opts opts;
	struct fs_power_pd_const pdc[FS_MAX_PDS];
	__u8 state[FS_MAX_PDS][FS_POWER_LUT]; /* request_state() per largest request */
	__u8 work[FS_MAX_PDS][FS_POWER_LUT];  /* work_state() per largest busy utilization */
};

struct fs_power_ctx {
	const struct fs_em *em;
	const struct fs_power_lut *lut; /* NULL: search every time */
	struct fs_power_opts opts;
	const struct fs_wakeup *w;
	__u64 task_util, task_est; /* after the PELT sync; task_est = max(task_util, task_ue) */
	__u64 task_ue;             /* _task_util_est(p): what its enqueue adds to the rq's util_est */
	__u64 task_run;            /* runnable_avg after the sync (runnable_boost only) */
	__u64 ue_mask;             /* ~0: sched_feat(UTIL_EST) on, 0: off */
	bool uclamp;               /* opts.uclamp and uclamp_is_used() */
	__u64 p_min, p_max;        /* the task's effective clamps */
	__u64 online;              /* online CPUs of the record */
	__u64 base_pd[FS_MAX_PDS]; /* each PD's power with the task nowhere */
	__u64 base_total;
	struct fs_power_pd pd[FS_MAX_PDS];
	__u64 u[FS_MAX_CPUS];      /* busy u_i without the task (online CPUs of usable PDs) */
};

/* With fs_power_opts_mainline. */
void fs_power_lut_build(struct fs_power_lut *lut, const struct fs_em *em);
void fs_power_lut_build_opts(struct fs_power_lut *lut, const struct fs_em *em, const struct fs_power_opts *o);
/* The search for one m, state by state, that lut->work[pd][m] (work) or lut->state[pd][m] holds. */
int fs_power_lut_search(const struct fs_power_lut *lut, int pd, bool work, __u64 m);
/* Search every time, with fs_power_opts_mainline / with o. */
void fs_power_ctx_init(struct fs_power_ctx *x, const struct fs_em *em, const struct fs_wakeup *w);
void fs_power_ctx_init_opts(struct fs_power_ctx *x, const struct fs_em *em, const struct fs_wakeup *w,
			    const struct fs_power_opts *o);
/* With lut's options, pd_state() looked up in it when built for em (NULL: mainline, search). */
void fs_power_ctx_init_lut(struct fs_power_ctx *x, const struct fs_em *em, const struct fs_wakeup *w,
			   const struct fs_power_lut *lut);
/* == fs_system_power_uw(em, w, dst_cpu) under the context's options */
__u64 fs_power_ctx_at(const struct fs_power_ctx *x, int dst_cpu);
/* fs_power_ctx_at(), and the state of dst's PD with the task there (-1: it adds nothing there). */
__u64 fs_power_ctx_at_state(const struct fs_power_ctx *x, int dst_cpu, int *state);
/* The state of cpu's PD with the task on cpu (fs_power_ctx_at's), -1 if the task adds nothing there. */
int fs_power_ctx_state_at(const struct fs_power_ctx *x, int cpu);
/*
 * How the task's CPU time on cpu converts to its active time there
 * (accounting.h): the task's utilization u = task_est implies it runs a share
 * β = u·fmax / (cap·f) at state (fs_power_ctx_state_at());
 * *num / *den = 1/β = cap·f / (u·fmax). *den = 0 when β would be >= 1 (or
 * there is no utilization, PD or state).
 */
void fs_power_ctx_window(const struct fs_power_ctx *x, int cpu, int state, __u64 *num, __u64 *den);
/*
 * Each PD's state at this wake-up with the task on run_cpu, as the CPUs'
 * energy samples them ("util samples", cpu_energy.h): run_cpu's PD at
 * run_state (fs_power_ctx_state_at(); -1: the task adds nothing there, so
 * its state without the task), every other PD at its state without the
 * task, -1 for a PD that draws nothing. state[] holds em->nr_pd entries.
 */
void fs_power_ctx_states(const struct fs_power_ctx *x, int run_cpu, int run_state, int *state);

#endif

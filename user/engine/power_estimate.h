/* SPDX-License-Identifier: GPL-2.0 */
/* fs_system_power_uw() for many destinations of one wake-up: PDs without the task computed once. */
#ifndef FEECSCOPE_ENGINE_POWER_ESTIMATE_H
#define FEECSCOPE_ENGINE_POWER_ESTIMATE_H

#include "em.h"
#include "top2.h"

/* One PD without the task: what a destination in it changes is one CPU's term. */
struct fs_power_pd {
	__u64 cpus;              /* online CPUs of the PD */
	__u64 cap, fmax;
	struct fs_top2 top;      /* the two largest u_i */
	int state;               /* the base's state */
	bool usable;             /* states, CPUs and a capacity: else the PD draws nothing */
	__u64 sum_u;             /* sum of u_i */
	unsigned __int128 busy;  /* sum of busy_i at that state */
};

/* What a PD's estimate needs of the EM alone. */
struct fs_power_pd_const {
	bool usable;             /* states, a first CPU with a capacity */
	__u64 cap, fmax;
};

/*
 * pd_state() answers per PD and per max utilization m < FS_POWER_LUT, built
 * once per EM with the same search (fs_power_lut_build); optional.
 */
#define FS_POWER_LUT 1025

struct fs_power_lut {
	const struct fs_em *em; /* the EM it was built for */
	struct fs_power_pd_const pdc[FS_MAX_PDS];
	__u8 state[FS_MAX_PDS][FS_POWER_LUT];
};

struct fs_power_ctx {
	const struct fs_em *em;
	const struct fs_power_lut *lut; /* NULL: search every time */
	const struct fs_wakeup *w;
	__u64 task_util, task_est; /* after the PELT sync */
	__u64 online;              /* online CPUs of the record */
	__u64 base_pd[FS_MAX_PDS]; /* each PD's power with the task nowhere */
	__u64 base_total;
	struct fs_power_pd pd[FS_MAX_PDS];
	__u64 u[FS_MAX_CPUS];      /* u_i without the task (online CPUs of usable PDs) */
};

void fs_power_lut_build(struct fs_power_lut *lut, const struct fs_em *em);
void fs_power_ctx_init(struct fs_power_ctx *x, const struct fs_em *em, const struct fs_wakeup *w);
/* The same, with pd_state() looked up in lut (built for em; NULL = search). */
void fs_power_ctx_init_lut(struct fs_power_ctx *x, const struct fs_em *em, const struct fs_wakeup *w,
			   const struct fs_power_lut *lut);
/* == fs_system_power_uw(em, w, dst_cpu) */
__u64 fs_power_ctx_at(const struct fs_power_ctx *x, int dst_cpu);
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

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct energy_env and the helpers of fair.c that fill it (v6.0+): one copy
 * for every energy_env-era body, the era's differences taken from ctx->r.
 * Engine-internal.
 */
#ifndef FEECSCOPE_ENGINE_EENV_H
#define FEECSCOPE_ENGINE_EENV_H

#include "feec_ctx.h"
#include "top2.h"

struct energy_env {
	__u64 task_busy_time; /* p's contribution, irq-scaled on prev_cpu */
	__u64 pd_busy_time;   /* the PD's ENERGY_UTIL without p, capped at pd_cap */
	__u64 cpu_cap;        /* the PD's capacity after thermal (or hw/cpufreq) pressure */
	__u64 pd_cap;         /* cpu_cap times the PD's online CPUs */
	/* feecscope's, not the kernel's: the PD's frequency requests with p on no
	 * CPU of theirs (a CPU's request depends on dst only through cpu == dst). */
	__u64 cpus;           /* the PD's online CPUs */
	struct fs_top2 freq;  /* the two largest requests, p nowhere */
};

/* The PD's online CPUs as a mask; *first gets the lowest (-1 when none). */
__u64 fs_pd_online_cpus(const struct fs_feec_ctx *c, int pdi, int *first);

/* eenv_task_busy_time(): task_util_est(p) scaled by prev_cpu's irq. */
__u64 fs_eenv_task_busy_time(const struct fs_feec_ctx *c, int prev);

/*
 * eenv_pd_busy_time() for the PD spanning cpus (sets e->pd_busy_time), and in
 * the same pass the frequency requests without p that compute_energy() reuses.
 */
void fs_eenv_pd_prepare(const struct fs_feec_ctx *c, struct energy_env *e, __u64 cpus);

/* compute_energy(): the PD's energy with p on dst (-1: p nowhere), after fs_eenv_pd_prepare(). */
__u64 fs_compute_energy(const struct fs_feec_ctx *c, const struct energy_env *e, int pdi, int dst);

#endif

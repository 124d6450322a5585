/* SPDX-License-Identifier: GPL-2.0 */
/* Test helpers: Energy Models and wake-up landscapes built by hand (no EM reader needed). */
#ifndef FEECSCOPE_TEST_EM_BUILDERS_H
#define FEECSCOPE_TEST_EM_BUILDERS_H

#include "engine/em.h"
#include "engine/policy.h"

/*
 * Two PDs, mW: little cpu0-1 (capacity 512), big cpu2-3 (capacity 1024).
 *   little: 500 MHz 50 mW, 1000 MHz 150 mW
 *   big:    500 MHz 200 mW, 1000 MHz 400 mW, 2000 MHz 1200 mW
 */
void fs_test_em_2pd(struct fs_em *em);

/*
 * fs_test_em_2pd() as a v6.9+ kernel tables it: uW, performance =
 * capacity * f / fmax, cost = 10 * P / performance (kernel/power/
 * energy_model.c, em_init_performance() and em_compute_costs(), v6.9).
 */
void fs_test_em_2pd_v6_9(struct fs_em *em);

/*
 * Pixel 4 (SM8150) from tests/fixtures/em-data/pixel4_sm8150.tsv facts:
 * power per OPP by the DT callback, mW (v5.x: coef * mV^2 * MHz / 1e9) or
 * uW (v6.0+: / 1e6), capacities 306/871/1024 (arch_topology normalisation:
 * 488*1785, 1024*2419, 1024*2841 scaled to 1024).
 */
void fs_test_em_pixel4(struct fs_em *em, enum fs_power_unit unit);

/*
 * A wake-up: util[i] is CPU i's cfs util_avg and util_est WITHOUT the task;
 * the task (task_util, util_est = task_util, no pending decay) last ran on
 * prev and still counts in prev's util_avg, as at sched_waking. Every CPU
 * online, in the sd span, allowed; capacity_of = arch capacity.
 */
void fs_test_wakeup(struct fs_wakeup *w, const struct fs_em *em, const unsigned int *util, int prev,
		    unsigned int task_util);

/*
 * A plain wake-up of pid at ts: every CPU's util_avg 30, the task's util
 * (and util_est) 40, on prev and counted in prev's util; every CPU online,
 * in the sd span, allowed; the kernel's placement unknown (-1).
 */
void fs_test_plain_wakeup(struct fs_wakeup *w, const struct fs_em *em, __s32 pid, __u64 ts, int prev);

/*
 * A random wake-up on em from the xorshift state *seed: light and heavy
 * landscapes, uclamp, pressure, irq/rt/dl, offline and disallowed CPUs, the
 * entry-gate flags now and then. Deterministic for a given seed.
 */
void fs_test_random_wakeup(struct fs_wakeup *w, const struct fs_em *em, __u64 *seed);

/* Append a performance state (kHz, power in the EM's unit) to a hand-built PD. */
void fs_test_add_state(struct fs_em_pd *pd, __u64 khz, __u64 power);

/* The candidate evaluation of cpu in a result, NULL if feec did not evaluate it. */
const struct fs_feec_cand *fs_test_cand(const struct fs_feec_result *r, int cpu);

/* Run one policy by name on a wake-up; aborts the test process on init failure. */
void fs_test_run(const char *policy, const struct fs_em *em, const struct fs_wakeup *w,
		 struct fs_feec_result *out);

#endif

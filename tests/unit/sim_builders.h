/* SPDX-License-Identifier: GPL-2.0 */
/* Test helpers for the simulated machine: hand-built 1+1 EMs and workloads (no recording needed). */
#ifndef FEECSCOPE_TEST_SIM_BUILDERS_H
#define FEECSCOPE_TEST_SIM_BUILDERS_H

#include "sim/sim.h"

/*
 * One little CPU (cpu0, capacity 512) and one big (cpu1, 1024), one OPP
 * each so schedutil has nothing to choose: little 1 GHz at little_mw, big
 * 2 GHz at big_mw, in mW.
 */
void fs_test_em_1p1(struct fs_em *em, __u64 little_mw, __u64 big_mw);

/* A workload of nr_tasks tasks with room for max_acts activations; tasks start asleep on init_cpu. */
void fs_test_wl_init(struct fs_sim_workload *wl, int nr_cpus, int nr_tasks, __u64 max_acts, __u64 end_ns);
/* Append an activation to task ti (tasks must be filled in index order). */
void fs_test_wl_act(struct fs_sim_workload *wl, int ti, __u64 wake_ns, __u64 work);
/* nr activations of `work` every period_ns from start_ns. */
void fs_test_wl_periodic(struct fs_sim_workload *wl, int ti, __u64 start_ns, __u64 period_ns, __u64 work,
			 int nr);
void fs_test_wl_free(struct fs_sim_workload *wl);

/* Run or abort the test process with the error. */
void fs_test_sim(const struct fs_sim_workload *wl, const struct fs_em *em, const char *policy,
		 enum fs_sim_physics physics, struct fs_sim_result *r);

#endif

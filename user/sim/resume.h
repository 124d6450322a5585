/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A simulation kept between workloads that extend each other: live's
 * closed loop at each interval (docs/simulation.md, "Live"). The machine's
 * state is kept at iteration tops as a run passes them; the next workload
 * runs from the latest kept state it leaves unchanged, not from t0, and
 * gives the result a run from t0 would, to the bit. Pure C: no I/O.
 */
#ifndef FEECSCOPE_SIM_RESUME_H
#define FEECSCOPE_SIM_RESUME_H

#include "sim.h"

/* A state kept at least every this much simulated time (fewer as they age). */
#define FS_SIM_RESUME_EVERY_NS 100000000ull

/*
 * The earliest time since t0 at which wl differs from prev in what the
 * machine reads up to that time (wl_change.c): an activation changed or
 * added, an exit time changed, a task added (at t0 unless it forks into the
 * window), the end moved back. FS_SIM_NEVER: wl only extends prev. 0: run
 * it from the start. prev NULL: 0.
 */
__u64 fs_sim_wl_changed(const struct fs_sim_workload *prev, const struct fs_sim_workload *wl);

/* What resuming saved, for docs/simulation.md and the bench. */
struct fs_sim_resume_stats {
	__u64 runs;          /* results given */
	__u64 from_start;    /* of them run from t0: nothing kept was valid */
	__u64 sim_ns;        /* simulated time run, summed */
	__u64 whole_ns;      /* what runs from t0 would have simulated (the ends, summed) */
	__u64 kept;          /* states kept */
};

struct fs_sim_resumer;

struct fs_sim_resumer *fs_sim_resumer_new(__u64 every_ns);
void fs_sim_resumer_free(struct fs_sim_resumer *z);
/*
 * Simulate wl under p into r (as fs_sim_run() does), resumed from the
 * latest kept state before `changed` (fs_sim_wl_changed() of the workload
 * the last call ran and wl). A different EM, policy or machine setting
 * drops every state. 0, or -1 with err; r is freed with fs_sim_result_free.
 */
int fs_sim_resumer_run(struct fs_sim_resumer *z, const struct fs_sim_workload *wl, __u64 changed,
		       const struct fs_sim_params *p, struct fs_sim_result *r, char *err, size_t errlen);
const struct fs_sim_resume_stats *fs_sim_resumer_stats(const struct fs_sim_resumer *z);

#endif /* FEECSCOPE_SIM_RESUME_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Replicas of a workload for the closed-loop verdict's interval
 * (docs/simulation.md, "The interval"): the workload again with each
 * activation's wake-up moved by a small seeded jitter, the kind of change
 * two runs of the same workload show, simulated under each verdict's two
 * policies. The spread of the replicas' verdicts is the run-to-run variation
 * the batch means of one simulation cannot see. Pure C, deterministic: the
 * seed is a hash of the workload.
 */
#ifndef FEECSCOPE_SIM_REPLICAS_H
#define FEECSCOPE_SIM_REPLICAS_H

#include "compare.h"

/* Replicas a final answer runs (fs_sim_run_in.replicas); live's intervals run none. */
#define FS_SIM_REPLICAS 8
/*
 * When some verdict's replicas all come out alike, FS_SIM_REPLICAS_MORE
 * times as many in all: a zero spread over 8 draws still allows a run to
 * differ as often as 3 in 8 (the rule of three), over 32 about 1 in 11.
 */
#define FS_SIM_REPLICAS_MORE 4
/*
 * The jitter's standard deviation: 1 ms, the wake-up jitter measured across
 * the A/B recordings (docs/simulation.md, "The interval": the robust spread
 * of each thread's wake-to-wake intervals, divided by sqrt 2).
 */
#define FS_SIM_REPLICA_JITTER_NS 1000000ull

/* A hash of the workload's tasks and activations: the replicas' seed. */
__u64 fs_sim_workload_hash(const struct fs_sim_workload *wl);
/*
 * Replica k of wl into out: the same tasks (shared, not copied) and a copy
 * of the activations, each wake-up moved by a triangular jitter of standard
 * deviation jitter_ns, kept in each task's wake order and not before t0.
 * Free with fs_sim_replica_free. 0, or -1 (out of memory).
 */
int fs_sim_replica(const struct fs_sim_workload *wl, __u64 seed, unsigned int k, __u64 jitter_ns,
		   struct fs_sim_workload *out);
void fs_sim_replica_free(struct fs_sim_workload *out);
/*
 * Run nr replicas of wl under each policy of a's verdicts (pols, as the
 * answer was built from; base: the answer's params, its policy replaced),
 * nr x FS_SIM_REPLICAS_MORE when some verdict's first nr are all alike,
 * and widen each verdict's interval by the replicas' spread
 * (fs_sim_verdict_widen). 0, or -1 with err.
 */
int fs_sim_replicas_widen(const struct fs_sim_workload *wl, const struct fs_sim_params *base,
			  const struct fs_policy_desc *const *pols, unsigned int nr, double mj_per_unit,
			  struct fs_sim_answer *a, char *err, size_t errlen);

#endif /* FEECSCOPE_SIM_REPLICAS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel trace's events -> the simulation's workload (docs/traces.md):
 * per task, its activations (a wake-up to the switch-out that put it to
 * sleep), the work each did (its CPU time scaled by the CPU's capacity and
 * frequency), its waker, fork and exit; and what the trace's kernel did
 * (fs_sim_observed). Pure C: events come from trace_text.c or trace_dat.c.
 */
#ifndef FEECSCOPE_TRACE_WORKLOAD_H
#define FEECSCOPE_TRACE_WORKLOAD_H

#include "sim.h"
#include "../records/trace_event.h"

/* What the trace did not say and the builder assumed, for the caller to report. */
struct fs_trace_wl_info {
	__u64 events;              /* events fed */
	__u64 sched_events;        /* of which sched_switch/waking/wakeup(_new) */
	__u64 switch_events;       /* sched_switch */
	__u64 wake_events;         /* sched_waking/wakeup(_new) */
	__u64 migrate_events;      /* sched_migrate_task */
	__u64 freq_assumed_cpus;   /* CPUs that ran before any cpu_frequency: at their PD's top frequency */
	__u64 freq_assumed_ns;     /* CPU time run at an assumed frequency */
	__u64 freq_events;         /* cpu_frequency events */
	__u64 idle_events;         /* cpu_idle events (not used yet) */
	__u64 pelt_events;         /* sched_pelt_se / sched_util_est_se of tasks (LISA's sched_tp) */
	__u64 pelt_tasks;          /* tasks whose first activation took a traced PELT or util_est */
	__u64 wake_utils;          /* activations with a sched_pelt_se between their wake-up and first run */
	__u64 cfs_events;          /* sched_pelt_cfs / sched_util_est_cfs of root cfs_rqs (LISA) */
	__u64 cfs_group_events;    /* ... of task groups' cfs_rqs: counted, not used */
	__u64 rq_traced_cpus;      /* CPUs whose rq PELT starts from their first root sched_pelt_cfs (mask) */
	__u64 lost_events;         /* from lost-events reports (an unknown count adds 1) */
	__u64 acts_open_at_end;    /* activations still running or runnable when the trace ended */
	__u64 untracked_ns;        /* a task's CPU time before its CPU's first sched_switch or after lost events: not counted */
	__u64 outside_acts_ns;     /* CPU time of simulated tasks outside their activations (running when the trace began) */
	int tgid_assumed;          /* tasks whose tgid no event gave: tgid = pid */
};

struct fs_trace_wl;

/* For em's CPUs (capacities, PD frequencies) and physics. NULL if out of memory. */
struct fs_trace_wl *fs_trace_wl_new(const struct fs_em *em, enum fs_sim_physics physics);
/*
 * One event, in timestamp order (as the readers hand them out). Returns 0,
 * or -1 with err naming the event and what is wrong (a CPU beyond the EM,
 * time going back).
 */
int fs_trace_wl_feed(struct fs_trace_wl *b, const struct fs_tev *ev, char *err, size_t errlen);
/* fs_tev_fn for the readers: ctx is the builder. */
int fs_trace_wl_feed_fn(void *ctx, const struct fs_tev *ev, char *err, size_t errlen);
/*
 * The workload (tasks and acts malloc'd: fs_sim_workload_free, or free both)
 * and info (may be NULL). Frees the builder either way. -1 with err if the
 * trace had no sched events, no sched_switch, or memory ran out.
 */
int fs_trace_wl_finish(struct fs_trace_wl *b, struct fs_sim_workload *out, struct fs_trace_wl_info *info,
		       char *err, size_t errlen);
void fs_trace_wl_free(struct fs_trace_wl *b);

#endif /* FEECSCOPE_TRACE_WORKLOAD_H */

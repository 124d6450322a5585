/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Energy accounting (docs/accounting.md): what each policy's placement of a
 * task costs against the reference's, charged for the CPU time the task
 * really used in that placement. Per task: the open placement, the energy
 * differences closed so far, the CPU time seen. Pure: no I/O; integer µW,
 * ns and fJ (fj.h).
 *
 * A placement starts at a wake-up and ends at the task's next wake-up, a
 * balance migration, its exit, the CPU-time reading that ends observation,
 * or the end of the trace. Its runtime r is the growth of the task's
 * se.sum_exec_runtime over it. Its ΔP_i (fs_system_power_uw with the task on
 * policy i's CPU minus on the reference's) is the power difference while the
 * task's utilization sits on the CPU; that utilization u implies the task
 * runs a share β = u·fmax / (cap·f) of the time there, so r ns of running
 * stand for r/β ns of the task's active time. ΔP_i is charged for
 *
 *     window = min(dt, r/β + tail)         tail = FS_PELT_TAIL_NS after a sleep
 *
 * Recordings without CPU times (format 1, records CSVs without sum_exec_ns)
 * take the wall-time estimate instead: window = dt.
 */
#ifndef FEECSCOPE_ACCOUNTING_H
#define FEECSCOPE_ACCOUNTING_H

#include <stdbool.h>
#include <stddef.h>
#include "fj.h"
#include "policy.h"

/*
 * The blocked-utilization tail: after the task sleeps its util_avg stays on
 * the CPU and decays by half every 32 PELT periods of 1024 × 1024 ns
 * (33.554 ms), holding the frequency up. Charging the full ΔP for
 * ∫ 2^(-t/h) dt = h / ln 2 bounds that decay's energy: 48.409 ms.
 */
#define FS_PELT_TAIL_NS 48408813ull

enum fs_interval_end {
	FS_END_WAKEUP = 0, /* the task's next wake-up: it slept, its tail counts */
	FS_END_MIGRATE,    /* a balance migration moved it (under every policy alike) */
	FS_END_EXIT,       /* sched_process_exit: nothing after */
	FS_END_OBSERVED,   /* its CPU time read when observation ended */
	FS_END_TRACE,      /* the last record of the trace, CPU time unknown */
	FS_END__NR
};
const char *fs_interval_end_name(enum fs_interval_end e);

/* What a wake-up's placement costs under each policy, and how its runtime converts to time. */
struct fs_placement {
	__u64 ts_ns;
	__u64 sum_exec_ns;          /* the task's CPU time at the wake-up, FS_NO_RUNTIME if unknown */
	__s32 run_cpu;              /* where it ran: the kernel's CPU, else the reference's */
	/* r/β = r × win_num / win_den: win_num = cap·f, win_den = u·fmax (u > 0, < cap·f/fmax) */
	__u64 win_num, win_den;     /* win_den 0: β taken as 1 */
	__s64 dp_uw[FS_MAX_POLICIES]; /* ΔP_i = P_i - P_0 */
};

/* A closed placement and what it charged. */
struct fs_interval {
	enum fs_interval_end end;
	__u64 start_ns;             /* the wake-up that started it */
	__s32 run_cpu;              /* the placement's run_cpu */
	__u64 dt_ns;                /* wall time it held */
	bool runtime_known;
	__u64 runtime_ns;           /* CPU time the task used in it (0 if unknown) */
	__u64 window_ns;            /* the time its ΔP is charged for */
	fs_fj_t de_fj[FS_MAX_POLICIES]; /* ΔP_i × window (the first nr_policies set) */
};

/* One task (thread) as the accounting knows it; a pid reused after exit gets a new one. */
struct fs_task_acct {
	__s32 pid, tgid;
	__u32 uid;                  /* FS_NO_UID if unknown */
	char comm[FS_COMM_LEN];
	bool open;                  /* pl holds an open placement */
	bool exited;
	struct fs_placement pl;
	__u64 last_sum_exec;        /* latest CPU time seen, FS_NO_RUNTIME if none */
	__u64 wakeups;
	__u64 runtime_ns;           /* CPU time observed: latest reading - first reading */
	fs_fj_t energy_fj[FS_MAX_POLICIES]; /* sum of de_fj */
	void *pending;              /* the pipeline's row for the open placement */
	/* since a balance migration: its CPU, time and the task's CPU time then (the CPUs' energy) */
	bool mig_open;
	__s32 mig_cpu;
	__u64 mig_ts, mig_sum_exec;
};

struct fs_acct;

struct fs_acct *fs_acct_new(int nr_policies);
void fs_acct_free(struct fs_acct *a);

/*
 * Is pid's current task t another task than the one waking with (tgid,
 * sum_exec)? It exited, or its tgid or CPU time says the pid was reused (an
 * exit record was lost). The caller ends t's placement and starts a new task.
 */
bool fs_acct_task_reused(const struct fs_task_acct *t, __s32 tgid, __u64 sum_exec);
/* A new task for pid, from now on pid's current one; NULL: out of memory. */
struct fs_task_acct *fs_acct_task_new(struct fs_acct *a, __s32 pid, __s32 tgid);
/* pid's current task, or NULL. */
struct fs_task_acct *fs_acct_task_find(struct fs_acct *a, __s32 pid);

/*
 * Start t's new placement pl; closes the open one first at pl->ts_ns with
 * pl->sum_exec_ns (end wakeup). Returns 1 with *closed filled if one
 * closed, else 0. The first placement of the run fixes the estimate: with a
 * CPU time, runtime-charged; without, wall time (fs_acct_wall_time()).
 */
int fs_acct_place(struct fs_acct *a, struct fs_task_acct *t, const struct fs_placement *pl,
		  struct fs_interval *closed);
/* End t's open placement at ts with CPU time sum_exec (FS_NO_RUNTIME: unknown). 1 if one closed. */
int fs_acct_end(struct fs_acct *a, struct fs_task_acct *t, __u64 ts, __u64 sum_exec,
		enum fs_interval_end end, struct fs_interval *closed);

/* The window of a placement closed after dt ns with runtime r (runtime_known) and end. */
__u64 fs_acct_window(const struct fs_placement *pl, __u64 dt, bool runtime_known, __u64 r,
		     enum fs_interval_end end, bool wall_time);

bool fs_acct_wall_time(const struct fs_acct *a);
/* Tasks in creation order (stable: the same records give the same order). */
size_t fs_acct_nr_tasks(const struct fs_acct *a);
struct fs_task_acct *fs_acct_task_at(struct fs_acct *a, size_t i);
const struct fs_task_acct *fs_acct_task_at_c(const struct fs_acct *a, size_t i);

struct fs_acct_totals {
	fs_fj_t energy_fj[FS_MAX_POLICIES]; /* sum over tasks */
	__u64 intervals;            /* closed placements */
	__u64 unresolved;           /* ... whose CPU time was unknown (charged nothing) */
	__u64 unresolved_ns;        /* their wall time */
	__u64 runtime_ns;           /* CPU time observed, all tasks */
	__u64 run_cpu_ns[FS_MAX_CPUS]; /* CPU time of closed placements, per CPU the tasks ran on */
};
/* The totals as of now (the energy sums are added up over the tasks on each call). */
const struct fs_acct_totals *fs_acct_totals(struct fs_acct *a);

/*
 * The CPU a policy's decision leaves the task on, for accounting: feec's CPU;
 * when feec returned -1 the kernel's fallback did the placing, so the
 * kernel's observed CPU if known, else prev_cpu.
 */
int fs_acct_effective_cpu(const struct fs_feec_result *r, const struct fs_wakeup *w);

/* dt for an interval [since, now]; out-of-order timestamps count as 0, never negative. */
static inline __u64 fs_acct_dt(__u64 since, __u64 now)
{
	return now > since ? now - since : 0;
}

/* System power under policy 0's placements as a step function between wake-ups (wall-time estimate). */
struct fs_acct_sys {
	bool open;
	__u64 since_ns;
	__u64 power_uw;
	fs_fj_t total_fj;
};
/* Close the current step at now (adding its energy) and start one at power_uw. */
void fs_acct_sys_step(struct fs_acct_sys *s, __u64 now, __u64 power_uw);
/* End of trace: close the current step at now. */
void fs_acct_sys_close(struct fs_acct_sys *s, __u64 now);

#endif /* FEECSCOPE_ACCOUNTING_H */

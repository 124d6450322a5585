/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One scheduler or power event of a kernel trace (docs/traces.md), as the
 * tracefs text parser (trace_text.c) and the trace.dat reader (trace_dat.c)
 * both hand it out, and as the workload builder (sim/trace_workload.c) takes
 * it. Plain data: no I/O here.
 */
#ifndef FEECSCOPE_TRACE_EVENT_H
#define FEECSCOPE_TRACE_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include "../record.h"

enum fs_tev_type {
	FS_TEV_SWITCH = 1,   /* sched_switch */
	FS_TEV_WAKING,       /* sched_waking */
	FS_TEV_WAKEUP,       /* sched_wakeup */
	FS_TEV_WAKEUP_NEW,   /* sched_wakeup_new */
	FS_TEV_MIGRATE,      /* sched_migrate_task */
	FS_TEV_FORK,         /* sched_process_fork */
	FS_TEV_EXIT,         /* sched_process_exit */
	FS_TEV_FREE,         /* sched_process_free */
	FS_TEV_NEWTASK,      /* task_newtask */
	FS_TEV_RENAME,       /* task_rename */
	FS_TEV_CPU_FREQ,     /* power:cpu_frequency */
	FS_TEV_CPU_IDLE,     /* power:cpu_idle */
	/*
	 * LISA's sched_tp module (lisa/_assets/kmodules/sched_tp, the
	 * pelt_se_tp / sched_util_est_se_tp tracepoints of v5.3+ made
	 * events): a sched_entity's PELT and util_est as the kernel updated
	 * them. A task group's entity has pid -1.
	 */
	FS_TEV_PELT_SE,      /* sched_pelt_se (sched_load_se before v5.3's module): util= (util_avg) */
	FS_TEV_UTIL_EST_SE,  /* sched_util_est_se: enqueued=, ewma=, util= */
	/*
	 * The same module's cfs_rq events (pelt_cfs_tp, v5.3+, and
	 * sched_util_est_cfs_tp, v5.10+): a cfs_rq's PELT and util_est. The
	 * root cfs_rq (the CPU's rq->cfs) has path "/" ("(null)" without
	 * CONFIG_FAIR_GROUP_SCHED); a task group's has its cgroup's path.
	 */
	FS_TEV_PELT_CFS,     /* sched_pelt_cfs (sched_load_cfs_rq before): util= */
	FS_TEV_UTIL_EST_CFS, /* sched_util_est_cfs: enqueued=, ewma=, util= */
	FS_TEV_LOST,         /* a "CPU:N [LOST N EVENTS]" line, or the reader's lost count */
	FS_TEV_NR_TYPES
};

/*
 * sched_switch's prev_state as the kernel stores it (v4.14+ TASK_REPORT
 * bits): 0 is runnable (R), FS_TSTATE_PREEMPTED (TASK_REPORT_MAX, printed
 * "+") a preempted task. Any bit in FS_TSTATE_SLEEP means it left the CPU
 * to sleep or die.
 */
#define FS_TSTATE_S         0x01
#define FS_TSTATE_D         0x02
#define FS_TSTATE_T         0x04
#define FS_TSTATE_t         0x08
#define FS_TSTATE_X         0x10
#define FS_TSTATE_Z         0x20
#define FS_TSTATE_P         0x40
#define FS_TSTATE_I         0x80
#define FS_TSTATE_SLEEP     0xff
#define FS_TSTATE_PREEMPTED 0x100

#define FS_TEV_CLONE_THREAD 0x00010000ull /* CLONE_THREAD in task_newtask's clone_flags */
#define FS_TEV_IDLE_EXIT    0xffffffffu   /* cpu_idle's state when leaving idle (PWR_EVENT_EXIT) */
#define FS_TEV_LOST_UNKNOWN (~0ull)       /* "[LOST EVENTS]" without a number */

struct fs_tev_task {
	char comm[FS_COMM_LEN];
	__s32 pid, prio;
};

struct fs_tev {
	__u64 ts_ns;
	__u32 type;                 /* enum fs_tev_type */
	__s32 cpu;                  /* the CPU whose buffer holds it */
	__s32 common_pid;           /* the task running there when it was emitted */
	__s32 common_tgid;          /* -1 unless the trace has the tgid column */
	char common_comm[FS_COMM_LEN];
	union {
		struct { struct fs_tev_task prev, next; __u32 prev_state; } sw;
		struct { struct fs_tev_task t; __s32 target_cpu; } wake;     /* waking, wakeup, wakeup_new */
		struct { struct fs_tev_task t; __s32 orig_cpu, dest_cpu; } mig;
		struct { struct fs_tev_task t; } proc;                        /* exit, free */
		struct { struct fs_tev_task parent, child; } fork;            /* prio unset (0) */
		struct { struct fs_tev_task t; __u64 clone_flags; __s32 oom_score_adj; } newtask;
		struct { __s32 pid; char oldcomm[FS_COMM_LEN], newcomm[FS_COMM_LEN]; } rename;
		struct { __u32 state; __s32 cpu_id; } power;                  /* kHz for cpu_frequency */
		/* pelt_se (util) and util_est_se (all three); prio unset (0) */
		struct { struct fs_tev_task t; __s32 cpu; __u32 util, enqueued, ewma; } pelt;
		/* pelt_cfs (util) and util_est_cfs (all three); root: the CPU's own cfs_rq */
		struct { __s32 cpu; bool root; __u32 util, enqueued, ewma; } cfs;
		struct { __u64 nr; } lost;                                    /* cpu: the CPU that lost them */
	};
};

/* The event's trace name ("sched_switch"), "?" for a type out of range. */
const char *fs_tev_name(__u32 type);
/*
 * The type of the event a trace names so, 0 for one we do not take: the
 * names above, LISA's older names and its lisa module's "lisa__" ones
 * (trace_text.c, the readers' one table).
 */
int fs_tev_type_of_name(const char *name);

/* What a reader saw besides the events it handed out. */
struct fs_trace_stats {
	__u64 lines;            /* text lines read (0 for trace.dat) */
	__u64 events;           /* events handed out (lost-events ones included) */
	__u64 unknown_events;   /* events of other kinds, skipped */
	__u64 lost_events;      /* sum of the lost counts (an unknown count adds 1) */
	__u64 lost_reports;     /* lost-events lines or records */
	char first_unknown[32]; /* the first skipped event's name */
};

/* Where a reader hands each event; non-zero stops the read (err set by it). */
typedef int (*fs_tev_fn)(void *ctx, const struct fs_tev *ev, char *err, size_t errlen);

#endif /* FEECSCOPE_TRACE_EVENT_H */

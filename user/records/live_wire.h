/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Collector-only wire records and counters, shared by the BPF collector (bpf/) and
 * the live source. They never reach the pipeline or a recording: the live
 * source folds them into the struct fs_wakeup records of user/record.h.
 */
#ifndef FEECSCOPE_LIVE_WIRE_H
#define FEECSCOPE_LIVE_WIRE_H

#include "record.h"

/* Types above the shared enum fs_rec_type so the two can never collide. */
enum fs_live_rec_type {
	FS_LREC_PLACE = 0x100, /* struct fs_lplace: where a waking task went */
};

enum fs_place_kind {
	FS_PLACE_MIGRATE = 1, /* sched_migrate_task while the task was TASK_WAKING */
	FS_PLACE_WAKEUP = 2,  /* sched_wakeup: task_cpu(p) after the enqueue */
	FS_PLACE_RUNNABLE = 3, /* sched_waking of a task still on_rq: ttwu_runnable(), no select, stays on cpu */
};

struct fs_lplace {
	struct fs_rec_hdr hdr;
	__s32 pid;
	__s32 cpu;      /* dest_cpu (migrate) or task_cpu(p) (wakeup) */
	__s32 orig_cpu; /* task_cpu(p) before the move (migrate), else = cpu */
	__u32 kind;     /* enum fs_place_kind */
};

/* Per-CPU counters (map "counters"), summed by userspace every interval. */
enum fs_live_counter {
	FS_CNT_LOST = 0,          /* bpf_ringbuf_output() failed: the record is gone */
	FS_CNT_WAKING,            /* sched_waking events seen */
	FS_CNT_NOT_FAIR,          /* waking task not in the fair class range (prio < 100) */
	FS_CNT_RUNNABLE,          /* task still on_rq at sched_waking: ttwu_runnable, no select */
	FS_CNT_NO_SELECT,         /* snapshot taken but select_task_rq_fair never ran (wakelist) */
	FS_CNT_RQ_UNKNOWN,        /* some CPU's struct rq not harvested yet: snapshot skipped */
	FS_CNT_SELF,              /* feecscope's own threads, skipped */
	FS_CNT_SNAPSHOT,          /* fs_wakeup snapshots emitted */
	FS_CNT_SNAPSHOT_SELECT,   /* of which taken at select_task_rq_fair (fentry) */
	FS_CNT_SELECT,            /* select_task_rq_fair entries seen (fentry) */
	FS_CNT_MIGRATE,           /* sched_migrate_task events */
	FS_CNT_WAKEUP,            /* sched_wakeup events */
	FS_CNT_WAKEUP_NEW,        /* sched_wakeup_new events */
	FS_CNT_ONLINE_OWN_RQ,     /* another CPU's online read from its rq, not the waker's rd */
	FS_CNT_BUSY_UNKNOWN_FREQ, /* cpu_frequency to a kHz the EM lacks: busy time to the unknown slot */
	/*
	 * Not counted by BPF: events the kernel did not run our programs for
	 * because one of them was already active on that CPU (an interrupt's
	 * wake-ups nested in our own sched_waking program, say). Userspace sums
	 * bpf_prog_info.recursion_misses (v5.12+; 0 before) into this slot.
	 */
	FS_CNT_NESTED,
	FS_CNT__NR
};

/*
 * The cost bench's histogram of snapshot times (map "self_hist", one per CPU;
 * hidden FS_BENCH_SELF_TIME=1): bucket k holds the snapshots that took
 * [k, k + 1) x FS_SELF_NS ns, the last one everything longer.
 */
#define FS_SELF_NS 8
#define FS_SELF_BUCKETS 2048
struct fs_self_hist {
	__u64 n[FS_SELF_BUCKETS];
};

/*
 * A CPU's busy time at each frequency (map "busy_cpu", bpf/busyfreq.bpf.c):
 * ns[slot] for the slots userspace numbered in map "busy_slot", ns[FS_BUSY_UNKNOWN]
 * for a frequency outside them or not known (no cpufreq). The span open
 * since start_ns (busy) is not in ns[] yet: the reader adds it.
 */
#define FS_BUSY_UNKNOWN FS_MAX_FREQS
struct fs_busy_cpu {
	__u64 start_ns;  /* the open span's start (or its last split) */
	__u32 busy;      /* 1: running a task, not the idle task */
	__u32 slot;      /* the slot of the frequency it runs at */
	__u32 khz;       /* that frequency (0: not known) */
	__u32 pad;
	__u64 ns[FS_BUSY_UNKNOWN + 1];
};

/*
 * A CPU's cpufreq policy for the FS_REC_FREQ records (map "freq_policy",
 * bpf/busyfreq.bpf.c), filled by userspace before attach: first is the
 * policy's first CPU + 1 (0: not known, the CPU stands for itself); khz, in
 * the entry of a policy's first CPU, the policy's frequency last recorded.
 */
struct fs_freq_policy {
	__u32 first;
	__u32 khz;
};

#endif /* FEECSCOPE_LIVE_WIRE_H */

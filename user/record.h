/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The records feecscope observes: one layout shared by the BPF collector
 * (bpf/), the live source, the recording/replay source and the engine, so a
 * recording replays through exactly the code that saw it live.
 *
 * Wire form: every record starts with struct fs_rec_hdr. A wake-up is sent
 * and stored as the prefix of struct fs_wakeup up to cpu[nr_cpus]
 * (fs_wakeup_size()); readers copy it into a zeroed struct fs_wakeup.
 * Fixed-width types only; all fields little-endian as the host writes them.
 */
#ifndef FEECSCOPE_RECORD_H
#define FEECSCOPE_RECORD_H

#ifndef __bpf__
#include <linux/types.h>
#include <stddef.h>
#endif

#define FS_MAX_CPUS 32 /* cpus_allowed is a __u64 mask; 32 covers every phone SoC */
#define FS_COMM_LEN 16

enum fs_rec_type {
	FS_REC_WAKEUP = 1,    /* struct fs_wakeup: what feec saw + where the kernel put the task */
	FS_REC_MIGRATE = 2,   /* struct fs_migrate: a task moved outside a wake-up (load balance, affinity) */
	FS_REC_OVERUTIL = 3,  /* struct fs_overutil: root domain overutilized flag changed */
	FS_REC_LOST = 4,      /* struct fs_lost: records the kernel could not deliver */
	FS_REC_EXIT = 5,      /* struct fs_task_time: the task exited (sched_process_exit) */
	FS_REC_RUNTIME = 6,   /* struct fs_task_time: a live task's CPU time when observation ended */
	FS_REC_CPUSTAT = 7,   /* struct fs_cpustat: every CPU's cumulative busy time */
	FS_REC_FREQSTAT = 8,  /* struct fs_freqstat: one cpufreq policy's time at each frequency */
	FS_REC_EM = 9,        /* struct fs_em_update: the kernel's EM changed at run time (v6.9+) */
	FS_REC_BUSYFREQ = 10, /* struct fs_busyfreq: one CPU's cumulative busy time at each frequency */
	FS_REC_FREQ = 11,     /* struct fs_freq: a cpufreq policy's frequency changed (power:cpu_frequency) */
};

/* sum_exec_ns / uid not known (records made before they were collected) */
#define FS_NO_RUNTIME (~0ull)
#define FS_NO_UID     (~0u)

struct fs_rec_hdr {
	__u16 type;  /* enum fs_rec_type */
	__u16 nr_cpus; /* FS_REC_WAKEUP: entries in cpu[]; else 0 */
	__u32 size;  /* bytes of this record on the wire, header included */
	__u64 ts_ns; /* CLOCK_BOOTTIME (bpf_ktime_get_boot_ns), the clock Perfetto uses */
};

/* fs_cpu.flags */
#define FS_CPU_ONLINE      (1u << 0) /* rq->online: attached to its root domain (cpu active) */
#define FS_CPU_IN_SD       (1u << 1) /* in the waker's sd_asym_cpucapacity span covering prev_cpu */
#define FS_CPU_RT_RUNNABLE (1u << 2) /* rt_rq_is_runnable(&rq->rt) */
#define FS_CPU_UCLAMP_IDLE (1u << 3) /* rq->uclamp_flags & UCLAMP_FLAG_IDLE */
#define FS_CPU_CURR_IS_P   (1u << 4) /* waker's CPU only: current == the waking task */
/* nr_running not read, left 0: every CPU but the waker's (records before this flag read all) */
#define FS_CPU_NO_NR_RUNNING (1u << 5)

/* One CPU's utilization landscape, read from its struct rq at the snapshot (FS_WAKE_AT_SELECT). */
struct fs_cpu {
	__u64 cfs_last_update_time; /* rq->cfs.avg.last_update_time */
	__u64 dl_running_bw;        /* rq->dl.running_bw (BW_SHIFT = 20 fixed point) */
	__u32 util_avg;             /* rq->cfs.avg.util_avg */
	__u32 util_est;             /* rq->cfs.avg.util_est(.enqueued), UTIL_AVG_UNCHANGED masked off */
	__u32 runnable_avg;         /* rq->cfs.avg.runnable_avg (v6.5 boost) */
	__u32 rt_util;              /* rq->avg_rt.util_avg   (cpu_util_rt) */
	__u32 dl_util;              /* rq->avg_dl.util_avg   (cpu_util_dl) */
	__u32 irq_util;             /* rq->avg_irq.util_avg  (cpu_util_irq), 0 without IRQ time accounting */
	__u32 capacity;             /* rq->cpu_capacity      (capacity_of) */
	__u32 capacity_orig;        /* arch_scale_cpu_capacity (rq->cpu_capacity_orig before v6.8) */
	__u32 thermal_pressure;     /* arch_scale_thermal_pressure(cpu), instantaneous (<= v6.9) */
	__u32 hw_load_avg;          /* rq->avg_thermal/avg_hw .load_avg (v5.7+) */
	__u32 cpufreq_pressure;     /* cpufreq_get_pressure(cpu) (v6.10+) */
	__u32 nr_running;           /* rq->nr_running */
	__u16 uclamp_min;           /* rq->uclamp[UCLAMP_MIN].value (0 with FS_WAKE_NO_UCLAMP) */
	__u16 uclamp_max;           /* rq->uclamp[UCLAMP_MAX].value (1024 with FS_WAKE_NO_UCLAMP) */
	__u32 flags;                /* FS_CPU_* */
};

/* fs_wakeup.flags */
#define FS_WAKE_OVERUTILIZED (1u << 0) /* waker's rq->rd->overutilized was set */
#define FS_WAKE_NO_PD        (1u << 1) /* rd->pd == NULL (EAS off) as seen by the collector */
#define FS_WAKE_NO_ASYM      (1u << 2) /* no sd_asym_cpucapacity domain spans prev_cpu */
#define FS_WAKE_FORK         (1u << 3) /* sched_wakeup_new: no feec (WF_FORK) */
#define FS_WAKE_SYNC         (1u << 4) /* WF_SYNC (only when the collector knows wake flags) */
#define FS_WAKE_FLAGS_KNOWN  (1u << 5) /* FS_WAKE_SYNC and FS_WAKE_CURRENT_CPU are meaningful */
#define FS_WAKE_UCLAMP_USED  (1u << 6) /* uclamp_is_used() */
#define FS_WAKE_UTIL_EST_OFF (1u << 7) /* sched_feat(UTIL_EST) off */
#define FS_WAKE_EAS_UNKNOWN  (1u << 8) /* collector could not read rd/sd; gates taken from the EM only */
/*
 * Kernel built without CONFIG_UCLAMP_TASK: every uclamp field of the record is
 * "none" (its value is the no-clamp default 0 / 1024). Records without the bit
 * come from a kernel with uclamp or from a collector that did not say.
 */
#define FS_WAKE_NO_UCLAMP    (1u << 9)
/*
 * The snapshot was taken at the entry of select_task_rq_fair() (fentry), so
 * hdr.ts_ns is when feec ran; without the bit, at sched_waking (the window to
 * feec includes the waker's wait for p to leave its old CPU).
 */
#define FS_WAKE_AT_SELECT    (1u << 10)
/*
 * select_task_rq_fair() returned the waker's CPU before feec (v6.6+
 * WF_CURRENT_CPU, the waker's CPU in p->cpus_ptr). Set only with
 * FS_WAKE_FLAGS_KNOWN. (Bit 31 is the engine's FS_WAKE_OU_EMULATED.)
 */
#define FS_WAKE_CURRENT_CPU  (1u << 11)

/* The waking task's PELT state, before feec's sync_entity_load_avg(). */
struct fs_task {
	__u64 last_update_time;       /* p->se.avg.last_update_time */
	__u64 cfs_rq_last_update_time;/* cfs_rq_of(&p->se)->avg.last_update_time: the decay target */
	__u32 util_sum;               /* p->se.avg.util_sum */
	__u32 period_contrib;         /* p->se.avg.period_contrib */
	__u32 util_avg;               /* p->se.avg.util_avg */
	__u32 util_est_enqueued;      /* p->se.avg.util_est.enqueued, flag masked (v6.8+: = util_est) */
	__u32 util_est_ewma;          /* p->se.avg.util_est.ewma, flag masked (v6.8+: = util_est) */
	__u16 uclamp_min;             /* uclamp_eff_value(p, UCLAMP_MIN): task request in its cgroup's
				       * range, under the system default; 0 without uclamp */
	__u16 uclamp_max;             /* uclamp_eff_value(p, UCLAMP_MAX); 1024 without uclamp */
	__u32 runnable_avg;           /* p->se.avg.runnable_avg (v5.7+; 0 before) */
	__u64 runnable_sum;           /* p->se.avg.runnable_sum (v5.7+; 0 before) */
};

struct fs_wakeup {
	struct fs_rec_hdr hdr;
	__s32 pid, tgid;
	char comm[FS_COMM_LEN];
	__s32 prev_cpu;        /* p->wake_cpu: feec's prev_cpu */
	__s32 task_cpu;        /* task_cpu(p): where p's utilization still counts */
	__s32 waker_cpu;       /* smp_processor_id() in try_to_wake_up(): its rq->rd and sd are feec's */
	__s32 chosen_cpu;      /* the CPU the kernel placed p on; -1 if unknown */
	__u64 cpus_allowed;    /* p->cpus_ptr as a bitmask */
	__u32 nr_cpus_allowed; /* p->nr_cpus_allowed */
	__u32 flags;           /* FS_WAKE_* */
	__u64 decided_ns;      /* ts of the event that told chosen_cpu (0 = unknown) */
	__u64 sum_exec_ns;     /* p->se.sum_exec_runtime at the snapshot (exact: p is not running) */
	__u32 uid;             /* task_uid(p) (real uid), FS_NO_UID if unknown */
	__u32 pad;
	struct fs_task task;
	struct fs_cpu cpu[FS_MAX_CPUS];
};

/* fs_migrate.reason */
#define FS_MIG_BALANCE 1 /* sched_migrate_task outside a wake-up */
#define FS_MIG_WAKEUP  2 /* sched_migrate_task inside a wake-up (also folded into its fs_wakeup) */

struct fs_migrate {
	struct fs_rec_hdr hdr;
	__s32 pid;
	__s32 orig_cpu;
	__s32 dest_cpu;
	__u32 reason;
	__u64 sum_exec_ns; /* p->se.sum_exec_runtime (p is queued, not running: exact), or FS_NO_RUNTIME */
};

struct fs_overutil {
	struct fs_rec_hdr hdr;
	__u32 overutilized; /* 0/1 */
	__u32 pad;
};

struct fs_lost {
	struct fs_rec_hdr hdr;
	__u64 count; /* records the kernel dropped (ring buffer full) since the previous fs_lost */
};

/*
 * FS_REC_EXIT: at sched_process_exit p is still current, so sum_exec_ns lags
 * by the time since its last scheduler update (at most one tick).
 * FS_REC_RUNTIME: read from /proc/<tgid>/task/<pid>/schedstat when live ends.
 */
struct fs_task_time {
	struct fs_rec_hdr hdr;
	__s32 pid, tgid;
	__u64 sum_exec_ns;
	char comm[FS_COMM_LEN];
};

/* fs_cpustat.source */
#define FS_CPUSTAT_SCHEDSTAT 1 /* /proc/schedstat rq_cpu_time: ns the CPU ran tasks */
#define FS_CPUSTAT_PROC_STAT 2 /* /proc/stat: busy ticks (all but idle and iowait) x 1e9 / USER_HZ */

struct fs_cpustat {
	struct fs_rec_hdr hdr;
	__u32 nr_cpus;                /* entries of busy_ns used */
	__u32 source;                 /* FS_CPUSTAT_* */
	__u64 busy_ns[FS_MAX_CPUS];   /* cumulative since boot */
};

#define FS_MAX_FREQS 64

struct fs_freq_time {
	__u32 khz;
	__u32 pad;
	__u64 ns;   /* cumulative time at khz (cpufreq stats/time_in_state: 1/USER_HZ s units, in ns) */
};

struct fs_freqstat {
	struct fs_rec_hdr hdr;
	__s32 cpu;    /* the cpufreq policy's first CPU */
	__u32 nr;     /* entries of st used */
	struct fs_freq_time st[FS_MAX_FREQS];
};

/*
 * FS_REC_BUSYFREQ: one CPU's busy time (a task other than its idle task
 * running) at each frequency, cumulative since the collector started
 * (bpf/busyfreq.bpf.c): st[] at the frequencies of the EM, ascending;
 * unknown_ns at a frequency outside them or not known (no cpufreq). The
 * layout of fs_freqstat up to st[], so the two share their codecs.
 */
struct fs_busyfreq {
	struct fs_rec_hdr hdr;
	__s32 cpu;
	__u32 nr;     /* entries of st used, 0..FS_MAX_FREQS */
	struct fs_freq_time st[FS_MAX_FREQS];
	__u64 unknown_ns;
};

/*
 * FS_REC_FREQ: from hdr.ts_ns on the cpufreq policy of CPU cpu runs at khz
 * (bpf/busyfreq.bpf.c, at power:cpu_frequency, which the kernel traces once
 * for each CPU of the policy after a change: one record per policy and
 * frequency). cpu is the policy's first CPU (related_cpus), or the traced CPU
 * where userspace did not know the policy. The collector also writes one per
 * policy at its start, the frequency cpufreq reported then.
 */
struct fs_freq {
	struct fs_rec_hdr hdr;
	__s32 cpu;
	__u32 khz;
};

/*
 * FS_REC_EM: the observed kernel's EM as it is from hdr.ts_ns on, in the
 * `feecscope em --save` text form (same PDs, CPUs and states as the
 * recording's EM; power, cost, performance and inefficient may differ).
 * Variable size: hdr.size = offsetof(struct fs_em_update, text) + len.
 */
#define FS_EM_TEXT_MAX (60 * 1024)

struct fs_em_update {
	struct fs_rec_hdr hdr;
	__u32 len; /* bytes of text, no NUL */
	__u32 pad;
	char text[FS_EM_TEXT_MAX];
};

#ifndef __bpf__
static inline size_t fs_wakeup_size(unsigned int nr_cpus)
{
	return offsetof(struct fs_wakeup, cpu) + (size_t)nr_cpus * sizeof(struct fs_cpu);
}
#endif

#endif /* FEECSCOPE_RECORD_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Placement and migration: where the kernel put a woken task (sched_wakeup,
 * sched_migrate_task while TASK_WAKING), load-balance moves, and the root
 * domain's overutilized switches.
 */
#include "feecscope.bpf.h"

static __always_inline int on_migrate(bool btf, struct task_struct *p, int dest_cpu)
{
	count(FS_CNT_MIGRATE);
	if (skip_task(btf, p))
		return 0;
	if (task_state(btf, p) & TASK_WAKING_BIT) {
		EMIT(struct fs_lplace,
		     .hdr = { .type = FS_LREC_PLACE, .size = sizeof(struct fs_lplace),
			      .ts_ns = bpf_ktime_get_boot_ns() },
		     .pid = TASK_READ(btf, p, pid),
		     .cpu = dest_cpu,
		     .orig_cpu = task_cpu_of(btf, p),
		     .kind = FS_PLACE_MIGRATE);
	} else {
		EMIT(struct fs_migrate,
		     .hdr = { .type = FS_REC_MIGRATE, .size = sizeof(struct fs_migrate),
			      .ts_ns = bpf_ktime_get_boot_ns() },
		     .pid = TASK_READ(btf, p, pid),
		     .orig_cpu = task_cpu_of(btf, p),
		     .dest_cpu = dest_cpu,
		     .reason = FS_MIG_BALANCE,
		     .sum_exec_ns = TASK_READ(btf, p, se.sum_exec_runtime));
	}
	return 0;
}

static __always_inline int on_wakeup(bool btf, struct task_struct *p)
{
	int cpu;

	count(FS_CNT_WAKEUP);
	if (skip_task(btf, p))
		return 0;
	cpu = task_cpu_of(btf, p);
	EMIT(struct fs_lplace,
	     .hdr = { .type = FS_LREC_PLACE, .size = sizeof(struct fs_lplace),
		      .ts_ns = bpf_ktime_get_boot_ns() },
	     .pid = TASK_READ(btf, p, pid),
	     .cpu = cpu,
	     .orig_cpu = cpu,
	     .kind = FS_PLACE_WAKEUP);
	return 0;
}

static __always_inline int on_overutilized(bool overutilized)
{
	EMIT(struct fs_overutil,
	     .hdr = { .type = FS_REC_OVERUTIL, .size = sizeof(struct fs_overutil),
		      .ts_ns = bpf_ktime_get_boot_ns() },
	     .overutilized = overutilized);
	return 0;
}

/* Typed and BTF-enabled attach points (kernel BTF present). */
SEC("tp_btf/sched_wakeup")
int BPF_PROG(tp_btf_sched_wakeup, struct task_struct *p) { return on_wakeup(true, p); }

SEC("tp_btf/sched_migrate_task")
int BPF_PROG(tp_btf_sched_migrate_task, struct task_struct *p, int dest_cpu) { return on_migrate(true, p, dest_cpu); }

SEC("tp_btf/sched_overutilized_tp")
int BPF_PROG(tp_btf_sched_overutilized, struct root_domain *rd, bool ou) { return on_overutilized(ou); }

/* Raw tracepoints: kernels without BTF (CO-RE from --btf FILE). */
SEC("raw_tp/sched_wakeup")
int BPF_PROG(raw_sched_wakeup, struct task_struct *p) { return on_wakeup(false, p); }

SEC("raw_tp/sched_migrate_task")
int BPF_PROG(raw_sched_migrate_task, struct task_struct *p, int dest_cpu) { return on_migrate(false, p, dest_cpu); }

SEC("raw_tp/sched_overutilized_tp")
int BPF_PROG(raw_sched_overutilized, struct root_domain *rd, bool ou) { return on_overutilized(ou); }

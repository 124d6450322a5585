/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Struct flavours for fields that moved, changed type or exist only with some
 * configs. libbpf matches "name___suffix" to the kernel's "name", so each
 * access below is guarded by bpf_core_field_exists() and costs nothing when
 * the kernel lacks it (the dead branch is removed by the verifier).
 */
#ifndef FEECSCOPE_CORE_FIXES_BPF_H
#define FEECSCOPE_CORE_FIXES_BPF_H

/* v5.13 - v6.7: util_est is a struct; v6.8 (11137d384996) made it one unsigned int. */
struct util_est___old {
	unsigned int enqueued;
	unsigned int ewma;
} __attribute__((preserve_access_index));

struct sched_avg___old {
	struct util_est___old util_est;
} __attribute__((preserve_access_index));

/* v6.8+: one word, so this builds against either vmlinux.h (x86 6.18, arm64 6.1). */
struct sched_avg___new {
	unsigned int util_est;
} __attribute__((preserve_access_index));

/* up to v6.7: rq->cpu_capacity_orig; v6.8 uses arch_scale_cpu_capacity() instead. */
struct rq___capacity_orig {
	unsigned long cpu_capacity_orig;
} __attribute__((preserve_access_index));

/* v5.7 - v6.9 (CONFIG_SCHED_THERMAL_PRESSURE): rq->avg_thermal; v6.10 renamed it avg_hw. */
struct rq___thermal {
	struct sched_avg avg_thermal;
} __attribute__((preserve_access_index));

struct rq___hw {
	struct sched_avg avg_hw;
} __attribute__((preserve_access_index));

/* CONFIG_UCLAMP_TASK only (v5.3+): per-rq max-aggregated clamps and the idle flag. */
struct uclamp_rq___fs {
	unsigned int value;
} __attribute__((preserve_access_index));

struct rq___uclamp {
	struct uclamp_rq___fs uclamp[2];
	unsigned int uclamp_flags;
} __attribute__((preserve_access_index));

struct uclamp_se___fs {
	unsigned int value : 11;
	unsigned int bucket_id : 5;
	unsigned int active : 1;
	unsigned int user_defined : 1;
} __attribute__((preserve_access_index));

/* uclamp[] is the last effective clamp (valid while active), uclamp_req[] the request. */
struct task_struct___uclamp {
	struct uclamp_se___fs uclamp_req[2];
	struct uclamp_se___fs uclamp[2];
} __attribute__((preserve_access_index));

/* CONFIG_CGROUP_SCHED: task_group(p) is p->sched_task_group. */
struct task_struct___tg {
	struct task_group *sched_task_group;
} __attribute__((preserve_access_index));

/*
 * CONFIG_UCLAMP_TASK_GROUP: tg->uclamp[] holds the group's effective clamps;
 * CONFIG_SCHED_AUTOGROUP: tg->autogroup is set on autogroups.
 */
struct task_group___uclamp {
	struct uclamp_se___fs uclamp[2];
	struct task_group *parent;
} __attribute__((preserve_access_index));

struct task_group___autogroup {
	void *autogroup;
} __attribute__((preserve_access_index));

/* before v5.14: p->state was a long; v5.14 renamed it __state (unsigned int). */
struct task_struct___state {
	long state;
} __attribute__((preserve_access_index));

/* v5.16+ on THREAD_INFO_IN_TASK arches: task_cpu() reads p->cpu, not thread_info.cpu. */
struct task_struct___cpu {
	unsigned int cpu;
} __attribute__((preserve_access_index));

/* before v5.3: p->cpus_allowed was the mask itself (no cpus_ptr). */
struct task_struct___cpus_allowed {
	cpumask_t cpus_allowed;
} __attribute__((preserve_access_index));

/* v5.11+: p->migration_disabled (is_migration_disabled()). */
struct task_struct___migdis {
	unsigned short migration_disabled;
} __attribute__((preserve_access_index));

/* v5.7+: runnable_avg (the v6.5 boost input) and runnable_sum; before, runnable_load_*. */
struct sched_avg___runnable {
	unsigned long long runnable_sum;
	unsigned long runnable_avg;
} __attribute__((preserve_access_index));

/* CONFIG_HAVE_SCHED_AVG_IRQ only. */
struct rq___irq {
	struct sched_avg avg_irq;
} __attribute__((preserve_access_index));

/*
 * rd->span and rd->online are cpumask_var_t: a pointer with
 * CONFIG_CPUMASK_OFFSTACK, else struct cpumask[1]. libbpf matches a field
 * only where its kind (pointer or array) agrees, so exactly one exists.
 */
struct root_domain___offstack {
	struct cpumask *span;
	struct cpumask *online;
} __attribute__((preserve_access_index));

struct root_domain___onstack {
	struct cpumask span[1];
	struct cpumask online[1];
} __attribute__((preserve_access_index));

#endif /* FEECSCOPE_CORE_FIXES_BPF_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * The struct rq harvest: every CPU's rq address into rq_addr[], learnt from
 * running tasks or, where `runqueues` resolves, from the ksym at once.
 * Userspace detaches these once every CPU is known.
 */
#include "feecscope.bpf.h"

/* Learn this CPU's struct rq from a task running on it. */
static __always_inline void harvest(struct rq *rq)
{
	__u32 cpu = bpf_get_smp_processor_id();

	if (!rq || cpu >= FS_MAX_CPUS || BPF_CORE_READ(rq, cpu) != (int)cpu)
		return;
	barrier_var(cpu); /* the verifier's bound, in the register it indexes with */
	cpu &= FS_MAX_CPUS - 1;
	if (!rq_addr[cpu])
		rq_addr[cpu] = (__u64)rq;
}

/* rq harvest: current task's cfs_rq->rq (CONFIG_FAIR_GROUP_SCHED), run until every CPU is known. */
SEC("raw_tp/sched_switch")
int BPF_PROG(harvest_sched_switch)
{
	struct task_struct *t = (void *)bpf_get_current_task();

	if (bpf_core_field_exists(t->se.cfs_rq))
		harvest(BPF_CORE_READ(t, se.cfs_rq, rq));
	return 0;
}

/* Without FAIR_GROUP_SCHED the only cfs_rq is &rq->cfs: container_of it. */
SEC("raw_tp/pelt_cfs_tp")
int BPF_PROG(harvest_pelt_cfs, struct cfs_rq *cfs_rq)
{
	if (bpf_core_field_exists(cfs_rq->rq))
		harvest(BPF_CORE_READ(cfs_rq, rq));
	else
		harvest((void *)cfs_rq - bpf_core_field_offset(struct rq, cfs));
	return 0;
}

/* Where `runqueues` is in kallsyms (CONFIG_KALLSYMS_ALL), the ksym gives every CPU at once. */
static __always_inline int harvest_ksym_cpu(__u32 cpu)
{
	struct rq *rq;

	if (cpu >= nr_cpus || cpu >= FS_MAX_CPUS)
		return 1;
	rq = bpf_per_cpu_ptr(&runqueues, cpu);
	/* clang drops the mask, knowing cpu's bound: the verifier learnt it on another register */
	barrier_var(cpu);
	if (rq)
		rq_addr[cpu & (FS_MAX_CPUS - 1)] = (__u64)rq;
	return 0;
}

static int harvest_ksym_cb(__u32 cpu, void *ctx)
{
	return harvest_ksym_cpu(cpu);
}

/* v5.17+ (bpf_loop): the verifier checks the body once, whatever the CPU count. */
SEC("?raw_tp/sched_switch")
int BPF_PROG(harvest_ksym_loop)
{
	bpf_loop(FS_MAX_CPUS, harvest_ksym_cb, NULL, 0);
	return 0;
}

/* Before v5.17: a bounded loop (the v6.12+ verifier called the previous form infinite). */
SEC("?raw_tp/sched_switch")
int BPF_PROG(harvest_ksym)
{
	__u32 i;

#pragma clang loop unroll(disable)
	for (i = 0; i < FS_MAX_CPUS; i++)
		if (harvest_ksym_cpu(i))
			break;
	return 0;
}

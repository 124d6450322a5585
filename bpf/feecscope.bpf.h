/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every part of the collector shares: the settings and maps state.bpf.c
 * defines (declared extern here, one definition each after linking), the
 * snapshot scratch, the ring and counter helpers and the task readers.
 * Every part only collects: no policy here, every drop counted.
 */
#ifndef FEECSCOPE_BPF_H
#define FEECSCOPE_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "record.h"
#include "records/live_wire.h"
#include "core_fixes.bpf.h"

#define MAX_RT_PRIO      100        /* p->prio below this: RT or DL, not feec's business */
#define TASK_WAKING_BIT  0x0200     /* TASK_WAKING, unchanged v5.0 - v7.1 */
#define UTIL_AVG_UNCHANGED_MSB 0x80000000u /* v5.13+: flag in the MSB of util_est */
#define SCHED_CAPACITY_SCALE 1024
#define MAX_SD_LEVELS    8
#define UCLAMP_FLAG_IDLE 0x01

/* Settings and state shared by several parts, defined in state.bpf.c. */
extern const volatile __u32 nr_cpus;
extern const volatile __s32 self_tgid;
extern const volatile __u64 wakeup_bytes;
extern bool uclamp_seen;
extern __u64 rq_addr[FS_MAX_CPUS];

/* A clamp other than the defaults 0 / 1024 proves sched_uclamp_used on. */
static __always_inline void note_clamps(__u32 min, __u32 max)
{
	if (min || max != SCHED_CAPACITY_SCALE)
		uclamp_seen = true;
}

/* A CPU's ring: the template of the inner maps of rings (state.bpf.c). */
struct fs_ring {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 << 10); /* the template; each CPU's ring has its own size */
};

/* The map types of state.bpf.c's maps: one definition, extern elsewhere. */
struct fs_rings_map {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, FS_MAX_CPUS);
	__type(key, __u32);
	__array(values, struct fs_ring);
};

struct fs_counters_map {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FS_CNT__NR);
	__type(key, __u32);
	__type(value, __u64);
};

/*
 * Kernel objects are copied in a few contiguous windows instead of one probe
 * read per field: each bpf_probe_read_kernel() is a helper call with its own
 * fault-guarded copy, and the fields read per CPU sit in a handful of runs of
 * nearby cache lines. A copy keeps the kernel's layout (every field lands at
 * its own offset), so the fields are then picked out with plain CO-RE
 * accesses on the copy. The *_COPY_MAX sizes bound every offset for the
 * verifier; a run wider than COPY_SPAN_MAX on some kernel is read field by
 * field instead, so no window ever drags in kilobytes nobody reads.
 */
#define RQ_COPY_MAX   8192 /* struct rq: 3.5 KiB on 6.18 x86, 3.3 KiB on Debian 6.1 arm64 */
#define AVG_COPY_MAX  256  /* struct sched_avg: one cache line */
#define COPY_SPAN_MAX 1024 /* a read's bound: se.avg 64 B; an rq run ~320 B here (6.18 x86) */
#define RQ_RUNS_MAX   12   /* struct rq runs (5 here); past it the last run grows */

/*
 * The snapshot being built on this CPU. With fentry on select_task_rq_fair,
 * sched_waking only parks the pid here and the snapshot is taken at select.
 */
struct pending {
	__s32 pid;
	__u32 valid;
	__u64 task;             /* the waking task, compared with current */
	__u64 rd, sd;           /* the waker's rq->rd and rq->sd, once waker_known */
	__u32 waker_known;
	__u32 rd_masks_known;   /* rd_span and rd_online were read */
	__u64 rd_span;          /* the waker's rd->span, CPUs 0-63 */
	__u64 rd_online;        /* the waker's rd->online, CPUs 0-63 */
	/* the struct rq runs to copy, [RQ_PLAN_WAKER] and [RQ_PLAN_OTHER] (plan_rq_runs()) */
	__u32 rq_runs[2];       /* entries of rq_run_*[plan]: 0 until planned on this CPU */
	__u16 rq_run_lo[2][RQ_RUNS_MAX], rq_run_len[2][RQ_RUNS_MAX];
	struct fs_wakeup w;
	__u8 rq[RQ_COPY_MAX];   /* one CPU's struct rq windows, at the kernel's offsets */
	__u8 avg[AVG_COPY_MAX]; /* the waking task's se.avg fields, at the kernel's offsets */
};

struct fs_scratch_map {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pending);
};

extern struct fs_rings_map rings SEC(".maps");
extern struct fs_counters_map counters SEC(".maps");
extern struct fs_scratch_map scratch SEC(".maps");

/* This CPU's scratch snapshot (before v5.12 a global function cannot take it as an argument). */
static __always_inline struct pending *scratch_snapshot(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&scratch, &zero);
}

static __always_inline void count_n(__u32 idx, __u64 n)
{
	__u64 *v = bpf_map_lookup_elem(&counters, &idx);

	if (v)
		*v += n;
}

static __always_inline void count(__u32 idx)
{
	count_n(idx, 1);
}

/*
 * Wake the reader only once the buffer is a quarter full: a wake-up per
 * record would make feecscope's own thread the busiest waker on the system.
 * The reader also drains on a short timer.
 */
static __always_inline __u64 wake_flag(void *ring)
{
	return bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA) >= wakeup_bytes ?
	       BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

/* This CPU's ring (NULL only if userspace did not install it: counted as lost). */
static __always_inline void *my_ring(void)
{
	__u32 cpu = bpf_get_smp_processor_id();

	return bpf_map_lookup_elem(&rings, &cpu);
}

static __always_inline void output(void *data, __u64 size)
{
	void *ring = my_ring();

	if (!ring || bpf_ringbuf_output(ring, data, size, wake_flag(ring)))
		count(FS_CNT_LOST);
}

/* A small fixed-size record of type T, written in place in the ring buffer. */
#define EMIT(T, ...) do {						\
	void *ring_ = my_ring();					\
	__u64 flags_;							\
	T *r_;								\
									\
	if (!ring_) {							\
		count(FS_CNT_LOST);					\
		break;							\
	}								\
	flags_ = wake_flag(ring_);					\
	r_ = bpf_ringbuf_reserve(ring_, sizeof(T), 0);			\
	if (!r_) {							\
		count(FS_CNT_LOST);					\
		break;							\
	}								\
	*r_ = (T){ __VA_ARGS__ };					\
	bpf_ringbuf_submit(r_, flags_);					\
} while (0)

static __always_inline struct rq *rq_of(__u32 cpu)
{
	return cpu < FS_MAX_CPUS ? (struct rq *)rq_addr[cpu] : NULL;
}

/*
 * How a snapshot reads the other CPUs' struct rq, a literal in each program:
 * RQ_COPY copies the wanted fields' cache lines with bpf_probe_read_kernel()
 * into the scratch and picks them from the copy (any kernel, raw_tp too);
 * RQ_CAST and RQ_KSYM load each wanted field straight from the rq through a
 * BTF pointer (one fault-safe instruction per field: no helper call, no copy,
 * only the wanted bytes). The pointer comes from bpf_rdonly_cast() of the
 * harvested address (a kfunc, v6.2+) or from bpf_per_cpu_ptr() on the
 * `runqueues` ksym (its BTF VAR and its kallsyms address). Each has its own
 * programs: a kfunc or ksym the kernel cannot resolve fails the load of every
 * program that holds it, even in code the verifier would prune. Userspace
 * picks the set (user/source/live_bpf.c).
 */
enum rq_read { RQ_COPY, RQ_CAST, RQ_KSYM };

/*
 * Other CPUs per call of landscape_others*() (a power of two dividing
 * FS_MAX_CPUS). Where fields are loaded, eight: a phone's CPUs in one call,
 * whose fixed part (scratch lookup, the batch's mask, eight casts) is paid
 * once; the verifier walks the longer body once per program. The copies
 * stay at one: each CPU's read_cpu() call is one more walk of it per
 * program, which costs more start-up than the batch saves. docs/lab.md
 * (Cost, batches; Cost, the kernel's guard) has the figures.
 */
#define OTHERS_BATCH(how) ((how) == RQ_COPY ? 1 : 8)

extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym __weak;
/* Where `runqueues` is in kallsyms (CONFIG_KALLSYMS_ALL) and BTF: every CPU's rq. */
extern const struct rq runqueues __ksym __weak;

/*
 * The landscape readers (landscape.bpf.c): global functions, so each is
 * verified once per program that calls it, with its CPU unknown.
 */
int landscape_waker_copy(__u32 cpu);
int landscape_waker_cast(__u32 cpu);
int landscape_waker_ksym(__u32 cpu);
int landscape_others_copy(__u32 first, __u32 waker, __u32 end);
int landscape_others_cast(__u32 first, __u32 waker, __u32 end);
int landscape_others_ksym(__u32 first, __u32 waker, __u32 end);

/*
 * A task_struct field. tp_btf programs get p as a BTF pointer the verifier
 * lets them load from directly (one fault-safe instruction); raw_tp ones get
 * a plain number and must probe-read. btf is a literal in every program, so
 * each one is built with one form only.
 */
#define TASK_READ(btf, p, f) ((btf) ? (p)->f : BPF_CORE_READ(p, f))
/*
 * An integer field whose width differs between kernels (p->on_rq: int up to
 * v7.1, u8 from v7.2): the bitfield readers take the width from the kernel's
 * BTF, where a plain access of the vmlinux.h type would be refused.
 */
#define TASK_READ_INT(btf, task, f) ({				\
	struct task_struct *t_ = (task); /* not "p": the macros below use it */	\
	(btf) ? BPF_CORE_READ_BITFIELD(t_, f) : BPF_CORE_READ_BITFIELD_PROBED(t_, f); })

static __always_inline int task_cpu_of(bool btf, struct task_struct *p)
{
	struct task_struct___cpu *pc = (void *)p;

	if (bpf_core_field_exists(pc->cpu)) /* v5.16+ */
		return TASK_READ(btf, pc, cpu);
	return TASK_READ(btf, p, thread_info.cpu);
}

static __always_inline __u64 task_state(bool btf, struct task_struct *p)
{
	struct task_struct___state *ps = (void *)p;

	if (bpf_core_field_exists(p->__state)) /* v5.14+ */
		return TASK_READ(btf, p, __state);
	return TASK_READ(btf, ps, state);
}

static __always_inline bool skip_task(bool btf, struct task_struct *p)
{
	if (TASK_READ(btf, p, tgid) == self_tgid) {
		count(FS_CNT_SELF);
		return true;
	}
	if (TASK_READ(btf, p, prio) < MAX_RT_PRIO) {
		count(FS_CNT_NOT_FAIR);
		return true;
	}
	return false;
}

#endif /* FEECSCOPE_BPF_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * feecscope collector: snapshot what find_energy_efficient_cpu() will see (the
 * task's PELT state and every CPU's struct rq landscape) at the fentry of
 * select_task_rq_fair() where that program runs, else at sched_waking; at
 * sched_migrate_task / sched_wakeup, tell where the kernel put the task.
 * Collect only: no policy here, every drop counted.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "record.h"
#include "records/live_wire.h"
#include "core_fixes.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define MAX_RT_PRIO      100        /* p->prio below this: RT or DL, not feec's business */
#define TASK_WAKING_BIT  0x0200     /* TASK_WAKING, unchanged v5.0 - v7.1 */
#define UTIL_AVG_UNCHANGED_MSB 0x80000000u /* v5.13+: flag in the MSB of util_est */
#define SCHED_CAPACITY_SCALE 1024
#define MAX_SD_LEVELS    8
#define UCLAMP_FLAG_IDLE 0x01

/* Set by userspace before load. */
const volatile __u32 nr_cpus = 1;         /* possible CPUs, <= FS_MAX_CPUS */
const volatile __s32 self_tgid = 0;       /* feecscope itself: not observed */
const volatile __u32 select_nargs = 0;    /* 0: no fentry on select_task_rq_fair; else 3 (v5.11+) or 4 */
/*
 * Set by userspace once the fentry program is attached: until then (and for
 * good where the attach fails) a snapshot goes out at sched_waking instead of
 * waiting for a select_task_rq_fair that no program sees.
 */
bool select_attached = false;
const volatile bool util_est_off = false; /* sched_feat(UTIL_EST) off, read from debugfs */
/*
 * The flag update_top_cache_domain() keys sd_asym_cpucapacity on:
 * SD_ASYM_CPUCAPACITY_FULL (v5.14+), SD_ASYM_CPUCAPACITY before. Both live in
 * anonymous enums (v5.10+) or #defines (0x0040, <= v5.9), so CO-RE cannot
 * name them; userspace looks the value up in BTF.
 */
const volatile __u32 sd_asym_flag = 0x0040;
const volatile __u64 wakeup_bytes = 1 << 20; /* ring buffer fill that wakes the reader */
/*
 * How many CPUs get their landscape read, the waker's and the lowest
 * others: all, except in the cost bench (tests/bench/landscape_cost.sh),
 * which alternates collectors reading one and all to split the cost into a
 * fixed and a per-CPU part. The waker's CPU is always read: it gives feec's
 * rd and sd, a per-snapshot cost. The entries of the CPUs not read stay
 * zero.
 */
const volatile __u32 landscape_cpus = 1;

/*
 * The cost bench's own clock (hidden FS_BENCH_SELF_TIME=1, tests/bench/
 * lab_cost.sh): each wake-up snapshot's time, from before snapshot() to its
 * record in the ring, into a histogram of SELF_NS buckets. Under the QEMU
 * lab's -icount a guest nanosecond is one instruction, but a run that spans
 * another vCPU's turn is charged the whole turn: bpf_stats' sum takes those
 * outliers in, a median leaves them out. Off, the verifier drops it.
 */
const volatile bool self_time = false;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fs_self_hist);
} self_hist SEC(".maps");

/*
 * uclamp_is_used() (v5.9+) is the static key sched_uclamp_used: read it where
 * kallsyms has data symbols (CONFIG_KALLSYMS_ALL). Elsewhere infer it: while
 * the key is off uclamp_rq_inc() never runs, so every rq and task clamp keeps
 * its default (0 / 1024); the first other value proves the key on, and the key
 * never goes off again. Before v5.9 the uclamp paths run whenever
 * CONFIG_UCLAMP_TASK is built in.
 */
extern int LINUX_KERNEL_VERSION __kconfig;
/*
 * &sched_uclamp_used from kallsyms (0: not there), set before the event
 * programs attach. Not a __ksym: libbpf would scan all of kallsyms before the
 * load (over a second under QEMU TCG); userspace scans it during the load.
 */
__u64 uclamp_used_addr = 0;
bool uclamp_seen = false;
/*
 * The system default clamps uclamp_eff_get() applies last: &uclamp_default
 * from kallsyms (static in core.c; needs CONFIG_KALLSYMS_ALL), else the
 * sysctls sched_util_clamp_{min,max} userspace read (their only writer).
 */
__u64 uclamp_default_addr = 0;
__u32 uclamp_default_min = SCHED_CAPACITY_SCALE;
__u32 uclamp_default_max = SCHED_CAPACITY_SCALE;

/* A clamp other than the defaults 0 / 1024 proves sched_uclamp_used on. */
static __always_inline void note_clamps(__u32 min, __u32 max)
{
	if (min || max != SCHED_CAPACITY_SCALE)
		uclamp_seen = true;
}

/*
 * One ring buffer per CPU, created by userspace (sized from --ringbuf-size)
 * and put in this array: producers on different CPUs then share no cache
 * line (a shared ring's lock and producer position bounce between CPUs:
 * docs/live.md, Overhead, has the cost). Userspace merges the
 * rings by timestamp (user/source/ring_merge.c). Ring buffers in map-in-map:
 * v5.8+, as the ring buffer itself.
 */
struct fs_ring {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 << 10); /* the template; each CPU's ring has its own size */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, FS_MAX_CPUS);
	__type(key, __u32);
	__array(values, struct fs_ring);
} rings SEC(".maps");

/*
 * Every CPU's struct rq address, 0 until a harvest program learnt it (no
 * `runqueues` ksym needed: see harvest()). A global array, not a map: a
 * snapshot takes a batch of CPUs' addresses at constant offsets from one
 * pointer, where a map costs a lookup per CPU.
 */
__u64 rq_addr[FS_MAX_CPUS];

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FS_CNT__NR);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

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

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pending);
} scratch SEC(".maps");

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
 * CPU cpu's struct rq, whose harvested address is addr, as a BTF pointer;
 * NULL where the harvest has not learnt it (an offline CPU: its entry stays
 * unknown, as in RQ_COPY).
 */
static __always_inline struct rq *rq_btf(__u32 cpu, __u64 addr, enum rq_read how)
{
	if (!addr)
		return NULL;
	if (how == RQ_KSYM)
		return (struct rq *)bpf_per_cpu_ptr(&runqueues, cpu);
	return bpf_rdonly_cast((void *)addr, bpf_core_type_id_kernel(struct rq));
}

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

/* Widen [lo, hi) over field f of T, where this kernel has it. */
#define COPY_SPAN(T, f)								\
	if (bpf_core_field_exists(T, f)) {					\
		__u32 o_ = bpf_core_field_offset(T, f);				\
		__u32 e_ = o_ + bpf_core_field_size(T, f);			\
		if (o_ < lo_)							\
			lo_ = o_;						\
		if (e_ > hi_)							\
			hi_ = e_;						\
	}
#define COPY_ONE(T, f)								\
	if (bpf_core_field_exists(T, f))					\
		bpf_probe_read_kernel(dst_ + bpf_core_field_offset(T, f),	\
				      bpf_core_field_size(T, f),		\
				      src_ + bpf_core_field_offset(T, f));

/*
 * Copy the FIELDS (an X-list of (type, field)) of the kernel object at src to
 * the same offsets in dst (max bytes): one read of their span, or one read
 * per field where the span is wider than COPY_SPAN_MAX. lo_ and hi_ are CO-RE
 * constants, so the verifier sees fixed sizes and prunes the unused branch.
 * False, and nothing read, where a field ends beyond max.
 */
#define COPY_FIELDS(dst, max, src, FIELDS) ({					\
	void *dst_ = (void *)(dst), *src_ = (void *)(src);			\
	__u32 lo_ = (max), hi_ = 0;						\
	FIELDS(COPY_SPAN)							\
	if (hi_ <= (max) && hi_ - lo_ <= COPY_SPAN_MAX)				\
		bpf_probe_read_kernel(dst_ + lo_, hi_ - lo_, src_ + lo_);	\
	else if (hi_ <= (max)) {						\
		FIELDS(COPY_ONE)						\
	}									\
	hi_ <= (max);								\
})

/*
 * Another CPU's struct rq is mostly lines that CPU keeps writing (its lock,
 * cfs_tasks, the PELT sums), and each line copied costs a transfer from that
 * CPU's cache whether a wanted field is in it or not. So the rq is copied by
 * cache line, not by span: fields (listed in the kernel's layout order) whose
 * lines touch or adjoin share one read, and a line with no wanted field
 * starts a new read (6.18 x86: 9 lines in 5 reads, where three spans copied
 * 18). The runs are the same for every CPU and every snapshot, so each CPU
 * works them out once (plan_rq_runs()) into its scratch: the arithmetic on
 * CO-RE offsets is not repeated per CPU.
 */
#define CACHE_LINE 64
#define PLAN_RUN(T, f)								\
	if (bpf_core_field_exists(T, f)) {					\
		__u64 o_ = bpf_core_field_offset(T, f);				\
		__u64 e_ = o_ + bpf_core_field_size(T, f);			\
		/* outside [lo_, end of the line after hi_'s): a new run */	\
		if (hi_ && o_ - lo_ >= ((hi_ + CACHE_LINE - 1) & -CACHE_LINE) + CACHE_LINE - lo_ && \
		    n_ < RQ_RUNS_MAX - 1) {					\
			ok_ &= add_run(s, plan, n_++, lo_, hi_);		\
			lo_ = o_;						\
			hi_ = o_;						\
		}								\
		lo_ = o_ < lo_ ? o_ : lo_;					\
		hi_ = e_ > hi_ ? e_ : hi_;					\
	}

/*
 * The waker's rq gives everything; another CPU's gives neither nr_running
 * (in the rq's first line, its lock's, which that CPU writes all the time;
 * no feec reads another CPU's) nor online (beside cfs_tasks, written on
 * every enqueue: landscape_others() takes it from the waker's rd->online), nor
 * rd and sd (only the waker's matter).
 */
enum rq_plan { RQ_PLAN_WAKER, RQ_PLAN_OTHER };

/* Run n of a plan is [lo, hi); false if the copy or the verifier's bound cannot take it. */
static __always_inline bool add_run(struct pending *s, __u32 plan, __u32 n, __u64 lo, __u64 hi)
{
	if (n >= RQ_RUNS_MAX || hi > RQ_COPY_MAX || lo > RQ_COPY_MAX - COPY_SPAN_MAX ||
	    hi - lo > COPY_SPAN_MAX)
		return false;
	s->rq_run_lo[plan & 1][n] = lo;
	s->rq_run_len[plan & 1][n] = hi - lo;
	return true;
}

#define CAPACITY_IN_HEAD \
	(bpf_core_field_offset(struct rq, cpu_capacity) < bpf_core_field_offset(struct rq, cfs))

/*
 * The runs of the fields fill_cpu() uses for plan (enum rq_plan) into s's
 * table; RQ_RUNS_MAX + 1 entries where they do not fit (every rq then counts
 * as unknown).
 */
static __noinline int plan_rq_runs(struct pending *s, __u32 plan)
{
	bool waker = plan == RQ_PLAN_WAKER;
	__u64 lo_ = ~0ull, hi_ = 0;
	bool ok_ = true;
	__u32 n_ = 0;

	/*
	 * What read_cpu() picks out of a struct rq, in the kernel's layout
	 * order (a field out of order costs one more read): the same from
	 * v5.10 to v7.3 but for cpu_capacity, which 7.x moved next to
	 * nr_running. rd and sd only matter for the waker's rq, but share
	 * cpu_capacity's line up to 6.x and online's on 7.x.
	 */
	if (waker)
		PLAN_RUN(struct rq, nr_running)
	if (CAPACITY_IN_HEAD)
		PLAN_RUN(struct rq, cpu_capacity)
	PLAN_RUN(struct rq___uclamp, uclamp[0].value)
	PLAN_RUN(struct rq___uclamp, uclamp[1].value)
	PLAN_RUN(struct rq___uclamp, uclamp_flags)
	PLAN_RUN(struct rq, cfs.avg)
	PLAN_RUN(struct rq, rt.rt_nr_running)
	PLAN_RUN(struct rq, rt.rt_queued)
	PLAN_RUN(struct rq, dl.running_bw)
	if (waker) {
		PLAN_RUN(struct rq, rd)
		PLAN_RUN(struct rq, sd)
	}
	if (!CAPACITY_IN_HEAD)
		PLAN_RUN(struct rq, cpu_capacity)
	PLAN_RUN(struct rq___capacity_orig, cpu_capacity_orig)
	if (waker)
		PLAN_RUN(struct rq, online)
	PLAN_RUN(struct rq, avg_rt.util_avg)
	PLAN_RUN(struct rq, avg_dl.util_avg)
	PLAN_RUN(struct rq___irq, avg_irq.util_avg)
	PLAN_RUN(struct rq___hw, avg_hw.load_avg)
	PLAN_RUN(struct rq___thermal, avg_thermal.load_avg)
	ok_ &= add_run(s, plan, n_++, lo_, hi_);
	s->rq_runs[plan & 1] = ok_ ? n_ : RQ_RUNS_MAX + 1;
	return 0;
}

/* What read_task() picks out of p->se.avg. */
#define AVG_FIELDS(X)								\
	X(struct sched_avg, last_update_time)					\
	X(struct sched_avg, util_sum)						\
	X(struct sched_avg, period_contrib)					\
	X(struct sched_avg, util_avg)						\
	X(struct sched_avg___old, util_est)					\
	X(struct sched_avg___new, util_est)					\
	X(struct sched_avg___runnable, runnable_sum)				\
	X(struct sched_avg___runnable, runnable_avg)

/* util_est word(s) of a copied sched_avg, flag bit masked: enqueued and ewma (both = util_est on v6.8+). */
static __always_inline void read_util_est(struct sched_avg *sa, __u32 *enq, __u32 *ewma)
{
	struct sched_avg___old *old = (void *)sa;
	struct sched_avg___new *new = (void *)sa;

	if (bpf_core_field_exists(old->util_est.enqueued)) { /* v5.13 - v6.7 */
		*enq = old->util_est.enqueued & ~UTIL_AVG_UNCHANGED_MSB;
		*ewma = old->util_est.ewma & ~UTIL_AVG_UNCHANGED_MSB;
	} else { /* v6.8+ */
		*enq = new->util_est & ~UTIL_AVG_UNCHANGED_MSB;
		*ewma = *enq;
	}
}

/* Copy plan's fields of one CPU's struct rq into s->rq; false if they do not fit. */
static __always_inline bool copy_rq(struct pending *s, struct rq *rq, __u32 plan)
{
	__u32 k, lo, len;

	plan &= 1;
	if (!s->rq_runs[plan])
		plan_rq_runs(s, plan);
	if (s->rq_runs[plan] > RQ_RUNS_MAX)
		return false;
#pragma clang loop unroll(disable)
	for (k = 0; k < RQ_RUNS_MAX; k++) {
		if (k >= s->rq_runs[plan])
			break;
		lo = s->rq_run_lo[plan][k];
		len = s->rq_run_len[plan][k];
		/* what add_run() checked, again for the verifier */
		if (lo > RQ_COPY_MAX - COPY_SPAN_MAX || len > COPY_SPAN_MAX)
			return false;
		bpf_probe_read_kernel(s->rq + lo, len, (void *)rq + lo);
	}
	return true;
}

/*
 * One CPU's landscape from m: the rq itself (a BTF pointer) or the scratch
 * copy, where only the plan's fields are valid: for another CPU than the
 * waker's, neither nr_running (FS_CPU_NO_NR_RUNNING) nor online (the
 * caller's). Returns c's flags, which the caller completes and stores: built
 * in a register, they are stored once instead of read back and or-ed into
 * c per bit.
 *
 * Each field a kernel may lack is an if/else whose branches end in a
 * barrier(): the verifier knows bpf_core_field_exists() and removes the
 * branch not taken, with the jump to it, only where nothing else reaches
 * that code; clang would otherwise merge the branches' loads and stores
 * behind the test, which then stays, for every field and CPU
 * (docs/lab.md, Cost, the kernel's guard).
 */
static __always_inline __u32 fill_cpu(struct fs_cpu *c, struct rq *m, bool waker)
{
	struct rq___capacity_orig *mo = (void *)m;
	struct rq___thermal *mt = (void *)m;
	struct rq___hw *mh = (void *)m;
	struct rq___uclamp *mu = (void *)m;
	struct rq___irq *mi = (void *)m;
	struct sched_avg *a = &m->cfs.avg;
	struct sched_avg___runnable *ar = (void *)a;
	struct sched_avg___old *ao = (void *)a;
	struct sched_avg___new *an = (void *)a;
	__u32 flags;

	c->cfs_last_update_time = a->last_update_time;
	c->util_avg = a->util_avg;
	/* util_est's enqueued word, flag bit masked (the waking task's takes ewma too: read_util_est()) */
	if (bpf_core_field_exists(ao->util_est.enqueued)) { /* v5.13 - v6.7 */
		c->util_est = ao->util_est.enqueued & ~UTIL_AVG_UNCHANGED_MSB;
		barrier();
	} else { /* v6.8+ */
		c->util_est = an->util_est & ~UTIL_AVG_UNCHANGED_MSB;
		barrier();
	}
	if (bpf_core_field_exists(ar->runnable_avg)) { /* v5.7+ */
		c->runnable_avg = ar->runnable_avg;
		barrier();
	} else {
		c->runnable_avg = 0;
		barrier();
	}
	c->rt_util = m->avg_rt.util_avg;
	c->dl_util = m->avg_dl.util_avg;
	c->dl_running_bw = m->dl.running_bw;
	if (bpf_core_field_exists(mi->avg_irq)) { /* CONFIG_HAVE_SCHED_AVG_IRQ */
		c->irq_util = mi->avg_irq.util_avg;
		barrier();
	} else {
		c->irq_util = 0;
		barrier();
	}
	c->capacity = m->cpu_capacity;
	/* <= v6.7; later kernels: userspace fills arch_scale_cpu_capacity from sysfs */
	if (bpf_core_field_exists(mo->cpu_capacity_orig)) {
		c->capacity_orig = mo->cpu_capacity_orig;
		barrier();
	} else {
		c->capacity_orig = 0;
		barrier();
	}
	if (bpf_core_field_exists(mh->avg_hw)) { /* v6.10+ */
		c->hw_load_avg = mh->avg_hw.load_avg;
		barrier();
	} else if (bpf_core_field_exists(mt->avg_thermal)) { /* v5.7 - v6.9 */
		c->hw_load_avg = mt->avg_thermal.load_avg;
		barrier();
	} else {
		c->hw_load_avg = 0;
		barrier();
	}
	if (waker) {
		c->nr_running = m->nr_running;
		/* rq->online: the rq is attached to its root domain (cpu active) */
		flags = m->online ? FS_CPU_ONLINE : 0;
	} else {
		c->nr_running = 0;
		flags = FS_CPU_NO_NR_RUNNING;
	}
	if (bpf_core_field_exists(mu->uclamp_flags)) { /* CONFIG_UCLAMP_TASK */
		__u32 min = mu->uclamp[0].value, max = mu->uclamp[1].value;

		c->uclamp_min = min;
		c->uclamp_max = max;
		note_clamps(min, max);
		if (mu->uclamp_flags & UCLAMP_FLAG_IDLE)
			flags |= FS_CPU_UCLAMP_IDLE;
		barrier();
	} else {
		c->uclamp_min = 0;
		c->uclamp_max = SCHED_CAPACITY_SCALE;
		barrier();
	}
	if (m->rt.rt_queued && m->rt.rt_nr_running)
		flags |= FS_CPU_RT_RUNNABLE;
	return flags;
}

/*
 * RQ_COPY: one CPU's landscape from a copy of its struct rq; false if its
 * fields do not fit the copy. Not inlined: in snapshot()'s loop clang hoists
 * the copy's (loop-invariant) field addresses above their
 * bpf_core_field_exists() guards, and a missing field's relocation then
 * fails to load.
 */
static __noinline bool read_cpu(struct fs_cpu *c, struct pending *s, struct rq *rq, bool waker)
{
	if (!copy_rq(s, rq, waker ? RQ_PLAN_WAKER : RQ_PLAN_OTHER))
		return false;
	c->flags = fill_cpu(c, (void *)s->rq, waker);
	return true;
}

/*
 * The first 64 CPUs of the waker's rd->span and rd->online into s. Both are
 * cpumask_var_t: a pointer with CONFIG_CPUMASK_OFFSTACK, else the mask
 * itself (an array of one struct cpumask). Only landscape_waker() calls this
 * pair, first in a snapshot: rd_masks_known was cleared before it.
 */
static __always_inline void read_rd_masks(struct pending *s, struct root_domain *rd)
{
	struct root_domain___offstack *ro = (void *)rd;
	struct root_domain___onstack *rn = (void *)rd;
	const void *span, *online;

	if (!rd)
		return;
	if (bpf_core_field_exists(ro->online)) {
		span = BPF_CORE_READ(ro, span);
		online = BPF_CORE_READ(ro, online);
	} else if (bpf_core_field_exists(rn->online)) {
		span = &rn->span;
		online = &rn->online;
	} else {
		return;
	}
	/* bits[0] leads struct cpumask */
	if (!span || !online || bpf_probe_read_kernel(&s->rd_span, sizeof(s->rd_span), span) ||
	    bpf_probe_read_kernel(&s->rd_online, sizeof(s->rd_online), online))
		return;
	s->rd_masks_known = 1;
}

/*
 * read_rd_masks() through a BTF pointer to the rd (RQ_CAST, RQ_KSYM): plain
 * loads, no helper call (those two or four calls were most of what the
 * masks cost a wake-up). barrier_var() keeps each branch's CO-RE accesses
 * inside it: the other flavour's do not relocate on this kernel.
 */
static __always_inline void read_rd_masks_btf(struct pending *s, struct root_domain *rd)
{
	if (!rd)
		return;
	if (bpf_core_field_exists(((struct root_domain___offstack *)rd)->online)) {
		struct root_domain___offstack *ro;
		struct cpumask *span, *online;

		barrier_var(rd);
		ro = (void *)rd;
		span = ro->span;
		online = ro->online;
		if (!span || !online)
			return;
		s->rd_span = span->bits[0];
		s->rd_online = online->bits[0];
	} else if (bpf_core_field_exists(((struct root_domain___onstack *)rd)->online)) {
		struct root_domain___onstack *rn;

		barrier_var(rd);
		rn = (void *)rd;
		s->rd_span = rn->span[0].bits[0];
		s->rd_online = rn->online[0].bits[0];
	} else {
		return;
	}
	s->rd_masks_known = 1;
}

/*
 * Another CPU's rq->online. set_rq_online() and set_rq_offline() set the
 * CPU's bit in rq->rd->online and rq->online together, under the rq's lock,
 * and rq_attach_root() moves the CPU out of its old rd (offline there, out
 * of its span) before it enters the new one (the same in every tree read:
 * v2.6.x, v5.1x, v6.0, v6.12, a v6.17-era one; 7.x checked by the lab): for
 * a CPU in the waker's rd->span, its bit in the waker's rd->online is its
 * rq->online, read without touching its rq (landscape_others()). A CPU
 * outside that span (a cpuset partition, isolcpus) is never feec's
 * candidate, but counts in the energy of a perf domain it shares; its own
 * rq->online is read, as when the masks are unknown: here.
 */
static __always_inline bool other_rq_online(struct rq *rq, enum rq_read how)
{
	int v = 0;

	if (how == RQ_COPY)
		bpf_core_read(&v, sizeof(v), &rq->online);
	else
		v = rq->online;
	return v;
}

/*
 * The waker's CPU's landscape into s, with what feec takes from it: its rq's
 * rd and sd, the rd's span and online masks (where landscape_others() finds
 * the other CPUs' online) and whether p is its current. 0, or 1 where its
 * struct rq is unknown (its entry is then zeroed).
 */
static __always_inline int landscape_waker(__u32 cpu, enum rq_read how)
{
	struct pending *s = scratch_snapshot();
	struct fs_cpu *c;
	struct rq *rq, *m;
	__u32 flags;

	if (!s)
		return 1;
	cpu &= FS_MAX_CPUS - 1; /* the bound the verifier needs; the caller's is < nr_cpus */
	c = &s->w.cpu[cpu];
	barrier_var(c); /* one register for c: clang would redo s + cpu * 72 for every store */
	if (how == RQ_COPY) {
		rq = rq_of(cpu);
		if (!rq || !read_cpu(c, s, rq, true)) {
			__builtin_memset(c, 0, sizeof(*c));
			return 1;
		}
		m = (void *)s->rq; /* the copy read_cpu() left: only the plan's fields are valid */
		flags = c->flags;
	} else {
		rq = m = rq_btf(cpu, rq_addr[cpu], how);
		if (!m) {
			__builtin_memset(c, 0, sizeof(*c));
			return 1;
		}
		flags = fill_cpu(c, m, true);
	}
	s->rd = (__u64)m->rd;
	s->sd = (__u64)m->sd;
	s->waker_known = 1;
	if (how == RQ_COPY)
		read_rd_masks(s, (struct root_domain *)s->rd);
	else
		read_rd_masks_btf(s, m->rd);
	/*
	 * cpu_util() (v5.19+) takes p's util_est off when p is queued or
	 * current == p, current being the task running feec: the waker's
	 * CPU's, no other rq's curr.
	 */
	if (bpf_get_current_task() == s->task)
		flags |= FS_CPU_CURR_IS_P;
	c->flags = flags;
	return 0;
}

/*
 * The landscapes of CPUs first .. first + OTHERS_BATCH(how) - 1 below end,
 * but for the waker's (landscape_waker()), into s: 0, or 1 where any CPU's
 * struct rq is unknown (its entry is then zeroed). CPUs go in id order, so
 * a batch's entries and rq addresses sit at constant distances from its
 * first. The BTF pointers are all made first: bpf_rdonly_cast() and
 * bpf_per_cpu_ptr() are calls, which take r0-r5, and the field loads and
 * stores after them then have every register (docs/lab.md, Cost, the
 * kernel's guard, has what this saved).
 */
static __always_inline int landscape_others(__u32 first, __u32 waker, __u32 end, enum rq_read how)
{
	struct pending *s = scratch_snapshot();
	struct rq *ms[OTHERS_BATCH(how)];
	__u32 k, todo, flags, own = 0;
	__u64 span, online, *addr;
	struct fs_cpu *c, *ck;
	struct rq *rq;
	int r = 0;

	if (!s)
		return 1;
	/* the verifier's bound: callers pass first < end <= nr_cpus, a multiple of the batch */
	first &= FS_MAX_CPUS - OTHERS_BATCH(how);
	/* bit k: CPU first + k is read (below end, not the waker's) */
	todo = end - first >= OTHERS_BATCH(how) ? (1u << OTHERS_BATCH(how)) - 1
						: (1u << (end - first)) - 1;
	if (waker - first < OTHERS_BATCH(how))
		todo &= ~(1u << (waker - first));
	addr = &rq_addr[first];
	c = &s->w.cpu[first];
	/*
	 * Every CPU's pointer, whether read or not, and unchecked until used:
	 * a branch here would be a path the verifier walks through all of the
	 * rest, once per CPU (docs/lab.md, Cost, the kernel's guard). A cast of
	 * an unknown address (0) is never dereferenced.
	 */
	if (how == RQ_CAST) {
#pragma unroll
		for (k = 0; k < OTHERS_BATCH(how); k++)
			ms[k] = bpf_rdonly_cast((void *)addr[k], bpf_core_type_id_kernel(struct rq));
	} else if (how == RQ_KSYM) {
#pragma unroll
		for (k = 0; k < OTHERS_BATCH(how); k++)
			ms[k] = (struct rq *)bpf_per_cpu_ptr(&runqueues, first + k);
	}
	span = s->rd_masks_known ? s->rd_span >> first : 0;
	online = s->rd_online >> first;
#pragma unroll
	for (k = 0; k < OTHERS_BATCH(how); k++) {
		if (!((todo >> k) & 1))
			continue;
		ck = &c[k];
		barrier_var(ck); /* one register for ck: clang would redo s + first * 72 per store */
		if (how == RQ_COPY) {
			rq = (struct rq *)addr[k];
			if (!rq || !read_cpu(ck, s, rq, false)) {
				__builtin_memset(ck, 0, sizeof(*ck));
				r = 1;
				continue;
			}
			flags = ck->flags;
		} else {
			rq = ms[k];
			if (!addr[k] || !rq) {
				__builtin_memset(ck, 0, sizeof(*ck));
				r = 1;
				continue;
			}
			flags = fill_cpu(ck, rq, false);
		}
		/* online: its bit in the waker's rd->online, else its own rq's (counted once a call) */
		if ((span >> k) & 1) {
			if ((online >> k) & 1)
				flags |= FS_CPU_ONLINE;
		} else {
			own++;
			if (other_rq_online(rq, how))
				flags |= FS_CPU_ONLINE;
		}
		ck->flags = flags;
	}
	if (own)
		count_n(FS_CNT_ONLINE_OWN_RQ, own);
	return r;
}

/*
 * Global functions, so the verifier checks each once per program with its
 * CPU unknown, instead of once per CPU inside snapshot()'s loop, where the
 * walk and the start-up grew with the CPU count (docs/lab.md, Start-up).
 * Global functions take only numbers before v5.12 (and a pointer passed as
 * one is refused), hence the scratch lookup in each. Everything
 * that depends on the CPU is done in them: each branch left in the caller's
 * loop doubles the states it walks per CPU.
 */
__noinline int landscape_waker_copy(__u32 cpu) { return landscape_waker(cpu, RQ_COPY); }
__noinline int landscape_waker_cast(__u32 cpu) { return landscape_waker(cpu, RQ_CAST); }
__noinline int landscape_waker_ksym(__u32 cpu) { return landscape_waker(cpu, RQ_KSYM); }
__noinline int landscape_others_copy(__u32 first, __u32 waker, __u32 end)
{
	return landscape_others(first, waker, end, RQ_COPY);
}
__noinline int landscape_others_cast(__u32 first, __u32 waker, __u32 end)
{
	return landscape_others(first, waker, end, RQ_CAST);
}
__noinline int landscape_others_ksym(__u32 first, __u32 waker, __u32 end)
{
	return landscape_others(first, waker, end, RQ_KSYM);
}

/* The value of a struct uclamp_se at addr: its low 11 bits (value:11 leads the word). */
static __always_inline __u32 uclamp_se_at(void *addr)
{
	__u32 word = SCHED_CAPACITY_SCALE;

	bpf_probe_read_kernel(&word, sizeof(word), addr);
	return word & 0x7ff;
}

/*
 * uclamp_eff_value(p, id) (v5.3+; this form from 5.14, 0c18f2ecfcc2): a task
 * on an rq (uclamp[id].active) has its effective clamp back-annotated; a
 * sleeping one's is worked out as uclamp_eff_get() does: the request, clamped
 * into its task group's effective [min, max] unless the group is the root or
 * an autogroup, then capped by the system default. Before 5.14 the group
 * restricted each clamp on its own side only (no difference unless the
 * request lies beyond the group's other bound).
 */
static __always_inline __u32 uclamp_eff_value(struct task_struct *p, int id)
{
	struct task_struct___uclamp *pu = (void *)p;
	struct task_struct___tg *pt = (void *)p;
	__u32 v, dflt;

	id &= 1;
	if (BPF_CORE_READ_BITFIELD_PROBED(&pu->uclamp[id], active))
		return BPF_CORE_READ_BITFIELD_PROBED(&pu->uclamp[id], value);
	v = BPF_CORE_READ_BITFIELD_PROBED(&pu->uclamp_req[id], value);
	if (bpf_core_field_exists(pt->sched_task_group)) {
		struct task_group___uclamp *tg = (void *)BPF_CORE_READ(pt, sched_task_group);
		struct task_group___autogroup *ag = (void *)tg;
		bool restrict_tg = tg && bpf_core_field_exists(tg->uclamp) && BPF_CORE_READ(tg, parent);

		if (restrict_tg && bpf_core_field_exists(ag->autogroup) && BPF_CORE_READ(ag, autogroup))
			restrict_tg = false;
		if (restrict_tg) {
			__u32 lo = BPF_CORE_READ_BITFIELD_PROBED(&tg->uclamp[0], value);
			__u32 hi = BPF_CORE_READ_BITFIELD_PROBED(&tg->uclamp[1], value);

			v = v < lo ? lo : v;
			v = v > hi ? hi : v;
		}
	}
	if (uclamp_default_addr)
		dflt = uclamp_se_at((void *)(uclamp_default_addr + id * sizeof(__u32)));
	else
		dflt = id ? uclamp_default_max : uclamp_default_min;
	return v > dflt ? dflt : v;
}

static __always_inline void read_task(bool btf, struct pending *s, struct task_struct *p)
{
	struct task_struct___uclamp *pu = (void *)p;
	struct fs_wakeup *w = &s->w;
	struct fs_task *t = &w->task;
	struct sched_avg *a = (void *)s->avg;
	struct rq *rq;

	if (COPY_FIELDS(s->avg, AVG_COPY_MAX, &p->se.avg, AVG_FIELDS)) {
		t->last_update_time = a->last_update_time;
		t->util_sum = a->util_sum;
		t->period_contrib = a->period_contrib;
		t->util_avg = a->util_avg;
		read_util_est(a, &t->util_est_enqueued, &t->util_est_ewma);
		/* v5.7+: what 29922fdfc2a4's boosted cpu_util() moves (decayed in userspace) */
		t->runnable_sum = 0;
		t->runnable_avg = 0;
		if (bpf_core_field_exists(((struct sched_avg___runnable *)a)->runnable_avg)) {
			t->runnable_sum = ((struct sched_avg___runnable *)a)->runnable_sum;
			t->runnable_avg = ((struct sched_avg___runnable *)a)->runnable_avg;
		}
	} else {
		__builtin_memset(t, 0, sizeof(*t));
	}
	/* sync_entity_load_avg() decays p to cfs_rq_of(&p->se)'s last update */
	if (bpf_core_field_exists(p->se.cfs_rq)) { /* CONFIG_FAIR_GROUP_SCHED */
		t->cfs_rq_last_update_time = btf ? p->se.cfs_rq->avg.last_update_time :
						       BPF_CORE_READ(p, se.cfs_rq, avg.last_update_time);
	} else {
		rq = rq_of(w->task_cpu & (FS_MAX_CPUS - 1));
		if (rq)
			t->cfs_rq_last_update_time = BPF_CORE_READ(rq, cfs.avg.last_update_time);
	}
	t->uclamp_min = 0;
	t->uclamp_max = SCHED_CAPACITY_SCALE;
	if (bpf_core_field_exists(pu->uclamp)) {
		t->uclamp_min = uclamp_eff_value(p, 0);
		t->uclamp_max = uclamp_eff_value(p, 1);
		note_clamps(t->uclamp_min, t->uclamp_max);
	}
}

/* Lowest domain with asymmetric capacities above the waker, then up until it spans prev. */
static __always_inline void read_asym_sd(struct fs_wakeup *w, struct sched_domain *sd)
{
	__u32 flag = sd_asym_flag;
	__u64 span = 0;
	bool found = false;
	int i;

	for (i = 0; i < MAX_SD_LEVELS && sd; i++) {
		if (BPF_CORE_READ(sd, flags) & flag) {
			found = true;
			break;
		}
		sd = BPF_CORE_READ(sd, parent);
	}
	for (i = 0; i < MAX_SD_LEVELS && found && sd; i++) {
		/* span[] is the flexible array right after struct sched_domain */
		bpf_probe_read_kernel(&span, sizeof(span), (void *)sd + bpf_core_type_size(struct sched_domain));
		if (w->prev_cpu >= 0 && w->prev_cpu < 64 && (span >> w->prev_cpu) & 1)
			break;
		span = 0;
		sd = BPF_CORE_READ(sd, parent);
	}
	if (!span) {
		w->flags |= FS_WAKE_NO_ASYM;
		return;
	}
	for (i = 0; i < FS_MAX_CPUS; i++)
		if ((span >> i) & 1)
			w->cpu[i].flags |= FS_CPU_IN_SD;
}

static __always_inline void read_root_domain(struct fs_wakeup *w, struct root_domain *rd)
{
	__u32 ou = 0;

	if (!rd) {
		w->flags |= FS_WAKE_EAS_UNKNOWN;
		return;
	}
	/* int with SG_OVERUTILIZED (v5.0 - v6.9) or bool (v6.10+): read its own size */
	bpf_core_read(&ou, bpf_core_field_size(rd->overutilized), &rd->overutilized);
	if (ou)
		w->flags |= FS_WAKE_OVERUTILIZED;
	if (!bpf_core_field_exists(rd->pd) || !BPF_CORE_READ(rd, pd))
		w->flags |= FS_WAKE_NO_PD;
}

/* uclamp_is_used() as the kernel sees it (see sched_uclamp_used above). */
static __always_inline bool uclamp_in_use(struct task_struct *p)
{
	struct task_struct___uclamp *pu = (void *)p;
	int enabled = 0;

	if (!bpf_core_field_exists(pu->uclamp))
		return false; /* built without CONFIG_UCLAMP_TASK */
	if (LINUX_KERNEL_VERSION < KERNEL_VERSION(5, 9, 0))
		return true;
	if (uclamp_used_addr &&
	    !bpf_probe_read_kernel(&enabled, sizeof(enabled), (void *)uclamp_used_addr))
		return enabled > 0;
	return uclamp_seen;
}

/* Fill the per-CPU scratch snapshot for p; NULL if it cannot be built. */
static __always_inline struct pending *snapshot(bool btf, enum rq_read how, struct task_struct *p,
						__u64 now)
{
	__u32 waker = bpf_get_smp_processor_id();
	const struct cpumask *mask;
	struct pending *s;
	struct fs_wakeup *w;
	bool incomplete;
	__u32 i, end;

	s = scratch_snapshot();
	if (!s)
		return NULL;
	w = &s->w;
	w->hdr.type = FS_REC_WAKEUP;
	w->hdr.nr_cpus = nr_cpus;
	w->hdr.size = __builtin_offsetof(struct fs_wakeup, cpu) + nr_cpus * sizeof(struct fs_cpu);
	w->hdr.ts_ns = now;
	w->pid = TASK_READ(btf, p, pid);
	w->tgid = TASK_READ(btf, p, tgid);
	bpf_probe_read_kernel_str(w->comm, sizeof(w->comm), &p->comm);
	w->prev_cpu = TASK_READ(btf, p, wake_cpu);
	w->task_cpu = task_cpu_of(btf, p);
	w->waker_cpu = waker;
	w->chosen_cpu = -1;
	w->decided_ns = 0;
	w->flags = util_est_off ? FS_WAKE_UTIL_EST_OFF : 0;
	if (bpf_core_field_exists(p->cpus_ptr)) { /* v5.3+ */
		mask = TASK_READ(btf, p, cpus_ptr);
		if (btf)
			w->cpus_allowed = mask->bits[0];
		else
			bpf_probe_read_kernel(&w->cpus_allowed, sizeof(w->cpus_allowed), &mask->bits[0]);
	} else {
		struct task_struct___cpus_allowed *pa = (void *)p;

		w->cpus_allowed = TASK_READ(btf, pa, cpus_allowed.bits[0]);
	}
	w->nr_cpus_allowed = TASK_READ(btf, p, nr_cpus_allowed);
	/* p sleeps: dequeue's update_curr() made sum_exec_runtime exact */
	w->sum_exec_ns = TASK_READ(btf, p, se.sum_exec_runtime);
	w->uid = BPF_CORE_READ(p, cred, uid.val);
	read_task(btf, s, p);

	s->task = (__u64)p;
	s->waker_known = 0;
	s->rd_masks_known = 0;
	if (how == RQ_CAST)
		incomplete = landscape_waker_cast(waker);
	else if (how == RQ_KSYM)
		incomplete = landscape_waker_ksym(waker);
	else
		incomplete = landscape_waker_copy(waker);
	/* the waker's and landscape_cpus - 1 others, the lowest (landscape_cpus) */
	end = landscape_cpus - 1 + (waker < landscape_cpus - 1);
#pragma clang loop unroll(disable)
	for (i = 0; i < FS_MAX_CPUS; i += OTHERS_BATCH(how)) {
		if (i >= end)
			break;
		if (how == RQ_CAST)
			incomplete |= landscape_others_cast(i, waker, end);
		else if (how == RQ_KSYM)
			incomplete |= landscape_others_ksym(i, waker, end);
		else
			incomplete |= landscape_others_copy(i, waker, end);
	}
	if (incomplete)
		count(FS_CNT_RQ_UNKNOWN);
	if (uclamp_in_use(p))
		w->flags |= FS_WAKE_UCLAMP_USED;
	if (!bpf_core_field_exists(((struct task_struct___uclamp *)p)->uclamp))
		w->flags |= FS_WAKE_NO_UCLAMP; /* no CONFIG_UCLAMP_TASK: the clamps are "none" */

	if (s->waker_known) {
		read_root_domain(w, (struct root_domain *)s->rd);
		read_asym_sd(w, (struct sched_domain *)s->sd);
	} else {
		w->flags |= FS_WAKE_EAS_UNKNOWN | FS_WAKE_NO_ASYM;
	}
	return s;
}

/* The start of a snapshot's self-timing (0 when self_time is off). */
static __always_inline __u64 self_start(void)
{
	return self_time ? bpf_ktime_get_ns() : 0;
}

/* s's record to the ring; t0: self_start() before snapshot(). */
static __always_inline void emit_snapshot(struct pending *s, __u64 t0)
{
	__u64 size = __builtin_offsetof(struct fs_wakeup, cpu) + (__u64)nr_cpus * sizeof(struct fs_cpu);
	struct fs_self_hist *h;
	__u32 zero = 0;
	__u64 b;

	if (size > sizeof(s->w))
		size = sizeof(s->w);
	output(&s->w, size);
	count(FS_CNT_SNAPSHOT);
	if (!self_time)
		return;
	b = (bpf_ktime_get_ns() - t0) / FS_SELF_NS;
	h = bpf_map_lookup_elem(&self_hist, &zero);
	if (!h)
		return;
	if (b >= FS_SELF_BUCKETS) /* the last bucket holds everything beyond */
		b = FS_SELF_BUCKETS - 1;
	barrier_var(b);
	if (b < FS_SELF_BUCKETS)
		h->n[b]++;
}

/* select_task_rq() calls the class only for tasks that may move (v5.11+ also migration_disabled). */
static __always_inline bool reaches_select(bool btf, struct task_struct *p)
{
	struct task_struct___migdis *pm = (void *)p;

	if (TASK_READ(btf, p, nr_cpus_allowed) <= 1)
		return false;
	if (bpf_core_field_exists(pm->migration_disabled) && TASK_READ(btf, pm, migration_disabled))
		return false;
	return true;
}

/*
 * Where a program sees select_task_rq_fair(), a wake-up that will reach it
 * is snapshotted there, not here: sched_waking only parks its pid. feec reads
 * the rqs, rd->overutilized and the domains when select runs, and the waker
 * may first spin in try_to_wake_up() until p's old CPU is done with p
 * (p->on_cpu); other CPUs' rqs change meanwhile, and up to v6.11, where
 * deactivate_task() clears p->on_rq before dequeue_task(), so can p's own
 * se.avg, util_est, sum_exec_runtime and uclamp active bits (v6.12+
 * block_task() clears on_rq only after the dequeue). What stays is what
 * p->pi_lock guards, held from sched_waking to select (cpus_ptr, wake_cpu,
 * clamp requests, task group), so re-reading everything at select is exact.
 */
static __always_inline int on_waking(bool btf, enum rq_read how, struct task_struct *p)
{
	struct pending *s;
	__u64 t0;

	count(FS_CNT_WAKING);
	if (skip_task(btf, p))
		return 0;
	/* still queued (or delayed-dequeued, v6.12+): ttwu_runnable(), no placement decision */
	if (TASK_READ_INT(btf, p, on_rq)) {
		count(FS_CNT_RUNNABLE);
		/* not a decision, but lets a test account for its sched_wakeup */
		EMIT(struct fs_lplace,
		     .hdr = { .type = FS_LREC_PLACE, .size = sizeof(struct fs_lplace),
			      .ts_ns = bpf_ktime_get_boot_ns() },
		     .pid = TASK_READ(btf, p, pid),
		     .cpu = task_cpu_of(btf, p),
		     .orig_cpu = task_cpu_of(btf, p),
		     .kind = FS_PLACE_RUNNABLE);
		return 0;
	}
	s = scratch_snapshot();
	if (!s)
		return 0;
	if (s->valid) /* the previous wake-up never reached select (ttwu wakelist) */
		count(FS_CNT_NO_SELECT);
	if (select_nargs && select_attached && reaches_select(btf, p)) {
		s->pid = TASK_READ(btf, p, pid);
		s->valid = 1;
		return 0;
	}
	s->valid = 0;
	t0 = self_start();
	s = snapshot(btf, how, p, bpf_ktime_get_boot_ns());
	if (s)
		emit_snapshot(s, t0);
	return 0;
}

/*
 * Runs at the entry of select_task_rq_fair(): the snapshot of the wake-up
 * whose pid sched_waking parked. Its fork (WF_FORK) and exec (WF_EXEC)
 * callers are not wake-ups: v5.11+ says so in WF_TTWU; before, only the
 * parked pid filters (the next sched_waking on this CPU replaces it).
 */
static __always_inline int on_select(enum rq_read how, struct task_struct *p, __u64 wake_flags)
{
	__u32 sync = select_nargs == 4 ? 0x01 : 0x10; /* WF_SYNC <= v5.10 : v5.11+ */
	struct pending *s = scratch_snapshot();
	__u32 waker;
	__u64 t0;

	count(FS_CNT_SELECT);
	if (!s || !s->valid || s->pid != p->pid)
		return 0;
	if (select_nargs == 3 && !(wake_flags & 0x08)) /* WF_TTWU, v5.11 - v7.3 */
		return 0;
	s->valid = 0;
	t0 = self_start();
	s = snapshot(true, how, p, bpf_ktime_get_boot_ns());
	if (!s)
		return 0;
	s->w.flags |= FS_WAKE_FLAGS_KNOWN | FS_WAKE_AT_SELECT;
	if (wake_flags & sync)
		s->w.flags |= FS_WAKE_SYNC;
	/*
	 * WF_CURRENT_CPU (0x40, v6.6 - v7.3): select_task_rq_fair() returns
	 * smp_processor_id() before feec when that CPU is in p->cpus_ptr. On
	 * v5.11 - v6.5 bit 0x40 never reaches select (WF_ON_CPU, v5.11 - 6.0,
	 * is only OR-ed into ttwu_queue_wakelist()'s flags). The test uses the
	 * cpus_allowed word the snapshot read (p->pi_lock is held from waking
	 * to select): a waker beyond it is not claimed (feec stays).
	 */
	waker = (__u32)s->w.waker_cpu; /* snapshot()'s smp_processor_id() */
	if (select_nargs == 3 && (wake_flags & 0x40) && waker < 64 && ((s->w.cpus_allowed >> waker) & 1))
		s->w.flags |= FS_WAKE_CURRENT_CPU;
	count(FS_CNT_SNAPSHOT_SELECT);
	emit_snapshot(s, t0);
	return 0;
}

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

/* wake_up_new_task(): select_task_rq(WF_FORK) never runs feec; one complete record. */
static __always_inline int on_wakeup_new(bool btf, struct task_struct *p)
{
	struct pending *s;
	__u64 now = bpf_ktime_get_boot_ns(), t0;

	count(FS_CNT_WAKEUP_NEW);
	if (skip_task(btf, p))
		return 0;
	t0 = self_start();
	s = snapshot(btf, RQ_COPY, p, now); /* forks: rare, any kernel */
	if (!s)
		return 0;
	s->valid = 0;
	s->w.flags |= FS_WAKE_FORK;
	s->w.chosen_cpu = s->w.task_cpu;
	s->w.decided_ns = now;
	emit_snapshot(s, t0);
	return 0;
}

/*
 * do_exit(): p is current and still runs, so its sum_exec_runtime is as of
 * the last update_curr() (at most a tick old). The accounting ends the
 * task's last placement here: an exited task costs nothing afterwards.
 */
static __always_inline int on_exit(bool btf, struct task_struct *p)
{
	if (TASK_READ(btf, p, tgid) == self_tgid || TASK_READ(btf, p, prio) < MAX_RT_PRIO)
		return 0;
	void *ring = my_ring();
	struct fs_task_time *r;

	if (!ring) {
		count(FS_CNT_LOST);
		return 0;
	}
	r = bpf_ringbuf_reserve(ring, sizeof(*r), 0);
	if (!r) {
		count(FS_CNT_LOST);
		return 0;
	}
	r->hdr.type = FS_REC_EXIT;
	r->hdr.nr_cpus = 0;
	r->hdr.size = sizeof(*r);
	r->hdr.ts_ns = bpf_ktime_get_boot_ns();
	r->pid = TASK_READ(btf, p, pid);
	r->tgid = TASK_READ(btf, p, tgid);
	r->sum_exec_ns = TASK_READ(btf, p, se.sum_exec_runtime);
	bpf_probe_read_kernel_str(r->comm, sizeof(r->comm), &p->comm);
	bpf_ringbuf_submit(r, wake_flag(ring));
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

/* Typed and BTF-enabled attach points (kernel BTF present). */
SEC("tp_btf/sched_waking")
int BPF_PROG(tp_btf_sched_waking, struct task_struct *p) { return on_waking(true, RQ_COPY, p); }

SEC("tp_btf/sched_waking")
int BPF_PROG(tp_btf_sched_waking_cast, struct task_struct *p) { return on_waking(true, RQ_CAST, p); }

SEC("tp_btf/sched_waking")
int BPF_PROG(tp_btf_sched_waking_ksym, struct task_struct *p) { return on_waking(true, RQ_KSYM, p); }

SEC("tp_btf/sched_wakeup")
int BPF_PROG(tp_btf_sched_wakeup, struct task_struct *p) { return on_wakeup(true, p); }

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(tp_btf_sched_wakeup_new, struct task_struct *p) { return on_wakeup_new(true, p); }

SEC("tp_btf/sched_migrate_task")
int BPF_PROG(tp_btf_sched_migrate_task, struct task_struct *p, int dest_cpu) { return on_migrate(true, p, dest_cpu); }

SEC("tp_btf/sched_process_exit")
int BPF_PROG(tp_btf_sched_process_exit, struct task_struct *p) { return on_exit(true, p); }

SEC("tp_btf/sched_overutilized_tp")
int BPF_PROG(tp_btf_sched_overutilized, struct root_domain *rd, bool ou) { return on_overutilized(ou); }

/* Raw tracepoints: kernels without BTF (CO-RE from --btf FILE). */
SEC("raw_tp/sched_waking")
int BPF_PROG(raw_sched_waking, struct task_struct *p) { return on_waking(false, RQ_COPY, p); }

SEC("raw_tp/sched_wakeup")
int BPF_PROG(raw_sched_wakeup, struct task_struct *p) { return on_wakeup(false, p); }

SEC("raw_tp/sched_wakeup_new")
int BPF_PROG(raw_sched_wakeup_new, struct task_struct *p) { return on_wakeup_new(false, p); }

SEC("raw_tp/sched_migrate_task")
int BPF_PROG(raw_sched_migrate_task, struct task_struct *p, int dest_cpu) { return on_migrate(false, p, dest_cpu); }

SEC("raw_tp/sched_process_exit")
int BPF_PROG(raw_sched_process_exit, struct task_struct *p) { return on_exit(false, p); }

SEC("raw_tp/sched_overutilized_tp")
int BPF_PROG(raw_sched_overutilized, struct root_domain *rd, bool ou) { return on_overutilized(ou); }

/*
 * select_task_rq_fair(p, prev_cpu, wake_flags) v5.11+; (p, prev_cpu, sd_flag,
 * wake_flags) before. One program per prototype, each reading its argument at
 * a fixed ctx offset: one program choosing the slot at run time makes clang
 * add a variable offset to ctx, which the verifier refuses.
 */
SEC("fentry/select_task_rq_fair")
int BPF_PROG(fentry_select_task_rq_fair)
{
	return on_select(RQ_COPY, (struct task_struct *)ctx[0], ctx[2]);
}

SEC("fentry/select_task_rq_fair")
int BPF_PROG(fentry_select_task_rq_fair_cast)
{
	return on_select(RQ_CAST, (struct task_struct *)ctx[0], ctx[2]);
}

SEC("fentry/select_task_rq_fair")
int BPF_PROG(fentry_select_task_rq_fair_ksym)
{
	return on_select(RQ_KSYM, (struct task_struct *)ctx[0], ctx[2]);
}

/* Before v5.11: no bpf_rdonly_cast(), and Debian's 5.10 BTF has no per-CPU VARs. */
SEC("fentry/select_task_rq_fair")
int BPF_PROG(fentry_select_task_rq_fair_4args)
{
	return on_select(RQ_COPY, (struct task_struct *)ctx[0], ctx[3]);
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

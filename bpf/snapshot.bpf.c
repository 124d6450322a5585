// SPDX-License-Identifier: GPL-2.0
/*
 * The wake-up snapshot: what find_energy_efficient_cpu() will see (the task's
 * PELT state, clamps and domains, and through landscape.bpf.c every CPU's
 * struct rq), taken at the fentry of select_task_rq_fair() where that
 * program runs, else at sched_waking, and at sched_wakeup_new for forks.
 */
#include "feecscope.bpf.h"

/* Set by userspace before load. */
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
 * its default (0 / 1024); the first other value proves the key on (note_clamps()
 * sets uclamp_seen), and the key never goes off again. Before v5.9 the uclamp paths run whenever
 * CONFIG_UCLAMP_TASK is built in.
 */
extern int LINUX_KERNEL_VERSION __kconfig;
/*
 * &sched_uclamp_used from kallsyms (0: not there), set before the event
 * programs attach. Not a __ksym: libbpf would scan all of kallsyms before the
 * load (over a second under QEMU TCG); userspace scans it during the load.
 */
__u64 uclamp_used_addr = 0;
/*
 * The system default clamps uclamp_eff_get() applies last: &uclamp_default
 * from kallsyms (static in core.c; needs CONFIG_KALLSYMS_ALL), else the
 * sysctls sched_util_clamp_{min,max} userspace read (their only writer).
 */
__u64 uclamp_default_addr = 0;
__u32 uclamp_default_min = SCHED_CAPACITY_SCALE;
__u32 uclamp_default_max = SCHED_CAPACITY_SCALE;

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

/*
 * Every CPU's landscape into the scratch snapshot, the waker's first (it
 * gives the rd masks the others' online comes from): true where any CPU's
 * struct rq is unknown.
 */
static __always_inline bool read_landscapes(enum rq_read how, __u32 waker)
{
	bool incomplete;
	__u32 i, end;

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
	return incomplete;
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
	incomplete = read_landscapes(how, waker);
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

/* Typed and BTF-enabled attach points (kernel BTF present). */
SEC("tp_btf/sched_waking")
int BPF_PROG(tp_btf_sched_waking, struct task_struct *p) { return on_waking(true, RQ_COPY, p); }

SEC("tp_btf/sched_waking")
int BPF_PROG(tp_btf_sched_waking_cast, struct task_struct *p) { return on_waking(true, RQ_CAST, p); }

SEC("tp_btf/sched_waking")
int BPF_PROG(tp_btf_sched_waking_ksym, struct task_struct *p) { return on_waking(true, RQ_KSYM, p); }

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(tp_btf_sched_wakeup_new, struct task_struct *p) { return on_wakeup_new(true, p); }

/* Raw tracepoints: kernels without BTF (CO-RE from --btf FILE). */
SEC("raw_tp/sched_waking")
int BPF_PROG(raw_sched_waking, struct task_struct *p) { return on_waking(false, RQ_COPY, p); }

SEC("raw_tp/sched_wakeup_new")
int BPF_PROG(raw_sched_wakeup_new, struct task_struct *p) { return on_wakeup_new(false, p); }

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

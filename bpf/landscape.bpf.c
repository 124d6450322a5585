// SPDX-License-Identifier: GPL-2.0
/*
 * The landscape readers: every CPU's struct rq fields find_energy_efficient_cpu()
 * reads, into the scratch snapshot, by copy (any kernel) or through a BTF
 * pointer (RQ_CAST, RQ_KSYM). snapshot.bpf.c calls the global functions at the end.
 */
#include "feecscope.bpf.h"

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

/* The cfs_rq's PELT fields of fill_cpu()'s landscape; its barrier()s are explained there. */
static __always_inline void fill_cpu_cfs(struct fs_cpu *c, struct rq *m)
{
	struct sched_avg *a = &m->cfs.avg;
	struct sched_avg___runnable *ar = (void *)a;
	struct sched_avg___old *ao = (void *)a;
	struct sched_avg___new *an = (void *)a;

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
	__u32 flags;

	fill_cpu_cfs(c, m);
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

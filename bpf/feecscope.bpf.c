// SPDX-License-Identifier: GPL-2.0
/*
 * feecscope collector: at sched_waking, snapshot what find_energy_efficient_cpu()
 * will see (the task's PELT state and every CPU's struct rq landscape); at
 * sched_migrate_task / sched_wakeup, tell where the kernel put the task.
 * Collect only: no policy here, every drop counted.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "record.h"
#include "source/live_wire.h"
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
 * uclamp_is_used() (v5.9+) is the static key sched_uclamp_used: read it where
 * kallsyms has data symbols (CONFIG_KALLSYMS_ALL). Elsewhere infer it: while
 * the key is off uclamp_rq_inc() never runs, so every rq and task clamp keeps
 * its default (0 / 1024); the first other value proves the key on, and the key
 * never goes off again. Before v5.9 the uclamp paths run whenever
 * CONFIG_UCLAMP_TASK is built in.
 */
extern int LINUX_KERNEL_VERSION __kconfig;
extern const void sched_uclamp_used __ksym __weak;
bool uclamp_seen = false;

/* A clamp other than the defaults 0 / 1024 proves sched_uclamp_used on. */
static __always_inline void note_clamps(__u32 min, __u32 max)
{
	if (min || max != SCHED_CAPACITY_SCALE)
		uclamp_seen = true;
}

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20); /* resized by --ringbuf-size */
} rb SEC(".maps");

/* struct rq * of each CPU, learnt at run time (no `runqueues` ksym needed). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FS_MAX_CPUS);
	__type(key, __u32);
	__type(value, __u64);
} rqs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FS_CNT__NR);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

/* The snapshot being built on this CPU; waits for select_task_rq_fair when fentry is used. */
struct pending {
	__s32 pid;
	__u32 valid;
	struct fs_wakeup w;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pending);
} scratch SEC(".maps");

static __always_inline void count(__u32 idx)
{
	__u64 *v = bpf_map_lookup_elem(&counters, &idx);

	if (v)
		*v += 1;
}

/*
 * Wake the reader only once the buffer is a quarter full: a wake-up per
 * record would make feecscope's own thread the busiest waker on the system.
 * The reader also drains on a short timer.
 */
static __always_inline void output(void *data, __u64 size)
{
	__u64 flags = bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA) >= wakeup_bytes ?
		      BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;

	if (bpf_ringbuf_output(&rb, data, size, flags))
		count(FS_CNT_LOST);
}

static __always_inline struct rq *rq_of(__u32 cpu)
{
	__u64 *v = bpf_map_lookup_elem(&rqs, &cpu);

	return v ? (struct rq *)*v : NULL;
}

static __always_inline int task_cpu_of(struct task_struct *p)
{
	struct task_struct___cpu *pc = (void *)p;

	if (bpf_core_field_exists(pc->cpu)) /* v5.16+ */
		return BPF_CORE_READ(pc, cpu);
	return BPF_CORE_READ(p, thread_info.cpu);
}

static __always_inline __u64 task_state(struct task_struct *p)
{
	struct task_struct___state *ps = (void *)p;

	if (bpf_core_field_exists(p->__state)) /* v5.14+ */
		return BPF_CORE_READ(p, __state);
	return BPF_CORE_READ(ps, state);
}

static __always_inline bool skip_task(struct task_struct *p)
{
	if (BPF_CORE_READ(p, tgid) == self_tgid) {
		count(FS_CNT_SELF);
		return true;
	}
	if (BPF_CORE_READ(p, prio) < MAX_RT_PRIO) {
		count(FS_CNT_NOT_FAIR);
		return true;
	}
	return false;
}

/* util_est word(s), flag bit masked: enqueued and ewma (both = util_est on v6.8+). */
static __always_inline void read_util_est(struct sched_avg *sa, __u32 *enq, __u32 *ewma)
{
	struct sched_avg___old *old = (void *)sa;
	struct sched_avg___new *new = (void *)sa;

	if (bpf_core_field_exists(old->util_est.enqueued)) { /* v5.13 - v6.7 */
		*enq = BPF_CORE_READ(old, util_est.enqueued) & ~UTIL_AVG_UNCHANGED_MSB;
		*ewma = BPF_CORE_READ(old, util_est.ewma) & ~UTIL_AVG_UNCHANGED_MSB;
	} else { /* v6.8+ */
		*enq = BPF_CORE_READ(new, util_est) & ~UTIL_AVG_UNCHANGED_MSB;
		*ewma = *enq;
	}
}

/* One CPU's landscape from its struct rq. */
static __always_inline void read_cpu(struct fs_cpu *c, struct rq *rq, struct task_struct *p)
{
	struct rq___capacity_orig *rqo = (void *)rq;
	struct rq___thermal *rqt = (void *)rq;
	struct rq___hw *rqh = (void *)rq;
	struct rq___uclamp *rqu = (void *)rq;
	struct rq___irq *rqi = (void *)rq;
	struct sched_avg___runnable *sar = (void *)&rq->cfs.avg;
	__u32 ewma;

	c->cfs_last_update_time = BPF_CORE_READ(rq, cfs.avg.last_update_time);
	c->util_avg = BPF_CORE_READ(rq, cfs.avg.util_avg);
	read_util_est(&rq->cfs.avg, &c->util_est, &ewma);
	if (bpf_core_field_exists(sar->runnable_avg)) /* v5.7+ */
		c->runnable_avg = BPF_CORE_READ(sar, runnable_avg);
	c->rt_util = BPF_CORE_READ(rq, avg_rt.util_avg);
	c->dl_util = BPF_CORE_READ(rq, avg_dl.util_avg);
	c->dl_running_bw = BPF_CORE_READ(rq, dl.running_bw);
	if (bpf_core_field_exists(rqi->avg_irq)) /* CONFIG_HAVE_SCHED_AVG_IRQ */
		c->irq_util = BPF_CORE_READ(rqi, avg_irq.util_avg);
	c->capacity = BPF_CORE_READ(rq, cpu_capacity);
	/* <= v6.7; later kernels: userspace fills arch_scale_cpu_capacity from sysfs */
	if (bpf_core_field_exists(rqo->cpu_capacity_orig))
		c->capacity_orig = BPF_CORE_READ(rqo, cpu_capacity_orig);
	if (bpf_core_field_exists(rqh->avg_hw)) /* v6.10+ */
		c->hw_load_avg = BPF_CORE_READ(rqh, avg_hw.load_avg);
	else if (bpf_core_field_exists(rqt->avg_thermal)) /* v5.7 - v6.9 */
		c->hw_load_avg = BPF_CORE_READ(rqt, avg_thermal.load_avg);
	c->nr_running = BPF_CORE_READ(rq, nr_running);
	c->uclamp_min = 0;
	c->uclamp_max = SCHED_CAPACITY_SCALE;
	c->flags = 0;
	if (bpf_core_field_exists(rqu->uclamp_flags)) { /* CONFIG_UCLAMP_TASK */
		c->uclamp_min = BPF_CORE_READ(rqu, uclamp[0].value);
		c->uclamp_max = BPF_CORE_READ(rqu, uclamp[1].value);
		note_clamps(c->uclamp_min, c->uclamp_max);
		if (BPF_CORE_READ(rqu, uclamp_flags) & UCLAMP_FLAG_IDLE)
			c->flags |= FS_CPU_UCLAMP_IDLE;
	}
	/* rq->online: the rq is attached to its root domain (cpu active) */
	if (BPF_CORE_READ(rq, online))
		c->flags |= FS_CPU_ONLINE;
	if (BPF_CORE_READ(rq, rt.rt_queued) && BPF_CORE_READ(rq, rt.rt_nr_running))
		c->flags |= FS_CPU_RT_RUNNABLE;
	if ((void *)BPF_CORE_READ(rq, curr) == (void *)p)
		c->flags |= FS_CPU_CURR_IS_P;
}

static __always_inline void read_task(struct fs_wakeup *w, struct task_struct *p)
{
	struct task_struct___uclamp *pu = (void *)p;
	struct fs_task *t = &w->task;
	struct rq *rq;

	t->last_update_time = BPF_CORE_READ(p, se.avg.last_update_time);
	t->util_sum = BPF_CORE_READ(p, se.avg.util_sum);
	t->period_contrib = BPF_CORE_READ(p, se.avg.period_contrib);
	t->util_avg = BPF_CORE_READ(p, se.avg.util_avg);
	read_util_est(&p->se.avg, &t->util_est_enqueued, &t->util_est_ewma);
	/* v5.7+: what 29922fdfc2a4's boosted cpu_util() moves (decayed in userspace) */
	t->runnable_sum = 0;
	t->runnable_avg = 0;
	if (bpf_core_field_exists(((struct sched_avg___runnable *)&p->se.avg)->runnable_avg)) {
		struct sched_avg___runnable *ar = (void *)&p->se.avg;

		t->runnable_sum = BPF_CORE_READ(ar, runnable_sum);
		t->runnable_avg = BPF_CORE_READ(ar, runnable_avg);
	}
	/* sync_entity_load_avg() decays p to cfs_rq_of(&p->se)'s last update */
	if (bpf_core_field_exists(p->se.cfs_rq)) { /* CONFIG_FAIR_GROUP_SCHED */
		t->cfs_rq_last_update_time = BPF_CORE_READ(p, se.cfs_rq, avg.last_update_time);
	} else {
		rq = rq_of(w->task_cpu & (FS_MAX_CPUS - 1));
		if (rq)
			t->cfs_rq_last_update_time = BPF_CORE_READ(rq, cfs.avg.last_update_time);
	}
	t->uclamp_min = 0;
	t->uclamp_max = SCHED_CAPACITY_SCALE;
	/* Last effective clamps (p->uclamp[].value): an approximation of uclamp_eff_value() */
	if (bpf_core_field_exists(pu->uclamp)) {
		t->uclamp_min = BPF_CORE_READ_BITFIELD_PROBED(&pu->uclamp[0], value);
		t->uclamp_max = BPF_CORE_READ_BITFIELD_PROBED(&pu->uclamp[1], value);
		note_clamps(t->uclamp_min, t->uclamp_max);
	}
}

/* Lowest domain with asymmetric capacities above the waker, then up until it spans prev. */
static __always_inline void read_asym_sd(struct fs_wakeup *w, struct rq *waker_rq)
{
	struct sched_domain *sd = BPF_CORE_READ(waker_rq, sd);
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

static __always_inline void read_root_domain(struct fs_wakeup *w, struct rq *waker_rq)
{
	struct root_domain *rd = BPF_CORE_READ(waker_rq, rd);
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
	if (&sched_uclamp_used &&
	    !bpf_probe_read_kernel(&enabled, sizeof(enabled), &sched_uclamp_used))
		return enabled > 0;
	return uclamp_seen;
}

/* Fill the per-CPU scratch snapshot for p; NULL if it cannot be built. */
static __always_inline struct pending *snapshot(struct task_struct *p, __u64 now)
{
	__u32 zero = 0, waker = bpf_get_smp_processor_id();
	const struct cpumask *mask;
	struct pending *s;
	struct fs_wakeup *w;
	struct rq *rq;
	bool incomplete = false;
	__u32 i;

	s = bpf_map_lookup_elem(&scratch, &zero);
	if (!s)
		return NULL;
	w = &s->w;
	w->hdr.type = FS_REC_WAKEUP;
	w->hdr.nr_cpus = nr_cpus;
	w->hdr.size = __builtin_offsetof(struct fs_wakeup, cpu) + nr_cpus * sizeof(struct fs_cpu);
	w->hdr.ts_ns = now;
	w->pid = BPF_CORE_READ(p, pid);
	w->tgid = BPF_CORE_READ(p, tgid);
	bpf_probe_read_kernel_str(w->comm, sizeof(w->comm), &p->comm);
	w->prev_cpu = BPF_CORE_READ(p, wake_cpu);
	w->task_cpu = task_cpu_of(p);
	w->waker_cpu = waker;
	w->chosen_cpu = -1;
	w->decided_ns = 0;
	w->flags = util_est_off ? FS_WAKE_UTIL_EST_OFF : 0;
	if (bpf_core_field_exists(p->cpus_ptr)) { /* v5.3+ */
		mask = BPF_CORE_READ(p, cpus_ptr);
		bpf_probe_read_kernel(&w->cpus_allowed, sizeof(w->cpus_allowed), &mask->bits[0]);
	} else {
		struct task_struct___cpus_allowed *pa = (void *)p;

		w->cpus_allowed = BPF_CORE_READ(pa, cpus_allowed.bits[0]);
	}
	w->nr_cpus_allowed = BPF_CORE_READ(p, nr_cpus_allowed);
	read_task(w, p);

#pragma clang loop unroll(disable)
	for (i = 0; i < FS_MAX_CPUS; i++) {
		if (i >= nr_cpus)
			break;
		rq = rq_of(i);
		if (!rq) {
			__builtin_memset(&w->cpu[i], 0, sizeof(w->cpu[i]));
			incomplete = true;
			continue;
		}
		read_cpu(&w->cpu[i], rq, p);
	}
	if (incomplete)
		count(FS_CNT_RQ_UNKNOWN);
	if (uclamp_in_use(p))
		w->flags |= FS_WAKE_UCLAMP_USED;

	rq = rq_of(waker & (FS_MAX_CPUS - 1));
	if (rq) {
		read_root_domain(w, rq);
		read_asym_sd(w, rq);
	} else {
		w->flags |= FS_WAKE_EAS_UNKNOWN | FS_WAKE_NO_ASYM;
	}
	return s;
}

static __always_inline void emit_snapshot(struct pending *s)
{
	__u64 size = __builtin_offsetof(struct fs_wakeup, cpu) + (__u64)nr_cpus * sizeof(struct fs_cpu);

	if (size > sizeof(s->w))
		size = sizeof(s->w);
	output(&s->w, size);
	count(FS_CNT_SNAPSHOT);
}

/* select_task_rq() calls the class only for tasks that may move (v5.11+ also migration_disabled). */
static __always_inline bool reaches_select(struct task_struct *p)
{
	struct task_struct___migdis *pm = (void *)p;

	if (BPF_CORE_READ(p, nr_cpus_allowed) <= 1)
		return false;
	if (bpf_core_field_exists(pm->migration_disabled) && BPF_CORE_READ(pm, migration_disabled))
		return false;
	return true;
}

static __always_inline int on_waking(struct task_struct *p)
{
	struct pending *s;
	__u32 zero = 0;

	count(FS_CNT_WAKING);
	if (skip_task(p))
		return 0;
	/* still queued (or delayed-dequeued, v6.12+): ttwu_runnable(), no placement decision */
	if (BPF_CORE_READ(p, on_rq)) {
		struct fs_lplace e = {
			.hdr = { .type = FS_LREC_PLACE, .size = sizeof(e), .ts_ns = bpf_ktime_get_boot_ns() },
			.pid = BPF_CORE_READ(p, pid),
			.cpu = task_cpu_of(p),
			.orig_cpu = task_cpu_of(p),
			.kind = FS_PLACE_RUNNABLE,
		};

		count(FS_CNT_RUNNABLE);
		output(&e, sizeof(e)); /* not a decision, but lets a test account for its sched_wakeup */
		return 0;
	}
	s = bpf_map_lookup_elem(&scratch, &zero);
	if (s && s->valid) /* the previous snapshot never reached select (ttwu wakelist) */
		count(FS_CNT_NO_SELECT);
	s = snapshot(p, bpf_ktime_get_boot_ns());
	if (!s)
		return 0;
	if (select_nargs && reaches_select(p)) {
		s->pid = s->w.pid;
		s->valid = 1;
		return 0;
	}
	s->valid = 0;
	emit_snapshot(s);
	return 0;
}

/* Runs inside select_task_rq() of the wake-up whose snapshot waits in scratch. */
static __always_inline int on_select(struct task_struct *p, __u64 wake_flags)
{
	__u32 zero = 0, sync = select_nargs == 4 ? 0x01 : 0x10; /* WF_SYNC <= v5.10 : v5.11+ */
	struct pending *s = bpf_map_lookup_elem(&scratch, &zero);

	if (!s || !s->valid || s->pid != BPF_CORE_READ(p, pid))
		return 0;
	s->valid = 0;
	s->w.flags |= FS_WAKE_FLAGS_KNOWN;
	if (wake_flags & sync)
		s->w.flags |= FS_WAKE_SYNC;
	emit_snapshot(s);
	return 0;
}

static __always_inline int on_migrate(struct task_struct *p, int dest_cpu)
{
	count(FS_CNT_MIGRATE);
	if (skip_task(p))
		return 0;
	if (task_state(p) & TASK_WAKING_BIT) {
		struct fs_lplace e = {
			.hdr = { .type = FS_LREC_PLACE, .size = sizeof(e), .ts_ns = bpf_ktime_get_boot_ns() },
			.pid = BPF_CORE_READ(p, pid),
			.cpu = dest_cpu,
			.orig_cpu = task_cpu_of(p),
			.kind = FS_PLACE_MIGRATE,
		};
		output(&e, sizeof(e));
	} else {
		struct fs_migrate m = {
			.hdr = { .type = FS_REC_MIGRATE, .size = sizeof(m), .ts_ns = bpf_ktime_get_boot_ns() },
			.pid = BPF_CORE_READ(p, pid),
			.orig_cpu = task_cpu_of(p),
			.dest_cpu = dest_cpu,
			.reason = FS_MIG_BALANCE,
		};
		output(&m, sizeof(m));
	}
	return 0;
}

static __always_inline int on_wakeup(struct task_struct *p)
{
	int cpu;

	count(FS_CNT_WAKEUP);
	if (skip_task(p))
		return 0;
	cpu = task_cpu_of(p);
	struct fs_lplace e = {
		.hdr = { .type = FS_LREC_PLACE, .size = sizeof(e), .ts_ns = bpf_ktime_get_boot_ns() },
		.pid = BPF_CORE_READ(p, pid),
		.cpu = cpu,
		.orig_cpu = cpu,
		.kind = FS_PLACE_WAKEUP,
	};
	output(&e, sizeof(e));
	return 0;
}

/* wake_up_new_task(): select_task_rq(WF_FORK) never runs feec; one complete record. */
static __always_inline int on_wakeup_new(struct task_struct *p)
{
	struct pending *s;
	__u64 now = bpf_ktime_get_boot_ns();

	count(FS_CNT_WAKEUP);
	if (skip_task(p))
		return 0;
	s = snapshot(p, now);
	if (!s)
		return 0;
	s->valid = 0;
	s->w.flags |= FS_WAKE_FORK;
	s->w.chosen_cpu = s->w.task_cpu;
	s->w.decided_ns = now;
	emit_snapshot(s);
	return 0;
}

static __always_inline int on_overutilized(bool overutilized)
{
	struct fs_overutil o = {
		.hdr = { .type = FS_REC_OVERUTIL, .size = sizeof(o), .ts_ns = bpf_ktime_get_boot_ns() },
		.overutilized = overutilized,
	};

	output(&o, sizeof(o));
	return 0;
}

/* Learn this CPU's struct rq from a task running on it. */
static __always_inline void harvest(struct rq *rq)
{
	__u32 cpu = bpf_get_smp_processor_id();
	__u64 *slot, v = (__u64)rq;

	if (!rq || BPF_CORE_READ(rq, cpu) != (int)cpu)
		return;
	slot = bpf_map_lookup_elem(&rqs, &cpu);
	if (slot && !*slot)
		*slot = v;
}

/* Typed and BTF-enabled attach points (kernel BTF present). */
SEC("tp_btf/sched_waking")
int BPF_PROG(tp_btf_sched_waking, struct task_struct *p) { return on_waking(p); }

SEC("tp_btf/sched_wakeup")
int BPF_PROG(tp_btf_sched_wakeup, struct task_struct *p) { return on_wakeup(p); }

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(tp_btf_sched_wakeup_new, struct task_struct *p) { return on_wakeup_new(p); }

SEC("tp_btf/sched_migrate_task")
int BPF_PROG(tp_btf_sched_migrate_task, struct task_struct *p, int dest_cpu) { return on_migrate(p, dest_cpu); }

SEC("tp_btf/sched_overutilized_tp")
int BPF_PROG(tp_btf_sched_overutilized, struct root_domain *rd, bool ou) { return on_overutilized(ou); }

/* Raw tracepoints: kernels without BTF (CO-RE from --btf FILE). */
SEC("raw_tp/sched_waking")
int BPF_PROG(raw_sched_waking, struct task_struct *p) { return on_waking(p); }

SEC("raw_tp/sched_wakeup")
int BPF_PROG(raw_sched_wakeup, struct task_struct *p) { return on_wakeup(p); }

SEC("raw_tp/sched_wakeup_new")
int BPF_PROG(raw_sched_wakeup_new, struct task_struct *p) { return on_wakeup_new(p); }

SEC("raw_tp/sched_migrate_task")
int BPF_PROG(raw_sched_migrate_task, struct task_struct *p, int dest_cpu) { return on_migrate(p, dest_cpu); }

SEC("raw_tp/sched_overutilized_tp")
int BPF_PROG(raw_sched_overutilized, struct root_domain *rd, bool ou) { return on_overutilized(ou); }

/* select_task_rq_fair(p, prev_cpu, wake_flags) v5.11+; (p, prev_cpu, sd_flag, wake_flags) before. */
SEC("fentry/select_task_rq_fair")
int BPF_PROG(fentry_select_task_rq_fair)
{
	struct task_struct *p = (void *)ctx[0];

	return on_select(p, select_nargs == 4 ? ctx[3] : ctx[2]);
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
extern const struct rq runqueues __ksym __weak;

SEC("?raw_tp/sched_switch")
int BPF_PROG(harvest_ksym)
{
	__u32 i;

#pragma clang loop unroll(disable)
	for (i = 0; i < FS_MAX_CPUS; i++) {
		struct rq *rq;
		__u64 v, *slot;

		if (i >= nr_cpus)
			break;
		rq = bpf_per_cpu_ptr(&runqueues, i);
		slot = bpf_map_lookup_elem(&rqs, &i);
		if (!rq || !slot)
			continue;
		v = (__u64)rq;
		*slot = v;
	}
	return 0;
}

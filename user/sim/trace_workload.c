// SPDX-License-Identifier: GPL-2.0
/*
 * Trace events -> fs_sim_workload (trace_workload.h, docs/traces.md). An
 * activation opens at a task's sched_waking (or sched_wakeup(_new) when the
 * trace has no waking) and closes at the sched_switch that takes it off its
 * CPU with a sleeping prev_state; a preempted task ("R", "R+") stays in it.
 * Its work is the CPU time between its switches, each stretch scaled by the
 * CPU's capacity and the frequency its last cpu_frequency event set.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "trace_workload.h"
#include "../engine/pelt.h"
#include "trace_check.h"

#define CPU_UNKNOWN (-2) /* who runs there is not known (trace start, lost events) */
#define CPU_IDLE    (-1)

struct tw_act {
	__u64 wake_ns, work, cpu_ns;
	__s32 task, waker, rec_cpu;
	__u32 flags, traced_util;
};

struct tw_task {
	__s32 pid, tgid, init_cpu, run_cpu;
	bool tgid_known, waking;
	char comm[FS_COMM_LEN];
	__u64 exit_ns, outside_ns;
	long open;          /* its open activation in acts[], -1 none */
	__u32 nr_act;
	/* the last sched_pelt_se / sched_util_est_se of it (LISA), and what its first activation took */
	bool has_pelt, has_ue;
	__u64 pelt_ts;      /* ns of the last sched_pelt_se */
	__u32 util, ue_ewma;
	__u32 init_util, init_util_est;
	bool init_traced;
	bool want_util;     /* woken, not run yet: a sched_pelt_se now is its util at the wake-up */
};

struct tw_cpu {
	int cur;            /* task index, CPU_IDLE or CPU_UNKNOWN */
	__u64 since;        /* when cur's stretch began (or the last flush) */
	__u32 khz;          /* 0: no cpu_frequency yet */
	int opp;            /* the EM's OPP khz stands for (trace_check.h) */
};

struct pid_slot {
	__s32 pid;          /* 0: empty */
	int task;           /* -1: the pid's task was freed */
};

struct fs_trace_wl {
	const struct fs_em *em;
	enum fs_sim_physics physics;
	__u64 t0, last;
	struct tw_cpu cpu[FS_MAX_CPUS];
	struct tw_task *tasks;
	int nr_tasks, cap_tasks;
	struct tw_act *acts;
	long nr_acts, cap_acts;
	struct pid_slot *slots;
	size_t nr_slots, used_slots;
	struct fs_sim_observed obs;
	struct fs_trace_wl_info info;
	__u64 never_ns_total;
	__u32 rq_util[FS_MAX_CPUS]; /* the first root sched_pelt_cfs of each CPU in info.rq_traced_cpus */
	bool oom;
};

struct fs_trace_wl *fs_trace_wl_new(const struct fs_em *em, enum fs_sim_physics physics)
{
	struct fs_trace_wl *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->em = em;
	b->physics = physics;
	for (int c = 0; c < FS_MAX_CPUS; c++)
		b->cpu[c].cur = CPU_UNKNOWN;
	return b;
}

void fs_trace_wl_free(struct fs_trace_wl *b)
{
	if (!b)
		return;
	free(b->tasks);
	free(b->acts);
	free(b->slots);
	free(b);
}

static struct pid_slot *slot_of(struct fs_trace_wl *b, __s32 pid)
{
	size_t mask = b->nr_slots - 1, i = ((size_t)pid * 2654435761u) & mask;

	while (b->slots[i].pid && b->slots[i].pid != pid)
		i = (i + 1) & mask;
	return &b->slots[i];
}

static bool grow_slots(struct fs_trace_wl *b)
{
	struct pid_slot *old = b->slots;
	size_t n = b->nr_slots;

	b->nr_slots = n ? n * 2 : 256;
	b->slots = calloc(b->nr_slots, sizeof(*b->slots));
	if (!b->slots) {
		b->slots = old;
		b->nr_slots = n;
		return false;
	}
	for (size_t i = 0; i < n; i++)
		if (old[i].pid)
			*slot_of(b, old[i].pid) = old[i];
	free(old);
	return true;
}

/* The task index of pid (created if new), -1 for the idle task or no memory. */
static int task_get(struct fs_trace_wl *b, __s32 pid, const char *comm)
{
	struct pid_slot *s;
	struct tw_task *t;

	if (pid <= 0)
		return -1;
	if ((b->used_slots + 1) * 2 > b->nr_slots && !grow_slots(b))
		return b->oom = true, -1;
	s = slot_of(b, pid);
	if (s->pid && s->task >= 0)
		return s->task;
	if (b->nr_tasks == b->cap_tasks) {
		int cap = b->cap_tasks ? b->cap_tasks * 2 : 64;
		struct tw_task *nt = realloc(b->tasks, (size_t)cap * sizeof(*nt));
		if (!nt)
			return b->oom = true, -1;
		b->tasks = nt;
		b->cap_tasks = cap;
	}
	if (!s->pid)
		b->used_slots++;
	s->pid = pid;
	s->task = b->nr_tasks;
	t = &b->tasks[b->nr_tasks];
	memset(t, 0, sizeof(*t));
	t->pid = t->tgid = pid;
	t->init_cpu = t->run_cpu = -1;
	t->open = -1;
	t->exit_ns = FS_SIM_NEVER;
	snprintf(t->comm, sizeof(t->comm), "%s", comm ? comm : "");
	return b->nr_tasks++;
}

/* Work units for dt ns on CPU c at its current frequency (sim.h's unit). */
static __u64 work_of(struct fs_trace_wl *b, int c, __u64 dt)
{
	const struct fs_em_pd *pd = &b->em->pd[b->em->cpu_pd[c]];
	__u64 fmax = pd->ps[pd->nr_ps - 1].frequency;
	__u64 f = b->cpu[c].khz ? b->cpu[c].khz : fmax;

	if (!b->cpu[c].khz && dt) {
		b->info.freq_assumed_cpus |= 1ull << c;
		b->info.freq_assumed_ns += dt;
	}
	if (b->physics == FS_SIM_LAB)
		return dt;
	if (!fmax) /* an EM without frequencies: capacity alone */
		return (__u64)((unsigned __int128)dt * b->em->capacity[c] / FS_SCHED_CAPACITY_SCALE);
	return (__u64)((unsigned __int128)dt * b->em->capacity[c] * f / ((unsigned __int128)FS_SCHED_CAPACITY_SCALE * fmax));
}

/* Charge what ran on CPU c since the last flush, up to ts. */
static void flush(struct fs_trace_wl *b, int c, __u64 ts)
{
	struct tw_cpu *cpu = &b->cpu[c];
	__u64 dt = ts - cpu->since;

	cpu->since = ts;
	if (cpu->cur < 0 || !dt)
		return;
	struct tw_task *t = &b->tasks[cpu->cur];
	__u64 w = work_of(b, c, dt);
	if (t->open < 0) {
		t->outside_ns += dt;
		return;
	}
	b->acts[t->open].work += w;
	b->acts[t->open].cpu_ns += dt;
	b->obs.busy_ns[c] += dt;
	if (cpu->khz)
		b->obs.opp_busy_ns[b->em->cpu_pd[c]][cpu->opp] += dt;
}

/*
 * A task's first activation starts from its traced PELT where the trace has
 * LISA's sched_pelt_se / sched_util_est_se of it (else util 0, rebuilt by the
 * simulation): util_avg as last updated, decayed as a blocked entity's to
 * the wake-up in whole 1024 us periods (decay_load(), kernel/sched/pelt.c;
 * the clock_pelt scaling of v5.1+ is not applied: it needs the rq's
 * capacity and frequency then), and util_est's ewma as last traced.
 */
static void take_traced_pelt(struct fs_trace_wl *b, struct tw_task *t, __u64 ts)
{
	if (!t->has_pelt && !t->has_ue)
		return;
	t->init_traced = true;
	b->info.pelt_tasks++;
	if (t->has_pelt)
		t->init_util = (__u32)fs_decay_load(t->util, ts > t->pelt_ts ? (ts - t->pelt_ts) >> 20 : 0);
	if (t->has_ue)
		t->init_util_est = t->ue_ewma;
}

/* sched_pelt_se / sched_util_est_se of a task (a group's entity, pid -1, is left). */
static void on_pelt(struct fs_trace_wl *b, const struct fs_tev *ev)
{
	int ti;
	struct tw_task *t;

	if (ev->pelt.t.pid <= 0 || (ti = task_get(b, ev->pelt.t.pid, ev->pelt.t.comm)) < 0)
		return;
	t = &b->tasks[ti];
	b->info.pelt_events++;
	if (ev->type == FS_TEV_PELT_SE) {
		t->has_pelt = true;
		t->util = ev->pelt.util;
		t->pelt_ts = ev->ts_ns;
		/*
		 * Between a wake-up and the first run comes the enqueue's
		 * update_load_avg() (enqueue_entity(), kernel/sched/fair.c),
		 * whose __update_load_avg_se() fires pelt_se_tp: the task's util
		 * at this wake-up, for the self-check (trace_check.c).
		 */
		if (t->want_util && t->open >= 0) {
			b->acts[t->open].traced_util = ev->pelt.util;
			b->acts[t->open].flags |= FS_SIM_ACT_UTIL_TRACED;
			b->info.wake_utils++;
		}
		t->want_util = false;
	} else {
		t->has_ue = true;
		t->ue_ewma = ev->pelt.ewma;
	}
}

/*
 * LISA's sched_pelt_cfs / sched_util_est_cfs: a root cfs_rq's first
 * sched_pelt_cfs starts the simulated rq's PELT (sim_rq_traced_start());
 * the rest, util_est_cfs and task groups' cfs_rqs are counted (the
 * simulated machine's rqs follow its own placements from there).
 */
static void on_cfs(struct fs_trace_wl *b, const struct fs_tev *ev)
{
	int c = ev->cfs.cpu;

	if (!ev->cfs.root) {
		b->info.cfs_group_events++;
		return;
	}
	b->info.cfs_events++;
	if (ev->type == FS_TEV_PELT_CFS && !(b->info.rq_traced_cpus >> c & 1)) {
		b->info.rq_traced_cpus |= 1ull << c;
		b->rq_util[c] = ev->cfs.util;
	}
}

static long act_open(struct fs_trace_wl *b, int ti, __u64 ts, int waker, __u32 flags)
{
	struct tw_act *a;

	if (b->nr_acts == b->cap_acts) {
		long cap = b->cap_acts ? b->cap_acts * 2 : 256;
		struct tw_act *na = realloc(b->acts, (size_t)cap * sizeof(*na));
		if (!na)
			return b->oom = true, -1;
		b->acts = na;
		b->cap_acts = cap;
	}
	a = &b->acts[b->nr_acts];
	memset(a, 0, sizeof(*a));
	a->wake_ns = ts - b->t0;
	a->task = ti;
	a->waker = waker;
	a->rec_cpu = -1;
	a->flags = flags;
	if (!b->tasks[ti].nr_act)
		take_traced_pelt(b, &b->tasks[ti], ts);
	b->tasks[ti].nr_act++;
	b->tasks[ti].want_util = true;
	return b->tasks[ti].open = b->nr_acts++;
}

/* The waker: the task that emitted the event (not the idle task, not an unknown one). */
static int waker_of(struct fs_trace_wl *b, const struct fs_tev *ev)
{
	if (ev->common_pid > 0)
		return task_get(b, ev->common_pid, ev->common_comm);
	return -1;
}

static int check_cpu(struct fs_trace_wl *b, const struct fs_tev *ev, const char *what, int c, char *err,
		     size_t errlen)
{
	if (c >= 0 && c < b->em->nr_cpus && c < FS_MAX_CPUS && b->em->cpu_pd[c] >= 0 &&
	    b->em->pd[b->em->cpu_pd[c]].nr_ps > 0)
		return 0;
	snprintf(err, errlen, "%s at %llu ns: %s %d is not a CPU of the EM (%d CPUs)", fs_tev_name(ev->type),
		 (unsigned long long)ev->ts_ns, what, c, b->em->nr_cpus);
	return -1;
}

static void on_switch(struct fs_trace_wl *b, const struct fs_tev *ev)
{
	int c = ev->cpu, prev, next;

	if (b->cpu[c].cur == CPU_UNKNOWN && ev->sw.prev.pid > 0) /* prev ran there since when? */
		b->info.untracked_ns += ev->ts_ns - b->cpu[c].since;
	flush(b, c, ev->ts_ns);
	prev = task_get(b, ev->sw.prev.pid, ev->sw.prev.comm);
	if (prev >= 0) {
		struct tw_task *t = &b->tasks[prev];
		t->run_cpu = -1;
		t->waking = false; /* a waking that led to no wakeup (the task was still running) is over */
		if (ev->sw.prev_state & FS_TSTATE_SLEEP)
			t->open = -1; /* asleep (or dead): the activation is over */
	}
	next = task_get(b, ev->sw.next.pid, ev->sw.next.comm);
	b->cpu[c].cur = next >= 0 ? next : ev->sw.next.pid == 0 ? CPU_IDLE : CPU_UNKNOWN;
	if (next >= 0) {
		struct tw_task *t = &b->tasks[next];
		t->run_cpu = c;
		t->waking = false;
		t->want_util = false;
		if (t->open >= 0 && b->acts[t->open].rec_cpu < 0)
			b->acts[t->open].rec_cpu = c;
	}
}

/* sched_waking opens; sched_wakeup(_new) opens only when no waking did, and gives the placement. */
static void on_wake(struct fs_trace_wl *b, const struct fs_tev *ev)
{
	int ti = task_get(b, ev->wake.t.pid, ev->wake.t.comm);
	struct tw_task *t;

	if (ti < 0)
		return;
	t = &b->tasks[ti];
	if (t->init_cpu < 0)
		t->init_cpu = ev->wake.target_cpu;
	if (t->open < 0) {
		__u32 flags = ev->type == FS_TEV_WAKEUP_NEW && !t->nr_act ? FS_SIM_ACT_FORK : 0;
		int waker = waker_of(b, ev);
		t = &b->tasks[ti]; /* task_get may have moved it */
		if (act_open(b, ti, ev->ts_ns, waker, flags) < 0)
			return;
	}
	t->waking = ev->type == FS_TEV_WAKING;
	/* a runnable task's wake-up (ttwu_runnable) places nothing: it keeps its CPU */
	if (ev->type != FS_TEV_WAKING && t->run_cpu < 0 && b->acts[t->open].rec_cpu < 0)
		b->acts[t->open].rec_cpu = ev->wake.target_cpu;
}

static void on_migrate(struct fs_trace_wl *b, const struct fs_tev *ev)
{
	int ti = task_get(b, ev->mig.t.pid, ev->mig.t.comm);

	if (ti < 0)
		return;
	b->obs.migrations++;
	if (!b->tasks[ti].waking)
		b->obs.balance_migrations++;
}

static void on_newtask(struct fs_trace_wl *b, const struct fs_tev *ev)
{
	int parent = task_get(b, ev->common_pid, ev->common_comm);
	int child = task_get(b, ev->newtask.t.pid, ev->newtask.t.comm);

	if (child < 0)
		return;
	b->tasks[child].tgid_known = true;
	if ((ev->newtask.clone_flags & FS_TEV_CLONE_THREAD) && parent >= 0)
		b->tasks[child].tgid = b->tasks[parent].tgid;
}

static void on_task_event(struct fs_trace_wl *b, const struct fs_tev *ev)
{
	int ti;

	switch (ev->type) {
	case FS_TEV_FORK:
		task_get(b, ev->fork.parent.pid, ev->fork.parent.comm);
		task_get(b, ev->fork.child.pid, ev->fork.child.comm); /* its tgid: task_newtask's */
		break;
	case FS_TEV_EXIT:
		ti = task_get(b, ev->proc.t.pid, ev->proc.t.comm);
		if (ti >= 0)
			b->tasks[ti].exit_ns = ev->ts_ns - b->t0;
		break;
	case FS_TEV_FREE:
		if (ev->proc.t.pid > 0 && b->nr_slots) {
			struct pid_slot *s = slot_of(b, ev->proc.t.pid);
			if (s->pid)
				s->task = -1; /* a later task with this pid is another task */
		}
		break;
	case FS_TEV_RENAME:
		ti = task_get(b, ev->rename.pid, ev->rename.oldcomm);
		if (ti >= 0)
			snprintf(b->tasks[ti].comm, FS_COMM_LEN, "%s", ev->rename.newcomm);
		break;
	case FS_TEV_NEWTASK:
		on_newtask(b, ev);
		break;
	}
}

static int check_event(struct fs_trace_wl *b, const struct fs_tev *ev, char *err, size_t errlen)
{
	if (b->info.events && ev->ts_ns < b->last) {
		snprintf(err, errlen, "%s at %llu ns: before the previous event (%llu ns): events out of time order",
			 fs_tev_name(ev->type), (unsigned long long)ev->ts_ns, (unsigned long long)b->last);
		return -1;
	}
	if (check_cpu(b, ev, "CPU", ev->cpu, err, errlen))
		return -1;
	switch (ev->type) {
	case FS_TEV_WAKING: case FS_TEV_WAKEUP: case FS_TEV_WAKEUP_NEW:
		return check_cpu(b, ev, "target_cpu", ev->wake.target_cpu, err, errlen);
	case FS_TEV_MIGRATE:
		return check_cpu(b, ev, "dest_cpu", ev->mig.dest_cpu, err, errlen);
	case FS_TEV_CPU_FREQ:
		return check_cpu(b, ev, "cpu_id", ev->power.cpu_id, err, errlen);
	case FS_TEV_PELT_CFS: case FS_TEV_UTIL_EST_CFS:
		return check_cpu(b, ev, "cpu", ev->cfs.cpu, err, errlen);
	}
	return 0;
}

int fs_trace_wl_feed(struct fs_trace_wl *b, const struct fs_tev *ev, char *err, size_t errlen)
{
	if (check_event(b, ev, err, errlen))
		return -1;
	if (!b->info.events++) {
		b->t0 = ev->ts_ns;
		for (int c = 0; c < FS_MAX_CPUS; c++)
			b->cpu[c].since = ev->ts_ns;
	}
	b->last = ev->ts_ns;
	if (ev->common_tgid > 0 && ev->common_pid > 0) { /* the trace's tgid column */
		int ti = task_get(b, ev->common_pid, ev->common_comm);
		if (ti >= 0) {
			b->tasks[ti].tgid = ev->common_tgid;
			b->tasks[ti].tgid_known = true;
		}
	}
	switch (ev->type) {
	case FS_TEV_SWITCH:
		b->info.sched_events++;
		b->info.switch_events++;
		on_switch(b, ev);
		break;
	case FS_TEV_WAKING: case FS_TEV_WAKEUP: case FS_TEV_WAKEUP_NEW:
		b->info.sched_events++;
		b->info.wake_events++;
		on_wake(b, ev);
		break;
	case FS_TEV_MIGRATE:
		b->info.migrate_events++;
		on_migrate(b, ev);
		break;
	case FS_TEV_CPU_FREQ:
		flush(b, ev->power.cpu_id, ev->ts_ns);
		b->cpu[ev->power.cpu_id].khz = ev->power.state;
		b->cpu[ev->power.cpu_id].opp = fs_sim_opp_of_khz(b->em, b->em->cpu_pd[ev->power.cpu_id], ev->power.state);
		b->info.freq_events++;
		break;
	case FS_TEV_CPU_IDLE:
		b->info.idle_events++;
		break;
	case FS_TEV_PELT_SE: case FS_TEV_UTIL_EST_SE:
		on_pelt(b, ev);
		break;
	case FS_TEV_PELT_CFS: case FS_TEV_UTIL_EST_CFS:
		on_cfs(b, ev);
		break;
	case FS_TEV_LOST: /* who ran there since is unknown until its next switch */
		b->info.lost_events += ev->lost.nr == FS_TEV_LOST_UNKNOWN ? 1 : ev->lost.nr;
		flush(b, ev->cpu, ev->ts_ns);
		b->cpu[ev->cpu].cur = CPU_UNKNOWN;
		break;
	default:
		on_task_event(b, ev);
	}
	if (b->oom) {
		snprintf(err, errlen, "%s at %llu ns: out of memory", fs_tev_name(ev->type), (unsigned long long)ev->ts_ns);
		return -1;
	}
	return 0;
}

int fs_trace_wl_feed_fn(void *ctx, const struct fs_tev *ev, char *err, size_t errlen)
{
	return fs_trace_wl_feed(ctx, ev, err, errlen);
}

/* Tasks with activations, in first-seen order; the others' CPU time is counted as never woken. */
static int *keep_tasks(struct fs_trace_wl *b, struct fs_sim_workload *wl)
{
	int *map = malloc(((size_t)b->nr_tasks + 1) * sizeof(*map));

	if (!map)
		return NULL;
	for (int i = 0; i < b->nr_tasks; i++) {
		const struct tw_task *t = &b->tasks[i];
		if (t->nr_act) {
			map[i] = wl->nr_tasks++;
			b->info.outside_acts_ns += t->outside_ns;
			b->info.acts_open_at_end += t->open >= 0;
			b->info.tgid_assumed += !t->tgid_known;
		} else {
			map[i] = FS_SIM_NO_TASK;
			if (t->outside_ns) {
				wl->tasks_never_woke++;
				wl->never_woke_ns += t->outside_ns;
			}
		}
	}
	return map;
}

static void fill_task(const struct fs_trace_wl *b, const struct tw_task *t, struct fs_sim_task *o)
{
	memset(o, 0, sizeof(*o));
	o->pid = t->pid;
	o->tgid = t->tgid;
	o->uid = FS_NO_UID;
	memcpy(o->comm, t->comm, FS_COMM_LEN);
	o->cpus_allowed = b->em->nr_cpus >= 64 ? ~0ull : (1ull << b->em->nr_cpus) - 1; /* affinity: not traced */
	o->uclamp_min = 0;
	o->uclamp_max = FS_SCHED_CAPACITY_SCALE;
	o->init_cpu = t->init_cpu;
	o->exit_ns = t->exit_ns;
	o->init_util = t->init_util;
	o->init_util_est = t->init_util_est;
}

/* Activations grouped by task (each task's in wake order: they were made in time order). */
static int place_acts(struct fs_trace_wl *b, const int *map, struct fs_sim_workload *wl)
{
	__u64 *next = calloc((size_t)wl->nr_tasks + 1, sizeof(*next)), off = 0;

	if (!next)
		return -1;
	for (int i = 0; i < b->nr_tasks; i++)
		if (map[i] >= 0) {
			wl->tasks[map[i]].first_act = (__u32)off;
			wl->tasks[map[i]].nr_act = b->tasks[i].nr_act;
			next[map[i]] = off;
			off += b->tasks[i].nr_act;
		}
	for (long k = 0; k < b->nr_acts; k++) {
		const struct tw_act *a = &b->acts[k];
		int ti = map[a->task];
		struct fs_sim_act *o = &wl->acts[next[ti]++];

		memset(o, 0, sizeof(*o));
		o->wake_ns = a->wake_ns;
		o->work = a->work;
		o->rec_cpu_ns = a->cpu_ns;
		o->rec_cpu = a->rec_cpu;
		o->waker = a->waker >= 0 ? map[a->waker] : FS_SIM_NO_TASK;
		o->flags = a->flags;
		o->traced_util = a->traced_util;
		wl->acts_unknown_work += !a->cpu_ns;
		b->obs.wakeups += a->rec_cpu >= 0;
		if (o->flags & FS_SIM_ACT_FORK && wl->tasks[ti].init_cpu < 0)
			wl->tasks[ti].init_cpu = a->rec_cpu;
	}
	free(next);
	return 0;
}

int fs_trace_wl_finish(struct fs_trace_wl *b, struct fs_sim_workload *out, struct fs_trace_wl_info *info,
		       char *err, size_t errlen)
{
	int *map = NULL, rc = -1;

	memset(out, 0, sizeof(*out));
	if (!b->info.sched_events) {
		snprintf(err, errlen, "no sched events (sched_switch, sched_waking, sched_wakeup): "
			 "a workload needs them (trace-cmd record -e sched)");
		goto out;
	}
	if (!b->info.switch_events) { /* who ran when, and so every activation's work, is in sched_switch alone */
		snprintf(err, errlen, "no sched_switch events: the tasks' CPU time cannot be told without them "
			 "(trace-cmd record -e sched:sched_switch)");
		goto out;
	}
	for (int c = 0; c < b->em->nr_cpus && c < FS_MAX_CPUS; c++)
		flush(b, c, b->last);
	map = keep_tasks(b, out);
	out->tasks = calloc((size_t)out->nr_tasks + 1, sizeof(*out->tasks));
	out->acts = calloc((size_t)b->nr_acts + 1, sizeof(*out->acts));
	if (!map || !out->tasks || !out->acts) {
		snprintf(err, errlen, "trace workload: out of memory");
		goto out;
	}
	for (int i = 0; i < b->nr_tasks; i++)
		if (map[i] >= 0)
			fill_task(b, &b->tasks[i], &out->tasks[map[i]]);
	if (place_acts(b, map, out)) {
		snprintf(err, errlen, "trace workload: out of memory");
		goto out;
	}
	out->t0_ns = b->t0;
	out->end_ns = b->last - b->t0;
	out->nr_cpus = b->em->nr_cpus;
	out->physics = b->physics;
	out->nr_acts = (__u64)b->nr_acts;
	out->observed = b->obs;
	out->init_rq_traced = b->info.rq_traced_cpus;
	memcpy(out->init_rq_util, b->rq_util, sizeof(out->init_rq_util));
	if (info)
		*info = b->info;
	rc = 0;
out:
	if (rc) {
		free(out->tasks);
		free(out->acts);
		memset(out, 0, sizeof(*out));
	}
	free(map);
	fs_trace_wl_free(b);
	return rc;
}

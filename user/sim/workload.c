// SPDX-License-Identifier: GPL-2.0
/*
 * A recording's workload (sim.h; docs/simulation.md, "The workload"): each
 * task's activations, the CPU time between a wake-up's sum_exec_ns and the
 * task's next CPU-time reading, as work a simulated CPU can run at any speed.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "../engine/accounting.h"
#include "../engine/landscape.h"
#include "../engine/pelt.h"
#include "../engine/power_estimate.h"
#include "../records/wire.h"
#include "work_freq.h"
#include "work_busyfreq.h"
#include "work_pelt.h"
#include "work_steps.h"
#include "sim_internal.h"

/* What the builder follows of a task beyond what the workload keeps. */
struct task_state {
	__u64 last_sum;   /* latest CPU-time reading, FS_NO_RUNTIME if none */
	__s64 open;       /* index in acts of the open activation, -1 if none */
	__s32 seg_cpu;    /* the CPU the open activation runs on since seg_ts */
	__u64 seg_ts;     /* recording time */
	__u64 seg_sum;    /* its CPU time at seg_ts, FS_NO_RUNTIME if unknown */
	__u64 last_wake;  /* wake_ns of its latest activation */
	struct wp_mark pelt; /* the open activation's PELT at its wake-up (work_pelt.c) */
	double seg_fie;      /* its last stretch's work over its PELT time (seg_work()) */
	bool seg_steps;      /* its last stretch's work came from the recorded frequency steps */
	bool exited, affinity_changed;
};

/* A pid: its current task, and readings of it while it had none (it has not woken yet). */
struct pid_ent {
	bool used;
	bool g_any, g_exited;
	__s32 pid;
	__s32 task;       /* index in tasks, -1 if none */
	__s32 g_tgid;     /* -1 until a record with a tgid (an exit or runtime) */
	__u64 g_first, g_last; /* FS_NO_RUNTIME if unknown */
};

struct fs_sim_builder {
	struct fs_em em;               /* the caller's, cost_as_read as the pipeline sets it */
	enum fs_sim_physics physics;
	struct fs_sim_builder_opts o;
	bool have_policy;
	struct fs_policy pol;          /* the recorded kernel's: the CPU of an unrecorded placement */
	struct fs_power_lut lut;       /* its schedutil: the OPPs work is derived at */
	struct fs_wakeup w;            /* the landscape as policies see it (emulated EAS) */
	struct fs_feec_result res;
	bool rd_overutilized;
	__u64 records, lost;
	bool any_ts;
	__u64 t0, last_ts;
	struct fs_sim_task *tasks;
	struct task_state *ts;
	size_t nr_tasks, cap_tasks, cap_ts;
	struct fs_sim_act *acts;
	__s32 *act_task;               /* each activation's task */
	struct wp_range *act_pelt;     /* each activation's work as its task's PELT bounds it, hi 0: not */
	size_t cap_act_pelt;
	size_t nr_acts, cap_acts, cap_act_task;
	struct pid_ent *pids;          /* open addressing, pid_cap a power of two */
	size_t nr_pids, pid_cap;
	struct wf_line line[FS_MAX_PDS]; /* each PD's state, as schedutil would have set it (work_freq.c) */
	struct wf_clock clock;         /* the rq PELT clock's offset from the records' */
	struct fs_wakeup enq;          /* a landscape as the enqueue leaves it (wf_enqueue_view()) */
	struct fs_sim_workload wl;     /* counters and observed figures, filled as records come */
	/* busyfreq per CPU, first and latest: busy ns at each EM state, [FS_MAX_PS] at none */
	int nr_bf[FS_MAX_CPUS];
	__u64 bf_first[FS_MAX_CPUS][FS_MAX_PS + 1], bf_last[FS_MAX_CPUS][FS_MAX_PS + 1];
	struct wb_log wb;              /* DEVICE work's stretches and every busyfreq record (work_busyfreq.c) */
	struct ws_line steps[FS_MAX_PDS]; /* each PD's recorded frequency steps (work_steps.c), DEVICE only */
	bool wb_oom;                   /* a stretch it could not keep */
	char *err;
	size_t errlen;
};

static const char *type_name(__u16 t)
{
	const char *name = fs_rec_type_name(t);

	return name ? name : "?";
}

/* One line naming the record (1-based, as fed) and what is wrong with it; returns -1. */
static int __attribute__((format(printf, 3, 4))) bad(struct fs_sim_builder *b, const struct fs_rec_hdr *h,
						      const char *fmt, ...)
{
	char why[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(b->err, b->errlen, "workload: record %llu (%s at %llu ns): %s", (unsigned long long)b->records,
		 type_name(h->type), (unsigned long long)h->ts_ns, why);
	return -1;
}

static int oom(struct fs_sim_builder *b)
{
	snprintf(b->err, b->errlen, "workload: out of memory at record %llu", (unsigned long long)b->records);
	return -1;
}

struct fs_sim_builder *fs_sim_builder_new_opts(const struct fs_em *em, enum fs_sim_physics physics,
					       const struct fs_sim_builder_opts *o, char *err, size_t errlen)
{
	struct fs_sim_builder *b = calloc(1, sizeof(*b));

	if (!b) {
		snprintf(err, errlen, "workload: out of memory");
		return NULL;
	}
	b->em = *em;
	b->physics = physics;
	if (o)
		b->o = *o;
	/* The recorded kernel's own EM: its cost and inefficient columns are what it used (pipeline.c). */
	b->em.cost_as_read = !b->o.emulate_eas;
	b->wl.observed.eas_emulated = b->o.emulate_eas;
	struct fs_power_opts po = b->o.kernel_policy ? fs_power_opts_for_policy(b->o.kernel_policy) :
			          fs_power_opts_mainline;

	fs_power_lut_build_opts(&b->lut, &b->em, &po);
	if (b->o.kernel_policy) {
		if (fs_policy_init(&b->pol, b->o.kernel_policy, &b->em, err, errlen)) {
			free(b);
			return NULL;
		}
		b->have_policy = true;
	}
	for (int p = 0; p < FS_MAX_PDS; p++)
		b->line[p].limit_ns = b->o.rate_limit_ns[p];
	b->wl.physics = physics;
	b->wl.nr_cpus = em->nr_cpus;
	return b;
}

struct fs_sim_builder *fs_sim_builder_new(const struct fs_em *em, enum fs_sim_physics physics)
{
	char err[128];

	return fs_sim_builder_new_opts(em, physics, NULL, err, sizeof(err));
}

void fs_sim_builder_free(struct fs_sim_builder *b)
{
	if (!b)
		return;
	if (b->have_policy)
		fs_policy_fini(&b->pol);
	free(b->tasks);
	free(b->ts);
	free(b->acts);
	free(b->act_task);
	free(b->act_pelt);
	free(b->pids);
	for (int p = 0; p < FS_MAX_PDS; p++) {
		free(b->line[p].v);
		ws_free(&b->steps[p]);
	}
	wb_free(&b->wb);
	free(b);
}

void fs_sim_workload_free(struct fs_sim_workload *wl)
{
	if (!wl)
		return;
	free(wl->tasks);
	free(wl->acts);
	memset(wl, 0, sizeof(*wl));
}

/* ---- tables ---- */

/* *v holds at least need items of size bytes, doubled from 64; 0, or -1 out of memory. */
int fs_sim_grow(void **v, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 64;

	while (n < need)
		n *= 2;
	void *p = realloc(*v, n * size);

	if (!p)
		return -1;
	*v = p;
	*cap = n;
	return 0;
}

size_t fs_sim_first_after(const void *v, size_t n, size_t size, size_t key_off, __u64 ts)
{
	const unsigned char *base = (const unsigned char *)v + key_off;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		__u64 key;

		memcpy(&key, base + mid * size, sizeof(key));
		if (key <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static size_t pid_slot(const struct fs_sim_builder *b, __s32 pid)
{
	size_t i = ((__u32)pid * 2654435761u) & (b->pid_cap - 1);

	while (b->pids[i].used && b->pids[i].pid != pid)
		i = (i + 1) & (b->pid_cap - 1);
	return i;
}

/* pid's entry, made if new; NULL out of memory. */
static struct pid_ent *pid_get(struct fs_sim_builder *b, __s32 pid)
{
	if ((b->nr_pids + 1) * 2 > b->pid_cap) {
		size_t cap = b->pid_cap ? 2 * b->pid_cap : 256;
		struct pid_ent *old = b->pids, *n = calloc(cap, sizeof(*n));
		size_t old_cap = b->pid_cap;

		if (!n)
			return NULL;
		b->pids = n;
		b->pid_cap = cap;
		for (size_t i = 0; i < old_cap; i++)
			if (old[i].used)
				b->pids[pid_slot(b, old[i].pid)] = old[i];
		free(old);
	}
	struct pid_ent *e = &b->pids[pid_slot(b, pid)];

	if (!e->used) {
		memset(e, 0, sizeof(*e));
		e->used = true;
		e->pid = pid;
		e->task = -1;
		e->g_first = e->g_last = FS_NO_RUNTIME;
		b->nr_pids++;
	}
	return e;
}

/* ---- work ---- */

static __u64 state_khz(const struct fs_em_pd *pd, int state)
{
	return state >= 0 && state < pd->nr_ps ? pd->ps[state].frequency : pd->ps[pd->nr_ps - 1].frequency;
}

/*
 * The sums of ns x kHz and ns x the kernel's frequency scale over [ts, ts +
 * ns) at the PD's util-sampled states (work_freq.c), as if the task ran
 * from ts without a pause.
 */
static void est_integrate(const struct fs_em_pd *pd, const struct wf_line *l, __u64 ts, __u64 ns,
			  unsigned __int128 *acc, unsigned __int128 *acc_k)
{
	__u64 fmax = pd->ps[pd->nr_ps - 1].frequency;
	size_t lo = fs_sim_first_after(l->v, l->n, sizeof(*l->v), offsetof(struct wf_sample, since), ts);

	/* before the PD's first sample: its first state (a line is never empty once a wake-up came) */
	int st = lo ? l->v[lo - 1].state : l->n ? l->v[0].state : -1;
	__u64 t = ts, end = ts + ns < ts ? UINT64_MAX : ts + ns;

	*acc = *acc_k = 0;
	for (size_t k = lo; t < end; k++) {
		__u64 next = k < l->n && l->v[k].since < end ? l->v[k].since : end;

		*acc += (unsigned __int128)(next - t) * state_khz(pd, st);
		*acc_k += (unsigned __int128)(next - t) * wp_freq_scale(state_khz(pd, st), fmax);
		t = next;
		if (k < l->n)
			st = l->v[k].state;
	}
}

/*
 * The work of ns of CPU time on cpu from ts on: ns x capacity / 1024 x f /
 * fmax (DEVICE), f the PD's frequency over [ts, ts + ns) as if the task ran
 * from ts without a pause: the recorded steps where the recording has them
 * from before ts on (*exact set), else the util-sampled estimate; plain ns
 * under LAB physics. *fie is that work over what the kernel's PELT clock
 * counts at the same frequencies (wp_freq_scale(), work_pelt.h), 1 where it
 * cannot be told.
 */
static __u64 seg_work(const struct fs_sim_builder *b, int cpu, __u64 ts, __u64 ns, __u64 *khz, double *fie,
		      bool *exact)
{
	*khz = 0;
	*fie = 1.0;
	*exact = false;
	if (b->physics == FS_SIM_LAB)
		return ns;
	const struct fs_em *em = &b->em;
	int p = em->cpu_pd[cpu];
	__u64 cap = em->capacity[cpu];

	if (p < 0 || !em->pd[p].nr_ps)
		return (__u64)((unsigned __int128)ns * cap / FS_SCHED_CAPACITY_SCALE);
	const struct fs_em_pd *pd = &em->pd[p];
	__u64 fmax = pd->ps[pd->nr_ps - 1].frequency;
	unsigned __int128 acc, acc_k; /* ns x kHz; ns x the kernel's frequency scale */

	*exact = ws_covers(&b->steps[p], ts);
	if (*exact)
		ws_integrate(&b->steps[p], ts, ns, fmax, &acc, &acc_k);
	else
		est_integrate(pd, &b->line[p], ts, ns, &acc, &acc_k);
	*khz = ns ? (__u64)(acc / ns) : 0;
	if (acc_k)
		*fie = (double)acc * FS_SCHED_CAPACITY_SCALE / ((double)acc_k * (double)fmax);
	return (__u64)(acc * cap / ((unsigned __int128)FS_SCHED_CAPACITY_SCALE * fmax));
}

/* ---- activations ---- */

/*
 * Task i's open activation ran on its segment's CPU until a reading of sum
 * (FS_NO_RUNTIME: none, unknown). DEVICE work's stretch at estimated
 * frequencies is kept for the busyfreq records' correction at the end
 * (work_busyfreq.c; finish() reports memory it could not have); one at the
 * recorded steps needs none.
 */
static void seg_close(struct fs_sim_builder *b, size_t i, __u64 sum)
{
	struct task_state *s = &b->ts[i];
	struct fs_sim_act *a = &b->acts[s->open];

	if (s->seg_sum == FS_NO_RUNTIME || sum == FS_NO_RUNTIME) {
		a->flags |= FS_SIM_ACT_UNKNOWN;
		return;
	}
	__u64 ns = sum - s->seg_sum, khz;
	bool exact;
	__u64 work = seg_work(b, s->seg_cpu, s->seg_ts, ns, &khz, &s->seg_fie, &exact);

	s->seg_steps = exact;

	a->rec_cpu_ns += ns;
	a->work += work;
	b->wl.observed.busy_ns[s->seg_cpu] += ns;
	b->wl.step_segs += exact;
	b->wl.step_work += exact ? work : 0;
	if (!khz || exact)
		return;
	struct wb_seg g = { s->seg_ts, ns, work, khz, (__u32)s->open, s->seg_cpu };

	b->wb_oom |= wb_seg_add(&b->wb, &g) != 0;
}

/* End task i's open activation at a reading of sum (FS_NO_RUNTIME: none). */
static void act_close(struct fs_sim_builder *b, size_t i, __u64 sum)
{
	struct task_state *s = &b->ts[i];

	if (s->open < 0)
		return;
	seg_close(b, i, sum);
	b->wl.acts_unknown_work += !!(b->acts[s->open].flags & FS_SIM_ACT_UNKNOWN);
	s->open = -1;
}

static void note_sum(struct task_state *s, __u64 sum)
{
	if (sum != FS_NO_RUNTIME)
		s->last_sum = sum;
}

/* A reading of a pid before it woke: what it ran then is not simulated (counted at its wake-up or the end). */
static void ghost_reading(struct pid_ent *e, __s32 tgid, __u64 sum, bool exited)
{
	if (!e->g_any) {
		e->g_any = true;
		e->g_tgid = -1;
	}
	if (tgid >= 0)
		e->g_tgid = tgid;
	if (sum != FS_NO_RUNTIME) {
		if (e->g_first == FS_NO_RUNTIME)
			e->g_first = sum;
		if (e->g_last == FS_NO_RUNTIME || sum > e->g_last)
			e->g_last = sum;
	}
	e->g_exited |= exited;
}

/* A pid's readings before any wake-up, as one task that never woke. */
static void ghost_never_woke(struct fs_sim_builder *b, struct pid_ent *e)
{
	if (!e->g_any)
		return;
	b->wl.tasks_never_woke++;
	if (e->g_first != FS_NO_RUNTIME && e->g_last > e->g_first)
		b->wl.never_woke_ns += e->g_last - e->g_first;
	e->g_any = e->g_exited = false;
	e->g_first = e->g_last = FS_NO_RUNTIME;
}

static int check_cpu(struct fs_sim_builder *b, const struct fs_rec_hdr *h, __s32 pid, const char *field,
		     __s32 cpu, bool none_ok)
{
	int n = b->em.nr_cpus;

	if ((cpu >= 0 && cpu < n) || (none_ok && cpu == -1))
		return 0;
	return bad(b, h, "pid %d: %s: CPU %d out of range %s0..%d", pid, field, cpu, none_ok ? "-1, " : "", n - 1);
}

static int new_task(struct fs_sim_builder *b, struct pid_ent *e, const struct fs_wakeup *w)
{
	if (fs_sim_grow((void **)&b->tasks, &b->cap_tasks, b->nr_tasks + 1, sizeof(*b->tasks)) ||
	    fs_sim_grow((void **)&b->ts, &b->cap_ts, b->nr_tasks + 1, sizeof(*b->ts)))
		return -1;
	struct fs_sim_task *t = &b->tasks[b->nr_tasks];
	struct task_state *s = &b->ts[b->nr_tasks];
	bool no_uclamp = w->flags & FS_WAKE_NO_UCLAMP;

	memset(t, 0, sizeof(*t));
	memset(s, 0, sizeof(*s));
	t->pid = w->pid;
	t->tgid = w->tgid;
	t->uid = w->uid;
	memcpy(t->comm, w->comm, FS_COMM_LEN);
	t->comm[FS_COMM_LEN - 1] = '\0';
	t->cpus_allowed = w->cpus_allowed;
	t->uclamp_min = no_uclamp ? 0 : w->task.uclamp_min;
	t->uclamp_max = no_uclamp ? FS_SCHED_CAPACITY_SCALE : w->task.uclamp_max;
	t->init_util = fs_sync_entity_util_avg(&w->task);
	t->init_util_est = w->task.util_est_ewma;
	t->init_aged = fs_sync_entity_crosses_period(&w->task);
	/* where it last ran; a fork where the kernel put it (the machine does not model find_idlest_cpu()) */
	t->init_cpu = (w->flags & FS_WAKE_FORK) && w->chosen_cpu >= 0 ? w->chosen_cpu : w->prev_cpu;
	t->exit_ns = FS_SIM_NEVER;
	s->last_sum = FS_NO_RUNTIME;
	s->open = -1;
	/* Readings before this first wake-up: the same task ran before it (else one that never woke). */
	if (e->g_any) {
		if (!e->g_exited && (e->g_tgid < 0 || e->g_tgid == w->tgid) && e->g_first != FS_NO_RUNTIME &&
		    w->sum_exec_ns != FS_NO_RUNTIME && w->sum_exec_ns >= e->g_last) {
			b->wl.pre_wake_ns += w->sum_exec_ns - e->g_first;
			e->g_any = false;
			e->g_first = e->g_last = FS_NO_RUNTIME;
		} else {
			ghost_never_woke(b, e);
		}
	}
	e->task = (__s32)b->nr_tasks++;
	return 0;
}

/* The CPU the wake-up's work ran on: the kernel's, else its policy's choice (the pipeline's fallback). */
static int run_cpu_of(struct fs_sim_builder *b, const struct fs_wakeup *w)
{
	if (w->chosen_cpu >= 0)
		return w->chosen_cpu;
	if (!b->have_policy)
		return w->prev_cpu;
	fs_policy_feec(&b->pol, w, &b->res);
	int c = fs_acct_effective_cpu(&b->res, w);

	return c >= 0 && c < b->em.nr_cpus ? c : w->prev_cpu;
}

/* A wake-up record that fits the EM, has its size and CPUs in range, or -1. */
static int check_wakeup(struct fs_sim_builder *b, const struct fs_rec_hdr *h)
{
	const struct fs_wakeup *in = (const struct fs_wakeup *)h;

	if (h->nr_cpus != b->em.nr_cpus)
		return bad(b, h, "nr_cpus: %u, the EM has %d CPUs", h->nr_cpus, b->em.nr_cpus);
	if (h->size != fs_wakeup_size(h->nr_cpus))
		return bad(b, h, "size: %u bytes, a wake-up of %u CPUs has %zu", h->size, h->nr_cpus,
			   fs_wakeup_size(h->nr_cpus));
	if (check_cpu(b, h, in->pid, "prev_cpu", in->prev_cpu, false) ||
	    check_cpu(b, h, in->pid, "task_cpu", in->task_cpu, false) ||
	    check_cpu(b, h, in->pid, "waker_cpu", in->waker_cpu, false) ||
	    check_cpu(b, h, in->pid, "chosen_cpu", in->chosen_cpu, true))
		return -1;
	return 0;
}

/* The waking pid's task in *idx: its own, or a new one if the pid was reused; -1 on oom. */
static int task_of(struct fs_sim_builder *b, const struct fs_wakeup *w, size_t *idx)
{
	struct pid_ent *e = pid_get(b, w->pid);

	if (!e)
		return oom(b);
	/* The pipeline's rule (fs_acct_task_reused): an exit, another tgid or a smaller CPU time is a new task. */
	if (e->task >= 0) {
		struct task_state *s = &b->ts[e->task];

		if (s->exited || b->tasks[e->task].tgid != w->tgid ||
		    (w->sum_exec_ns != FS_NO_RUNTIME && s->last_sum != FS_NO_RUNTIME && w->sum_exec_ns < s->last_sum)) {
			act_close(b, (size_t)e->task, FS_NO_RUNTIME);
			b->wl.pid_reuses += !s->exited;
			e->task = -1;
		}
	}
	if (e->task < 0 && new_task(b, e, w))
		return oom(b);
	*idx = (size_t)e->task;
	return 0;
}

/* Task i's activation that this wake-up opens, run on CPU run; -1 on oom. */
static int open_act(struct fs_sim_builder *b, const struct fs_rec_hdr *h, const struct fs_wakeup *w,
		    size_t i, int run)
{
	struct fs_sim_task *t = &b->tasks[i];
	struct task_state *s = &b->ts[i];

	if (fs_sim_grow((void **)&b->acts, &b->cap_acts, b->nr_acts + 1, sizeof(*b->acts)) ||
	    fs_sim_grow((void **)&b->act_task, &b->cap_act_task, b->nr_acts + 1, sizeof(*b->act_task)) ||
	    fs_sim_grow((void **)&b->act_pelt, &b->cap_act_pelt, b->nr_acts + 1, sizeof(*b->act_pelt)))
		return oom(b);
	struct fs_sim_act *a = &b->acts[b->nr_acts];
	__u64 wake = h->ts_ns > b->t0 ? h->ts_ns - b->t0 : 0;

	memset(a, 0, sizeof(*a));
	a->wake_ns = t->nr_act && wake < s->last_wake ? s->last_wake : wake;
	a->rec_cpu = w->chosen_cpu;
	a->waker = FS_SIM_NO_TASK;
	a->waker_cpu = w->waker_cpu;
	a->flags = (w->flags & FS_WAKE_FORK ? FS_SIM_ACT_FORK : 0) |
		   ((w->flags & (FS_WAKE_FLAGS_KNOWN | FS_WAKE_SYNC)) == (FS_WAKE_FLAGS_KNOWN | FS_WAKE_SYNC) ?
		    FS_SIM_ACT_SYNC : 0) |
		   (w->chosen_cpu < 0 ? FS_SIM_ACT_CPU_GUESSED : 0);
	b->wl.acts_cpu_guessed += w->chosen_cpu < 0;
	b->act_task[b->nr_acts] = (__s32)i;
	b->act_pelt[b->nr_acts] = (struct wp_range){ 0, 0 };
	if (b->physics == FS_SIM_DEVICE)
		wp_start(w, run, &s->pelt);
	else
		s->pelt.ok = false;
	s->open = (__s64)b->nr_acts++;
	s->last_wake = a->wake_ns;
	s->seg_cpu = run;
	s->seg_ts = h->ts_ns;
	s->seg_sum = w->sum_exec_ns;
	t->nr_act++;
	return 0;
}

/*
 * Close task i's open activation at its next wake-up w, and keep the bounds its
 * PELT puts on its work (work_pelt.c) where one CPU ran all of it and a reading
 * closed it; but not where its work is at the recorded frequency steps and
 * the bounds say it ran without a wait.
 */
static void pelt_close(struct fs_sim_builder *b, size_t i, const struct fs_wakeup *w)
{
	struct task_state *s = &b->ts[i];
	const __s64 k = s->open;

	act_close(b, i, w->sum_exec_ns);
	if (k < 0 || !s->pelt.ok)
		return;
	const struct fs_sim_act *a = &b->acts[k];
	const struct wp_mark m = s->pelt;

	s->pelt.ok = false;
	if (!(a->flags & (FS_SIM_ACT_UNKNOWN | FS_SIM_ACT_BALANCED)) &&
	    !wp_bounds(&m, w, a->rec_cpu_ns, b->em.capacity[m.cpu], s->seg_fie, &b->act_pelt[k]))
		b->act_pelt[k] = (struct wp_range){ 0, 0 };
	/*
	 * Bounds that meet say the task waited none: it ran from its wake-up to
	 * its sleep, as seg_work() takes it, so at the recorded steps that work
	 * is exact and stays. Measured in a lab boot (docs/traces.md): such an
	 * activation of 4.18 ms at 1805 MHz read 1.79 ms of PELT time, half of
	 * what the traced frequency gives, so the clamp is kept for the waits.
	 */
	if (s->seg_steps && b->act_pelt[k].hi && b->act_pelt[k].hi == b->act_pelt[k].lo) {
		b->act_pelt[k] = (struct wp_range){ 0, 0 };
		b->wl.pelt_steps_kept++;
	}
}

static int on_wakeup(struct fs_sim_builder *b, const struct fs_rec_hdr *h)
{
	const struct fs_wakeup *in = (const struct fs_wakeup *)h;

	if (check_wakeup(b, h))
		return -1;
	const struct fs_wakeup *w = in;

	if (b->o.emulate_eas || (in->flags & FS_WAKE_EAS_UNKNOWN)) {
		char why[128];

		if (fs_landscape_apply(&b->em, in, b->o.emulate_eas, b->rd_overutilized, &b->w, why, sizeof(why)))
			return bad(b, h, "%s", why);
		w = &b->w;
	}
	size_t i;

	if (task_of(b, w, &i))
		return -1;
	struct fs_sim_task *t = &b->tasks[i];
	struct task_state *s = &b->ts[i];

	pelt_close(b, i, w);
	note_sum(s, w->sum_exec_ns);
	if (w->cpus_allowed != t->cpus_allowed && !s->affinity_changed) {
		s->affinity_changed = true;
		b->wl.affinity_changed++;
	}
	if (t->uid == FS_NO_UID)
		t->uid = w->uid;

	/*
	 * Each PD's state from now on, as the CPUs' energy samples it, but from
	 * the landscape the enqueue leaves schedutil and within its rate limit
	 * (work_freq.c).
	 */
	int run = run_cpu_of(b, w), state[FS_MAX_PDS];
	struct fs_power_ctx x;

	wf_clock_see(&b->clock, w);
	fs_power_ctx_init_lut(&x, &b->em, wf_enqueue_view(&b->clock, w, run, &b->enq), &b->lut);
	fs_power_ctx_states(&x, run, fs_power_ctx_state_at(&x, run), state);
	for (int p = 0; p < b->em.nr_pd; p++)
		if (wf_request(&b->line[p], h->ts_ns, state[p]))
			return oom(b);

	if (open_act(b, h, w, i, run))
		return -1;

	if (w->chosen_cpu >= 0) {
		b->wl.observed.wakeups++;
		b->wl.observed.migrations += !(w->flags & FS_WAKE_FORK) && w->chosen_cpu != w->prev_cpu;
	}
	return 0;
}

/*
 * A reading of a task's CPU time outside a wake-up. A task's readings never
 * go back (se.sum_exec_runtime only grows); after lost records the pid may
 * have passed to a task whose exit and fork were lost, so its activation's
 * time is unknown there instead of an error.
 */
static int reading_backwards(struct fs_sim_builder *b, const struct fs_rec_hdr *h, __s32 pid, size_t i, __u64 sum)
{
	struct task_state *s = &b->ts[i];

	if (sum == FS_NO_RUNTIME || s->last_sum == FS_NO_RUNTIME || sum >= s->last_sum)
		return 0;
	if (!b->lost)
		return bad(b, h, "pid %d: sum_exec_ns: %llu, below the task's previous reading %llu", pid,
			   (unsigned long long)sum, (unsigned long long)s->last_sum);
	act_close(b, i, FS_NO_RUNTIME);
	return 1;
}

static int on_migrate(struct fs_sim_builder *b, const struct fs_rec_hdr *h)
{
	const struct fs_migrate *m = (const struct fs_migrate *)h;

	if (check_cpu(b, h, m->pid, "dest_cpu", m->dest_cpu, false) ||
	    check_cpu(b, h, m->pid, "orig_cpu", m->orig_cpu, true))
		return -1;
	if (m->reason != FS_MIG_BALANCE)
		return 0; /* a wake-up's own move: that wake-up's chosen_cpu says it */
	b->wl.observed.balance_migrations++;
	b->wl.observed.migrations++;
	struct pid_ent *e = pid_get(b, m->pid);

	if (!e)
		return oom(b);
	if (e->task < 0) {
		ghost_reading(e, -1, m->sum_exec_ns, false);
		return 0;
	}
	size_t i = (size_t)e->task;
	struct task_state *s = &b->ts[i];
	int r;

	if (s->exited)
		return 0;
	if ((r = reading_backwards(b, h, m->pid, i, m->sum_exec_ns)))
		return r < 0 ? -1 : 0;
	note_sum(s, m->sum_exec_ns);
	if (s->open < 0)
		return 0;
	b->acts[s->open].flags |= FS_SIM_ACT_BALANCED;
	/* Without a reading the split is unknown: the time stays on the CPU it was on. */
	if (m->sum_exec_ns == FS_NO_RUNTIME || s->seg_sum == FS_NO_RUNTIME)
		return 0;
	seg_close(b, i, m->sum_exec_ns);
	s->seg_cpu = m->dest_cpu;
	s->seg_ts = h->ts_ns;
	s->seg_sum = m->sum_exec_ns;
	return 0;
}

/* FS_REC_EXIT / FS_REC_RUNTIME: the activation ends with the task or with the observation. */
static int on_task_time(struct fs_sim_builder *b, const struct fs_rec_hdr *h)
{
	const struct fs_task_time *tt = (const struct fs_task_time *)h;
	bool exit = h->type == FS_REC_EXIT;
	struct pid_ent *e = pid_get(b, tt->pid);
	int r;

	if (!e)
		return oom(b);
	if (e->task < 0) {
		/* a pid's first reading also gives the tgid a ghost compares with its first wake-up */
		ghost_reading(e, tt->tgid, tt->sum_exec_ns, exit);
		return 0;
	}
	size_t i = (size_t)e->task;
	struct task_state *s = &b->ts[i];

	if (s->exited || b->tasks[i].tgid != tt->tgid)
		return 0; /* another task by that pid, as the pipeline reads it */
	if ((r = reading_backwards(b, h, tt->pid, i, tt->sum_exec_ns)))
		return r < 0 ? -1 : 0;
	act_close(b, i, tt->sum_exec_ns);
	note_sum(s, tt->sum_exec_ns);
	if (exit) {
		s->exited = true;
		b->tasks[i].exit_ns = h->ts_ns > b->t0 ? h->ts_ns - b->t0 : 0;
	}
	return 0;
}

/*
 * The size a record of this type has on the wire (fs_rec_wire_size(), the
 * check every reader makes); an em record's text must also be as long as
 * its len says, else the whole record's size is wanted. Wake-ups are sized
 * by their nr_cpus, checked before.
 */
static size_t wire_size(const struct fs_rec_hdr *h)
{
	size_t n = fs_rec_wire_size(h);

	if (h->type == FS_REC_EM) {
		const struct fs_em_update *u = (const struct fs_em_update *)h;

		return n && u->len == n - offsetof(struct fs_em_update, text) ? n : sizeof(*u);
	}
	return n;
}

/* A CPU's busy time at each frequency, for the self-check: kept on its PD's EM states. */
static int on_busyfreq(struct fs_sim_builder *b, const struct fs_rec_hdr *rec)
{
	const struct fs_busyfreq *bf = (const struct fs_busyfreq *)rec;
	__u64 ns[FS_MAX_PS + 1] = { 0 };
	int p;

	if (bf->cpu < 0 || bf->cpu >= b->em.nr_cpus || bf->nr > FS_MAX_FREQS)
		return bad(b, rec, "busy_cpu %d with %u frequencies: CPUs 0..%d, at most %d", bf->cpu, bf->nr,
			   b->em.nr_cpus - 1, FS_MAX_FREQS);
	if ((p = b->em.cpu_pd[bf->cpu]) < 0)
		return 0;
	ns[FS_MAX_PS] = bf->unknown_ns;
	for (__u32 i = 0; i < bf->nr; i++) {
		int s = 0;

		while (s < b->em.pd[p].nr_ps && b->em.pd[p].ps[s].frequency != bf->st[i].khz)
			s++;
		ns[s < b->em.pd[p].nr_ps ? s : FS_MAX_PS] += bf->st[i].ns;
	}
	struct wb_point pt = { rec->ts_ns, 0, 0 };

	for (int s = 0; s < b->em.pd[p].nr_ps; s++) {
		pt.busy_ns += ns[s];
		pt.khz_ns += (unsigned __int128)ns[s] * b->em.pd[p].ps[s].frequency;
	}
	if (b->physics == FS_SIM_DEVICE && wb_point_add(&b->wb, bf->cpu, &pt))
		return oom(b);
	if (!b->nr_bf[bf->cpu]++)
		memcpy(b->bf_first[bf->cpu], ns, sizeof(ns));
	memcpy(b->bf_last[bf->cpu], ns, sizeof(ns));
	return 0;
}

/* A PD's frequency from here on, as the kernel traced it (DEVICE work's frequencies). */
static int on_freq(struct fs_sim_builder *b, const struct fs_rec_hdr *rec)
{
	const struct fs_freq *f = (const struct fs_freq *)rec;
	int p;

	if (f->cpu < 0 || f->cpu >= b->em.nr_cpus || !f->khz)
		return bad(b, rec, "policy_cpu %d at %u kHz: CPUs 0..%d, a frequency above 0", f->cpu, f->khz,
			   b->em.nr_cpus - 1);
	if (b->physics != FS_SIM_DEVICE || (p = b->em.cpu_pd[f->cpu]) < 0)
		return 0;
	return ws_add(&b->steps[p], rec->ts_ns, f->khz) ? oom(b) : 0;
}

/*
 * The estimate (with its busyfreq correction) kept inside the bounds the
 * task's PELT puts on each activation's work (work_pelt.c): where the bounds
 * meet, the kernel's own measure; where they are far apart, the estimate.
 */
static void pelt_clamp(struct fs_sim_builder *b)
{
	for (size_t k = 0; k < b->nr_acts; k++) {
		const struct wp_range *r = &b->act_pelt[k];
		__u64 *work = &b->acts[k].work;

		if (!r->hi)
			continue;
		b->wl.pelt_acts++;
		b->wl.pelt_work_est += *work;
		b->wl.pelt_moved += *work < r->lo || *work > r->hi;
		*work = *work < r->lo ? r->lo : *work > r->hi ? r->hi : *work;
		b->wl.pelt_work += *work;
	}
}

/* The busyfreq records' growth into the observed figures, where every CPU with a PD had two. */
static void observe_busyfreq(struct fs_sim_builder *b, struct fs_sim_observed *o)
{
	for (int c = 0; c < b->em.nr_cpus && c < FS_MAX_CPUS; c++)
		if (b->em.cpu_pd[c] >= 0 && b->nr_bf[c] < 2)
			return;
	for (int c = 0; c < b->em.nr_cpus && c < FS_MAX_CPUS; c++) {
		int p = b->em.cpu_pd[c];

		if (p < 0)
			continue;
		for (int s = 0; s <= FS_MAX_PS; s++) {
			__u64 d = b->bf_last[c][s] >= b->bf_first[c][s] ? b->bf_last[c][s] - b->bf_first[c][s] : 0;

			o->rec_busy_ns[c] += d;
			if (s < FS_MAX_PS)
				o->opp_busy_ns[p][s] += d;
		}
		o->busyfreq = true;
	}
}

int fs_sim_builder_feed(struct fs_sim_builder *b, const struct fs_rec_hdr *rec, char *err, size_t errlen)
{
	b->err = err;
	b->errlen = errlen;
	b->records++;
	if (!rec) {
		snprintf(err, errlen, "workload: record %llu: none", (unsigned long long)b->records);
		return -1;
	}
	if (rec->type < FS_REC_WAKEUP || rec->type > FS_REC_FREQ)
		return bad(b, rec, "type: %u is no record type", rec->type);
	if (rec->type == FS_REC_WAKEUP && rec->nr_cpus > FS_MAX_CPUS)
		return bad(b, rec, "nr_cpus: %u, at most %d", rec->nr_cpus, FS_MAX_CPUS);
	if (rec->type != FS_REC_WAKEUP && rec->size != wire_size(rec))
		return bad(b, rec, "size: %u bytes, want %zu", rec->size, wire_size(rec));
	if (!b->any_ts) {
		b->any_ts = true;
		b->t0 = b->last_ts = rec->ts_ns;
	}
	if (rec->ts_ns > b->last_ts)
		b->last_ts = rec->ts_ns;
	/* A request the rate limit held lands before this record's readings use the line. */
	for (int p = 0; p < b->em.nr_pd; p++)
		if (wf_catch_up(&b->line[p], rec->ts_ns))
			return oom(b);

	switch (rec->type) {
	case FS_REC_WAKEUP:
		return on_wakeup(b, rec);
	case FS_REC_MIGRATE:
		return on_migrate(b, rec);
	case FS_REC_OVERUTIL:
		b->rd_overutilized = ((const struct fs_overutil *)rec)->overutilized != 0;
		return 0;
	case FS_REC_LOST:
		b->lost += ((const struct fs_lost *)rec)->count;
		return 0;
	case FS_REC_EXIT:
	case FS_REC_RUNTIME:
		return on_task_time(b, rec);
	case FS_REC_BUSYFREQ:
		return on_busyfreq(b, rec);
	case FS_REC_FREQ:
		return on_freq(b, rec);
	}
	return 0; /* cpustat, freqstat, em: the recording's CPU energy, not its workload */
}

int fs_sim_builder_finish(struct fs_sim_builder *b, struct fs_sim_workload *out, char *err, size_t errlen)
{
	struct wb_stats st;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	/* What still ran when the recording ended without a reading: its time is unknown. */
	for (size_t i = 0; i < b->nr_tasks; i++)
		act_close(b, i, FS_NO_RUNTIME);
	for (size_t i = 0; i < b->pid_cap; i++)
		if (b->pids[i].used)
			ghost_never_woke(b, &b->pids[i]);

	observe_busyfreq(b, &b->wl.observed);
	if (b->wb_oom || wb_correct(&b->wb, b->acts, b->nr_acts, &st)) {
		snprintf(err, errlen, "workload: out of memory");
		rc = -1;
		goto done;
	}
	b->wl.bf_segs = st.segs;
	b->wl.bf_work_est = st.work_est;
	b->wl.bf_work_meas = st.work_meas;
	pelt_clamp(b);
	*out = b->wl;
	out->t0_ns = b->t0;
	out->end_ns = b->last_ts - b->t0;
	out->nr_tasks = (int)b->nr_tasks;
	out->nr_acts = b->nr_acts;
	/* Each task's activations together, in wake order (a stable counting sort by task). */
	out->tasks = calloc(b->nr_tasks ? b->nr_tasks : 1, sizeof(*out->tasks));
	out->acts = calloc(b->nr_acts ? b->nr_acts : 1, sizeof(*out->acts));
	if (!out->tasks || !out->acts) {
		snprintf(err, errlen, "workload: out of memory");
		fs_sim_workload_free(out);
		rc = -1;
		goto done;
	}
	__u32 at = 0;

	for (size_t i = 0; i < b->nr_tasks; i++) {
		out->tasks[i] = b->tasks[i];
		out->tasks[i].first_act = at;
		at += b->tasks[i].nr_act;
		out->tasks[i].nr_act = 0;
	}
	for (size_t k = 0; k < b->nr_acts; k++) {
		struct fs_sim_task *t = &out->tasks[b->act_task[k]];

		out->acts[t->first_act + t->nr_act++] = b->acts[k];
		out->rec_cpu_ns += b->acts[k].rec_cpu_ns;
		out->work += b->acts[k].work;
	}
done:
	fs_sim_builder_free(b);
	return rc;
}

/* A copy of n items of size, or NULL (n 0: one item's room, never NULL for want of memory). */
void *fs_sim_dup_items(const void *v, size_t n, size_t size)
{
	void *c = malloc((n ? n : 1) * size);

	if (c && n)
		memcpy(c, v, n * size);
	return c;
}

int fs_sim_builder_snapshot(const struct fs_sim_builder *b, struct fs_sim_workload *out, char *err, size_t errlen)
{
	struct fs_sim_builder *c = malloc(sizeof(*c));

	memset(out, 0, sizeof(*out));
	if (!c) {
		snprintf(err, errlen, "workload: out of memory");
		return -1;
	}
	*c = *b;
	/* finish() frees the copy: not the builder's policy; closing without a reading reads no frequency line */
	c->have_policy = false;
	memset(c->line, 0, sizeof(c->line));
	c->tasks = fs_sim_dup_items(b->tasks, b->nr_tasks, sizeof(*b->tasks));
	c->ts = fs_sim_dup_items(b->ts, b->nr_tasks, sizeof(*b->ts));
	c->acts = fs_sim_dup_items(b->acts, b->nr_acts, sizeof(*b->acts));
	c->act_task = fs_sim_dup_items(b->act_task, b->nr_acts, sizeof(*b->act_task));
	c->act_pelt = fs_sim_dup_items(b->act_pelt, b->nr_acts, sizeof(*b->act_pelt));
	c->pids = fs_sim_dup_items(b->pids, b->pid_cap, sizeof(*b->pids));
	if (wb_dup(&c->wb, &b->wb))
		c->wb_oom = true; /* finish() reports it */
	for (int p = 0; p < FS_MAX_PDS; p++)
		if (ws_dup(&c->steps[p], &b->steps[p]))
			c->wb_oom = true;
	c->cap_tasks = c->cap_ts = b->nr_tasks;
	c->cap_acts = c->cap_act_task = c->cap_act_pelt = b->nr_acts;
	if (!c->tasks || !c->ts || !c->acts || !c->act_task || !c->act_pelt || !c->pids) {
		fs_sim_builder_free(c);
		snprintf(err, errlen, "workload: out of memory");
		return -1;
	}
	return fs_sim_builder_finish(c, out, err, errlen);
}

// SPDX-License-Identifier: GPL-2.0
/* Energy accounting: placements charged by CPU time (accounting.h, docs/accounting.md). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "accounting.h"

static const char *const end_names[FS_END__NR] = { "wakeup", "migrate", "exit", "observed", "end" };

const char *fs_interval_end_name(enum fs_interval_end e)
{
	return (unsigned)e < FS_END__NR ? end_names[e] : "?";
}

struct fs_acct {
	int nr;                       /* policies */
	bool mode_set, wall_time;
	struct fs_task_acct **tasks;  /* every task ever seen, in creation order */
	size_t nr_tasks, cap_tasks;
	__u32 *index;                 /* open addressing: pid -> 1 + position in tasks, 0 = empty */
	size_t index_cap;
	struct fs_acct_totals tot;
};

struct fs_acct *fs_acct_new(int nr_policies)
{
	struct fs_acct *a = calloc(1, sizeof(*a));

	if (a)
		a->nr = nr_policies;
	return a;
}

void fs_acct_free(struct fs_acct *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nr_tasks; i++)
		free(a->tasks[i]);
	free(a->tasks);
	free(a->index);
	free(a);
}

static size_t slot_hash(__s32 pid, size_t cap)
{
	return ((__u32)pid * 2654435761u) & (cap - 1);
}

/* Index slot holding pid, or the empty slot where it would go. */
static size_t index_slot(const struct fs_acct *a, __s32 pid)
{
	size_t i = slot_hash(pid, a->index_cap);

	while (a->index[i] && a->tasks[a->index[i] - 1]->pid != pid)
		i = (i + 1) & (a->index_cap - 1);
	return i;
}

static int index_grow(struct fs_acct *a)
{
	size_t cap = a->index_cap ? 2 * a->index_cap : 256;
	__u32 *old = a->index;
	size_t old_cap = a->index_cap;

	a->index = calloc(cap, sizeof(*a->index));
	if (!a->index) {
		a->index = old;
		return -1;
	}
	a->index_cap = cap;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i])
			a->index[index_slot(a, a->tasks[old[i] - 1]->pid)] = old[i];
	free(old);
	return 0;
}

struct fs_task_acct *fs_acct_task_find(struct fs_acct *a, __s32 pid)
{
	if (!a->index_cap)
		return NULL;
	__u32 v = a->index[index_slot(a, pid)];
	return v ? a->tasks[v - 1] : NULL;
}

/* A new task for pid, which from now on is pid's current one. */
static struct fs_task_acct *task_new(struct fs_acct *a, __s32 pid)
{
	if ((a->nr_tasks + 1) * 2 > a->index_cap && index_grow(a))
		return NULL;
	if (a->nr_tasks == a->cap_tasks) {
		size_t cap = a->cap_tasks ? 2 * a->cap_tasks : 256;
		struct fs_task_acct **n = realloc(a->tasks, cap * sizeof(*n));

		if (!n)
			return NULL;
		a->tasks = n;
		a->cap_tasks = cap;
	}
	struct fs_task_acct *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->pid = pid;
	t->tgid = pid;
	t->uid = FS_NO_UID;
	t->last_sum_exec = FS_NO_RUNTIME;
	a->tasks[a->nr_tasks++] = t;
	a->index[index_slot(a, pid)] = (__u32)a->nr_tasks;
	return t;
}

bool fs_acct_task_reused(const struct fs_task_acct *t, __s32 tgid, __u64 sum_exec)
{
	return t->exited || t->tgid != tgid ||
	       (sum_exec != FS_NO_RUNTIME && t->last_sum_exec != FS_NO_RUNTIME && sum_exec < t->last_sum_exec);
}

struct fs_task_acct *fs_acct_task_new(struct fs_acct *a, __s32 pid, __s32 tgid)
{
	struct fs_task_acct *t = task_new(a, pid);

	if (t)
		t->tgid = tgid;
	return t;
}

__u64 fs_acct_window(const struct fs_placement *pl, __u64 dt, bool runtime_known, __u64 r,
		     enum fs_interval_end end, bool wall_time)
{
	if (wall_time)
		return dt;
	if (!runtime_known)
		return 0; /* nothing is extrapolated past the last CPU time seen */
	if (r > dt)
		r = dt; /* no task runs longer than the wall time: clocks of two readings */
	unsigned __int128 active = r;

	if (pl->win_den && pl->win_num > pl->win_den) {
		__u64 prod;

		/* 64 bits in practice (ms of CPU × cap·f); 128 only where that would overflow */
		active = __builtin_mul_overflow(r, pl->win_num, &prod) ?
			 (unsigned __int128)r * pl->win_num / pl->win_den : prod / pl->win_den;
	}
	/*
	 * The task ran more than its utilization said (a burst after the wake-up:
	 * r/β > dt): its CPU time is charged at the rate per CPU ns, past dt; the
	 * sleep had no room for a tail. Else the tail, and no more than dt.
	 */
	if (active >= dt)
		return active > UINT64_MAX ? UINT64_MAX : (__u64)active;
	if (end == FS_END_WAKEUP || end == FS_END_OBSERVED)
		active += FS_PELT_TAIL_NS;
	return active < dt ? (__u64)active : dt;
}

/* A CPU-time reading of t: its CPU time observed is the growth from the first reading to the latest. */
static void note_sum_exec(struct fs_acct *a, struct fs_task_acct *t, __u64 sum_exec)
{
	if (sum_exec == FS_NO_RUNTIME)
		return;
	if (t->last_sum_exec == FS_NO_RUNTIME) {
		t->last_sum_exec = sum_exec;
		return;
	}
	if (sum_exec > t->last_sum_exec) {
		t->runtime_ns += sum_exec - t->last_sum_exec;
		a->tot.runtime_ns += sum_exec - t->last_sum_exec;
		t->last_sum_exec = sum_exec;
	}
}

int fs_acct_end(struct fs_acct *a, struct fs_task_acct *t, __u64 ts, __u64 sum_exec,
		enum fs_interval_end end, struct fs_interval *iv)
{
	note_sum_exec(a, t, sum_exec);
	if (end == FS_END_EXIT)
		t->exited = true;
	if (!t->open)
		return 0;
	const struct fs_placement *pl = &t->pl;

	iv->end = end;
	iv->start_ns = pl->ts_ns;
	iv->run_cpu = pl->run_cpu;
	iv->dt_ns = fs_acct_dt(pl->ts_ns, ts);
	iv->runtime_known = pl->sum_exec_ns != FS_NO_RUNTIME && sum_exec != FS_NO_RUNTIME &&
			    sum_exec >= pl->sum_exec_ns;
	iv->runtime_ns = iv->runtime_known ? sum_exec - pl->sum_exec_ns : 0;
	iv->window_ns = fs_acct_window(pl, iv->dt_ns, iv->runtime_known, iv->runtime_ns, end, a->wall_time);
	for (int i = 0; i < a->nr; i++) {
		iv->de_fj[i] = (fs_fj_t)pl->dp_uw[i] * (fs_fj_t)iv->window_ns;
		t->energy_fj[i] += iv->de_fj[i];
	}
	a->tot.intervals++;
	if (iv->runtime_known) {
		if (pl->run_cpu >= 0 && pl->run_cpu < FS_MAX_CPUS)
			a->tot.run_cpu_ns[pl->run_cpu] += iv->runtime_ns;
	} else if (!a->wall_time) {
		a->tot.unresolved++;
		a->tot.unresolved_ns += iv->dt_ns;
	}
	t->open = false;
	return 1;
}

int fs_acct_place(struct fs_acct *a, struct fs_task_acct *t, const struct fs_placement *pl,
		  struct fs_interval *closed)
{
	if (!a->mode_set) {
		a->mode_set = true;
		a->wall_time = pl->sum_exec_ns == FS_NO_RUNTIME;
	}
	int rc = fs_acct_end(a, t, pl->ts_ns, pl->sum_exec_ns, FS_END_WAKEUP, closed);

	note_sum_exec(a, t, pl->sum_exec_ns); /* the first reading, if no placement was open */

	/* the placement without the unused tail of dp_uw[] */
	memcpy(&t->pl, pl, offsetof(struct fs_placement, dp_uw) + (size_t)a->nr * sizeof(pl->dp_uw[0]));
	t->open = true;
	t->wakeups++;
	return rc;
}

bool fs_acct_wall_time(const struct fs_acct *a)
{
	return a->wall_time;
}

size_t fs_acct_nr_tasks(const struct fs_acct *a)
{
	return a->nr_tasks;
}

struct fs_task_acct *fs_acct_task_at(struct fs_acct *a, size_t i)
{
	return i < a->nr_tasks ? a->tasks[i] : NULL;
}

const struct fs_task_acct *fs_acct_task_at_c(const struct fs_acct *a, size_t i)
{
	return i < a->nr_tasks ? a->tasks[i] : NULL;
}

const struct fs_acct_totals *fs_acct_totals(struct fs_acct *a)
{
	/* the per-policy sums, summed here rather than at every placement */
	memset(a->tot.energy_fj, 0, sizeof(a->tot.energy_fj));
	for (size_t k = 0; k < a->nr_tasks; k++)
		for (int i = 0; i < a->nr; i++)
			a->tot.energy_fj[i] += a->tasks[k]->energy_fj[i];
	return &a->tot;
}

int fs_acct_effective_cpu(const struct fs_feec_result *r, const struct fs_wakeup *w)
{
	if (r->cpu >= 0)
		return r->cpu;
	if (w->chosen_cpu >= 0)
		return w->chosen_cpu;
	return w->prev_cpu;
}

void fs_acct_sys_close(struct fs_acct_sys *s, __u64 now)
{
	if (s->open)
		s->total_fj += (fs_fj_t)s->power_uw * (fs_fj_t)fs_acct_dt(s->since_ns, now);
	s->open = false;
}

void fs_acct_sys_step(struct fs_acct_sys *s, __u64 now, __u64 power_uw)
{
	/* Never step backwards in time: a late record starts its step where the current one began. */
	__u64 start = s->open && s->since_ns > now ? s->since_ns : now;

	fs_acct_sys_close(s, now);
	s->open = true;
	s->since_ns = start;
	s->power_uw = power_uw;
}

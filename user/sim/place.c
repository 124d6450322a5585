// SPDX-License-Identifier: GPL-2.0
/*
 * Wake-up placement on the simulated machine: the landscape the collector
 * would have recorded, built from the simulated state and handed to the
 * policy's feec; the kernel's fallback when feec does not decide.
 */
#include <stdint.h>
#include <string.h>
#include "sim_internal.h"

/* The waking task's struct fs_task: its PELT as it slept, its rq's clock, util_est. */
static void fill_task(const struct sim *s, int ti, struct fs_task *ft)
{
	const struct sim_task *t = &s->task[ti];

	ft->last_update_time = t->avg.last_update_time;
	/* sync_entity_load_avg() ages it to its cfs_rq's last update: an idle one's is stale (nohz.c) */
	ft->cfs_rq_last_update_time = sim_cpu_avg_seen(s, t->cpu)->last_update_time;
	ft->util_sum = t->avg.util_sum;
	ft->period_contrib = t->avg.period_contrib;
	ft->util_avg = t->avg.util_avg;
	/* v6.8+ keeps one word: the record carries it in both fields. */
	ft->util_est_enqueued = s->k.ue_single ? t->ue_ewma : t->ue_enqueued;
	ft->util_est_ewma = t->ue_ewma;
	ft->uclamp_min = 0;
	ft->uclamp_max = 1024;
	ft->runnable_avg = t->avg.runnable_avg;
	ft->runnable_sum = t->avg.runnable_sum;
}

/* Every CPU's rq as the collector reads it: no RT, DL, irq or pressure on this machine. */
static void fill_cpu(const struct sim *s, int cpu, struct fs_cpu *k)
{
	const struct sim_cpu *c = &s->cpu[cpu];
	const struct fs_pelt_avg *a = sim_cpu_avg_seen(s, cpu); /* an idle CPU's as last updated */

	memset(k, 0, sizeof(*k));
	k->cfs_last_update_time = a->last_update_time;
	k->util_avg = a->util_avg;
	k->util_est = (__u32)sim_cpu_util_est(s, cpu);
	k->runnable_avg = a->runnable_avg;
	k->capacity = k->capacity_orig = c->cap;
	k->nr_running = (__u32)c->nr;
	k->uclamp_max = 1024;
	k->flags = FS_CPU_ONLINE | FS_CPU_IN_SD;
}

/* The record of this wake-up, as the collector writes it at select_task_rq_fair(). */
static void build_wakeup(struct sim *s, int ti, const struct fs_sim_act *a)
{
	struct fs_wakeup *w = &s->w;
	const struct sim_task *t = &s->task[ti];
	const __u64 all = s->ncpu >= 64 ? ~0ull : (1ull << s->ncpu) - 1;
	int waker = a->waker >= 0 && a->waker < s->wl->nr_tasks ? s->task[a->waker].cpu : -1;

	memset(w, 0, offsetof(struct fs_wakeup, cpu));
	w->hdr.type = FS_REC_WAKEUP;
	w->hdr.nr_cpus = (__u16)s->ncpu;
	w->hdr.size = (__u32)fs_wakeup_size(s->ncpu);
	w->hdr.ts_ns = s->wl->t0_ns + s->now;
	w->pid = t->t->pid;
	w->tgid = t->t->tgid;
	memcpy(w->comm, t->t->comm, FS_COMM_LEN);
	w->prev_cpu = w->task_cpu = t->cpu;
	/* The waker's CPU gives feec its root domain: one here. */
	w->waker_cpu = waker >= 0 ? waker : t->cpu;
	w->chosen_cpu = -1;
	w->cpus_allowed = t->t->cpus_allowed ? t->t->cpus_allowed & all : all;
	w->nr_cpus_allowed = (__u32)__builtin_popcountll(w->cpus_allowed);
	w->flags = FS_WAKE_NO_UCLAMP | FS_WAKE_AT_SELECT | FS_WAKE_FLAGS_KNOWN;
	if (a->flags & FS_SIM_ACT_SYNC)
		w->flags |= FS_WAKE_SYNC;
	w->sum_exec_ns = t->run_ns;
	w->uid = t->t->uid;
	fill_task(s, ti, &w->task);
	for (int cpu = 0; cpu < s->ncpu; cpu++)
		fill_cpu(s, cpu, &w->cpu[cpu]);
}

/*
 * select_idle_sibling() on an asymmetric-capacity system (v5.10 - v7.1),
 * simplified: the target is prev_cpu (wake_affine() and the waker's CPU are
 * not modelled, docs). prev if it is idle and the task fits it
 * (asym_fits_cpu(), b4c9c9f15649); else select_idle_capacity() over
 * sd_asym_cpucapacity's span (all CPUs here) wrapping from prev: the first
 * idle allowed CPU the task fits, else the idle one of highest capacity
 * (v5.10+), else prev (the first allowed CPU if prev is not).
 */
static int fallback(const struct sim *s, int ti, int prev)
{
	const __u64 u = sim_task_util_est(s, ti);
	int best = -1;

	for (int i = 0; i < s->ncpu; i++) {
		const int c = (prev + i) % s->ncpu;

		if (!sim_allowed(s, ti, c) || s->cpu[c].nr)
			continue;
		if (u * 1280 < (__u64)s->cpu[c].cap * 1024)
			return c;
		if (best < 0 || s->cpu[c].cap > s->cpu[best].cap)
			best = c;
	}
	if (best >= 0)
		return best;
	if (sim_allowed(s, ti, prev))
		return prev;
	for (int c = 0; c < s->ncpu; c++)
		if (sim_allowed(s, ti, c))
			return c;
	return prev;
}

/*
 * Where a waking task goes (select_task_rq_fair(), v5.0 - v7.1): feec when
 * EAS may run (not overutilized; forks never), its answer unless it returns
 * -1, else the fallback. Returns the CPU; the caller moves and enqueues.
 */
int sim_place(struct sim *s, int ti, const struct fs_sim_act *a)
{
	struct fs_feec_result res;
	const int prev = s->task[ti].cpu;

	s->r->wakeups++;
	s->dec = (struct fs_sim_act_dec){ .wake_ns = s->now, .prev_delta = UINT64_MAX, .best_delta = UINT64_MAX,
		.threshold = UINT64_MAX, .prev_cpu = prev, .feec_cpu = -1, .reason = FS_FEEC_OVERUTILIZED };
	if (s->overutilized) {
		s->r->overutilized_wakeups++;
		s->how = 1;
		return fallback(s, ti, prev);
	}
	build_wakeup(s, ti, a);
	fs_policy_feec(&s->pol, &s->w, &res);
	if (res.eligible)
		s->r->feec_eligible++;
	s->dec.feec_cpu = res.cpu;
	s->dec.reason = (__u8)res.reason;
	s->dec.prev_delta = res.prev_delta;
	s->dec.best_delta = res.best_delta;
	s->dec.has_threshold = res.has_threshold;
	s->dec.threshold = res.threshold;
	s->how = 0;
	if (res.cpu >= 0 && res.cpu < s->ncpu && sim_allowed(s, ti, res.cpu))
		return res.cpu;
	s->how = 2;
	return fallback(s, ti, prev);
}

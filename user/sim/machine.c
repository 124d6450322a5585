// SPDX-License-Identifier: GPL-2.0
/*
 * fs_sim_run(): the simulated machine set up from a workload, an EM and a
 * policy, run (events.c), and the figures it returns (docs/simulation.md,
 * "The machine").
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_internal.h"

int sim_check(const struct fs_sim_workload *wl, const struct fs_sim_params *p, char *err, size_t errlen)
{
	const struct fs_em *em = p ? p->em : NULL;

	if (!wl || !p || !em || !p->policy) {
		snprintf(err, errlen, "simulation: %s missing", !wl ? "workload" : !p ? "parameters"
							       : !em ? "Energy Model" : "policy");
		return -1;
	}
	if (em->nr_cpus <= 0 || em->nr_cpus > FS_MAX_CPUS || wl->nr_cpus > em->nr_cpus) {
		snprintf(err, errlen, "simulation: the workload's %d CPUs, the EM's %d (at most %d)",
			 wl->nr_cpus, em->nr_cpus, FS_MAX_CPUS);
		return -1;
	}
	for (int c = 0; c < em->nr_cpus; c++)
		if (em->cpu_pd[c] < 0 || em->pd[em->cpu_pd[c]].nr_ps <= 0 || !em->capacity[c]) {
			snprintf(err, errlen, "simulation: CPU %d has no PD, OPP or capacity in the EM", c);
			return -1;
		}
	if (p->physics != FS_SIM_DEVICE && p->physics != FS_SIM_LAB) {
		snprintf(err, errlen, "simulation: physics %d unknown", (int)p->physics);
		return -1;
	}
	for (int i = 0; i < wl->nr_tasks; i++)
		if ((__u64)wl->tasks[i].first_act + wl->tasks[i].nr_act > wl->nr_acts) {
			snprintf(err, errlen, "simulation: task %d's activations past the workload's %llu",
				 i, (unsigned long long)wl->nr_acts);
			return -1;
		}
	return 0;
}

/* A task's CPU before its first wake-up: where the recording saw it, else its first allowed CPU. */
int sim_home_cpu(const struct sim *s, int ti)
{
	const int c = s->task[ti].t->init_cpu;

	if (sim_allowed(s, ti, c))
		return c;
	for (int d = 0; d < s->ncpu; d++)
		if (sim_allowed(s, ti, d))
			return d;
	return 0;
}

/* The task's PELT and util_est as the workload gives them, attached to cpu's rq. */
void sim_task_arrive(struct sim *s, int ti, int cpu)
{
	struct sim_task *t = &s->task[ti];

	memset(&t->avg, 0, sizeof(t->avg));
	t->avg.util_avg = t->t->init_util;
	t->avg.runnable_avg = t->t->init_util;
	t->ue_ewma = t->ue_enqueued = t->t->init_util_est;
	t->ue_unchanged = true;
	sim_attach(s, ti, cpu);
}

/* msecs_to_jiffies() in the machine's ticks, at least one. */
__u64 sim_ms_to_ticks(const struct sim *s, __u32 ms)
{
	const __u64 t = ((__u64)ms * 1000000ull + s->tick_ns - 1) / s->tick_ns;

	return t ? t : 1;
}

/*
 * The tick from hz, and the scheduler's tunables scaled as
 * sched_init_granularity() / update_sysctl() do (1 + log2 of up to 8
 * CPUs): CFS's 6 ms latency, 0.75 ms minimum granularity and 1 ms wakeup
 * granularity (v2.6.3x - v6.5); EEVDF's 0.75 ms base slice (v6.6+) both
 * for the tick's slice and for wake-up preemption (RUN_TO_PARITY: the
 * running task keeps the CPU until it has had its slice).
 */
static void timing(struct sim *s)
{
	const unsigned int hz = s->p->hz ? s->p->hz : 250;
	const int n = s->ncpu < 8 ? s->ncpu : 8;
	const __u64 factor = 1 + (__u64)(31 - __builtin_clz((unsigned int)n));

	s->tick_ns = 1000000000ull / hz;
	/* sd_init(): the root domain's balance_interval starts at sd_weight ms */
	s->balance_ticks = sim_ms_to_ticks(s, (__u32)s->ncpu);
	/*
	 * get_sd_balance_interval() for a busy CPU (v5.10+, 6e7499135db7): the
	 * interval x busy_factor (16, sd_init()), in jiffies, less one.
	 */
	s->busy_balance_ticks = sim_ms_to_ticks(s, (__u32)s->ncpu * 16);
	s->busy_balance_ticks = s->busy_balance_ticks > 1 ? s->busy_balance_ticks - 1 : 1;
	/* nohz.next_blocked steps by msecs_to_jiffies(LOAD_AVG_PERIOD): 32 ms */
	s->blocked_ticks = sim_ms_to_ticks(s, 32);
	s->latency_ns = 6000000ull * factor;
	s->min_gran_ns = 750000ull * factor;
	s->wakeup_gran_ns = 1000000ull * factor;
	if (s->k.eevdf) {
		s->latency_ns = 0; /* the slice is the base slice whatever nr_running */
		s->wakeup_gran_ns = s->min_gran_ns;
	}
}

/* What act_dec holds for an activation the simulation never placed. */
struct fs_sim_act_dec sim_act_dec_none(void)
{
	return (struct fs_sim_act_dec){ .prev_delta = UINT64_MAX, .best_delta = UINT64_MAX,
		.threshold = UINT64_MAX, .prev_cpu = -1, .feec_cpu = -1, .cpu = -1, .reason = FS_FEEC__NR, .how = -1 };
}

/* fs_sim_result.act_dec, each as an activation the simulation never placed. */
static int decisions_new(struct fs_sim_result *r, __u64 nr_acts, char *err, size_t errlen)
{
	r->act_dec = malloc(((size_t)nr_acts + 1) * sizeof(*r->act_dec));
	if (!r->act_dec) {
		snprintf(err, errlen, "simulation: out of memory for %llu decisions", (unsigned long long)nr_acts);
		return -1;
	}
	for (__u64 i = 0; i <= nr_acts; i++)
		r->act_dec[i] = sim_act_dec_none();
	return 0;
}

int sim_setup(struct sim *s, const struct fs_sim_workload *wl, const struct fs_sim_params *p,
		 struct fs_sim_result *r, char *err, size_t errlen)
{
	s->wl = wl;
	s->p = p;
	s->em = p->em;
	s->r = r;
	s->ncpu = p->em->nr_cpus;
	sim_kernel_of(p->policy, &s->k);
	timing(s);
	s->task = calloc((size_t)wl->nr_tasks + 1, sizeof(*s->task));
	r->task = calloc((size_t)wl->nr_tasks + 1, sizeof(*r->task));
	r->nr_tasks = wl->nr_tasks;
	r->act_cpu = malloc(((size_t)wl->nr_acts + 1) * sizeof(*r->act_cpu));
	r->act_how = malloc((size_t)wl->nr_acts + 1);
	r->act_util = calloc((size_t)wl->nr_acts + 1, sizeof(*r->act_util));
	if (!s->task || !r->task || !r->act_cpu || !r->act_how || !r->act_util) {
		snprintf(err, errlen, "simulation: out of memory for %d tasks", wl->nr_tasks);
		return -1;
	}
	memset(r->act_cpu, 0xff, ((size_t)wl->nr_acts + 1) * sizeof(*r->act_cpu));
	memset(r->act_how, 0xff, (size_t)wl->nr_acts + 1);
	if (p->keep_decisions && decisions_new(r, wl->nr_acts, err, errlen))
		return -1;
	if (p->timeline_ticks && !(r->timeline = calloc(p->timeline_ticks, sizeof(*r->timeline)))) {
		snprintf(err, errlen, "simulation: out of memory for %u ticks' timeline", p->timeline_ticks);
		return -1;
	}
	for (int c = 0; c < s->ncpu; c++) {
		s->cpu[c].q = calloc((size_t)wl->nr_tasks + 1, sizeof(int));
		s->cpu[c].pd = s->em->cpu_pd[c];
		s->cpu[c].cap = s->em->capacity[c];
		s->cpu[c].balance_ms = (__u32)s->ncpu; /* sd_init(): sd_weight ms */
		if (!s->cpu[c].q) {
			snprintf(err, errlen, "simulation: out of memory for CPU %d's runqueue", c);
			return -1;
		}
	}
	if (fs_policy_init(&s->pol, p->policy, p->em, err, errlen))
		return -1;
	s->own_pol = true;
	sim_sugov_init(s);
	for (int i = 0; i < wl->nr_tasks; i++) {
		const struct fs_sim_task *t = &wl->tasks[i];

		s->task[i].t = t;
		s->task[i].cpu = -1;
		/* A task forked in the window arrives at its fork; the others were there, asleep. */
		if (!t->nr_act || !(wl->acts[t->first_act].flags & FS_SIM_ACT_FORK))
			sim_task_arrive(s, i, sim_home_cpu(s, i));
	}
	for (int c = 0; c < s->ncpu; c++)
		if (wl->init_rq_traced >> c & 1)
			sim_rq_traced_start(s, c, wl->init_rq_util[c]);
	for (int c = 0; c < s->ncpu; c++)
		s->cpu[c].seen = s->cpu[c].avg; /* the blocked load as of t0 (nohz.c) */
	for (int pd = 0; pd < s->em->nr_pd; pd++)
		sim_sugov_update(s, pd);
	return 0;
}

void sim_teardown(struct sim *s)
{
	for (int c = 0; c < FS_MAX_CPUS; c++)
		free(s->cpu[c].q);
	free(s->task);
	sim_loop_free(&s->lp);
	if (s->own_pol)
		fs_policy_fini(&s->pol);
}

/* EM power unit x ns -> EM unit x s; mJ from mW x s or uW x s, none from bogoWatts. */
void sim_results(const struct sim *s, struct fs_sim_result *r)
{
	const double scale = s->em->unit == FS_POWER_MW ? 1.0 : s->em->unit == FS_POWER_UW ? 1e-3 : NAN;

	r->energy = (double)s->energy_x / 1e9;
	r->energy_x = s->energy_x;
	r->energy_mj = r->energy * scale;
	for (int ti = 0; ti < s->wl->nr_tasks; ti++) {
		const struct sim_task *t = &s->task[ti];
		struct fs_sim_task_result *tr = &r->task[ti];

		tr->energy = (double)t->energy_x / 1e9;
		tr->energy_x = t->energy_x;
		tr->run_ns = t->run_ns;
		memcpy(tr->run_pd_ns, t->run_pd_ns, sizeof(tr->run_pd_ns));
		tr->wait_ns = t->wait_ns;
		tr->acts_done = t->acts_done;
		if (t->queued) {
			/* the head's rest and every activation woken behind it */
			tr->work_left = t->work_left;
			for (__u32 i = t->head + 1; i < t->woken; i++)
				tr->work_left += s->wl->acts[t->t->first_act + i].work;
		}
		r->work_left += tr->work_left;
	}
}

int fs_sim_run(const struct fs_sim_workload *wl, const struct fs_sim_params *p, struct fs_sim_result *r,
	       char *err, size_t errlen)
{
	struct sim *s;
	int ret = -1;

	if (!r) {
		snprintf(err, errlen, "simulation: no result to fill");
		return -1;
	}
	memset(r, 0, sizeof(*r));
	if (sim_check(wl, p, err, errlen))
		return -1;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "simulation: out of memory");
		return -1;
	}
	if (!sim_setup(s, wl, p, r, err, errlen)) {
		if (sim_loop(s))
			snprintf(err, errlen, "simulation: out of memory for %llu activations",
				 (unsigned long long)wl->nr_acts);
		else
			ret = 0;
	}
	if (!ret)
		sim_results(s, r);
	sim_teardown(s);
	free(s);
	if (ret)
		fs_sim_result_free(r);
	return ret;
}

void fs_sim_result_free(struct fs_sim_result *r)
{
	if (!r)
		return;
	free(r->task);
	free(r->act_cpu);
	free(r->act_how);
	free(r->act_util);
	free(r->act_dec);
	r->act_dec = NULL;
	free(r->timeline);
	r->timeline = NULL;
	r->nr_timeline = 0;
	free(r->block_energy);
	r->block_energy = NULL;
	r->nr_blocks = 0;
	r->act_util = NULL;
	r->task = NULL;
	r->act_cpu = NULL;
	r->act_how = NULL;
	r->nr_tasks = 0;
}

__u64 fs_sim_hist_quantile(const __u64 *hist, double q)
{
	__u64 total = 0, seen = 0;

	for (int i = 0; i < FS_SIM_LAT_BUCKETS; i++)
		total += hist[i];
	if (!total)
		return 0;
	q = q < 0 ? 0 : q > 1 ? 1 : q;
	/* The rank of the q-th value, at least the first. */
	__u64 rank = (__u64)ceil(q * (double)total);

	rank = rank ? rank : 1;
	for (int i = 0; i < FS_SIM_LAT_BUCKETS; i++) {
		seen += hist[i];
		if (seen >= rank)
			return i == FS_SIM_LAT_BUCKETS - 1 ? FS_SIM_NEVER : (2ull << i);
	}
	return FS_SIM_NEVER;
}

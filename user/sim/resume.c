// SPDX-License-Identifier: GPL-2.0
/*
 * One policy's simulation kept between workloads that extend each other
 * (resume.h): states of the machine at iteration tops, kept as a run
 * passes them and thinned as they age; a workload runs from the latest
 * state before its first difference (wl_change.c). Each activation's
 * results (act_cpu, act_how, act_util, act_dec) live here once, in the
 * last workload's layout: a resumed run writes those it wakes again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "resume.h"
#include "sim_internal.h"

/* The machine at a top, with its own copies of everything a run changes. */
struct kept {
	struct sim s;              /* task[], cpu[].q and lp.blk.e its own; no pending events */
	struct fs_sim_result r;    /* counters and task[]; no per-activation arrays */
};

struct fs_sim_resumer {
	__u64 every_ns;
	struct fs_em em;           /* the machines' EM and params point here */
	struct fs_sim_params p;
	struct fs_policy pol;      /* shared by every machine of this resumer */
	bool have_pol;
	struct kept *k;            /* by time */
	int nr_k, cap_k;
	__u64 next_keep;           /* during a run: keep the state at the first top from here */
	/* each activation's results, in the layout of the workload last run */
	__s32 *act_cpu;
	__s8 *act_how;
	__u32 *act_util;
	struct fs_sim_act_dec *act_dec;
	__u64 nr_acts;
	int nr_tasks;
	__u32 *first, *nr;         /* each task's first_act and nr_act there */
	struct fs_sim_resume_stats st;
};

struct fs_sim_resumer *fs_sim_resumer_new(__u64 every_ns)
{
	struct fs_sim_resumer *z = calloc(1, sizeof(*z));

	if (z)
		z->every_ns = every_ns ? every_ns : FS_SIM_RESUME_EVERY_NS;
	return z;
}

/* A machine's own memory (not the policy, not the per-activation arrays). */
static void machine_free(struct sim *s, struct fs_sim_result *r)
{
	for (int c = 0; c < FS_MAX_CPUS; c++)
		free(s->cpu[c].q);
	free(s->task);
	sim_loop_free(&s->lp);
	free(r->task);
	free(r->block_energy);
	memset(s, 0, sizeof(*s));
	memset(r, 0, sizeof(*r));
}

static void drop_from(struct fs_sim_resumer *z, int from)
{
	for (int i = from; i < z->nr_k; i++)
		machine_free(&z->k[i].s, &z->k[i].r);
	z->nr_k = from < z->nr_k ? from : z->nr_k;
}

static void acts_free(struct fs_sim_resumer *z)
{
	free(z->act_cpu);
	free(z->act_how);
	free(z->act_util);
	free(z->act_dec);
	free(z->first);
	free(z->nr);
	z->act_cpu = NULL;
	z->act_how = NULL;
	z->act_util = NULL;
	z->act_dec = NULL;
	z->first = z->nr = NULL;
	z->nr_acts = 0;
	z->nr_tasks = 0;
}

void fs_sim_resumer_free(struct fs_sim_resumer *z)
{
	if (!z)
		return;
	drop_from(z, 0);
	free(z->k);
	acts_free(z);
	if (z->have_pol)
		fs_policy_fini(&z->pol);
	free(z);
}

const struct fs_sim_resume_stats *fs_sim_resumer_stats(const struct fs_sim_resumer *z)
{
	return &z->st;
}

/*
 * A deep copy of machine (s, r) into (ds, dr) for n tasks (n >= the
 * source's), the tasks past the source's new: not attached, as set-up
 * leaves a task that forks later. 0 or -1 (out of memory; ds, dr freed).
 */
static int machine_copy(const struct sim *s, const struct fs_sim_result *r, int n, struct sim *ds,
			struct fs_sim_result *dr)
{
	const int n0 = r->nr_tasks;

	*ds = *s;
	*dr = *r;
	ds->task = calloc((size_t)n + 1, sizeof(*ds->task));
	dr->task = calloc((size_t)n + 1, sizeof(*dr->task));
	dr->act_cpu = NULL;
	dr->act_how = NULL;
	dr->act_util = NULL;
	dr->act_dec = NULL;
	dr->block_energy = NULL;
	memset(&ds->lp, 0, sizeof(ds->lp));
	ds->lp.next_tick = s->lp.next_tick;
	ds->lp.skip_due = s->lp.skip_due;
	ds->lp.blk.ns = s->lp.blk.ns;
	ds->lp.blk.n = ds->lp.blk.cap = s->lp.blk.n;
	ds->lp.blk.e = malloc((s->lp.blk.n ? s->lp.blk.n : 1) * sizeof(*ds->lp.blk.e));
	for (int c = 0; c < FS_MAX_CPUS; c++)
		ds->cpu[c].q = c < s->ncpu ? calloc((size_t)n + 1, sizeof(int)) : NULL;
	bool ok = ds->task && dr->task && ds->lp.blk.e;

	for (int c = 0; c < s->ncpu; c++)
		ok = ok && ds->cpu[c].q;
	if (!ok) {
		machine_free(ds, dr);
		return -1;
	}
	memcpy(ds->task, s->task, (size_t)n0 * sizeof(*ds->task));
	memcpy(dr->task, r->task, (size_t)n0 * sizeof(*dr->task));
	for (int i = n0; i < n; i++)
		ds->task[i].cpu = -1;
	for (int c = 0; c < s->ncpu; c++)
		memcpy(ds->cpu[c].q, s->cpu[c].q, (size_t)s->cpu[c].nr * sizeof(int));
	if (s->lp.blk.n) /* no blocks reached yet: no array */
		memcpy(ds->lp.blk.e, s->lp.blk.e, s->lp.blk.n * sizeof(*ds->lp.blk.e));
	dr->nr_tasks = n;
	return 0;
}

/*
 * Thin the kept states as they age: drop one whose neighbours are closer
 * to each other than the later one is to now, so each gap is at most about
 * the age of its end and their number grows with the log of the run.
 */
static void thin(struct fs_sim_resumer *z, __u64 now)
{
	for (int j = 1; j + 1 < z->nr_k;) {
		const __u64 gap = z->k[j + 1].s.now - z->k[j - 1].s.now;

		if (gap <= now - z->k[j + 1].s.now) {
			machine_free(&z->k[j].s, &z->k[j].r);
			memmove(&z->k[j], &z->k[j + 1], (size_t)(z->nr_k - j - 1) * sizeof(*z->k));
			z->nr_k--;
		} else {
			j++;
		}
	}
}

/* The loop's top: keep the state once every every_ns of simulated time. */
static int at_top(void *ctx, struct sim *s)
{
	struct fs_sim_resumer *z = ctx;

	if (s->now < z->next_keep)
		return 0;
	z->next_keep = (s->now / z->every_ns + 1) * z->every_ns;
	if (z->nr_k && z->k[z->nr_k - 1].s.now >= s->now)
		return 0; /* the state it resumed from */
	if (z->nr_k == z->cap_k) {
		const int cap = z->cap_k ? 2 * z->cap_k : 16;
		struct kept *k = realloc(z->k, (size_t)cap * sizeof(*k));

		if (!k)
			return 0; /* not kept: the next run goes further back */
		z->k = k;
		z->cap_k = cap;
	}
	struct kept *k = &z->k[z->nr_k];

	if (machine_copy(s, s->r, s->r->nr_tasks, &k->s, &k->r))
		return 0;
	k->s.r = &k->r;
	z->nr_k++;
	z->st.kept++;
	thin(z, s->now);
	return 0;
}

/* A kept state is valid for a run with blocks of b when its blocks add up to them. */
static bool blocks_fit(__u64 b0, __u64 b)
{
	return b0 == b || (b0 && b && b % b0 == 0);
}

/* Drop the states wl changed (at or after `changed`) and those whose blocks do not fit p's. */
static void drop_invalid(struct fs_sim_resumer *z, __u64 changed, __u64 block_ns)
{
	int n = 0;

	for (int i = 0; i < z->nr_k; i++) {
		if (z->k[i].s.now < changed && blocks_fit(z->k[i].s.lp.blk.ns, block_ns))
			z->k[n++] = z->k[i];
		else
			machine_free(&z->k[i].s, &z->k[i].r);
	}
	z->nr_k = n;
}

/* The EM, policy or a machine setting differs from the last run's: nothing kept holds. */
static int settings(struct fs_sim_resumer *z, const struct fs_sim_params *p, char *err, size_t errlen)
{
	const struct fs_sim_params *o = &z->p;

	if (z->have_pol && o->policy == p->policy && o->physics == p->physics && o->hz == p->hz &&
	    o->sugov_rate_limit_ns == p->sugov_rate_limit_ns && o->keep_decisions == p->keep_decisions &&
	    !memcmp(&z->em, p->em, sizeof(z->em)))
		return 0;
	drop_from(z, 0);
	if (z->have_pol)
		fs_policy_fini(&z->pol);
	z->have_pol = false;
	memcpy(&z->em, p->em, sizeof(z->em));
	if (fs_policy_init(&z->pol, p->policy, &z->em, err, errlen))
		return -1;
	z->have_pol = true;
	return 0;
}

/* Each activation's results moved to wl's layout; the new ones as never placed. */
static int acts_adopt(struct fs_sim_resumer *z, const struct fs_sim_workload *wl, bool dec)
{
	const size_t n = (size_t)wl->nr_acts + 1, nt = (size_t)wl->nr_tasks + 1;
	__s32 *cpu = malloc(n * sizeof(*cpu));
	__s8 *how = malloc(n);
	__u32 *util = calloc(n, sizeof(*util)), *first = malloc(nt * sizeof(*first)), *nr = malloc(nt * sizeof(*nr));
	struct fs_sim_act_dec *d = dec ? malloc(n * sizeof(*d)) : NULL;

	if (!cpu || !how || !util || !first || !nr || (dec && !d)) {
		free(cpu), free(how), free(util), free(first), free(nr), free(d);
		return -1;
	}
	memset(cpu, 0xff, n * sizeof(*cpu));
	memset(how, 0xff, n);
	for (size_t i = 0; d && i < n; i++)
		d[i] = sim_act_dec_none();
	for (int ti = 0; ti < wl->nr_tasks; ti++) {
		const __u32 f = wl->tasks[ti].first_act, m0 = ti < z->nr_tasks ? z->nr[ti] : 0;
		const __u32 m = m0 < wl->tasks[ti].nr_act ? m0 : wl->tasks[ti].nr_act;

		first[ti] = f;
		nr[ti] = wl->tasks[ti].nr_act;
		if (!m)
			continue;
		memcpy(cpu + f, z->act_cpu + z->first[ti], m * sizeof(*cpu));
		memcpy(how + f, z->act_how + z->first[ti], m);
		memcpy(util + f, z->act_util + z->first[ti], m * sizeof(*util));
		if (d && z->act_dec)
			memcpy(d + f, z->act_dec + z->first[ti], m * sizeof(*d));
	}
	acts_free(z);
	z->act_cpu = cpu;
	z->act_how = how;
	z->act_util = util;
	z->act_dec = d;
	z->first = first;
	z->nr = nr;
	z->nr_acts = wl->nr_acts;
	z->nr_tasks = wl->nr_tasks;
	return 0;
}

/* The blocks of a kept state added up to blocks of ns (blocks_fit()): integers, so the sums are exact. */
static void blocks_widen(struct sim_blocks *b, __u64 ns)
{
	if (b->ns == ns)
		return;
	const size_t m = (size_t)(ns / b->ns), n = (b->n + m - 1) / m;

	for (size_t j = 0; j < n; j++) {
		unsigned __int128 e = 0;

		for (size_t i = j * m; i < (j + 1) * m && i < b->n; i++)
			e += b->e[i];
		b->e[j] = e;
	}
	b->n = n;
	b->ns = ns;
}

/*
 * The activations the machine has not woken yet hold no result: a run
 * writes those it places, and an earlier run from a later state may have
 * placed one this run finds its task still runnable for.
 */
static void pending_reset(struct fs_sim_resumer *z, const struct sim *s)
{
	for (int ti = 0; ti < s->wl->nr_tasks; ti++)
		for (__u32 i = s->task[ti].woken; i < s->wl->tasks[ti].nr_act; i++) {
			const __u32 ai = s->wl->tasks[ti].first_act + i;

			z->act_cpu[ai] = -1;
			z->act_how[ai] = -1;
			z->act_util[ai] = 0;
			if (z->act_dec)
				z->act_dec[ai] = sim_act_dec_none();
		}
}

/* The machine to run wl on: the latest kept state, or a new one at t0. */
static int start(struct fs_sim_resumer *z, const struct fs_sim_workload *wl, struct sim *s,
		 struct fs_sim_result *r, char *err, size_t errlen)
{
	if (z->nr_k) {
		const struct kept *k = &z->k[z->nr_k - 1];

		if (machine_copy(&k->s, &k->r, wl->nr_tasks, s, r)) {
			snprintf(err, errlen, "simulation: out of memory for %d tasks", wl->nr_tasks);
			return -1;
		}
		s->wl = wl;
		s->p = &z->p;
		s->em = &z->em;
		s->r = r;
		for (int i = 0; i < wl->nr_tasks; i++)
			s->task[i].t = &wl->tasks[i];
		blocks_widen(&s->lp.blk, z->p.block_ns);
	} else {
		const int rc = sim_setup(s, wl, &z->p, r, err, errlen);

		free(r->act_cpu); /* its own per-activation arrays: the resumer's are used */
		free(r->act_how);
		free(r->act_util);
		free(r->act_dec);
		r->act_cpu = NULL, r->act_how = NULL, r->act_util = NULL, r->act_dec = NULL;
		if (s->own_pol)
			fs_policy_fini(&s->pol);
		if (rc)
			return -1;
		s->pol = z->pol;
		s->own_pol = false;
		s->lp.next_tick = s->tick_ns;
		s->lp.blk.ns = z->p.block_ns;
		z->st.from_start++;
	}
	pending_reset(z, s);
	r->act_cpu = z->act_cpu;
	r->act_how = z->act_how;
	r->act_util = z->act_util;
	r->act_dec = z->act_dec;
	if (sim_loop_events(s)) {
		snprintf(err, errlen, "simulation: out of memory for %llu activations", (unsigned long long)wl->nr_acts);
		return -1;
	}
	return 0;
}

/* The result's own copies of the per-activation arrays. */
static int acts_out(const struct fs_sim_resumer *z, struct fs_sim_result *r)
{
	const size_t n = (size_t)z->nr_acts + 1;

	r->act_cpu = malloc(n * sizeof(*r->act_cpu));
	r->act_how = malloc(n);
	r->act_util = malloc(n * sizeof(*r->act_util));
	r->act_dec = z->act_dec ? malloc(n * sizeof(*r->act_dec)) : NULL;
	if (!r->act_cpu || !r->act_how || !r->act_util || (z->act_dec && !r->act_dec))
		return -1;
	memcpy(r->act_cpu, z->act_cpu, n * sizeof(*r->act_cpu));
	memcpy(r->act_how, z->act_how, n);
	memcpy(r->act_util, z->act_util, n * sizeof(*r->act_util));
	if (z->act_dec)
		memcpy(r->act_dec, z->act_dec, n * sizeof(*r->act_dec));
	return 0;
}

int fs_sim_resumer_run(struct fs_sim_resumer *z, const struct fs_sim_workload *wl, __u64 changed,
		       const struct fs_sim_params *p, struct fs_sim_result *r, char *err, size_t errlen)
{
	struct sim *s = NULL;
	struct fs_sim_result w = { 0 };
	int ret = -1;

	memset(r, 0, sizeof(*r));
	if (sim_check(wl, p, err, errlen) || settings(z, p, err, errlen))
		return -1;
	z->p = *p;
	z->p.em = &z->em;
	drop_invalid(z, wl->end_ns ? changed : 0, p->block_ns);
	if (acts_adopt(z, wl, p->keep_decisions) || !(s = calloc(1, sizeof(*s)))) {
		snprintf(err, errlen, "simulation: out of memory for %llu activations", (unsigned long long)wl->nr_acts);
		goto out;
	}
	if (start(z, wl, s, &w, err, errlen))
		goto out;
	const __u64 from = s->now;

	z->next_keep = 0;
	if (sim_loop_run(s, at_top, z) || sim_loop_blocks_result(s)) {
		snprintf(err, errlen, "simulation: out of memory for %llu activations", (unsigned long long)wl->nr_acts);
		goto out;
	}
	sim_results(s, &w);
	z->st.runs++;
	z->st.sim_ns += s->now - from;
	z->st.whole_ns += s->now;
	*r = w;
	w.task = NULL;
	w.block_energy = NULL;
	if (acts_out(z, r)) {
		fs_sim_result_free(r);
		snprintf(err, errlen, "simulation: out of memory for %llu activations", (unsigned long long)wl->nr_acts);
		goto out;
	}
	ret = 0;
out:
	if (s)
		machine_free(s, &w);
	free(s);
	if (ret)
		drop_from(z, 0); /* its arrays may be half-way: the next run starts afresh */
	return ret;
}

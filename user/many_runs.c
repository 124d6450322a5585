// SPDX-License-Identifier: GPL-2.0
/* feecscope report's engine (many_runs.h): replay many recordings on threads, group, combine. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "many_runs.h"
#include "run_opts.h"
#include "cli.h"
#include "pipeline.h"
#include "em/em_io.h"
#include "engine/apps.h"
#include "engine/verdict.h"
#include "sim/compare.h"
#include "run.h"
#include "output/verdict_lead.h"
#include "source/source.h"

/* ---- one recording ---- */

/*
 * fJ of a simulated energy (EM unit x s), as fs_verdict_lead() converts the
 * interval: none (0) for a bogoWatt EM, whose power has no unit (replay says
 * "bogo-J" and JSON null there).
 */
static fs_fj_t fj_of(const struct fs_em *em, double e)
{
	return (fs_fj_t)llround(e * 1e9 * (double)fs_sim_fj_per_unit_ns(em));
}

/* A trace's CPU rails against the EM for its traced busy time (summary_rails.c's first figures). */
static void keep_rails(struct fs_run_result *r, const struct fs_report *rep)
{
	const struct fs_sim_report *s = rep->sim;
	struct fs_sim_rails_sum sum;
	double em = 0;

	fs_sim_rails_sum(&s->trace.rails, &sum);
	if (!s->trace.has_rails || !sum.covered || isnan(fs_sim_mj_per_unit(rep->em)))
		return;
	for (int pd = 0; pd < rep->em->nr_pd && pd < FS_MAX_PDS; pd++)
		em += s->tcheck.energy_traced[pd] * fs_sim_mj_per_unit(rep->em);
	r->has_rails = true;
	r->rails_full = sum.full == sum.cpu;
	r->rails_measured = r->rails_full ? sum.mj : sum.mw;
	r->rails_em = r->rails_full ? em : em / ((double)s->trace.rails.window_ns / 1e9);
}

/*
 * A trace has no records: its verdict and processes are the closed-loop
 * simulation's (no interval: the simulation gives none yet). A bogoWatt EM
 * gives it no energy in mJ: the row says so and keeps no verdict.
 */
static int keep_trace(struct fs_run_result *r, const struct fs_report *rep, char *err, size_t errlen)
{
	const struct fs_sim_report *s = rep->sim;
	const struct fs_sim_answer *a = &s->answer;
	const bool ran = s->ran && fs_sim_fj_per_unit_ns(rep->em);

	r->wakeups = s->activations;
	r->no_unit = !fs_sim_fj_per_unit_ns(rep->em);
	r->has_verdict = false; /* the per-decision one keep_finish saw: a trace has no decisions */
	if (ran)
		r->cpu_fj = fj_of(rep->em, a->energy[a->ref]);
	if (ran && a->nr_verdicts) {
		r->has_verdict = true;
		snprintf(r->policy, sizeof(r->policy), "%s", rep->st->pol[a->v[0].pol].desc->name);
		snprintf(r->twin, sizeof(r->twin), "%s", rep->st->pol[a->v[0].twin].desc->name);
		r->delta_fj = r->lo_fj = r->hi_fj = fj_of(rep->em, a->v[0].delta);
	}
	r->procs = calloc(a->nr_procs ? a->nr_procs : 1, sizeof(*r->procs));
	if (!r->procs) {
		snprintf(err, errlen, "%s: out of memory", r->path);
		return -1;
	}
	r->nr_procs = ran ? a->nr_procs : 0;
	if (ran)
		keep_rails(r, rep);
	for (size_t i = 0; i < r->nr_procs; i++) {
		memcpy(r->procs[i].comm, a->procs[i].comm, FS_COMM_LEN);
		r->procs[i].runtime_ns = a->procs[i].rec_cpu_ns;
		r->procs[i].delta_fj = a->nr_verdicts ? fj_of(rep->em, a->procs[i].delta[0]) : 0;
	}
	return 0;
}

/*
 * What groups an app across recordings: its package names (all of them, for
 * a shared uid) and Android user, FNV-1a. Not the uid: a package's app id
 * differs between devices (PackageManager hands them out at install). 0 =
 * no app.
 */
static __u64 app_key(const struct fs_apps *a, __u32 uid)
{
	size_t n, at = fs_apps_find(a, uid, &n);
	__u64 h = 1469598103934665603ull ^ (uid / FS_PER_USER_RANGE);

	if (!n)
		return 0;
	for (size_t k = 0; k < n; k++)
		for (const char *c = a->pkgs[at + k].name;; c++) { /* each name with its NUL */
			h = (h ^ (unsigned char)*c) * 1099511628211ull;
			if (!*c)
				break;
		}
	return h ? h : 1;
}

/* A process's app: its label and key from uid, none where uid is no app's. */
static void set_app(struct fs_run_proc *p, const struct fs_apps *a, __u32 uid)
{
	fs_apps_label(a, uid, p->app, sizeof(p->app));
	p->app_key = p->app[0] ? app_key(a, uid) : 0;
}

/* The per-decision processes, each with its share of the per-decision verdict. */
static void keep_decision_procs(struct fs_run_result *r, const struct fs_report *rep)
{
	r->nr_procs = rep->nr_procs;
	for (size_t i = 0; i < rep->nr_procs; i++) {
		const struct fs_process *g = &rep->procs[i];

		memcpy(r->procs[i].comm, g->comm, FS_COMM_LEN);
		set_app(&r->procs[i], rep->apps, g->uid);
		r->procs[i].wakeups = g->wakeups;
		r->procs[i].runtime_ns = g->runtime_ns;
		r->procs[i].delta_fj = rep->nr_verdicts ? g->delta_fj[0] : 0;
	}
}

/* The simulation's processes: their shares sum to the closed-loop verdict the run's row shows. */
static void keep_sim_procs(struct fs_run_result *r, const struct fs_report *rep)
{
	const struct fs_sim_answer *a = &rep->sim->answer;
	const __s64 f = fs_sim_fj_per_unit_ns(rep->em);

	r->nr_procs = a->nr_procs;
	for (size_t i = 0; i < a->nr_procs; i++) {
		const struct fs_sim_process *p = &a->procs[i];

		memcpy(r->procs[i].comm, p->comm, FS_COMM_LEN);
		r->procs[i].runtime_ns = p->rec_cpu_ns;
		r->procs[i].delta_fj = (fs_fj_t)p->delta_x[0] * f;
		r->procs[i].wakeups = 0;
		for (size_t k = 0; k < rep->nr_procs; k++)
			if (rep->procs[k].tgid == p->tgid) {
				r->procs[i].wakeups = rep->procs[k].wakeups;
				set_app(&r->procs[i], rep->apps, rep->procs[k].uid);
			}
	}
}

/*
 * The time-block sums of the verdict that leads, in fJ, which report's groups
 * resample (one interval method): the closed loop's paired block differences
 * (sim/interval.c), else the per-decision verdict's blocks. 0, or -1 out of memory.
 */
static int keep_blocks(struct fs_run_result *r, const struct fs_report *rep, bool sim, const struct fs_verdict *V)
{
	const struct fs_sim_verdict *S = sim ? &rep->sim->answer.v[0] : NULL;
	size_t n = S ? (S->block_delta ? S->blocks : 0) : V->units;

	r->blocks = malloc((n ? n : 1) * sizeof(*r->blocks));
	if (!r->blocks)
		return -1;
	r->nr_blocks = n;
	for (size_t i = 0; i < n; i++)
		r->blocks[i] = S ? fj_of(rep->em, S->block_delta[i]) : rep->blocks0[i];
	return 0;
}

/* The output that keeps what report needs from a run's final report: the verdict that leads (verdict_lead.h). */
static int keep_finish(void *self, const struct fs_report *rep, char *err, size_t errlen)
{
	struct fs_run_result *r = self;
	bool sim = false;

	r->wakeups = rep->st->wakeups;
	r->span_ns = rep->span_ns;
	r->cpu_fj = rep->cpu.total_fj;
	snprintf(r->em, sizeof(r->em), "%s", rep->em->source);
	if (rep->nr_verdicts) {
		struct fs_verdict V;
		const char *why;

		sim = fs_verdict_lead(rep, 0, &V, &why);
		r->has_verdict = true;
		snprintf(r->policy, sizeof(r->policy), "%s", rep->st->pol[V.pol].desc->name);
		snprintf(r->twin, sizeof(r->twin), "%s", rep->st->pol[V.twin].desc->name);
		r->delta_fj = V.delta_fj;
		r->lo_fj = V.lo_fj;
		r->hi_fj = V.hi_fj;
		r->has_ci = fs_verdict_has_interval(&V);
		r->measurable = V.measurable;
		if (sim && r->has_ci && rep->sim->answer.v[0].df) {
			const size_t df = rep->sim->answer.v[0].df;
			const double sd = ((double)r->hi_fj - (double)r->lo_fj) / 2 / fs_sim_t975(df);

			r->ci_var = sd * sd;
			r->ci_df = df;
		}
		if (keep_blocks(r, rep, sim, &V)) {
			snprintf(err, errlen, "%s: out of memory", r->path);
			return -1;
		}
	}
	if (rep->sim && rep->sim->from_trace) { /* no records: the trace's activations and simulated energy */
		if (!sim)
			return keep_trace(r, rep, err, errlen);
		r->wakeups = rep->sim->activations;
		r->cpu_fj = fj_of(rep->em, rep->sim->answer.energy[rep->sim->answer.ref]);
		keep_rails(r, rep);
	}
	size_t n = sim ? rep->sim->answer.nr_procs : rep->nr_procs;

	r->procs = calloc(n ? n : 1, sizeof(*r->procs));
	if (!r->procs) {
		snprintf(err, errlen, "%s: out of memory", r->path);
		return -1;
	}
	if (sim)
		keep_sim_procs(r, rep);
	else
		keep_decision_procs(r, rep);
	return 0;
}

static void keep_free(void *self)
{
	(void)self;
}

static const struct fs_output_ops keep_ops = { .finish = keep_finish, .free = keep_free };

/* The pipeline of r's source: its kernel's policy and the twin, the one output keeping the result. */
static struct fs_pipeline *pipeline_for(struct fs_run_result *r, const struct fs_source *s, const struct fs_em *em,
					const struct fs_apps *apps, char *err, size_t errlen)
{
	struct fs_pipeline_opts o = { 0 };
	char why[400];

	snprintf(r->kernel_release, sizeof(r->kernel_release), "%s", s->meta.kernel_release);
	/* the default pair, as `replay` picks it: the release's policy and its twin */
	const struct fs_policy_desc *d = fs_policy_for_release(s->meta.kernel_release, why, sizeof(why));
	o.policies[o.nr_policies++] = d;
	if (d->twin && fs_policy_find(d->twin))
		o.policies[o.nr_policies++] = fs_policy_find(d->twin);
	o.em = em;
	static const struct fs_run_opts recorded_only; /* report has no --sim-* options: the recording's */
	fs_run_sim_settings(&recorded_only, &s->meta, em, &o.sim_settings);
	o.emulate_eas = !s->meta.em_is_kernel || fs_source_is_trace(s);
	o.kernel_release = r->kernel_release;
	o.apps = apps;
	if (fs_source_is_trace(s)) /* no release in a trace: the reference stands for its kernel (as replay) */
		o.sim_kernel_policy = d;
	o.outputs[0] = (struct fs_output){ .ops = &keep_ops, .self = r };
	o.nr_outputs = 1;
	return fs_pipeline_new(&o, err, errlen);
}

/* em: the trace's EM from em_spec (report --em). 0, or -1 with err. */
static int trace_em(struct fs_run_result *r, struct fs_source *s, const char *em_spec, struct fs_em *em,
		    char *err, size_t errlen)
{
	char why[400];

	if (!em_spec) {
		snprintf(err, errlen, "%s: a trace (%s) carries no EM: give report --em", r->path, s->format);
		return -1;
	}
	if (fs_em_load(em_spec, em, why, sizeof(why))) {
		snprintf(err, errlen, "--em %s: %s", em_spec, why);
		return -1;
	}
	return fs_source_prepare(s, em, FS_SIM_DEVICE, err, errlen);
}

/*
 * r's apps: --packages' for every recording (an empty file: none, as
 * replay), else the list the recording kept (version 5, or a records CSV's
 * "# package:" lines), parsed into own; r says which. *apps NULL: no app
 * (no list, or an empty one). 0, or -1 with err naming the file and the
 * list's line.
 */
static int run_apps(struct fs_run_result *r, const struct fs_source *s, struct fs_apps *own,
		    const struct fs_apps **apps, char *err, size_t errlen)
{
	char name[600];

	*apps = r->apps && r->apps->nr ? r->apps : NULL; /* --packages EMPTY: no app, as replay */
	if (!r->apps && s->meta.packages_text) {
		snprintf(name, sizeof(name), "%s: its packages list", r->path);
		if (fs_apps_parse(own, s->meta.packages_text, s->meta.packages_len, name, err, errlen))
			return -1;
		snprintf(own->from, sizeof(own->from), "the recording's own list");
		*apps = own->nr ? own : NULL;
	}
	if (*apps) {
		snprintf(r->apps_from, sizeof(r->apps_from), "%s", (*apps)->from);
		r->nr_packages = (*apps)->nr;
	}
	return 0;
}

static void replay_one(struct fs_run_result *r, const char *em_spec)
{
	struct fs_source s = { 0 };
	struct fs_em *em = calloc(1, sizeof(*em));
	struct fs_pipeline *p = NULL;
	struct fs_apps own = { 0 };
	const struct fs_apps *apps;
	struct fs_run_status st;
	char err[512] = "", why[400];

	if (!em) {
		snprintf(r->error, sizeof(r->error), "%s: out of memory", r->path);
		return;
	}
	if (fs_source_open_file(&s, r->path, NULL, err, sizeof(err)))
		goto fail;
	if (fs_source_is_trace(&s)) {
		if (trace_em(r, &s, em_spec, em, err, sizeof(err)))
			goto fail;
	} else if (!s.meta.em_text) {
		snprintf(err, sizeof(err), "%s: no EM in the file (report replays only files that carry theirs)",
			 r->path);
		goto fail;
	} else if (fs_em_parse_text(s.meta.em_text, s.meta.em_len, r->path, em, why, sizeof(why))) {
		snprintf(err, sizeof(err), "%s: embedded EM: %s", r->path, why);
		goto fail;
	}
	if (run_apps(r, &s, &own, &apps, err, sizeof(err)) || !(p = pipeline_for(r, &s, em, apps, err, sizeof(err))))
		goto fail;
	/* like replay: what replayed before a damage still counts, and the error says where */
	if (fs_run(p, &s, NULL, &st)) {
		snprintf(err, sizeof(err), "%.*s", (int)sizeof(err) - 1, st.read_rc ? st.read_err : st.finish_err);
		r->partial = r->procs != NULL;
		goto fail;
	}
	goto out;
fail:
	snprintf(r->error, sizeof(r->error), "%s", err[0] ? err : "failed");
out:
	fs_pipeline_free(p);
	fs_apps_free(&own);
	fs_source_close(&s);
	free(em);
}

/* ---- the workers ---- */

struct pool {
	struct fs_run_result *runs;
	size_t n, next, done;
	pthread_mutex_t lock;
	fs_many_progress_fn progress;
	void *ctx;
	const char *em_spec;
};

static void *worker(void *arg)
{
	struct pool *pl = arg;

	for (;;) {
		pthread_mutex_lock(&pl->lock);
		size_t i = pl->next < pl->n ? pl->next++ : pl->n;
		pthread_mutex_unlock(&pl->lock);
		if (i == pl->n)
			return NULL;
		replay_one(&pl->runs[i], pl->em_spec);
		pthread_mutex_lock(&pl->lock);
		pl->done++;
		if (pl->progress)
			pl->progress(pl->ctx, pl->done, pl->n);
		pthread_mutex_unlock(&pl->lock);
	}
}

/* ---- grouping ---- */

/*
 * Where every recording's verdict in idx[0..k) is the closed loop's, their
 * intervals are summed as their rows have them (sim/interval.c: batch means
 * with the replicas' spread): independent recordings' variances add, t at
 * Welch-Satterthwaite's degrees of freedom, so a group of one recording
 * shows that recording's interval. Resampling their blocks instead would
 * drop the replicas' share (a recording whose blocks all agree would get a
 * point interval beside its row's). -1: not every one is (t untouched).
 */
static int sum_sim_intervals(const struct fs_many *m, const size_t *idx, size_t k, struct fs_runs_total *t)
{
	double var = 0, den = 0;
	size_t df1 = 0;

	for (size_t j = 0; j < k; j++) {
		const struct fs_run_result *r = &m->runs[idx[j]];

		if (!r->has_verdict)
			continue;
		if (!r->ci_df)
			return -1;
		var += r->ci_var;
		den += r->ci_var * r->ci_var / (double)r->ci_df;
		df1 = r->ci_df;
	}
	if (!df1)
		return -1;
	const double h = fs_sim_t975(fs_sim_welch_df(var * var, den, df1)) * sqrt(var);

	t->lo_fj = t->delta_fj - (fs_fj_t)h;
	t->hi_fj = t->delta_fj + (fs_fj_t)h;
	t->sim_ci = true;
	return 0;
}

/*
 * Sum the runs in idx[0..k) into t. The interval: the closed loop's summed
 * (sum_sim_intervals), else each recording's time blocks resampled within
 * itself (fs_bootstrap_strata), the method of the per-decision rows: either
 * way a group of one recording shows the row's interval. -1: out of memory.
 */
static int total(const struct fs_many *m, const size_t *idx, size_t k, struct fs_runs_total *t)
{
	const fs_fj_t **units = calloc(k ? k : 1, sizeof(*units));
	size_t *n = calloc(k ? k : 1, sizeof(*n)), ns = 0, nb = 0;

	if (!units || !n) {
		free(units);
		free(n);
		return -1;
	}
	for (size_t j = 0; j < k; j++) {
		const struct fs_run_result *r = &m->runs[idx[j]];

		if (!r->has_verdict)
			continue;
		t->recordings++;
		t->wakeups += r->wakeups;
		t->span_ns += r->span_ns;
		t->cpu_fj += r->cpu_fj;
		t->delta_fj += r->delta_fj;
		units[ns] = r->blocks;
		nb += n[ns++] = r->nr_blocks;
	}
	if (sum_sim_intervals(m, idx, k, t))
		fs_bootstrap_strata(units, n, ns, FS_BOOTSTRAP_ROUNDS, &t->lo_fj, &t->hi_fj);
	/*
	 * A sum is only as known as its least known part: an interval where
	 * every recording has one (fs_verdict_has_interval: enough blocks to
	 * resample), as the rows show.
	 */
	t->has_ci = ns > 0 && nb >= FS_VERDICT_MIN_UNITS;
	for (size_t j = 0; j < k; j++)
		t->has_ci &= !m->runs[idx[j]].has_verdict || m->runs[idx[j]].has_ci;
	t->measurable = t->has_ci && (t->lo_fj > 0 || t->hi_fj < 0);
	free(units);
	free(n);
	return 0;
}

/* What a process is summed under: its app (by package names), else its comm; apps first. */
static int cmp_group(const void *a, const void *b)
{
	const struct fs_run_proc *x = a, *y = b;

	if (!x->app[0] != !y->app[0])
		return x->app[0] ? -1 : 1;
	if (x->app[0])
		return x->app_key < y->app_key ? -1 : x->app_key > y->app_key;
	return strncmp(x->comm, y->comm, FS_COMM_LEN);
}

/* Largest |delta| first, then apps, then by label or comm: the order shown. */
static int cmp_proc(const void *a, const void *b)
{
	const struct fs_run_proc *x = a, *y = b;
	fs_fj_t ax = x->delta_fj < 0 ? -x->delta_fj : x->delta_fj, ay = y->delta_fj < 0 ? -y->delta_fj : y->delta_fj;
	int c;

	if (ax != ay)
		return ax > ay ? -1 : 1;
	if (!x->app[0] != !y->app[0])
		return x->app[0] ? -1 : 1;
	if ((c = x->app[0] ? strcmp(x->app, y->app) : 0))
		return c;
	return cmp_group(a, b);
}

/*
 * One app's label for all recordings: a shared uid's label names its uid
 * ("shared:uid 10123 (a, b)"), which differs between devices while the
 * packages are the same; then "shared:uids (a, b)", no longer than it.
 */
static void same_label(struct fs_run_proc *into, const struct fs_run_proc *p)
{
	const char *names = strchr(into->app, '(');
	char buf[FS_APP_LABEL];

	if (!strcmp(into->app, p->app) || strncmp(into->app, "shared:uid ", 11) || !names)
		return;
	snprintf(buf, sizeof(buf), "shared:uids %s", names);
	memcpy(into->app, buf, sizeof(buf));
}

/*
 * Every recording's processes summed by name, tgids differing between runs:
 * an app's (all its processes) by its package names, any other by comm.
 */
static int merge_procs(struct fs_many *m)
{
	size_t np = 0, k = 0;

	for (size_t i = 0; i < m->nr_runs; i++)
		np += m->runs[i].has_verdict ? m->runs[i].nr_procs : 0;
	struct fs_run_proc *all = calloc(np ? np : 1, sizeof(*all));
	if (!all)
		return -1;
	for (size_t i = 0; i < m->nr_runs; i++)
		if (m->runs[i].has_verdict)
			for (size_t j = 0; j < m->runs[i].nr_procs; j++)
				all[k++] = m->runs[i].procs[j];
	qsort(all, np, sizeof(*all), cmp_group);
	k = 0;
	for (size_t i = 0; i < np; i++) {
		if (k && !cmp_group(&all[k - 1], &all[i])) {
			all[k - 1].wakeups += all[i].wakeups;
			all[k - 1].runtime_ns += all[i].runtime_ns;
			all[k - 1].delta_fj += all[i].delta_fj;
			same_label(&all[k - 1], &all[i]);
		} else {
			all[k++] = all[i];
		}
	}
	qsort(all, k, sizeof(*all), cmp_proc);
	m->procs = all;
	m->nr_procs = k;
	return 0;
}

/* ---- mixing devices ---- */

/* FNV-1a over the EM's numbers: its text without comments, "source" and "kernel" lines (how it was read). */
static __u64 em_hash(const char *t, size_t len)
{
	__u64 h = 1469598103934665603ull;

	for (size_t i = 0; i < len;) {
		size_t e = i;

		while (e < len && t[e] != '\n')
			e++;
		bool skip = t[i] == '#' || !strncmp(t + i, "source", 6) || !strncmp(t + i, "kernel", 6);

		for (size_t j = i; !skip && j < e; j++)
			h = (h ^ (unsigned char)t[j]) * 1099511628211ull;
		i = e + 1;
	}
	return h;
}

/* The EM's source line, for saying which EMs differ. */
static void em_source(const char *t, char *out, size_t len)
{
	const char *s = t ? strstr(t, "\nsource ") : NULL;

	/* its first part names it: "profile pixel4", "debugfs /sys/kernel/debug/energy_model" */
	size_t n = s ? strcspn(s + 8, "\n:;(") : 1;

	snprintf(out, len, "%.*s", (int)(n > 48 ? 48 : n), s ? s + 8 : "?");
}

int fs_many_mixed(const char *const *paths, size_t n, char *why, size_t len)
{
	char first_src[128] = "";
	const char *first = NULL;
	__u64 first_h = 0;
	int first_cpus = 0;

	for (size_t i = 0; i < n; i++) {
		struct fs_source s = { 0 };
		char err[512];

		if (fs_source_open_file(&s, paths[i], NULL, err, sizeof(err)) || !s.meta.em_text) {
			fs_source_close(&s); /* the replay says what is wrong with it */
			continue;
		}
		__u64 h = em_hash(s.meta.em_text, s.meta.em_len);
		int cpus = s.meta.nr_cpus;
		char src[128];

		em_source(s.meta.em_text, src, sizeof(src));
		fs_source_close(&s);
		if (!first) {
			first = paths[i];
			first_h = h;
			first_cpus = cpus;
			snprintf(first_src, sizeof(first_src), "%s", src);
		} else if (cpus != first_cpus) {
			snprintf(why, len, "%s and %s: recorded on %d and %d CPUs", first, paths[i], first_cpus, cpus);
			return 1;
		} else if (h != first_h) {
			snprintf(why, len, "%s and %s: different Energy Models (%s; %s)", first, paths[i],
				 first_src, src);
			return 1;
		}
	}
	return 0;
}

int fs_many_run(const char *const *paths, size_t n, int threads, const struct fs_apps *apps, const char *em_spec,
		fs_many_progress_fn progress, void *ctx, struct fs_many *out)
{
	memset(out, 0, sizeof(*out));
	out->runs = calloc(n ? n : 1, sizeof(*out->runs));
	size_t *idx = calloc(n ? n : 1, sizeof(*idx));
	if (!out->runs || !idx)
		goto oom;
	out->nr_runs = n;
	for (size_t i = 0; i < n; i++) {
		out->runs[i].path = paths[i];
		out->runs[i].apps = apps;
	}

	struct pool pl = { .runs = out->runs, .n = n, .progress = progress, .ctx = ctx, .em_spec = em_spec };
	pthread_mutex_init(&pl.lock, NULL);
	if (threads <= 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);
		threads = c > 0 ? (int)c : 1;
	}
	if ((size_t)threads > n)
		threads = n ? (int)n : 1;
	pthread_t *tid = calloc((size_t)threads, sizeof(*tid));
	int started = 0;
	for (int t = 0; tid && t < threads; t++)
		if (!pthread_create(&tid[t], NULL, worker, &pl))
			started++;
	if (!started)
		worker(&pl); /* no threads to be had: do it here */
	for (int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	free(tid);
	pthread_mutex_destroy(&pl.lock);

	/* groups: same EM and kernel release, in order of first appearance */
	out->groups = calloc(n ? n : 1, sizeof(*out->groups));
	if (!out->groups)
		goto oom;
	bool *placed = calloc(n ? n : 1, sizeof(*placed));
	if (!placed)
		goto oom;
	for (size_t i = 0; i < n; i++) {
		const struct fs_run_result *r = &out->runs[i];
		size_t k = 0;

		if (placed[i] || !r->has_verdict)
			continue;
		for (size_t j = i; j < n; j++)
			if (!placed[j] && out->runs[j].has_verdict && !strcmp(out->runs[j].em, r->em) &&
			    !strcmp(out->runs[j].kernel_release, r->kernel_release)) {
				placed[j] = true;
				idx[k++] = j;
			}
		struct fs_runs_total *g = &out->groups[out->nr_groups++];
		g->em = r->em;
		g->kernel_release = r->kernel_release;
		if (total(out, idx, k, g)) {
			free(placed);
			goto oom;
		}
	}
	free(placed);
	for (size_t i = 0; i < n; i++) {
		idx[i] = i;
		out->by_app |= out->runs[i].apps_from[0] != 0;
	}
	if (total(out, idx, n, &out->all) || merge_procs(out))
		goto oom;
	free(idx);
	return 0;
oom:
	free(idx);
	fs_many_free(out);
	return -1;
}

int fs_many_write(const struct fs_many *m, struct fs_output *outs, int n, const char *cmd)
{
	char err[512];
	int rc = 0;

	for (int i = 0; i < n; i++) {
		if (outs[i].ops->many && outs[i].ops->many(outs[i].self, m, err, sizeof(err))) {
			fs_cli_error(cmd, "%s", err);
			rc = -1;
		}
		outs[i].ops->free(outs[i].self);
	}
	return rc;
}

void fs_many_free(struct fs_many *m)
{
	for (size_t i = 0; m->runs && i < m->nr_runs; i++) {
		free(m->runs[i].procs);
		free(m->runs[i].blocks);
	}
	free(m->runs);
	free(m->groups);
	free(m->procs);
	memset(m, 0, sizeof(*m));
}

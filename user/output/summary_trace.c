// SPDX-License-Identifier: GPL-2.0
/*
 * The summary's trace lines (docs/traces.md): what the trace held, what was
 * reconstructed or assumed where it is silent, and the simulation of the
 * traced kernel's policy against its placements and OPP residency. Every
 * line fits 80 columns (the summary's wrapper).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "summary_trace.h"
#include "summary_sim.h"
#include "summary_rails.h"
#include "../filter.h"

typedef void (*wrap_fn)(FILE *, const char *, const char *, int);

/* A CPU mask as "0-3,6". */
static void fmt_cpus(char *buf, size_t len, __u64 mask)
{
	size_t n = 0;

	buf[0] = 0;
	for (int c = 0; c < 64 && n < len; c++) {
		if (!(mask >> c & 1) || (c && mask >> (c - 1) & 1))
			continue;
		int e = c;

		while (e < 63 && mask >> (e + 1) & 1)
			e++;
		n += (size_t)snprintf(buf + n, len - n, "%s%d", n ? "," : "", c);
		if (e > c && n < len)
			n += (size_t)snprintf(buf + n, len - n, "-%d", e);
	}
}

static void print_held(FILE *out, const struct fs_sim_trace_inputs *t, wrap_fn wrap)
{
	char text[400], other[96] = "";

	if (t->unknown_events)
		snprintf(other, sizeof(other), "; %llu of other kinds skipped (first %s)",
			 (unsigned long long)t->unknown_events, t->first_unknown);
	snprintf(text, sizeof(text), "%s, %llu events: sched_switch %llu, wake-ups %llu, sched_migrate_task %llu, "
		 "cpu_frequency %llu%s%s", t->format, (unsigned long long)t->events,
		 (unsigned long long)t->switch_events, (unsigned long long)t->wake_events,
		 (unsigned long long)t->migrate_events, (unsigned long long)t->freq_events, other,
		 t->lost_events ? "; events were lost" : "");
	wrap(out, "trace: ", text, 2);
}

static void print_reconstructed(FILE *out, const struct fs_sim_trace_inputs *t, wrap_fn wrap)
{
	char text[400], cpus[128];

	wrap(out, "  traced: ", "each task's CPU time, wake-ups, placements, forks and exits", 4);
	if (t->pelt_tasks) { /* LISA's sched_pelt_se / sched_util_est_se (trace_workload.c) */
		snprintf(text, sizeof(text), "PELT: %llu task%s start%s from %s sched_pelt_se / sched_util_est_se "
			 "(%llu events), carried on by the simulation", (unsigned long long)t->pelt_tasks,
			 t->pelt_tasks == 1 ? "" : "s", t->pelt_tasks == 1 ? "s" : "", t->pelt_tasks == 1 ? "its" : "their",
			 (unsigned long long)t->pelt_events);
		wrap(out, "  traced: ", text, 4);
		snprintf(text, sizeof(text), "PELT of the other tasks (util 0 at their first wake-up); affinity, "
			 "uclamp and uid unknown");
	} else {
		snprintf(text, sizeof(text), "PELT (every task starts at util 0: no sched_pelt_se or "
			 "sched_util_est_se of its own in the trace); affinity, uclamp and uid unknown");
	}
	wrap(out, "  reconstructed: ", text, 4);
	if (t->rq_traced_cpus) { /* LISA's sched_pelt_cfs (trace_workload.c, on_cfs()) */
		fmt_cpus(cpus, sizeof(cpus), t->rq_traced_cpus);
		bool one = !(t->rq_traced_cpus & (t->rq_traced_cpus - 1));

		snprintf(text, sizeof(text), "rq PELT: CPU%s %s start%s from %s first sched_pelt_cfs (%llu events of "
			 "root cfs_rqs), carried on by the simulation", one ? "" : "s", cpus, one ? "s" : "",
			 one ? "its" : "their", (unsigned long long)t->cfs_events);
		wrap(out, "  traced: ", text, 4);
	}
	if (t->freq_assumed_cpus) {
		fmt_cpus(cpus, sizeof(cpus), t->freq_assumed_cpus);
		bool one = !(t->freq_assumed_cpus & (t->freq_assumed_cpus - 1));

		snprintf(text, sizeof(text), "%s: CPU%s %s ran %.3f ms at %s PD's top frequency",
			 t->freq_events ? "no cpu_frequency yet" : "no cpu_frequency events", one ? "" : "s", cpus,
			 (double)t->freq_assumed_ns / 1e6, one ? "its" : "their");
		wrap(out, "  assumed: ", text, 4);
	}
	if (t->tgid_assumed) {
		snprintf(text, sizeof(text), "%d task%s tgid = pid (no task_newtask, no tgid column)", t->tgid_assumed,
			 t->tgid_assumed == 1 ? "'s" : "s'");
		wrap(out, "  assumed: ", text, 4);
	}
}

static void print_check(FILE *out, const struct fs_report *r, wrap_fn wrap)
{
	const struct fs_sim_report *s = r->sim;
	const struct fs_sim_trace_check *c = &s->tcheck;
	char text[400];

	if (!s->has_check)
		return;
	if (isnan(c->agree_pct))
		snprintf(text, sizeof(text), "%s simulated: no wake-up placed by both", s->kernel_policy->name);
	else
		snprintf(text, sizeof(text), "%s simulated: on the traced CPU for %.1f %% of %llu wake-ups",
			 s->kernel_policy->name, c->agree_pct, (unsigned long long)c->placed);
	wrap(out, "  vs the trace: ", text, 4);
	for (int pd = 0; pd < c->nr_pd; pd++) {
		if (!c->opp_known[pd] || isnan(c->opp_pct[pd]))
			continue;
		snprintf(text, sizeof(text), "%.16s: %.1f %% of busy time at other OPPs than traced; mean %.0f MHz "
			 "simulated, %.0f traced", r->em->pd[pd].name, c->opp_pct[pd], c->mhz_sim[pd], c->mhz_obs[pd]);
		wrap(out, "  OPP residency ", text, 4);
	}
	if (c->util_n) { /* trace_check.c, pelt_apart() */
		snprintf(text, sizeof(text), "the simulated util_avg is %.1f from the traced on average "
			 "(simulated - traced %+.1f; traced %.0f of 1024) over %llu wake-ups", c->util_mad,
			 c->util_bias, c->util_traced_mean, (unsigned long long)c->util_n);
		wrap(out, "  PELT at the wake-up: ", text, 4);
	}
}

/* The self-check line (compare.h), which speaks of "the recording": here it is the trace. */
static void print_selfcheck(FILE *out, const struct fs_report *r, wrap_fn wrap)
{
	char text[256], line[300];
	const char *at;

	if (!r->sim->has_check)
		return;
	fs_sim_selfcheck_line(&r->sim->check, r->em, text, sizeof(text));
	at = strstr(text, "the recording");
	if (at)
		snprintf(line, sizeof(line), "%.*sthe trace%s", (int)(at - text), text, at + strlen("the recording"));
	else
		snprintf(line, sizeof(line), "%s", text);
	wrap(out, "", line, 4);
}

void fs_summary_trace(FILE *out, const struct fs_report *r, wrap_fn wrap)
{
	const struct fs_sim_report *s = r->sim;

	if (!s || !s->ran || !s->from_trace)
		return;
	print_selfcheck(out, r, wrap);
	print_held(out, &s->trace, wrap);
	print_reconstructed(out, &s->trace, wrap);
	print_check(out, r, wrap);
}

/* ---- the summary of a trace ---- */

/* E in mJ with its sign, or the EM's own unit x s for a bogoWatt EM. */
static void fmt_energy(char *buf, size_t len, const struct fs_em *em, double raw)
{
	double mj = raw * fs_sim_mj_per_unit(em);

	if (isnan(mj))
		snprintf(buf, len, "%+.6g bogo-J", raw);
	else
		snprintf(buf, len, "%+.3f mJ", mj);
}

/* The first lines: each margin's closed-loop cost, then the run's policies. */
static void print_verdicts(FILE *out, const struct fs_report *r, wrap_fn wrap)
{
	const struct fs_sim_report *s = r->sim;
	char d[48], text[256];

	if (!s->ran) {
		snprintf(text, sizeof(text), "no answer: the trace's workload was not simulated: %s", s->why);
		wrap(out, "", text, 2);
		return;
	}
	for (int v = 0; v < s->answer.nr_verdicts; v++) {
		const struct fs_sim_verdict *V = &s->answer.v[v];

		fmt_energy(d, sizeof(d), r->em, V->delta);
		snprintf(text, sizeof(text), "%s over %.3g s simulated (E(%s) - E(%s); no interval yet)", d,
			 (double)r->span_ns / 1e9, r->st->pol[V->pol].desc->name, r->st->pol[V->twin].desc->name);
		wrap(out, "margin costs ", text, 2);
	}
	if (!s->answer.nr_verdicts)
		wrap(out, "", "no margin policy among the policies: the simulated energies below", 2);
}

/* Whether --pid/--comm keep process p: its id or its comm (a copy of the filter: its counts stay the rows'). */
static bool proc_kept(const struct fs_report *r, const struct fs_sim_process *p)
{
	struct fs_filter f;

	if (!r->filter || !fs_filter_active(r->filter))
		return true;
	f = *r->filter;
	return p->tgid != FS_SIM_UNATTRIBUTED && fs_filter_keep(&f, p->tgid, p->tgid, p->comm);
}

/* The processes the simulation gave, by what the first margin costs them (compare.h). */
static void print_processes(FILE *out, const struct fs_report *r)
{
	const struct fs_sim_answer *a = &r->sim->answer;
	double k = fs_sim_mj_per_unit(r->em);
	size_t n = 0;

	fprintf(out, "%10s %-16s %3s %10s %12s %12s\n", "TGID", "COMM", "THR", "CPU ms", "ref mJ", "margin mJ");
	for (size_t i = 0; i < a->nr_procs && n < 10; i++) {
		const struct fs_sim_process *p = &a->procs[i];
		char tgid[16];

		if (!proc_kept(r, p))
			continue;
		n++;
		if (p->tgid == FS_SIM_UNATTRIBUTED)
			snprintf(tgid, sizeof(tgid), "-");
		else
			snprintf(tgid, sizeof(tgid), "%d", p->tgid);
		fprintf(out, "%10s %-16.16s %3d %10.1f %12.3f %+12.3f\n", tgid,
			p->tgid == FS_SIM_UNATTRIBUTED ? "(machine)" : p->comm, p->nr_threads,
			(double)p->rec_cpu_ns / 1e6, p->energy[a->ref] * k, a->nr_verdicts ? p->delta[0] * k : 0.0);
	}
	if (!n)
		fprintf(out, "  (none)\n");
}

/*
 * --pid/--comm on a trace: the simulated machine runs every task (as for a
 * recording's closed loop), so the verdict stays the whole workload's; the
 * filters pick the decision CSV's rows and the processes listed, and this
 * line gives the kept processes' share of the first margin's cost.
 */
static void print_filter(FILE *out, const struct fs_report *r, wrap_fn wrap)
{
	const struct fs_sim_answer *a = &r->sim->answer;
	char by[400], share[48] = "", text[640];
	double sum = 0;
	size_t kept = 0;

	if (!r->filter || !fs_filter_active(r->filter))
		return;
	fs_filter_describe(r->filter, by, sizeof(by));
	for (size_t i = 0; i < a->nr_procs; i++)
		if (proc_kept(r, &a->procs[i])) {
			kept++;
			sum += a->nr_verdicts ? a->procs[i].delta[0] : 0;
		}
	if (a->nr_verdicts)
		fmt_energy(share, sizeof(share), r->em, sum);
	snprintf(text, sizeof(text), "filtered (%s): %llu activations left out of the decision rows; "
		 "%zu processes kept%s%s; the verdict is every task's (all are simulated)", by,
		 (unsigned long long)r->st->filtered, kept, *share ? ", their share of the margin's cost " : "", share);
	wrap(out, "", text, 2);
}

void fs_summary_trace_print(FILE *out, const struct fs_report *r, wrap_fn wrap)
{
	char text[512];

	print_verdicts(out, r, wrap);
	if (r->head)
		wrap(out, "", r->head, 2);
	if (r->sim->ran)
		fs_summary_rails(out, r, wrap);
	fputc('\n', out);
	fprintf(out, "time: %.6f s (%llu .. %llu ns)\n", (double)r->span_ns / 1e9,
		(unsigned long long)r->st->first_ts, (unsigned long long)r->st->last_ts);
	snprintf(text, sizeof(text), "%s (%d CPUs, %d PDs)", r->em->source, r->em->nr_cpus, r->em->nr_pd);
	wrap(out, "EM: ", text, 4);
	wrap(out, "", "a trace has no per-wake-up PELT landscape: the answer is the closed-loop simulation's "
	     "alone (docs/traces.md)", 2);
	if (r->sim->ran)
		print_filter(out, r, wrap);
	fputc('\n', out);
	fs_summary_sim(out, r, wrap);
	wrap(out, "", "processes by |margin cost| in the simulation, + = the margin costs:", 2);
	print_processes(out, r);
}

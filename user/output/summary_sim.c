// SPDX-License-Identifier: GPL-2.0
/*
 * The summary's closed-loop block (docs/simulation.md): each margin's cost
 * as the difference of two simulations, each policy's simulated energy and
 * time cost, and the self-check line. Every line fits 80 columns.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "summary_sim.h"
#include "summary_trace.h"

static const char *physics_name(enum fs_sim_physics ph)
{
	return ph == FS_SIM_LAB ? "lab" : "device";
}

/* ns as ms with two decimals. */
static void fmt_ms(char *buf, size_t len, __u64 ns)
{
	snprintf(buf, len, "%.2f", (double)ns / 1e6);
}

/* An energy difference in mJ (or the EM's own unit x s for a bogoWatt EM) with its sign. */
static void fmt_delta(char *buf, size_t len, double mj, double raw)
{
	if (isnan(mj))
		snprintf(buf, len, "%+.6g bogo-J", raw);
	else
		snprintf(buf, len, "%+.3f mJ", mj);
}

static void print_policy_rows(FILE *out, const struct fs_report *r, const struct fs_sim_report *s)
{
	char wait[32], done[32], vs[32];

	fprintf(out, "  %-18s %11s %11s %15s %15s\n", "policy", "energy mJ", "vs ref mJ", "wait p50/p99 ms",
		"done p50/p99 ms");
	for (int i = 0; i < s->nr_policies; i++) {
		const struct fs_sim_policy_row *row = &s->pol[i];
		char name[40], p50[16], p99[16], q50[16], q99[16];

		snprintf(name, sizeof(name), "%s%s", r->st->pol[i].desc->name, i == s->answer.ref ? " (ref)" : "");
		fmt_ms(p50, sizeof(p50), row->wait_p50_ns);
		fmt_ms(p99, sizeof(p99), row->wait_p99_ns);
		fmt_ms(q50, sizeof(q50), row->done_p50_ns);
		fmt_ms(q99, sizeof(q99), row->done_p99_ns);
		snprintf(wait, sizeof(wait), "%s/%s", p50, p99);
		snprintf(done, sizeof(done), "%s/%s", q50, q99);
		snprintf(vs, sizeof(vs), "%+.3f", s->answer.vs_ref[i] * fs_sim_mj_per_unit(r->em));
		fprintf(out, "  %-18.18s %11.3f %11s %15s %15s\n", name, row->energy_mj, vs, wait, done);
	}
}

/* The verdict's line: its delta and interval, or why there is none. */
static void verdict_text(char *text, size_t len, const struct fs_report *r, const struct fs_sim_verdict *V)
{
	const double k = fs_sim_mj_per_unit(r->em);
	char d[48], lo[48], hi[48];

	fmt_delta(d, sizeof(d), V->delta * k, V->delta);
	if (isnan(V->lo)) {
		snprintf(text, len, "E(%s) - E(%s) = %s, no interval: %zu time blocks", r->st->pol[V->pol].desc->name,
			 r->st->pol[V->twin].desc->name, d, V->blocks);
		return;
	}
	fmt_delta(lo, sizeof(lo), V->lo * k, V->lo);
	fmt_delta(hi, sizeof(hi), V->hi * k, V->hi);
	char reps[32] = "";

	if (V->replicas)
		snprintf(reps, sizeof(reps), " and %u replicas", V->replicas);
	snprintf(text, len, "E(%s) - E(%s) = %s, 95%% interval %s .. %s (batch means over %zu time blocks of "
		 "%.2f s%s)", r->st->pol[V->pol].desc->name, r->st->pol[V->twin].desc->name, d, lo, hi, V->blocks,
		 (double)V->block_ns / 1e9, reps);
}

#define SIM_TOP_PROCS 10

/* The processes by |closed-loop cost| of the first verdict: their energy under both policies. */
static void print_processes(FILE *out, const struct fs_report *r, const struct fs_sim_report *s)
{
	const struct fs_sim_answer *a = &s->answer;
	const double k = fs_sim_mj_per_unit(r->em);

	if (!a->nr_verdicts || isnan(k))
		return;
	const struct fs_sim_verdict *V = &a->v[0];

	fprintf(out, "  processes by |closed-loop cost|, E(%s) - E(%s):\n", r->st->pol[V->pol].desc->name,
		r->st->pol[V->twin].desc->name);
	fprintf(out, "  %8s %-15s %4s %14s %14s %11s\n", "TGID", "COMM", "THR", "margin mJ", "twin mJ", "cost mJ");
	for (size_t i = 0; i < a->nr_procs && i < SIM_TOP_PROCS; i++) {
		const struct fs_sim_process *p = &a->procs[i];
		char comm[FS_COMM_LEN], tgid[16];
		int n = 0;

		for (; n < FS_COMM_LEN - 1 && p->comm[n]; n++)
			comm[n] = (unsigned char)p->comm[n] < 0x20 || (unsigned char)p->comm[n] >= 0x7f ? '?' : p->comm[n];
		comm[n] = 0;
		if (p->tgid == FS_SIM_UNATTRIBUTED)
			snprintf(tgid, sizeof(tgid), "-");
		else
			snprintf(tgid, sizeof(tgid), "%d", p->tgid);
		fprintf(out, "  %8s %-15s %4d %14.3f %14.3f %+11.3f\n", tgid, comm, p->nr_threads,
			p->energy[V->pol] * k, p->energy[V->twin] * k, p->delta[0] * k);
	}
}

/*
 * The machine's settings and where each came from: one rate limit when every
 * PD has the same from the same source, else one per PD; a PD whose recorded
 * governor is not schedutil is named (the simulation runs schedutil there).
 */
static void settings_text(char *buf, size_t len, const struct fs_report *r, const struct fs_sim_report *s)
{
	const struct fs_sim_settings *set = &s->set;
	bool same = true;
	size_t n;

	for (int pd = 1; pd < s->nr_pds; pd++)
		same = same && set->rate_limit_ns[pd] == set->rate_limit_ns[0] && set->rate_src[pd] == set->rate_src[0];
	n = (size_t)snprintf(buf, len, "HZ %u (%s), schedutil rate limit", set->hz, fs_sim_src_name(set->hz_src));
	for (int pd = 0; pd < (same ? 1 : s->nr_pds) && n < len; pd++) {
		char who[16] = "";

		if (!same)
			snprintf(who, sizeof(who), " cpu%d", fs_em_pd_first_cpu(&r->em->pd[pd]));
		n += (size_t)snprintf(buf + n, len - n, "%s%s %llu us (%s)", pd ? "," : "", who,
				      (unsigned long long)(set->rate_limit_ns[pd] / 1000), fs_sim_src_name(set->rate_src[pd]));
	}
	for (int pd = 0; pd < s->nr_pds && n < len; pd++)
		if (set->governor[pd][0] && strcmp(set->governor[pd], "schedutil"))
			n += (size_t)snprintf(buf + n, len - n, "; PD cpu%d ran %s, simulated as schedutil",
					      fs_em_pd_first_cpu(&r->em->pd[pd]), set->governor[pd]);
}

void fs_summary_sim(FILE *out, const struct fs_report *r, void (*wrap)(FILE *, const char *, const char *, int))
{
	const struct fs_sim_report *s = r->sim;
	char text[768], set[512];

	if (!s)
		return;
	if (!s->ran) {
		snprintf(text, sizeof(text), "not simulated: %s", s->why);
		wrap(out, "closed loop: ", text, 4);
		fputc('\n', out);
		return;
	}
	settings_text(set, sizeof(set), r, s);
	snprintf(text, sizeof(text), "the workload (%llu tasks, %llu activations) simulated under each policy, "
		 "%s physics, %s (docs/simulation.md)",
		 (unsigned long long)s->tasks, (unsigned long long)s->activations, physics_name(s->physics), set);
	wrap(out, "closed loop: ", text, 4);
	for (int v = 0; v < s->answer.nr_verdicts; v++) {
		verdict_text(text, sizeof(text), r, &s->answer.v[v]);
		wrap(out, "  margin: ", text, 10);
	}
	print_policy_rows(out, r, s);
	if (s->has_check && !s->from_trace) {
		fs_sim_selfcheck_line(&s->check, r->em, text, sizeof(text));
		wrap(out, "", text, 4);
		if (fs_sim_selfcheck_busyfreq_line(&s->check, r->em, text, sizeof(text)) > 0)
			wrap(out, "  ", text, 4);
	}
	fs_summary_trace(out, r, wrap); /* a trace's self-check and what it held */
	print_processes(out, r, s);
	fputc('\n', out);
}

// SPDX-License-Identifier: GPL-2.0
/* The machine-readable report (--json, docs/json.md): one object, fixed key order, exact decimals. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "json_sim.h"
#include "verdict_lead.h"
#include "json_apps.h"
#include "output.h"
#include "out_file.h"
#include "../records/version.h"

#define FS_JSON_SCHEMA 2 /* 2: verdicts[].delta_mj is the closed loop's (issue 29) */

void fs_json_str(FILE *o, const char *s, size_t max)
{
	fputc('"', o);
	for (size_t i = 0; i < max && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(o, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(o, "\\u%04x", c); /* comm bytes are not UTF-8: keep them visible and valid */
		else
			fputc(c, o);
	}
	fputc('"', o);
}

/* fJ as mJ with 6 decimals (exact to the nJ). */
static void mj(FILE *o, fs_fj_t fj)
{
	char b[64];

	fs_fmt_fj(b, sizeof(b), fj, 12, 6);
	fputs(b, o);
}

static void mean_mw(FILE *o, fs_fj_t fj, __u64 span)
{
	char b[64];

	if (!span) {
		fputs("null", o);
		return;
	}
	fs_fmt_fj(b, sizeof(b), fj / (fs_fj_t)span, 3, 3); /* fJ / ns = µW */
	fputs(b, o);
}

static void percent(FILE *o, fs_fj_t a, fs_fj_t b)
{
	char t[64];

	if (!b) {
		fputs("null", o);
		return;
	}
	fs_fmt_ratio_pct(t, sizeof(t), a, b, 4);
	fputs(t, o);
}

static void u64(FILE *o, const char *key, __u64 v, bool comma)
{
	fprintf(o, "\"%s\": %llu%s", key, (unsigned long long)v, comma ? ", " : "");
}

static void write_counts(FILE *o, const struct fs_report *r)
{
	const struct fs_stats *st = r->st;

	fputs("  \"counts\": {", o);
	u64(o, "records", st->records, true);
	u64(o, "wakeups", st->wakeups, true);
	u64(o, "forks", st->forks, true);
	u64(o, "balance_migrations", st->migrations, true);
	u64(o, "exits", st->exits, true);
	u64(o, "lost", st->lost, true);
	u64(o, "filtered", st->filtered, true);
	u64(o, "overutilized", st->overutilized, true);
	u64(o, "feec_eligible", st->feec_eligible, true);
	u64(o, "kernel_known", st->kernel_known, true);
	u64(o, "wake_flags_unknown", st->flags_unknown, true);
	u64(o, "placements", r->tot->intervals, true);
	u64(o, "placements_cpu_time_unknown", r->tot->unresolved, false);
	fputs("},\n", o);
}

static void write_policies(FILE *o, const struct fs_report *r)
{
	const struct fs_stats *st = r->st;

	fputs("  \"policies\": [", o);
	for (int i = 0; i < st->nr_policies; i++) {
		const struct fs_policy_stats *p = &st->pol[i];

		fprintf(o, "%s\n    {\"name\": ", i ? "," : "");
		fs_json_str(o, p->desc->name, 64);
		fprintf(o, ", \"reference\": %s, \"has_margin\": %s, ", i ? "false" : "true",
			p->desc->has_margin ? "true" : "false");
		u64(o, "decided", p->decided, true);
		u64(o, "eligible", p->eligible, true);
		u64(o, "differ_from_reference", p->differ, true);
		u64(o, "kernel_known", p->kernel_known, true);
		u64(o, "agree_kernel", p->agree_kernel, true);
		fputs("\"energy_vs_reference_mj\": ", o);
		mj(o, r->tot->energy_fj[i]);
		fputc('}', o);
	}
	fputs("\n  ],\n", o);
}

/* delta, interval, blocks and whether it is measurable: the fields both of a verdict's figures have */
static void write_figure(FILE *o, const struct fs_verdict *V)
{
	char b[64];

	fputs("\"delta_mj\": ", o);
	mj(o, V->delta_fj);
	if (fs_verdict_has_interval(V)) {
		fputs(", \"ci95_mj\": [", o);
		mj(o, V->lo_fj);
		fputs(", ", o);
		mj(o, V->hi_fj);
		fputc(']', o);
	} else {
		fputs(", \"ci95_mj\": null", o); /* too few time blocks for one */
	}
	fprintf(o, ", \"ci_blocks\": %zu, \"ci_block_s\": ", V->units);
	fs_fmt_fj(b, sizeof(b), (fs_fj_t)V->block_ns, 9, 3);
	fputs(b, o);
}

static void write_verdicts(FILE *o, const struct fs_report *r)
{
	fputs("  \"verdicts\": [", o);
	for (int v = 0; v < r->nr_verdicts; v++) {
		const struct fs_verdict *P = &r->verdicts[v];
		struct fs_verdict V;
		const char *why;
		const bool sim = fs_verdict_lead(r, v, &V, &why);

		fprintf(o, "%s\n    {\"policy\": ", v ? "," : "");
		fs_json_str(o, r->st->pol[V.pol].desc->name, 64);
		fputs(", \"twin\": ", o);
		fs_json_str(o, r->st->pol[V.twin].desc->name, 64);
		fprintf(o, ", \"source\": \"%s\", ", sim ? "closed loop" : "per decision");
		write_figure(o, &V);
		fputs(", \"mean_mw\": ", o);
		mean_mw(o, V.delta_fj, r->span_ns);
		fputs(", \"percent\": ", o);
		percent(o, V.delta_fj, r->cpu.total_fj);
		fprintf(o, ", \"measurable\": %s,\n     \"per_decision\": {", V.measurable ? "true" : "false");
		write_figure(o, P);
		fprintf(o, ", \"measurable\": %s}, ", P->measurable ? "true" : "false");
		u64(o, "decisions", V.decisions, true);
		u64(o, "differ", V.differ, false);
		fputc('}', o);
	}
	fputs(r->nr_verdicts ? "\n  ],\n" : "],\n", o);
}

static void write_processes(FILE *o, const struct fs_report *r)
{
	fputs("  \"processes\": [", o);
	for (size_t i = 0; i < r->nr_procs; i++) {
		const struct fs_process *g = &r->procs[i];

		fprintf(o, "%s\n    {\"tgid\": %d, \"uid\": ", i ? "," : "", g->tgid);
		if (g->uid == FS_NO_UID)
			fputs("null", o);
		else
			fprintf(o, "%u", g->uid);
		fputs(", \"comm\": ", o);
		fs_json_str(o, g->comm, FS_COMM_LEN - 1);
		fs_json_process_app(o, r, g->uid);
		fprintf(o, ", \"threads\": %d, ", g->nr_threads);
		u64(o, "runtime_ns", g->runtime_ns, true);
		u64(o, "wakeups", g->wakeups, true);
		fputs("\"delta_mj\": [", o);
		for (int v = 0; v < r->nr_verdicts; v++) {
			if (v)
				fputs(", ", o);
			mj(o, g->delta_fj[v]);
		}
		fputs("], \"energy_vs_reference_mj\": [", o);
		for (int p = 0; p < r->st->nr_policies; p++) {
			if (p)
				fputs(", ", o);
			mj(o, g->energy_fj[p]);
		}
		fputs("]}", o);
	}
	fputs(r->nr_procs ? "\n  ]\n" : "]\n", o);
}

static void write_report(FILE *o, const struct fs_report *r)
{
	char b[64];

	fprintf(o, "{\n  \"schema\": %d,\n  \"feecscope_version\": ", FS_JSON_SCHEMA);
	fs_json_str(o, FS_VERSION_STRING, 64);
	fputs(",\n  \"kernel_release\": ", o);
	fs_json_str(o, r->kernel_release ? r->kernel_release : "", 64);
	fputs(",\n  \"em\": {\"source\": ", o);
	fs_json_str(o, r->em->source, sizeof(r->em->source));
	fprintf(o, ", \"nr_cpus\": %d, \"nr_pd\": %d, \"eas_emulated\": %s},\n", r->em->nr_cpus, r->em->nr_pd,
		r->emulate_eas ? "true" : "false");
	fprintf(o, "  \"estimate\": \"%s\",\n", r->wall_time ? "wall-time" : "cpu-time");
	fs_fmt_fj(b, sizeof(b), (fs_fj_t)r->span_ns, 9, 9);
	fprintf(o, "  \"duration_s\": %s,\n", b);
	fprintf(o, "  \"first_ts_ns\": %llu,\n  \"last_ts_ns\": %llu,\n", (unsigned long long)r->st->first_ts,
		(unsigned long long)r->st->last_ts);
	fputs("  \"cpu_energy_mj\": ", o);
	mj(o, r->cpu.total_fj);
	fputs(",\n  \"cpu_energy_wall_residency_mj\": ", o); /* before busy-time weighting */
	mj(o, r->cpu.wall_total_fj);
	fprintf(o, ",\n  \"cpu_energy_busy_source\": \"%s\",\n  \"cpu_energy_frequency_source\": \"%s\",\n",
		r->wall_time ? "wall-time" : fs_busy_source_name(r->cpu.busy_src),
		r->wall_time ? "wall-time" : fs_freq_source_name(r->cpu.freq_src));
	fprintf(o, "  \"task_cpu_time_ns\": %llu,\n", (unsigned long long)r->tot->runtime_ns);
	write_counts(o, r);
	write_policies(o, r);
	write_verdicts(o, r);
	fs_json_sim(o, r);
	fs_json_apps(o, r);
	write_processes(o, r);
	fputs("}\n", o);
}

struct json_out {
	struct fs_out_file out; /* the file, renamed into place by finish; or stdout */
};

static int json_finish(void *self, const struct fs_report *rep, char *err, size_t errlen)
{
	struct json_out *j = self;

	write_report(j->out.f, rep);
	return fs_out_commit(&j->out, err, errlen);
}

static void json_free(void *self)
{
	struct json_out *j = self;

	fs_out_abort(&j->out);
	free(j);
}

static const struct fs_output_ops json_ops = { .finish = json_finish, .free = json_free };

int fs_output_json(struct fs_output *o, const char *path, char *err, size_t errlen)
{
	struct json_out *j = calloc(1, sizeof(*j));

	if (!j) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	if (fs_out_open(&j->out, path, err, errlen)) {
		free(j);
		return -1;
	}
	o->ops = &json_ops;
	o->self = j;
	return 0;
}

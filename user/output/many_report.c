// SPDX-License-Identifier: GPL-2.0
/* feecscope report's outputs: text (80 columns), JSON and CSV of many recordings (docs/analysis.md). */
#include <string.h>
#include "many_report.h"
#include "../cli.h"

static void mj(char *b, size_t n, fs_fj_t fj)
{
	fs_fmt_fj(b, n, fj, 12, 6);
}

static void pct(char *b, size_t n, fs_fj_t a, fs_fj_t cpu)
{
	if (cpu)
		fs_fmt_ratio_pct(b, n, a, cpu, 2);
	else
		snprintf(b, n, "-");
}

/* "+4.50 mJ (+1.80..+7.20)" within 34 columns; "+4.50 mJ (no interval)" from too few units */
static void verdict(char *b, size_t n, fs_fj_t d, bool has_ci, fs_fj_t lo, fs_fj_t hi)
{
	char x[40], y[40], z[40];

	fs_fmt_mj_short(x, sizeof(x), d, true);
	fs_fmt_mj_short(y, sizeof(y), lo, true);
	fs_fmt_mj_short(z, sizeof(z), hi, true);
	if (has_ci)
		snprintf(b, n, "%s mJ (%s..%s)", x, y, z);
	else
		snprintf(b, n, "%s mJ (no interval)", x);
}

/* The last `width` characters of s, with "..." in front when cut. */
static const char *tail(const char *s, int width, char *buf, size_t n)
{
	size_t len = strlen(s);

	if (len <= (size_t)width)
		return s;
	snprintf(buf, n, "...%s", s + len - (size_t)(width - 3));
	return buf;
}

/*
 * A kernel release within `width` columns: its start, where the version is
 * ("6.1.75-android14-11-g1234abcd5678-ab11223344" -> "6.1.75-andro…"), the
 * ellipsis one column of three bytes. Pads to width if asked.
 */
static const char *head(const char *s, int width, bool pad, char *buf, size_t n)
{
	int len = (int)strlen(s);

	if (len <= width)
		snprintf(buf, n, "%-*s", pad ? width : 0, s);
	else
		snprintf(buf, n, "%.*s\u2026", width - 1, s);
	return buf;
}
static void print_procs(FILE *o, const struct fs_many *m);

/* The traces with power rails (docs/traces.md): their CPU rails measured, beside the EM. */
static void print_rails(FILE *o, const struct fs_many *m)
{
	char cut[80];
	int n = 0;

	for (size_t i = 0; i < m->nr_runs; i++) {
		const struct fs_run_result *r = &m->runs[i];

		if (!r->has_rails)
			continue;
		if (!n++)
			fputs("\npower rails: the CPU rails measured / the EM for the traced busy time\n", o);
		fprintf(o, "  %-19s %10.1f / %.1f %s\n", tail(r->path, 19, cut, sizeof(cut)), r->rails_measured,
			r->rails_em, r->rails_full ? "mJ" : "mW mean, partly covered");
	}
}

void fs_many_print_text(FILE *o, const struct fs_many *m)
{
	char v[160], p[32], cut[80], cut2[64];

	fprintf(o, "margin verdict over %d of %zu recordings: ", m->all.recordings, m->nr_runs);
	verdict(v, sizeof(v), m->all.delta_fj, m->all.has_ci, m->all.lo_fj, m->all.hi_fj);
	pct(p, sizeof(p), m->all.delta_fj, m->all.cpu_fj);
	fprintf(o, "%s\n", v);
	fprintf(o, "  %s, %s%% of CPU energy, %llu wake-ups, %.1f s observed\n",
		!m->all.has_ci ? "no interval" :
		m->all.measurable ? "measurable" : "no measurable difference", p,
		(unsigned long long)m->all.wakeups, (double)m->all.span_ns / 1e9);
	if (m->all.sim_ci)
		fputs("  (positive: the margin costs energy; intervals: 95 %, closed loop, each\n"
		      "  recording's from its time blocks and replicas, variances summed)\n\n", o);
	else
		fputs("  (positive: the margin costs energy; intervals: 95 % bootstrap over time\n"
		      "  blocks, each recording's resampled within it)\n\n", o);

	fputs("recording           kernel        wake-ups   secs  margin costs (95 % CI)\n", o);
	for (size_t i = 0; i < m->nr_runs; i++) {
		const struct fs_run_result *r = &m->runs[i];

		fprintf(o, "%-19s ", tail(r->path, 19, cut, sizeof(cut)));
		if (!r->has_verdict) {
			fprintf(o, "%s\n", r->error[0] ? "not replayed (below)" :
				r->no_unit ? "no verdict: a bogoWatt EM has no unit" : "no margin/no-margin pair");
			continue;
		}
		verdict(v, sizeof(v), r->delta_fj, r->has_ci, r->lo_fj, r->hi_fj);
		fprintf(o, "%s %8llu %6.1f  %s%s\n", head(r->kernel_release, 13, true, cut2, sizeof(cut2)),
			(unsigned long long)r->wakeups, (double)r->span_ns / 1e9, v, r->partial ? " !" : "");
	}

	fputs("\nby device EM and kernel release:\n", o);
	for (size_t g = 0; g < m->nr_groups; g++) {
		const struct fs_runs_total *G = &m->groups[g];

		verdict(v, sizeof(v), G->delta_fj, G->has_ci, G->lo_fj, G->hi_fj);
		pct(p, sizeof(p), G->delta_fj, G->cpu_fj);
		/* an EM's source line says what it is first: keep its start */
		fprintf(o, "%2zu. EM %.70s%s\n", g + 1, G->em, strlen(G->em) > 70 ? "..." : "");
		fprintf(o, "    kernel %s: %d recording%s, %.1f s\n    margin costs %s, %s%% of CPU energy\n",
			G->kernel_release[0] ? head(G->kernel_release, 44, false, cut2, sizeof(cut2)) : "(unknown)", G->recordings, G->recordings == 1 ? "" : "s", (double)G->span_ns / 1e9, v, p);
	}

	print_procs(o, m);
	print_rails(o, m);
	int bad = 0;
	for (size_t i = 0; i < m->nr_runs; i++)
		if (m->runs[i].error[0]) {
			if (!bad++)
				fputs("\nnot (fully) replayed ('!' above: counted up to the damage):\n", o);
			fprintf(o, "  %s\n", m->runs[i].error);
		}
}

/*
 * Where each recording's app names came from, for the recordings summed
 * (those with a verdict): one line when --packages named them all, else a
 * line per recording (at most 10: the JSON and CSV have every one's
 * apps_from).
 */
static void print_apps_from(FILE *o, const struct fs_many *m)
{
	char cut[80];
	size_t shown = 0, n = 0;

	for (size_t i = 0; i < m->nr_runs; i++)
		n += m->runs[i].has_verdict;
	if (!n)
		return;
	if (m->runs[0].apps) { /* --packages: the one list of every recording */
		char line[FS_APPS_FROM + 64];

		snprintf(line, sizeof(line), "apps named from %s (%zu packages), every recording",
			 m->runs[0].apps->from, m->runs[0].apps->nr);
		fs_cli_wrap_led(o, "  ", line);
		return;
	}
	fputs("apps named by each recording's list, summed by package name:\n", o);
	for (size_t i = 0; i < m->nr_runs && shown < 10; i++) {
		const struct fs_run_result *r = &m->runs[i];

		if (!r->has_verdict)
			continue;
		shown++;
		fprintf(o, "  %-19s ", tail(r->path, 19, cut, sizeof(cut)));
		if (!r->apps_from[0])
			fputs("no list: its processes by name\n", o);
		else if (!strcmp(r->apps_from, "the recording's own list"))
			fprintf(o, "its own list (%zu packages)\n", r->nr_packages);
		else
			fprintf(o, "%.40s (%zu packages)\n", r->apps_from, r->nr_packages);
	}
	if (n > shown)
		fprintf(o, "  (+%zu more: the JSON's and CSV's apps_from)\n", n - shown);
}

/* The processes the margin costs most: by app (the label on a line of its own when long), else by comm. */
static void print_procs(FILE *o, const struct fs_many *m)
{
	int w = m->by_app ? 30 : 16; /* an app's label takes what the table leaves of 80 columns */
	char v[64];

	fprintf(o, "\n%s the margin costs most (all recordings, by %s):\n",
		m->by_app ? "apps and processes" : "processes", m->by_app ? "app, else name" : "name");
	if (m->by_app)
		print_apps_from(o, m);
	fprintf(o, "%-*s  WAKEUPS   CPU TIME s      DELTA mJ\n", w, m->by_app ? "APP / COMM" : "COMM");
	for (size_t i = 0; i < m->nr_procs && i < 10; i++) {
		const struct fs_run_proc *q = &m->procs[i];
		char c[FS_COMM_LEN];

		for (int k = 0; k < FS_COMM_LEN; k++)
			c[k] = q->comm[k] && (q->comm[k] < 0x20 || q->comm[k] >= 0x7f) ? '?' : q->comm[k];
		c[FS_COMM_LEN - 1] = 0;
		const char *name = q->app[0] ? q->app : c;
		if ((int)strlen(name) > w) {
			fprintf(o, "%.79s\n", name);
			name = "";
		}
		mj(v, sizeof(v), q->delta_fj);
		fprintf(o, "%-*s %8llu %12.3f %13s\n", w, name, (unsigned long long)q->wakeups,
			(double)q->runtime_ns / 1e9, v);
	}
}

static void jstr(FILE *o, const char *s)
{
	fputc('"', o);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(o, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(o, "\\u%04x", c);
		else
			fputc(c, o);
	}
	fputc('"', o);
}

/* [lo, hi], or null where too few units gave no interval */
static void ci_json(FILE *o, bool has_ci, const char *lo, const char *hi)
{
	if (has_ci)
		fprintf(o, "[%s, %s]", lo, hi);
	else
		fputs("null", o);
}

static void jtotal(FILE *o, const struct fs_runs_total *t)
{
	char a[64], b[64], c[64], d[64], p[32];

	mj(a, sizeof(a), t->delta_fj);
	mj(b, sizeof(b), t->lo_fj);
	mj(c, sizeof(c), t->hi_fj);
	mj(d, sizeof(d), t->cpu_fj);
	if (t->cpu_fj)
		fs_fmt_ratio_pct(p, sizeof(p), t->delta_fj, t->cpu_fj, 4);
	fprintf(o, "\"recordings\": %d, \"wakeups\": %llu, \"duration_s\": %.9f, \"cpu_energy_mj\": %s, "
		"\"delta_mj\": %s, \"ci95_mj\": ", t->recordings, (unsigned long long)t->wakeups,
		(double)t->span_ns / 1e9, d, a);
	ci_json(o, t->has_ci, b, c);
	fprintf(o, ", \"measurable\": %s, \"percent\": %s", t->measurable ? "true" : "false", t->cpu_fj ? p : "null");
}

void fs_many_print_json(FILE *o, const struct fs_many *m)
{
	char a[64], b[64], c[64], d[64];

	fputs("{\n  \"schema\": 1,\n  \"recordings\": [", o);
	for (size_t i = 0; i < m->nr_runs; i++) {
		const struct fs_run_result *r = &m->runs[i];

		fprintf(o, "%s\n    {\"path\": ", i ? "," : "");
		jstr(o, r->path);
		fputs(", \"error\": ", o);
		if (r->error[0])
			jstr(o, r->error);
		else
			fputs("null", o);
		fputs(", \"kernel_release\": ", o);
		jstr(o, r->kernel_release);
		fputs(", \"em\": ", o);
		jstr(o, r->em);
		fputs(", \"apps_from\": ", o); /* as replay's: which list named its apps, null = none */
		if (r->apps_from[0])
			jstr(o, r->apps_from);
		else
			fputs("null", o);
		if (r->has_verdict) {
			mj(a, sizeof(a), r->delta_fj);
			mj(b, sizeof(b), r->lo_fj);
			mj(c, sizeof(c), r->hi_fj);
			mj(d, sizeof(d), r->cpu_fj);
			fputs(", \"policy\": ", o);
			jstr(o, r->policy);
			fputs(", \"twin\": ", o);
			jstr(o, r->twin);
			fprintf(o, ", \"wakeups\": %llu, \"duration_s\": %.9f, \"cpu_energy_mj\": %s, \"delta_mj\": %s, "
				"\"ci95_mj\": ", (unsigned long long)r->wakeups, (double)r->span_ns / 1e9, d, a);
			ci_json(o, r->has_ci, b, c);
			fprintf(o, ", \"measurable\": %s", r->measurable ? "true" : "false");
		}
		if (r->has_rails) /* only for a trace with power rails: the others' members are unchanged */
			fprintf(o, ", \"rails_%s\": %.6f, \"rails_em_traced_%s\": %.6f", r->rails_full ? "cpu_mj" : "cpu_mw",
				r->rails_measured, r->rails_full ? "mj" : "mw", r->rails_em);
		fputc('}', o);
	}
	fputs(m->nr_runs ? "\n  ],\n  \"groups\": [" : "],\n  \"groups\": [", o);
	for (size_t g = 0; g < m->nr_groups; g++) {
		fprintf(o, "%s\n    {\"em\": ", g ? "," : "");
		jstr(o, m->groups[g].em);
		fputs(", \"kernel_release\": ", o);
		jstr(o, m->groups[g].kernel_release);
		fputs(", ", o);
		jtotal(o, &m->groups[g]);
		fputc('}', o);
	}
	fputs(m->nr_groups ? "\n  ],\n  \"combined\": {" : "],\n  \"combined\": {", o);
	jtotal(o, &m->all);
	fputs("},\n  \"processes\": [", o);
	for (size_t i = 0; i < m->nr_procs; i++) {
		char comm[FS_COMM_LEN];

		memcpy(comm, m->procs[i].comm, FS_COMM_LEN);
		comm[FS_COMM_LEN - 1] = 0;
		mj(a, sizeof(a), m->procs[i].delta_fj);
		fprintf(o, "%s\n    {\"comm\": ", i ? "," : "");
		jstr(o, m->procs[i].app[0] ? "" : comm); /* an app's row sums processes of any name */
		if (m->by_app) {
			fputs(", \"app\": ", o);
			if (m->procs[i].app[0])
				jstr(o, m->procs[i].app);
			else
				fputs("null", o);
		}
		fprintf(o, ", \"wakeups\": %llu, \"runtime_ns\": %llu, \"delta_mj\": %s}",
			(unsigned long long)m->procs[i].wakeups, (unsigned long long)m->procs[i].runtime_ns, a);
	}
	fputs(m->nr_procs ? "\n  ]\n}\n" : "]\n}\n", o);
}

static void csv_cell(FILE *o, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, o);
		return;
	}
	fputc('"', o);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', o);
		fputc(*s, o);
	}
	fputc('"', o);
}

void fs_many_print_csv(FILE *o, const struct fs_many *m)
{
	char a[64], b[64], c[64], d[64];

	fputs("path,kernel_release,em,policy,twin,wakeups,duration_s,cpu_energy_mj,delta_mj,ci95_lo_mj,ci95_hi_mj,"
	      "measurable,error,apps_from\n", o);
	for (size_t i = 0; i < m->nr_runs; i++) {
		const struct fs_run_result *r = &m->runs[i];

		csv_cell(o, r->path);
		fputc(',', o);
		csv_cell(o, r->kernel_release);
		fputc(',', o);
		csv_cell(o, r->em);
		if (r->has_verdict) {
			mj(a, sizeof(a), r->delta_fj);
			mj(b, sizeof(b), r->lo_fj);
			mj(c, sizeof(c), r->hi_fj);
			mj(d, sizeof(d), r->cpu_fj);
			if (!r->has_ci) /* empty cells: no interval from too few time blocks */
				b[0] = c[0] = 0;
			fprintf(o, ",%s,%s,%llu,%.9f,%s,%s,%s,%s,%d,", r->policy, r->twin, (unsigned long long)r->wakeups,
				(double)r->span_ns / 1e9, d, a, b, c, r->measurable);
		} else {
			fputs(",,,,,,,,,,", o);
		}
		csv_cell(o, r->error);
		fputc(',', o); /* last: the columns before it keep their places */
		csv_cell(o, r->apps_from);
		fputc('\n', o);
	}
}

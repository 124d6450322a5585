// SPDX-License-Identifier: GPL-2.0
/* The live view's rows for a given terminal size (view_frame.h). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "view_frame.h"
#include "summary.h"
#include "apps_group.h"

/* Rows a section may use at most, whatever the height. */
#define MAX_VERDICT_ROWS 4
#define MAX_POLICY_ROWS  8
#define MIN_PROCESS_ROWS 10 /* the extras only come when this many processes still fit */

/* A list of rows being built, each cut to the width. */
struct rows {
	int cols, n, max;
	char (*line)[FS_FRAME_MAX_COLS + 1];
};

static void add(struct rows *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct rows *r, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (r->n >= r->max)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	char *out = r->line[r->n++];
	int i = 0;

	/* printable ASCII only: a comm or a path could hold anything */
	for (; buf[i] && i < r->cols; i++)
		out[i] = (unsigned char)buf[i] < 0x20 || (unsigned char)buf[i] >= 0x7f ? '?' : buf[i];
	/* a row cut short says so */
	if (buf[i] && r->cols >= 3)
		memcpy(out + r->cols - 3, "...", 3);
	out[i] = 0;
	while (i > 0 && out[i - 1] == ' ')
		out[--i] = 0;
}

/* text wrapped at spaces into at most max_rows rows, the last one cut if needed */
static void add_wrapped(struct rows *r, const char *text, int max_rows, int indent)
{
	const char *p = text;

	for (int k = 0; *p && k < max_rows; k++) {
		int room = r->cols - (k ? indent : 0);
		int len = (int)strlen(p);

		if (len > room && k + 1 < max_rows) {
			int cut = room;

			while (cut > 0 && p[cut] != ' ')
				cut--;
			if (cut <= 0)
				cut = room;
			add(r, "%*s%.*s", k ? indent : 0, "", cut, p);
			p += cut;
			while (*p == ' ')
				p++;
		} else {
			add(r, "%*s%s", k ? indent : 0, "", p);
			break;
		}
	}
}

/* Append "  item" to line when it still fits in cols (items in order of importance). */
static void item(char *line, size_t size, int cols, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void item(char *line, size_t size, int cols, const char *fmt, ...)
{
	char buf[160];
	va_list ap;
	size_t n = strlen(line);

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if ((int)(n + (n ? 2 : 0) + strlen(buf)) <= cols && n + strlen(buf) + 3 < size)
		snprintf(line + n, size - n, "%s%s", n ? "  " : "", buf);
}

static double pct(__u64 a, __u64 b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

const char *fs_view_sort_name(enum fs_view_sort s)
{
	static const char *const names[FS_SORT__NR] = { "|margin mJ|", "wake-ups", "CPU time" };

	return s >= 0 && s < FS_SORT__NR ? names[s] : "?";
}

void fs_view_rates_update(struct fs_view_rates *r, struct fs_view_sample *s)
{
	double dt = r->have_prev ? s->elapsed_s - r->t : s->elapsed_s;
	const struct fs_report *rep = s->rep;
	bool busy_known = rep && (rep->cpu.busy_src == FS_BUSY_SCHEDSTAT || rep->cpu.busy_src == FS_BUSY_PROC_STAT);
	int ncpu = rep ? rep->em->nr_cpus : 0;

	s->wakeup_rate = 0;
	memset(s->mw, 0, sizeof(s->mw));
	for (int c = 0; c < FS_MAX_CPUS; c++)
		s->busy_pct[c] = -1;
	if (dt > 0) {
		s->wakeup_rate = (double)(s->st->wakeups - (r->have_prev ? r->wakeups : 0)) / dt;
		for (int i = 0; rep && i < s->st->nr_policies; i++)
			s->mw[i] = (fs_fj_to_mj(rep->tot->energy_fj[i]) - (r->have_prev ? r->mj[i] : 0)) / dt;
		for (int c = 0; busy_known && r->have_prev && c < ncpu; c++)
			if (rep->cpu.busy_ns[c] >= r->busy_ns[c])
				s->busy_pct[c] = 100.0 * (double)(rep->cpu.busy_ns[c] - r->busy_ns[c]) / (dt * 1e9);
	}
	r->have_prev = true;
	r->t = s->elapsed_s;
	r->wakeups = s->st->wakeups;
	for (int i = 0; rep && i < s->st->nr_policies; i++)
		r->mj[i] = fs_fj_to_mj(rep->tot->energy_fj[i]);
	for (int c = 0; c < ncpu; c++)
		r->busy_ns[c] = busy_known ? rep->cpu.busy_ns[c] : 0;
}

/* ---- sections ---- */

static void verdicts(struct rows *r, const struct fs_report *rep, int max)
{
	char line[FS_COLUMNS + 1];

	if (!rep) {
		add(r, "(no report this interval)");
		return;
	}
	for (int v = 0; v < rep->nr_verdicts; v++) {
		if (v == max - 1 && rep->nr_verdicts > max) {
			add(r, "(%d more verdicts: a taller window shows them)", rep->nr_verdicts - v);
			break;
		}
		fs_verdict_line(line, sizeof(line), rep, v);
		add(r, "%s", line);
	}
	if (!rep->nr_verdicts)
		add(r, "no margin verdict: %s", rep->st->nr_policies > 1 ? "no policy ran with its no-margin twin" :
						"one policy ran");
}

static void title(struct rows *r, const struct fs_view_info *in, const struct fs_view_sample *s,
		  const struct fs_view_state *vs)
{
	char line[FS_FRAME_MAX_COLS + 1] = "";

	item(line, sizeof(line), r->cols, "feecscope live");
	item(line, sizeof(line), r->cols, "up %.1f s", s->elapsed_s);
	if (vs->paused)
		item(line, sizeof(line), r->cols, "PAUSED");
	item(line, sizeof(line), r->cols, "every %.1f s", in->interval_s);
	item(line, sizeof(line), r->cols, "kernel %s", in->kernel_release);
	add(r, "%s", line);
}

static void totals(struct rows *r, const struct fs_view_sample *s)
{
	const struct fs_stats *st = s->st;
	char line[FS_FRAME_MAX_COLS + 1] = "", buf[64];

	item(line, sizeof(line), r->cols, "wake-ups %.0f/s", s->wakeup_rate);
	item(line, sizeof(line), r->cols, "total %llu", (unsigned long long)st->wakeups);
	item(line, sizeof(line), r->cols, "forks %llu", (unsigned long long)st->forks);
	item(line, sizeof(line), r->cols, "balance migrations %llu", (unsigned long long)st->migrations);
	add(r, "%s", line);
	line[0] = 0;
	item(line, sizeof(line), r->cols, "feec-eligible %.1f%%", pct(st->feec_eligible, st->wakeups));
	item(line, sizeof(line), r->cols, "overutilized %.1f%%", pct(st->overutilized, st->wakeups));
	item(line, sizeof(line), r->cols, "kernel placement known %.1f%%", pct(st->kernel_known, st->wakeups));
	add(r, "%s", line);
	line[0] = 0;
	item(line, sizeof(line), r->cols, "%s %llu", st->lost ? "LOST" : "lost", (unsigned long long)st->lost);
	if (s->have_collector)
		item(line, sizeof(line), r->cols, "unplaced %llu", (unsigned long long)s->expired);
	item(line, sizeof(line), r->cols, "filtered %llu", (unsigned long long)st->filtered);
	if (s->rep) {
		fs_fmt_fj(buf, sizeof(buf), s->rep->cpu.total_fj, 12, 1);
		item(line, sizeof(line), r->cols, "CPU energy %s mJ", buf);
	}
	add(r, "%s", line);
}

static void policies(struct rows *r, const struct fs_view_sample *s, int max)
{
	const struct fs_stats *st = s->st;
	char name[40], agree[16], mj[48];

	add(r, "%-18s %9s %9s %8s %12s %9s", "policy", "eligible", "differ", "=kernel", "vs ref mJ", "mW now");
	for (int i = 0; i < st->nr_policies && i < max; i++) {
		const struct fs_policy_stats *p = &st->pol[i];

		if (i == max - 1 && st->nr_policies > max) {
			add(r, "(%d more policies: a taller window shows them)", st->nr_policies - i);
			break;
		}
		snprintf(name, sizeof(name), "%s%s", p->desc->name, i ? "" : " (ref)");
		if (p->kernel_known)
			snprintf(agree, sizeof(agree), "%.1f%%", pct(p->agree_kernel, p->kernel_known));
		else
			snprintf(agree, sizeof(agree), "-");
		if (s->rep)
			fs_fmt_fj(mj, sizeof(mj), s->rep->tot->energy_fj[i], 12, 3);
		else
			snprintf(mj, sizeof(mj), "-");
		add(r, "%-18s %9llu %9llu %8s %12s %+9.3f", name, (unsigned long long)p->eligible,
		    (unsigned long long)p->differ, agree, mj, s->mw[i]);
	}
}

/* Taller screens: what the collector skipped, each CPU's load, the PD transitions. */
static void extras(struct rows *r, const struct fs_view_sample *s)
{
	const struct fs_report *rep = s->rep;
	char line[FS_FRAME_MAX_COLS + 1] = "";

	if (s->have_collector) {
		item(line, sizeof(line), r->cols, "skipped: rt/dl %llu", (unsigned long long)s->cnt[FS_CNT_NOT_FAIR]);
		item(line, sizeof(line), r->cols, "still runnable %llu", (unsigned long long)s->cnt[FS_CNT_RUNNABLE]);
		item(line, sizeof(line), r->cols, "no select %llu", (unsigned long long)s->cnt[FS_CNT_NO_SELECT]);
		item(line, sizeof(line), r->cols, "ring full %llu", (unsigned long long)s->cnt[FS_CNT_LOST]);
		item(line, sizeof(line), r->cols, "nested %llu", (unsigned long long)s->cnt[FS_CNT_NESTED]);
		add(r, "%s", line);
	}
	if (!rep)
		return;
	line[0] = 0;
	int ncpu = rep->em->nr_cpus, shown = 0;

	for (int c = 0; c < ncpu && s->busy_pct[0] >= 0; c++) {
		size_t before = strlen(line);

		item(line, sizeof(line), r->cols, "%scpu%d %.0f%%", c ? "" : "busy: ", c, s->busy_pct[c]);
		if (strlen(line) == before) { /* full: the rest on one more row */
			add(r, "%s", line);
			line[0] = 0;
			item(line, sizeof(line), r->cols, "      cpu%d %.0f%%", c, s->busy_pct[c]);
		}
		shown++;
	}
	if (shown)
		add(r, "%s", line);

	/* PD transitions: wake-ups from prev_cpu's PD (row) to the chosen PD, policy [0]/[1] per cell */
	const struct fs_stats *st = s->st;
	const struct fs_em *em = rep->em;
	int np = st->nr_policies < 2 ? st->nr_policies : 2, w = 7;
	char cell[64];

	for (int a = 0; a < em->nr_pd; a++)
		for (int b = 0; b < em->nr_pd; b++) {
			int n = snprintf(cell, sizeof(cell), "%llu/%llu", (unsigned long long)st->pol[0].pd_moves[a][b],
					 (unsigned long long)st->pol[np - 1].pd_moves[a][b]);

			if (n + 1 > w)
				w = n + 1;
		}
	add(r, "PD transitions, prev_cpu's PD -> chosen, %s / %s:", st->pol[0].desc->name,
	    st->pol[np - 1].desc->name);
	int n = snprintf(line, sizeof(line), "  %-8s", "from\\to");

	for (int b = 0; b < em->nr_pd && n < (int)sizeof(line); b++)
		n += snprintf(line + n, sizeof(line) - n, " %*.*s", w, w, em->pd[b].name);
	add(r, "%s", line);
	for (int a = 0; a < em->nr_pd; a++) {
		n = snprintf(line, sizeof(line), "  %-8.8s", em->pd[a].name);
		for (int b = 0; b < em->nr_pd && n < (int)sizeof(line); b++) {
			snprintf(cell, sizeof(cell), "%llu/%llu", (unsigned long long)st->pol[0].pd_moves[a][b],
				 (unsigned long long)st->pol[np - 1].pd_moves[a][b]);
			n += snprintf(line + n, sizeof(line) - n, " %*s", w, cell);
		}
		add(r, "%s", line);
	}
}

static enum fs_view_sort g_sort; /* qsort has no context argument */

static int cmp_proc(const void *pa, const void *pb)
{
	const struct fs_process *a = *(const struct fs_process *const *)pa, *b = *(const struct fs_process *const *)pb;
	__u64 x = g_sort == FS_SORT_WAKEUPS ? a->wakeups : a->runtime_ns;
	__u64 y = g_sort == FS_SORT_WAKEUPS ? b->wakeups : b->runtime_ns;

	if (x != y)
		return x < y ? 1 : -1;
	return a->tgid - b->tgid;
}

/* With a packages list, the list by app (apps_group.c), as the summary's. 0, or -1 out of memory. */
static int app_rows(struct rows *r, const struct fs_report *rep, enum fs_view_sort sort, int max)
{
	enum fs_app_order by = sort == FS_SORT_WAKEUPS ? FS_APP_BY_WAKEUPS : sort == FS_SORT_CPU ? FS_APP_BY_CPU :
			       FS_APP_BY_MARGIN;
	char (*line)[FS_APP_ROW] = malloc((size_t)(max > 0 ? max : 1) * sizeof(*line));
	int n = line ? fs_app_rows(rep, by, line, max) : -1;

	for (int i = 0; i < n; i++)
		add(r, "%s", line[i]);
	free(line);
	return n < 0 ? -1 : 0;
}

static void processes(struct rows *r, const struct fs_report *rep, enum fs_view_sort sort, int max)
{
	char line[160];
	const struct fs_process **v;
	size_t n;

	if (max < 1)
		return;
	fs_process_header(line, sizeof(line));
	add(r, "%s", line);
	if (!rep || !rep->nr_procs) {
		add(r, "  (no process yet)");
		return;
	}
	if (rep->apps && app_rows(r, rep, sort, max - 1) == 0)
		return;
	n = rep->nr_procs;
	v = malloc(n * sizeof(*v));
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		v[i] = &rep->procs[i];
	if (sort != FS_SORT_MARGIN) { /* the report is sorted by |margin cost| already */
		g_sort = sort;
		qsort(v, n, sizeof(*v), cmp_proc);
	}
	for (size_t i = 0; i < n && (int)i < max - 1; i++) {
		fs_process_row(line, sizeof(line), rep, v[i]);
		add(r, "%s", line);
	}
	free(v);
}

static void bottom(struct rows *r, const struct fs_view_state *vs)
{
	if (vs->warning && vs->more_warnings)
		add(r, "! %s (+%d more at the end)", vs->warning, vs->more_warnings);
	else if (vs->warning)
		add(r, "! %s", vs->warning);
	else if (vs->paused)
		add(r, "PAUSED: p resumes, q quits, s sorts (now by %s)", fs_view_sort_name(vs->sort));
	else
		add(r, "q quit  p pause  s sort (by %s)", fs_view_sort_name(vs->sort));
}

/* ---- the frame ---- */

void fs_view_frame(struct fs_frame *f, int cols, int rows, const struct fs_view_info *in,
		   const struct fs_view_sample *s, const struct fs_view_state *vs)
{
	static char scratch[FS_FRAME_MAX_ROWS][FS_FRAME_MAX_COLS + 1];
	struct rows top, ext;
	const struct fs_report *rep = s->rep;

	cols = cols < 1 ? 1 : cols > FS_FRAME_MAX_COLS ? FS_FRAME_MAX_COLS : cols;
	rows = rows < 1 ? 1 : rows > FS_FRAME_MAX_ROWS ? FS_FRAME_MAX_ROWS : rows;
	f->cols = cols;
	f->rows = rows;
	/* The last row is the status bar; the rest fill from the top, most important first. */
	top = (struct rows){ .cols = cols, .max = rows - 1, .line = f->line };
	bool tall = rows >= 32;

	verdicts(&top, rep, tall ? 2 * MAX_VERDICT_ROWS : MAX_VERDICT_ROWS);
	title(&top, in, s, vs);
	for (int i = 0; i < in->nr_status; i++)
		add_wrapped(&top, in->status[i], tall ? 2 : 1, 4);
	totals(&top, s);
	add(&top, "%s", "");
	policies(&top, s, MAX_POLICY_ROWS);

	/* The extras, rendered aside, join only when enough processes still fit under them. */
	ext = (struct rows){ .cols = cols, .max = FS_FRAME_MAX_ROWS, .line = scratch };
	add(&ext, "%s", "");
	extras(&ext, s);
	int left = top.max - top.n - 1; /* below the blank line before the processes */

	if (left - ext.n >= MIN_PROCESS_ROWS + 1) {
		for (int i = 0; i < ext.n; i++)
			add(&top, "%s", ext.line[i]);
		left -= ext.n;
	}
	if (left >= 2)
		add(&top, "%s", "");
	processes(&top, rep, vs->sort, top.max - top.n);
	while (top.n < top.max)
		add(&top, "%s", "");
	struct rows last = { .cols = cols, .max = 1, .line = f->line + top.n };

	bottom(&last, vs);
	f->n = top.n + 1;
}

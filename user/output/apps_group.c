// SPDX-License-Identifier: GPL-2.0
/* The report by app: grouping (summary and JSON) and the summary's list. */
#include <stdlib.h>
#include <string.h>
#include "apps_group.h"
#include "summary.h"
#include "../engine/apps.h"

#define APP_PROCS 5   /* processes listed under an app; the rest are counted */
#define VIEW_PROCS 2  /* the same in the live view, where a 24-row screen has ten rows for the list */
#define LABEL_COLS 29 /* the process row's TGID, COMM and THR columns */

static void add_to(struct fs_process *s, const struct fs_process *g)
{
	s->nr_threads += g->nr_threads;
	s->wakeups += g->wakeups;
	s->runtime_ns += g->runtime_ns;
	for (int v = 0; v < FS_MAX_VERDICTS; v++)
		s->delta_fj[v] += g->delta_fj[v];
	for (int p = 0; p < FS_MAX_POLICIES; p++)
		s->energy_fj[p] += g->energy_fj[p];
}

static fs_fj_t mag(fs_fj_t x)
{
	return x < 0 ? -x : x;
}

static const struct fs_report *sort_rep; /* qsort has no context argument in C11 */

static int cmp_group(const void *a, const void *b)
{
	const struct fs_app_group *x = a, *y = b;
	fs_fj_t dx = mag(fs_process_delta(sort_rep, &x->sum)), dy = mag(fs_process_delta(sort_rep, &y->sum));

	if (dx != dy)
		return dx > dy ? -1 : 1;
	return x->procs[0] < y->procs[0] ? -1 : x->procs[0] > y->procs[0];
}

int fs_app_groups(const struct fs_report *r, struct fs_app_group **out, size_t *nr)
{
	size_t np = r->nr_procs ? r->nr_procs : 1, n = 0;
	/* one block: the groups, then their process indices (each group's a run), then each process's group */
	struct fs_app_group *g = calloc(1, np * (sizeof(*g) + 2 * sizeof(size_t)));

	if (!g)
		return -1;
	size_t *idx = (size_t *)(g + np), *grp = idx + np;
	for (size_t i = 0; i < r->nr_procs; i++) {
		const struct fs_process *p = &r->procs[i];
		size_t k = n, napp;

		fs_apps_find(r->apps, p->uid, &napp);
		if (napp) /* an app's processes share its uid */
			for (k = 0; k < n && !(g[k].is_app && g[k].uid == p->uid); k++)
				;
		if (k == n)
			g[n++] = (struct fs_app_group){ .is_app = napp > 0, .uid = p->uid };
		g[k].nr_procs++;
		add_to(&g[k].sum, p);
		grp[i] = k;
	}
	size_t at = 0;
	for (size_t k = 0; k < n; k++) {
		g[k].procs = idx + at;
		at += g[k].nr_procs;
		g[k].nr_procs = 0;
	}
	for (size_t i = 0; i < r->nr_procs; i++)
		g[grp[i]].procs[g[grp[i]].nr_procs++] = i;
	sort_rep = r;
	qsort(g, n, sizeof(*g), cmp_group);
	*out = g;
	*nr = n;
	return 0;
}

void fs_app_groups_free(struct fs_app_group *g, size_t nr)
{
	(void)nr; /* one block */
	free(g);
}

/* An app's row: its label where a process row has TGID, COMM and THR (on a line of its own if longer). */
static void app_row(FILE *out, const struct fs_report *r, const struct fs_app_group *g)
{
	char label[FS_COLUMNS - 1], line[160];

	fs_apps_label(r->apps, g->uid, label, sizeof(label));
	fs_process_row(line, sizeof(line), r, &g->sum);
	if (strlen(label) > LABEL_COLS) {
		fprintf(out, "  %s\n", label);
		label[0] = 0;
	}
	fprintf(out, "  %-*s%s\n", LABEL_COLS, label, strlen(line) > 2 + LABEL_COLS ? line + 2 + LABEL_COLS : "");
}

void fs_print_apps(FILE *out, const struct fs_report *r, size_t max)
{
	struct fs_app_group *g;
	size_t n;
	char line[160];

	if (fs_app_groups(r, &g, &n)) {
		fs_print_processes(out, r, max); /* no memory for the groups: by process, as without apps */
		return;
	}
	fs_process_header(line, sizeof(line));
	fprintf(out, "%s\n", line);
	for (size_t k = 0; k < n && k < max; k++) {
		if (g[k].is_app)
			app_row(out, r, &g[k]);
		for (size_t i = 0; i < g[k].nr_procs && i < APP_PROCS; i++) {
			fs_process_row(line, sizeof(line), r, &r->procs[g[k].procs[i]]);
			fprintf(out, "%s\n", line);
			if (r->threads)
				fs_print_threads(out, r, &r->procs[g[k].procs[i]]);
		}
		if (g[k].nr_procs > APP_PROCS)
			fprintf(out, "  %8s (+%zu more processes)\n", "", g[k].nr_procs - APP_PROCS);
	}
	if (!n)
		fprintf(out, "  (none)\n");
	fs_app_groups_free(g, n);
}

static enum fs_app_order sort_by; /* qsort has no context argument in C11 */

static __u64 key_of(const struct fs_process *p)
{
	return sort_by == FS_APP_BY_WAKEUPS ? p->wakeups : p->runtime_ns;
}

static int cmp_group_key(const void *a, const void *b)
{
	const struct fs_app_group *x = a, *y = b;
	__u64 kx = key_of(&x->sum), ky = key_of(&y->sum);

	if (kx != ky)
		return kx > ky ? -1 : 1;
	return x->procs[0] < y->procs[0] ? -1 : x->procs[0] > y->procs[0];
}

static int cmp_proc_key(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	__u64 kx = key_of(&sort_rep->procs[x]), ky = key_of(&sort_rep->procs[y]);

	if (kx != ky)
		return kx > ky ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* An app's row in one line: its label cut to the 29 columns it has (shared uids list fewer names). */
static void app_line(char *line, size_t len, const struct fs_report *r, const struct fs_app_group *g)
{
	char label[LABEL_COLS + 1], row[FS_APP_ROW];

	fs_apps_label(r->apps, g->uid, label, sizeof(label));
	fs_process_row(row, sizeof(row), r, &g->sum);
	snprintf(line, len, "  %-*s%s", LABEL_COLS, label, strlen(row) > 2 + LABEL_COLS ? row + 2 + LABEL_COLS : "");
}

int fs_app_rows(const struct fs_report *r, enum fs_app_order by, char (*line)[FS_APP_ROW], int max)
{
	struct fs_app_group *g;
	size_t n;
	int k = 0;

	if (fs_app_groups(r, &g, &n))
		return -1;
	if (by != FS_APP_BY_MARGIN) { /* the groups come by |margin cost|; the processes in the report's order */
		sort_rep = r;
		sort_by = by;
		qsort(g, n, sizeof(*g), cmp_group_key);
		for (size_t i = 0; i < n; i++)
			qsort(g[i].procs, g[i].nr_procs, sizeof(*g[i].procs), cmp_proc_key);
	}
	for (size_t i = 0; i < n && k < max; i++) {
		if (g[i].is_app)
			app_line(line[k++], FS_APP_ROW, r, &g[i]);
		for (size_t j = 0; j < g[i].nr_procs && j < (g[i].is_app ? VIEW_PROCS : 1) && k < max; j++)
			fs_process_row(line[k++], FS_APP_ROW, r, &r->procs[g[i].procs[j]]);
		if (g[i].is_app && g[i].nr_procs > VIEW_PROCS && k < max)
			snprintf(line[k++], FS_APP_ROW, "  %8s (+%zu more processes)", "", g[i].nr_procs - VIEW_PROCS);
	}
	fs_app_groups_free(g, n);
	return k;
}

// SPDX-License-Identifier: GPL-2.0
/* The JSON report's "apps" array and each process's "app" (--packages, docs/apps.md). */
#include "json_apps.h"
#include "json_sim.h"
#include "apps_group.h"
#include "../engine/apps.h"

static void mj(FILE *o, fs_fj_t fj)
{
	char b[64];

	fs_fmt_fj(b, sizeof(b), fj, 12, 6); /* as json.c: exact to the nJ */
	fputs(b, o);
}

void fs_json_process_app(FILE *o, const struct fs_report *r, __u32 uid)
{
	char label[256];

	if (!r->apps)
		return;
	fputs(", \"app\": ", o);
	if (fs_apps_label(r->apps, uid, label, sizeof(label)))
		fs_json_str(o, label, sizeof(label));
	else
		fputs("null", o);
}

/* One app: its uid, packages (several: a shared uid), processes and what they add up to. */
static void write_app(FILE *o, const struct fs_report *r, const struct fs_app_group *g)
{
	size_t n, at = fs_apps_find(r->apps, g->uid, &n);
	char label[256];

	fs_apps_label(r->apps, g->uid, label, sizeof(label));
	fprintf(o, "    {\"uid\": %u, \"label\": ", g->uid);
	fs_json_str(o, label, sizeof(label));
	fprintf(o, ", \"shared_uid\": %s, \"packages\": [", n > 1 ? "true" : "false");
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", o);
		fs_json_str(o, r->apps->pkgs[at + i].name, 256);
	}
	fputs("], \"tgids\": [", o);
	for (size_t i = 0; i < g->nr_procs; i++)
		fprintf(o, "%s%d", i ? ", " : "", r->procs[g->procs[i]].tgid);
	fprintf(o, "], \"threads\": %d, \"runtime_ns\": %llu, \"wakeups\": %llu, \"delta_mj\": [", g->sum.nr_threads,
		(unsigned long long)g->sum.runtime_ns, (unsigned long long)g->sum.wakeups);
	for (int v = 0; v < r->nr_verdicts; v++) {
		fputs(v ? ", " : "", o);
		mj(o, g->sum.delta_fj[v]);
	}
	fputs("], \"energy_vs_reference_mj\": [", o);
	for (int p = 0; p < r->st->nr_policies; p++) {
		fputs(p ? ", " : "", o);
		mj(o, g->sum.energy_fj[p]);
	}
	fputs("]}", o);
}

void fs_json_apps(FILE *o, const struct fs_report *r)
{
	struct fs_app_group *g;
	size_t n, k = 0;

	if (!r->apps)
		return;
	fputs("  \"apps_from\": ", o);
	fs_json_str(o, r->apps->from, sizeof(r->apps->from));
	fputs(",\n", o);
	if (fs_app_groups(r, &g, &n)) {
		fputs("  \"apps\": null,\n", o); /* out of memory: said, not left out */
		return;
	}
	fputs("  \"apps\": [", o);
	for (size_t i = 0; i < n; i++) {
		if (!g[i].is_app)
			continue;
		fputs(k++ ? ",\n" : "\n", o);
		write_app(o, r, &g[i]);
	}
	fputs(k ? "\n  ],\n" : "],\n", o);
	fs_app_groups_free(g, n);
}

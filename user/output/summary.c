// SPDX-License-Identifier: GPL-2.0
/* The text summary (summary.h): verdict first, every line within 80 columns. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "summary.h"
#include "apps_group.h"
#include "../engine/apps.h"
#include "summary_sim.h"
#include "summary_trace.h"
#include "verdict_lead.h"
#include "out_file.h"
#include "../filter.h"

/* ---- small formatters ---- */

static void fmt_mj(char *buf, size_t len, fs_fj_t fj)
{
	fs_fmt_fj(buf, len, fj, 12, 3);
}

/* fj / span as mW with one decimal, signed ("+16.5"); "-" without a span. fJ / ns = µW. */
static void fmt_mean_mw(char *buf, size_t len, fs_fj_t fj, __u64 span_ns, bool plus)
{
	char num[48];

	if (!span_ns) {
		snprintf(buf, len, "-");
		return;
	}
	fs_fmt_fj(num, sizeof(num), fj / (fs_fj_t)span_ns, 3, 1);
	snprintf(buf, len, "%s%s", plus && num[0] != '-' ? "+" : "", num);
}

static void fmt_pct(char *buf, size_t len, fs_fj_t a, fs_fj_t b, bool plus)
{
	char num[48];

	fs_fmt_ratio_pct(num, sizeof(num), a, b, 1);
	snprintf(buf, len, "%s%s", plus && num[0] != '-' && b ? "+" : "", num);
}

/* comm as printable ASCII ('?' for others). */
static void clean_comm(char *out, const char *comm)
{
	int n = 0;

	for (; n < FS_COMM_LEN - 1 && comm[n]; n++)
		out[n] = (unsigned char)comm[n] < 0x20 || (unsigned char)comm[n] >= 0x7f ? '?' : comm[n];
	out[n] = 0;
}

/* Print text after prefix, wrapped at spaces to FS_COLUMNS; continuation lines indented by indent. */
static void wrap(FILE *out, const char *prefix, const char *text, int indent)
{
	int col = fprintf(out, "%s", prefix);
	const char *p = text;

	while (*p) {
		const char *e = strchr(p, ' ');
		int wl = e ? (int)(e - p) : (int)strlen(p);

		if (col + wl + (col > indent ? 1 : 0) > FS_COLUMNS && col > indent) {
			col = fprintf(out, "\n%*s", indent, "") - 1;
		} else if (p != text) {
			fputc(' ', out);
			col++;
		}
		col += fprintf(out, "%.*s", wl, p);
		p += wl;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
}

/* ---- the verdict ---- */

/*
 * The line's variants, longest first; the caller takes the first that fits.
 * tag says where the figure comes from when it is not the closed loop's.
 */
static int verdict_variants(char f[][1024], const struct fs_verdict *V, const char *pre, const char *tag,
			    const struct fs_report *r)
{
	char d[80], lo[80], hi[80], t[80], mw[80], pct[80];
	unsigned long long k = V->differ, n = V->decisions;
	int nf = 0;

	fs_fmt_mj_short(d, sizeof(d), V->delta_fj, true);
	fs_fmt_mj_short(lo, sizeof(lo), V->lo_fj, true);
	fs_fmt_mj_short(hi, sizeof(hi), V->hi_fj, true);
	/* seconds with 1 decimal from 10 s on, more for short traces */
	fs_fmt_fj(t, sizeof(t), (fs_fj_t)r->span_ns, 9, r->span_ns >= 10000000000ull ? 1 :
		  r->span_ns >= 1000000000ull ? 2 : 3);
	fmt_mean_mw(mw, sizeof(mw), V->delta_fj, r->span_ns, true);
	fmt_pct(pct, sizeof(pct), V->delta_fj, r->cpu.total_fj, true);
	if (!fs_verdict_has_interval(V)) {
		snprintf(f[nf++], 1024, "%smargin: too short to tell: %s mJ over %s s (%zu time block%s)%s; %llu "
			 "of %llu decisions differ", pre, d, t, V->units, V->units == 1 ? "" : "s", tag, k, n);
		snprintf(f[nf++], 1024, "%smargin: too short to tell: %s mJ over %s s (%zu time block%s)%s",
			 pre, d, t, V->units, V->units == 1 ? "" : "s", tag);
		snprintf(f[nf++], 1024, "%smargin: too short to tell: %s mJ%s", pre, d, tag);
	} else if (V->measurable) {
		snprintf(f[nf++], 1024, "%smargin costs %s mJ (%s..%s) over %s s (%s mW, %s%% of CPU energy)%s; "
			 "%llu of %llu decisions differ", pre, d, lo, hi, t, mw, pct, tag, k, n);
		snprintf(f[nf++], 1024, "%smargin costs %s mJ (%s..%s) over %s s (%s mW, %s%% of CPU "
			 "energy)%s", pre, d, lo, hi, t, mw, pct, tag);
		snprintf(f[nf++], 1024, "%smargin costs %s mJ (%s..%s) over %s s (%s mW, %s%% of CPU)%s",
			 pre, d, lo, hi, t, mw, pct, tag);
		snprintf(f[nf++], 1024, "%smargin %s mJ (%s..%s) in %s s, %s mW, %s%% CPU%s", pre, d, lo, hi,
			 t, mw, pct, tag);
		snprintf(f[nf++], 1024, "%smargin %s mJ (%s..%s), %s%%%s", pre, d, lo, hi, pct, tag);
	} else {
		snprintf(f[nf++], 1024, "%smargin: no measurable difference: %s mJ (%s..%s) over %s s%s; %llu "
			 "of %llu decisions differ", pre, d, lo, hi, t, tag, k, n);
		snprintf(f[nf++], 1024, "%smargin: no measurable difference: %s mJ (%s..%s) over %s s%s", pre,
			 d, lo, hi, t, tag);
		snprintf(f[nf++], 1024, "%smargin: no measurable difference: %s mJ (%s..%s)%s", pre, d, lo, hi,
			 tag);
	}
	return nf;
}

int fs_verdict_line(char *buf, size_t len, const struct fs_report *r, int v)
{
	struct fs_verdict V;
	const char *why;
	const bool sim = fs_verdict_lead(r, v, &V, &why);
	char pre[48] = "", f[16][1024], g[8][1024];
	int nf;

	if (r->nr_verdicts > 1)
		snprintf(pre, sizeof(pre), "%s: ", r->st->pol[V.pol].desc->name);
	/* the closed loop's figure is the answer; the per-decision one says it stands in, shorter if need be */
	nf = verdict_variants(f, &V, pre, sim ? "" : ", per decision (not simulated)", r);
	if (!sim) { /* each variant with the long tag, then with the short one */
		const int ng = verdict_variants(g, &V, pre, ", per decision", r);

		for (int i = ng - 1; i >= 0; i--) {
			memmove(f[2 * i], f[i], sizeof(f[0]));
			memcpy(f[2 * i + 1], g[i], sizeof(f[0]));
		}
		nf += ng;
	}
	for (int i = 0; i < nf; i++)
		if (strlen(f[i]) <= FS_COLUMNS || i == nf - 1)
			return snprintf(buf, len, "%.*s", FS_COLUMNS, f[i]);
	return 0;
}

static void print_verdicts(FILE *out, const struct fs_report *r)
{
	char line[FS_COLUMNS + 1];

	for (int v = 0; v < r->nr_verdicts; v++) {
		fs_verdict_line(line, sizeof(line), r, v);
		fprintf(out, "%s\n", line);
	}
	if (!r->nr_verdicts) {
		if (r->st->nr_policies > 1)
			fprintf(out, "no margin verdict: no policy ran with its no-margin twin (see --policies)\n");
		else
			fprintf(out, "no margin verdict: one policy ran\n");
	}
	if (r->wall_time) /* one line: recordings of format 1, records CSVs without sum_exec_ns */
		fprintf(out, "note: no CPU times in this input: energy by the old wall-time estimate\n");
}

/* ---- the body ---- */

static void print_header(FILE *out, const struct fs_report *r)
{
	const struct fs_stats *st = r->st;
	char buf[64], mean[64], text[512];

	fs_fmt_fj(buf, sizeof(buf), (fs_fj_t)r->span_ns, 9, 6);
	fprintf(out, "time: %s s (%llu .. %llu ns)\n", buf, (unsigned long long)st->first_ts,
		(unsigned long long)st->last_ts);
	fprintf(out, "records %llu; wake-ups %llu (forks %llu); balance migrations %llu; exits %llu\n",
		(unsigned long long)st->records, (unsigned long long)st->wakeups, (unsigned long long)st->forks,
		(unsigned long long)st->migrations, (unsigned long long)st->exits);
	if (st->filtered || (r->filter && fs_filter_active(r->filter))) {
		char by[400] = "";

		if (r->filter)
			fs_filter_describe(r->filter, by, sizeof(by));
		snprintf(text, sizeof(text), "filtered out: %llu wake-ups%s%s%s", (unsigned long long)st->filtered,
			 *by ? " (" : "", by, *by ? ")" : "");
		wrap(out, "", text, 2);
	}
	if (st->lost)
		fprintf(out, "LOST: %llu records dropped before they reached feecscope\n",
			(unsigned long long)st->lost);
	else
		fprintf(out, "lost records: 0\n");
	snprintf(text, sizeof(text), "%s (%d CPUs, %d PDs); kernel %s", r->em->source, r->em->nr_cpus,
		 r->em->nr_pd, r->kernel_release && *r->kernel_release ? r->kernel_release : "unknown");
	wrap(out, "EM: ", text, 4);
	fprintf(out, "EAS gates: %s\n", r->emulate_eas ? "emulated from the landscape (EM is not the recorded "
		"kernel's)" : "as the kernel recorded them");
	snprintf(text, sizeof(text), "overutilized %llu; feec-eligible under %s %llu; kernel placement known %llu",
		 (unsigned long long)st->overutilized, st->pol[0].desc->name, (unsigned long long)st->feec_eligible,
		 (unsigned long long)st->kernel_known);
	wrap(out, "wake-ups: ", text, 4);
	/* what a collector without fentry on select_task_rq_fair lost, told from the records themselves */
	if (st->flags_unknown) {
		snprintf(text, sizeof(text), "not recorded for %llu of %llu wake-ups (live reads them with fentry "
			 "on select_task_rq_fair): wakelist wake-ups, where feec does not run, count as decisions",
			 (unsigned long long)st->flags_unknown, (unsigned long long)st->wakeups);
		wrap(out, "wake flags: ", text, 4);
	}
	fmt_mj(buf, sizeof(buf), r->cpu.total_fj);
	fmt_mean_mw(mean, sizeof(mean), r->cpu.total_fj, r->span_ns, false);
	if (r->wall_time)
		snprintf(text, sizeof(text), "%s mJ under %s placements (mean %s mW), wall-time estimate", buf,
			 st->pol[0].desc->name, mean);
	else
		snprintf(text, sizeof(text), "%s mJ (mean %s mW); busy time: %s%s; frequencies: %s", buf, mean,
			 fs_busy_source_name(r->cpu.busy_src),
			 r->cpu.busy_floored ? " (raised to the tasks' CPU time on some CPUs)" : "",
			 fs_freq_source_name(r->cpu.freq_src));
	wrap(out, "CPU energy: ", text, 4);
	if (!r->wall_time) {
		fs_fmt_fj(buf, sizeof(buf), (fs_fj_t)r->tot->runtime_ns, 9, 3);
		fprintf(out, "task CPU time: %s s in %llu placements; %llu with unknown CPU time (charged 0)\n",
			buf, (unsigned long long)r->tot->intervals, (unsigned long long)r->tot->unresolved);
	}
	fputc('\n', out);
}

/* The verdicts again with what they rest on, one block each. */
static void print_verdict_detail(FILE *out, const struct fs_report *r)
{
	char d[64], lo[64], hi[64], text[512];

	for (int v = 0; v < r->nr_verdicts; v++) {
		const struct fs_verdict *V = &r->verdicts[v];

		fmt_mj(d, sizeof(d), V->delta_fj);
		fmt_mj(lo, sizeof(lo), V->lo_fj);
		fmt_mj(hi, sizeof(hi), V->hi_fj);
		char width[32];

		fs_fmt_fj(width, sizeof(width), (fs_fj_t)V->block_ns, 9, 2); /* blocks are whole 10 ms bins */
		if (!fs_verdict_has_interval(V))
			snprintf(text, sizeof(text), "E(%s) - E(%s) = %s mJ, no interval: %zu time block%s of %s s, "
				 "fewer than %d; %llu of %llu decisions differ", r->st->pol[V->pol].desc->name,
				 r->st->pol[V->twin].desc->name, d, V->units, V->units == 1 ? "" : "s", width, FS_VERDICT_MIN_UNITS,
				 (unsigned long long)V->differ, (unsigned long long)V->decisions);
		else
			snprintf(text, sizeof(text), "E(%s) - E(%s) = %s mJ, 95%% interval %s .. %s mJ (bootstrap "
				 "over %zu time blocks of %s s), pricing each decision on the recorded trace; %llu of "
				 "%llu decisions differ",
				 r->st->pol[V->pol].desc->name, r->st->pol[V->twin].desc->name, d, lo, hi, V->units,
				 width, (unsigned long long)V->differ, (unsigned long long)V->decisions);
		wrap(out, "per decision: ", text, 14);
	}
	if (r->nr_verdicts)
		fputc('\n', out);
}

/*
 * One plain sentence on whether any policy explains the kernel's own choices:
 * on many phones vendor hooks (Pixel's, MediaTek's) or Qualcomm's WALT replace
 * mainline feec, and the agreement figures are how that shows.
 */
#define FS_EXPLAINS_PCT 95 /* agreement at or above this "explains" the kernel */

static void print_kernel_verdict(FILE *out, const struct fs_report *r)
{
	const struct fs_stats *st = r->st;
	char text[512], pct[32];
	int best = -1;

	if (r->emulate_eas) {
		wrap(out, "", "kernel agreement: not a test of the kernel: EAS was emulated, the recorded kernel "
		     "did not run feec with this EM", 2);
		return;
	}
	for (int i = 0; i < st->nr_policies; i++) {
		const struct fs_policy_stats *p = &st->pol[i];
		/* Compare shares without division: a/b > c/d <=> a*d > c*b. */
		if (p->kernel_known && (best < 0 || p->agree_kernel * st->pol[best].kernel_known >
							  st->pol[best].agree_kernel * p->kernel_known))
			best = i;
	}
	if (best < 0) {
		fprintf(out, "kernel agreement: no eligible wake-up with a known kernel placement\n");
		return;
	}
	const struct fs_policy_stats *b = &st->pol[best];
	fs_fmt_ratio_pct(pct, sizeof(pct), (fs_fj_t)b->agree_kernel, (fs_fj_t)b->kernel_known, 1);
	if (b->agree_kernel * 100 >= (__u64)FS_EXPLAINS_PCT * b->kernel_known)
		snprintf(text, sizeof(text), "kernel agreement: %s explains the kernel's placements (%s%%)",
			 b->desc->name, pct);
	else
		snprintf(text, sizeof(text), "kernel agreement: no policy explains the kernel's placements (best "
			 "%s, %s%% < %d%%): vendor placement (WALT, vendor feec hooks) or a feec this build does "
			 "not model", b->desc->name, pct, FS_EXPLAINS_PCT);
	wrap(out, "", text, 2);
}

static void print_policies(FILE *out, const struct fs_report *r)
{
	const struct fs_stats *st = r->st;
	char mj[64], pct[32], agree[32], name[48], text[1024];

	fprintf(out, "%-18s %8s %8s %8s %8s %13s %8s\n", "policy", "decided", "eligible", "differ", "=kernel",
		"vs ref mJ", "% CPU");
	for (int i = 0; i < st->nr_policies; i++) {
		const struct fs_policy_stats *p = &st->pol[i];

		snprintf(name, sizeof(name), "%s%s", p->desc->name, i ? "" : " (ref)");
		fs_fmt_ratio_pct(agree, sizeof(agree) - 1, (fs_fj_t)p->agree_kernel, (fs_fj_t)p->kernel_known, 1);
		if (p->kernel_known)
			strcat(agree, "%");
		fmt_mj(mj, sizeof(mj), r->tot->energy_fj[i]);
		fs_fmt_ratio_pct(pct, sizeof(pct), r->tot->energy_fj[i], r->cpu.total_fj, 2);
		fprintf(out, "%-18s %8llu %8llu %8llu %8s %13s %8s\n", name, (unsigned long long)p->decided,
			(unsigned long long)p->eligible, (unsigned long long)p->differ, agree, mj, pct);
	}
	print_kernel_verdict(out, r);
	fputc('\n', out);
	fprintf(out, "reasons:\n");
	for (int i = 0; i < st->nr_policies; i++) {
		int n = 0;

		text[0] = 0;
		for (int k = 0; k < FS_FEEC__NR; k++)
			if (st->pol[i].reasons[k])
				n += snprintf(text + n, sizeof(text) - n, "%s%s %llu", n ? " " : "",
					      fs_feec_reason_name(k), (unsigned long long)st->pol[i].reasons[k]);
		char pre[40];
		snprintf(pre, sizeof(pre), "  %-16s ", st->pol[i].desc->name);
		wrap(out, pre, text, 19);
	}
	fputc('\n', out);
}

static void print_pd_moves(FILE *out, const struct fs_report *r)
{
	const struct fs_stats *st = r->st;
	int n = r->em->nr_pd;

	fprintf(out, "PD transitions (row: prev_cpu's PD, column: the PD feec chose):\n");
	for (int i = 0; i < st->nr_policies; i++) {
		fprintf(out, "  %-15.15s", st->pol[i].desc->name); /* "v6.12.97+margin" */
		for (int c = 0; c < n; c++)
			fprintf(out, " %7.7s", r->em->pd[c].name);
		fputc('\n', out);
		for (int row = 0; row < n; row++) {
			fprintf(out, "    %-13.13s", r->em->pd[row].name);
			for (int c = 0; c < n; c++)
				fprintf(out, " %7llu", (unsigned long long)st->pol[i].pd_moves[row][c]);
			fputc('\n', out);
		}
	}
	fputc('\n', out);
}

/* The non-empty buckets of the two histograms side by side, one bucket a row (55 columns). */
static void print_hists(FILE *out, const struct fs_policy_stats *p)
{
	int a = 0, b = 0;

	fprintf(out, "    %-16s %8s    %-16s %8s\n", "% of threshold", "wake-ups", "saving in uW", "wake-ups");
	for (;;) {
		while (a < FS_HIST_BUCKETS && !p->blocked_hist[a])
			a++;
		while (b < FS_HIST_BUCKETS && !p->blocked_hist_uw[b])
			b++;
		if (a >= FS_HIST_BUCKETS && b >= FS_HIST_BUCKETS)
			break;
		if (a < FS_HIST_BUCKETS)
			fprintf(out, "    %-16s %8llu", fs_acct_pct_label(a), (unsigned long long)p->blocked_hist[a]);
		else
			fprintf(out, "    %25s", "");
		if (b < FS_HIST_BUCKETS)
			fprintf(out, "    %-16s %8llu", fs_acct_uw_label(b), (unsigned long long)p->blocked_hist_uw[b]);
		fputc('\n', out);
		a++, b++;
	}
}

static void print_blocked(FILE *out, const struct fs_report *r)
{
	const struct fs_stats *st = r->st;
	bool any_margin = false;

	wrap(out, "", "margin-blocked savings (margin kept prev although a cheaper CPU was found and the twin, "
	     "if run, moved):", 2);
	for (int i = 0; i < st->nr_policies; i++) {
		const struct fs_policy_stats *p = &st->pol[i];
		if (!p->desc->has_margin)
			continue;
		any_margin = true;
		fprintf(out, "  %s: %llu wake-ups\n", p->desc->name, (unsigned long long)p->blocked);
		if (!p->blocked)
			continue;
		print_hists(out, p);
	}
	if (!any_margin)
		fprintf(out, "  (no policy with a margin was run)\n");
	fputc('\n', out);
}

void fs_print_threads(FILE *out, const struct fs_report *r, const struct fs_process *g)
{
	char comm[FS_COMM_LEN], ms[32], mj[64];
	int k = r->nr_verdicts ? 0 : -1;

	for (size_t i = 0; i < fs_acct_nr_tasks(r->acct); i++) {
		const struct fs_task_acct *t = fs_acct_task_at_c(r->acct, i);

		if (t->tgid != g->tgid)
			continue;
		fs_fj_t d = k >= 0 ? t->energy_fj[r->verdicts[k].pol] - t->energy_fj[r->verdicts[k].twin] :
			    r->st->nr_policies > 1 ? t->energy_fj[1] : 0;
		clean_comm(comm, t->comm);
		fs_fmt_fj(ms, sizeof(ms), (fs_fj_t)t->runtime_ns, 6, 1);
		fmt_mj(mj, sizeof(mj), d);
		fprintf(out, "  %8d %-15s %4s %8llu %10s %11s\n", t->pid, comm, "", (unsigned long long)t->wakeups,
			ms, mj);
	}
}

int fs_process_header(char *buf, size_t len)
{
	return snprintf(buf, len, "  %8s %-15s %4s %8s %10s %11s %9s", "TGID", "COMM", "THR", "WAKEUPS", "CPU ms",
			"mJ", "mean mW");
}

fs_fj_t fs_process_delta(const struct fs_report *r, const struct fs_process *g)
{
	return r->nr_verdicts ? g->delta_fj[0] : r->st->nr_policies > 1 ? g->energy_fj[1] : 0;
}

int fs_process_row(char *buf, size_t len, const struct fs_report *r, const struct fs_process *g)
{
	char comm[FS_COMM_LEN], ms[32], mj[64], mw[48];
	fs_fj_t d = fs_process_delta(r, g);

	clean_comm(comm, g->comm);
	fs_fmt_fj(ms, sizeof(ms), (fs_fj_t)g->runtime_ns, 6, 1);
	fmt_mj(mj, sizeof(mj), d);
	fmt_mean_mw(mw, sizeof(mw), d, r->span_ns, false);
	return snprintf(buf, len, "  %8d %-15s %4d %8llu %10s %11s %9s", g->tgid, comm, g->nr_threads,
			(unsigned long long)g->wakeups, ms, mj, mw);
}

void fs_print_processes(FILE *out, const struct fs_report *r, size_t max)
{
	char line[160];

	fs_process_header(line, sizeof(line));
	fprintf(out, "%s\n", line);
	for (size_t i = 0; i < r->nr_procs && i < max; i++) {
		const struct fs_process *g = &r->procs[i];

		fs_process_row(line, sizeof(line), r, g);
		fprintf(out, "%s\n", line);
		if (r->threads)
			fs_print_threads(out, r, g);
	}
	if (!r->nr_procs)
		fprintf(out, "  (none)\n");
}

static void print_top(FILE *out, const struct fs_report *r)
{
	const struct fs_stats *st = r->st;
	char text[256];

	const char *what = r->apps ? "apps (their processes under them) and processes" : "processes";

	if (r->nr_verdicts)
		snprintf(text, sizeof(text), "%s by |margin cost|, E(%s) - E(%s), + = the margin costs:", what,
			 st->pol[r->verdicts[0].pol].desc->name, st->pol[r->verdicts[0].twin].desc->name);
	else
		snprintf(text, sizeof(text), "%s by |energy difference| of %s vs %s:", what,
			 st->pol[st->nr_policies > 1 ? 1 : 0].desc->name, st->pol[0].desc->name);
	if (r->apps) { /* which list named them: --packages, the device's own, or the recording's */
		char from[FS_APPS_FROM + 64];

		snprintf(from, sizeof(from), "apps named from %s (%zu packages)", r->apps->from[0] ? r->apps->from :
			 "a packages list", r->apps->nr);
		wrap(out, "", from, 2);
	}
	wrap(out, "", text, 2);
	if (r->apps)
		fs_print_apps(out, r, FS_TOP_TASKS);
	else
		fs_print_processes(out, r, FS_TOP_TASKS);
}

void fs_summary_print(FILE *out, const struct fs_report *r)
{
	if (r->sim && r->sim->from_trace) { /* no records: the simulation's answer alone */
		fs_summary_trace_print(out, r, wrap);
		return;
	}
	print_verdicts(out, r);
	if (r->head)
		wrap(out, "", r->head, 2);
	fputc('\n', out);
	print_header(out, r);
	print_verdict_detail(out, r);
	fs_summary_sim(out, r, wrap);
	print_policies(out, r);
	print_pd_moves(out, r);
	print_blocked(out, r);
	print_top(out, r);
}

/* ---- as an output ---- */

struct summary_out {
	FILE *f;
	struct fs_out_file out; /* a file of its own (out.f == f); unused when f is the caller's */
};

static int summary_finish(void *self, const struct fs_report *rep, char *err, size_t errlen)
{
	struct summary_out *s = self;

	fs_summary_print(s->f, rep);
	if (s->out.f) {
		s->f = NULL;
		return fs_out_commit(&s->out, err, errlen);
	}
	if (fflush(s->f)) {
		snprintf(err, errlen, "summary: write: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void summary_free(void *self)
{
	struct summary_out *s = self;

	fs_out_abort(&s->out);
	free(s);
}

static const struct fs_output_ops summary_ops = { .finish = summary_finish, .free = summary_free };

int fs_output_summary(struct fs_output *o, FILE *out, const char *path, char *err, size_t errlen)
{
	struct summary_out *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(err, errlen, "%s: out of memory", path ? path : "summary");
		return -1;
	}
	s->f = out;
	if (!out) {
		if (fs_out_open(&s->out, path, err, errlen)) {
			free(s);
			return -1;
		}
		s->f = s->out.f;
	}
	o->ops = &summary_ops;
	o->self = s;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/* Text summary of a run: counts, energy per policy, agreement, PD transitions, blocked savings, top tasks. */
#include <string.h>
#include "summary.h"

int fs_fmt_ratio_pct(char *buf, size_t len, fs_fj_t a, fs_fj_t b, int decimals)
{
	if (!b)
		return snprintf(buf, len, "-");
	fs_fj_t scale = 100;
	for (int i = 0; i < decimals; i++)
		scale *= 10;
	bool neg = (a < 0) != (b < 0);
	unsigned __int128 ua = a < 0 ? -(unsigned __int128)a : (unsigned __int128)a;
	unsigned __int128 ub = b < 0 ? -(unsigned __int128)b : (unsigned __int128)b;
	/* |a|*scale/|b| rounded half away from zero; |a| < 2^100 for any real trace */
	fs_fj_t q = (fs_fj_t)((ua * (unsigned __int128)scale + ub / 2) / ub);
	return fs_fmt_fj(buf, len, neg ? -q : q, decimals, decimals);
}

static void fmt_mj(char *buf, size_t len, fs_fj_t fj)
{
	fs_fmt_fj(buf, len, fj, 12, 3);
}

static void print_header(FILE *out, const struct fs_summary *s)
{
	const struct fs_stats *st = s->st;
	char buf[64], mean[64];

	fprintf(out, "feecscope summary\n");
	fprintf(out, "records: %llu; wake-ups: %llu (forks %llu); balance migrations: %llu; filtered out: %llu",
		(unsigned long long)st->records, (unsigned long long)st->wakeups, (unsigned long long)st->forks,
		(unsigned long long)st->migrations, (unsigned long long)st->filtered);
	if (s->pid_filter)
		fprintf(out, " (--pid %d)", s->pid_filter);
	if (s->comm_filter)
		fprintf(out, " (--comm %s)", s->comm_filter);
	fputc('\n', out);
	if (st->lost)
		fprintf(out, "LOST: %llu records dropped before they reached feecscope; every figure below misses them\n",
			(unsigned long long)st->lost);
	else
		fprintf(out, "lost records: 0\n");
	__u64 span = st->last_ts > st->first_ts ? st->last_ts - st->first_ts : 0;
	fs_fmt_fj(buf, sizeof(buf), (fs_fj_t)span, 9, 6);
	fprintf(out, "time: %llu .. %llu ns (%s s)\n", (unsigned long long)st->first_ts,
		(unsigned long long)st->last_ts, buf);
	fprintf(out, "EM: %s (%d CPUs, %d PDs); kernel: %s; EAS gates: %s\n", s->em->source, s->em->nr_cpus,
		s->em->nr_pd, s->kernel_release && *s->kernel_release ? s->kernel_release : "unknown",
		s->emulate_eas ? "emulated from the landscape (EM is not the recorded kernel's)" : "as the kernel recorded them");
	fprintf(out, "wake-ups: overutilized %llu; feec-eligible under %s %llu; kernel placement known %llu\n",
		(unsigned long long)st->overutilized, st->pol[0].desc->name, (unsigned long long)st->feec_eligible,
		(unsigned long long)st->kernel_known);
	fmt_mj(buf, sizeof(buf), s->total_fj);
	/* mean power = energy / span: fJ / ns = µW */
	if (span)
		fs_fmt_fj(mean, sizeof(mean), s->total_fj / (fs_fj_t)span, 0, 0);
	else
		snprintf(mean, sizeof(mean), "-");
	fprintf(out, "estimated CPU energy under %s placements: %s mJ (mean %s uW)\n\n", st->pol[0].desc->name, buf, mean);
}

/*
 * One plain sentence on whether any policy explains the kernel's own choices:
 * on many phones vendor hooks (Pixel's, MediaTek's) or Qualcomm's WALT replace
 * mainline feec, and the agreement figures are how that shows.
 */
#define FS_EXPLAINS_PCT 95 /* agreement at or above this "explains" the kernel */

static void print_kernel_verdict(FILE *out, const struct fs_summary *s)
{
	const struct fs_stats *st = s->st;
	int best = -1;

	if (s->emulate_eas) {
		fprintf(out, "kernel agreement: not a test of the kernel: EAS was emulated, the recorded kernel did not run feec with this EM\n");
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
	char pct[32];
	fs_fmt_ratio_pct(pct, sizeof(pct), (fs_fj_t)b->agree_kernel, (fs_fj_t)b->kernel_known, 1);
	if (b->agree_kernel * 100 >= (__u64)FS_EXPLAINS_PCT * b->kernel_known)
		fprintf(out, "kernel agreement: %s explains the kernel's placements (%s%%)\n", b->desc->name, pct);
	else
		fprintf(out, "kernel agreement: no policy explains the kernel's placements (best %s, %s%% < %d%%): "
			"vendor placement (WALT, vendor feec hooks) or a feec this build does not model\n",
			b->desc->name, pct, FS_EXPLAINS_PCT);
}

static void print_policies(FILE *out, const struct fs_summary *s)
{
	const struct fs_stats *st = s->st;
	char mj[64], pct[32], agree[96], name[48];

	fprintf(out, "%-18s %9s %9s %8s %20s %14s %9s\n", "policy", "decided", "eligible", "differ",
		"agrees with kernel", "energy mJ", "vs total");
	for (int i = 0; i < st->nr_policies; i++) {
		const struct fs_policy_stats *p = &st->pol[i];
		snprintf(name, sizeof(name), "%s%s", p->desc->name, i ? "" : " (ref)");
		fs_fmt_ratio_pct(pct, sizeof(pct), (fs_fj_t)p->agree_kernel, (fs_fj_t)p->kernel_known, 1);
		snprintf(agree, sizeof(agree), "%llu/%llu %s%s", (unsigned long long)p->agree_kernel,
			 (unsigned long long)p->kernel_known, pct, p->kernel_known ? "%" : "");
		fmt_mj(mj, sizeof(mj), s->pol_fj[i]);
		fs_fmt_ratio_pct(pct, sizeof(pct), s->pol_fj[i], s->total_fj, 2);
		fprintf(out, "%-18s %9llu %9llu %8llu %20s %14s %8s%s\n", name, (unsigned long long)p->decided,
			(unsigned long long)p->eligible, (unsigned long long)p->differ, agree, mj, pct,
			s->total_fj ? "%" : "");
	}
	print_kernel_verdict(out, s);
	fputc('\n', out);
	fprintf(out, "reasons:\n");
	for (int i = 0; i < st->nr_policies; i++) {
		fprintf(out, "  %-16s", st->pol[i].desc->name);
		for (int r = 0; r < FS_FEEC__NR; r++)
			if (st->pol[i].reasons[r])
				fprintf(out, " %s %llu", fs_feec_reason_name(r), (unsigned long long)st->pol[i].reasons[r]);
		fputc('\n', out);
	}
	fputc('\n', out);
}

static void print_pd_moves(FILE *out, const struct fs_summary *s)
{
	const struct fs_stats *st = s->st;
	int n = s->em->nr_pd;

	fprintf(out, "PD transitions (row: prev_cpu's PD, column: chosen PD; wake-ups where feec returned a CPU):\n");
	for (int i = 0; i < st->nr_policies; i++) {
		fprintf(out, "  %-16s", st->pol[i].desc->name);
		for (int c = 0; c < n; c++)
			fprintf(out, " %10.10s", s->em->pd[c].name);
		fputc('\n', out);
		for (int r = 0; r < n; r++) {
			fprintf(out, "    %-14.14s", s->em->pd[r].name);
			for (int c = 0; c < n; c++)
				fprintf(out, " %10llu", (unsigned long long)st->pol[i].pd_moves[r][c]);
			fputc('\n', out);
		}
	}
	fputc('\n', out);
}

static void print_blocked(FILE *out, const struct fs_summary *s)
{
	const struct fs_stats *st = s->st;
	bool any_margin = false;

	fprintf(out, "margin-blocked savings (margin kept prev although a cheaper CPU was found and the twin, if run, moved):\n");
	for (int i = 0; i < st->nr_policies; i++) {
		const struct fs_policy_stats *p = &st->pol[i];
		if (!p->desc->has_margin)
			continue;
		any_margin = true;
		fprintf(out, "  %s: %llu wake-ups\n", p->desc->name, (unsigned long long)p->blocked);
		if (!p->blocked)
			continue;
		fprintf(out, "    saving as %% of threshold:");
		for (int b = 0; b < FS_HIST_BUCKETS; b++)
			if (p->blocked_hist[b])
				fprintf(out, " %s:%llu", fs_acct_pct_label(b), (unsigned long long)p->blocked_hist[b]);
		fprintf(out, "\n    saving in uW:");
		for (int b = 0; b < FS_HIST_BUCKETS; b++)
			if (p->blocked_hist_uw[b])
				fprintf(out, " %s:%llu", fs_acct_uw_label(b), (unsigned long long)p->blocked_hist_uw[b]);
		fputc('\n', out);
	}
	if (!any_margin)
		fprintf(out, "  (no policy with a margin was run)\n");
	fputc('\n', out);
}

static void print_top(FILE *out, const struct fs_summary *s)
{
	const struct fs_stats *st = s->st;
	int k = st->nr_policies > 1 ? 1 : 0;
	char mj[64];

	fprintf(out, "top tasks by |energy difference| under %s:\n", st->pol[k].desc->name);
	fprintf(out, "  %8s %-16s %9s %8s %14s\n", "pid", "comm", "wake-ups", "differ", "energy mJ");
	for (int i = 0; i < s->nr_top; i++) {
		const struct fs_task_stats *t = &s->top[i];
		char comm[FS_COMM_LEN];
		int n = 0;
		for (; n < FS_COMM_LEN - 1 && t->comm[n]; n++)
			comm[n] = (unsigned char)t->comm[n] < 0x20 || (unsigned char)t->comm[n] >= 0x7f ? '?' : t->comm[n];
		comm[n] = 0;
		fmt_mj(mj, sizeof(mj), s->top_fj[i][k]);
		fprintf(out, "  %8d %-16s %9llu %8llu %14s\n", t->pid, comm, (unsigned long long)t->wakeups,
			(unsigned long long)t->differ[k], mj);
	}
	if (!s->nr_top)
		fprintf(out, "  (none)\n");
}

void fs_summary_print(FILE *out, const struct fs_summary *s)
{
	print_header(out, s);
	print_policies(out, s);
	print_pd_moves(out, s);
	print_blocked(out, s);
	print_top(out, s);
}

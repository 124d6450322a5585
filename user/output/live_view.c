// SPDX-License-Identifier: GPL-2.0
/*
 * Renders the live view each interval: a full screen (ANSI home + clear, no
 * curses, so it works in adb shell) on a terminal, one line otherwise.
 */
#include <stdlib.h>
#include <string.h>
#include "live_view.h"
#include "summary.h"

struct fs_live_view {
	FILE *out;
	bool tty;
	struct fs_live_view_info info;
	bool have_prev;
	double prev_t;
	__u64 prev_wakeups;
	double prev_energy[FS_MAX_POLICIES];
};

struct fs_live_view *fs_live_view_new(FILE *out, bool tty, const struct fs_live_view_info *info)
{
	struct fs_live_view *v = calloc(1, sizeof(*v));

	if (!v)
		return NULL;
	v->out = out;
	v->tty = tty;
	v->info = *info;
	return v;
}

void fs_live_view_free(struct fs_live_view *v)
{
	free(v);
}

static double pct(__u64 a, __u64 b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void pd_table(struct fs_live_view *v, const struct fs_stats *st)
{
	const struct fs_em *em = v->info.em;
	int npol = st->nr_policies < 3 ? st->nr_policies : 3;

	if (!em || em->nr_pd < 1)
		return;
	fprintf(v->out, "\nPD moves, prev_cpu's PD -> chosen PD (wake-ups per policy:");
	for (int i = 0; i < npol; i++)
		fprintf(v->out, " [%d]%s", i, i + 1 < npol ? " /" : ")");
	fprintf(v->out, "\n%-10s", "from\\to");
	for (int b = 0; b < em->nr_pd; b++)
		fprintf(v->out, " %20s", em->pd[b].name);
	fprintf(v->out, "\n");
	for (int a = 0; a < em->nr_pd; a++) {
		fprintf(v->out, "%-10s", em->pd[a].name);
		for (int b = 0; b < em->nr_pd; b++) {
			char cell[64];
			int n = 0;

			for (int i = 0; i < npol; i++)
				n += snprintf(cell + n, sizeof(cell) - n, "%s%llu", i ? "/" : "",
					      (unsigned long long)st->pol[i].pd_moves[a][b]);
			fprintf(v->out, " %20s", cell);
		}
		fprintf(v->out, "\n");
	}
}

static void screen(struct fs_live_view *v, const struct fs_live_sample *s, double wk_rate,
		   const double *mw)
{
	const struct fs_stats *st = s->st;
	const struct fs_live_view_info *in = &v->info;
	FILE *o = v->out;

	fprintf(o, "\033[H\033[2J");
	if (s->rep) {
		char vl[FS_COLUMNS + 1];

		for (int i = 0; i < s->rep->nr_verdicts; i++) {
			fs_verdict_line(vl, sizeof(vl), s->rep, i);
			fprintf(o, "%s\n", vl);
		}
	}
	fprintf(o, "feecscope live   kernel %s   up %.1f s   refresh %.1f s\n", in->kernel_release,
		s->elapsed_s, in->interval_s);
	fprintf(o, "EM: %s%s\n", in->em_source,
		in->emulate_eas ? "   [EAS emulated: not this kernel's own EM]" : "");
	fprintf(o, "collector: %s\n", in->collector);
	fprintf(o, "policies:");
	for (int i = 0; i < in->nr_policies; i++)
		fprintf(o, "  [%d] %s%s", i, in->policy_names[i], i == 0 ? " (reference)" : "");
	fprintf(o, "\n\n");
	fprintf(o, "wake-ups %9.0f/s   total %llu   forks %llu   load-balance migrations %llu\n", wk_rate,
		(unsigned long long)st->wakeups, (unsigned long long)st->forks,
		(unsigned long long)st->migrations);
	fprintf(o, "feec-eligible %5.1f%%   overutilized %5.1f%%   kernel placement known %5.1f%%\n",
		pct(st->feec_eligible, st->wakeups), pct(st->overutilized, st->wakeups),
		pct(st->kernel_known, st->wakeups));
	fprintf(o, "drops: lost %llu (ring buffer full %llu, nested in our own program %llu)   "
		"unplaced (expired) %llu   filtered %llu\n",
		(unsigned long long)st->lost, (unsigned long long)s->cnt[FS_CNT_LOST],
		(unsigned long long)s->cnt[FS_CNT_NESTED], (unsigned long long)s->pair->expired,
		(unsigned long long)st->filtered);
	fprintf(o, "skipped by the collector: rt/dl %llu  still runnable %llu  never reached select %llu\n",
		(unsigned long long)s->cnt[FS_CNT_NOT_FAIR], (unsigned long long)s->cnt[FS_CNT_RUNNABLE],
		(unsigned long long)s->cnt[FS_CNT_NO_SELECT]);
	if (s->rep)
		fprintf(o, "CPU energy so far: %.3f mJ\n\n", fs_fj_to_mj(s->rep->cpu.total_fj));

	fprintf(o, "%-22s %10s %10s %8s %8s %14s %11s\n", "policy", "eligible", "differ", "differ%",
		"=kernel%", "energy vs [0]", "rate");
	for (int i = 0; i < st->nr_policies; i++) {
		const struct fs_policy_stats *p = &st->pol[i];
		char name[32];

		snprintf(name, sizeof(name), "[%d] %s", i, in->policy_names[i]);
		fprintf(o, "%-22s %10llu %10llu %7.2f%% %7.2f%% %+11.3f mJ %+8.3f mW\n", name,
			(unsigned long long)p->eligible, (unsigned long long)p->differ,
			pct(p->differ, p->eligible), pct(p->agree_kernel, p->kernel_known),
			s->rep ? fs_fj_to_mj(s->rep->tot->energy_fj[i]) : 0.0, mw[i]);
	}

	if (s->rep && s->rep->nr_procs) {
		fprintf(o, "\n");
		fs_print_processes(o, s->rep, FS_TOP_TASKS);
	}
	pd_table(v, st);
	fflush(o);
}

static void line(struct fs_live_view *v, const struct fs_live_sample *s, double wk_rate, const double *mw)
{
	const struct fs_stats *st = s->st;
	FILE *o = v->out;

	fprintf(o, "t=%.1fs wakeups/s=%.0f wakeups=%llu eligible=%.1f%% overutilized=%.1f%% lost=%llu expired=%llu",
		s->elapsed_s, wk_rate, (unsigned long long)st->wakeups, pct(st->feec_eligible, st->wakeups),
		pct(st->overutilized, st->wakeups), (unsigned long long)st->lost,
		(unsigned long long)s->pair->expired);
	for (int i = 1; i < st->nr_policies; i++)
		fprintf(o, " differ[%d]=%llu energy[%d]=%+.3fmJ rate[%d]=%+.3fmW", i,
			(unsigned long long)st->pol[i].differ, i,
			s->rep ? fs_fj_to_mj(s->rep->tot->energy_fj[i]) : 0.0, i, mw[i]);
	fprintf(o, "\n");
	fflush(o);
}

void fs_live_view_update(struct fs_live_view *v, const struct fs_live_sample *s)
{
	const struct fs_stats *st = s->st;
	double dt = v->have_prev ? s->elapsed_s - v->prev_t : s->elapsed_s;
	double wk_rate = 0, mw[FS_MAX_POLICIES] = { 0 };

	if (dt > 0) {
		wk_rate = (double)(st->wakeups - (v->have_prev ? v->prev_wakeups : 0)) / dt;
		for (int i = 0; s->rep && i < st->nr_policies; i++)
			mw[i] = (fs_fj_to_mj(s->rep->tot->energy_fj[i]) - (v->have_prev ? v->prev_energy[i] : 0)) / dt;
	}
	if (v->tty)
		screen(v, s, wk_rate, mw);
	else
		line(v, s, wk_rate, mw);
	v->have_prev = true;
	v->prev_t = s->elapsed_s;
	v->prev_wakeups = st->wakeups;
	for (int i = 0; s->rep && i < st->nr_policies; i++)
		v->prev_energy[i] = fs_fj_to_mj(s->rep->tot->energy_fj[i]);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The summary's trace lines (docs/traces.md): what the trace held, what was
 * reconstructed or assumed where it is silent, and the simulation of the
 * traced kernel's policy against its placements and OPP residency. Every
 * line fits 80 columns (the summary's wrapper).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "summary_trace.h"

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
	if (t->pelt_events)
		snprintf(text, sizeof(text), "PELT at each task's first wake-up from sched_pelt_se / "
			 "sched_util_est_se (%llu events), then simulated", (unsigned long long)t->pelt_events);
	else
		snprintf(text, sizeof(text), "PELT (no sched_pelt_se / sched_util_est_se events: every task "
			 "starts at util 0); affinity, uclamp and uid unknown");
	wrap(out, "  reconstructed: ", text, 4);
	if (t->freq_assumed_cpus) {
		fmt_cpus(cpus, sizeof(cpus), t->freq_assumed_cpus);
		snprintf(text, sizeof(text), "%s: CPU %s ran %.3f ms at its PD's top frequency",
			 t->freq_events ? "no cpu_frequency yet" : "no cpu_frequency events", cpus,
			 (double)t->freq_assumed_ns / 1e6);
		wrap(out, "  assumed: ", text, 4);
	}
	if (t->tgid_assumed) {
		snprintf(text, sizeof(text), "%d tasks' tgid = pid (no task_newtask, no tgid column)", t->tgid_assumed);
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
}

void fs_summary_trace(FILE *out, const struct fs_report *r, wrap_fn wrap)
{
	const struct fs_sim_report *s = r->sim;

	if (!s || !s->ran || !s->from_trace)
		return;
	print_held(out, &s->trace, wrap);
	print_reconstructed(out, &s->trace, wrap);
	print_check(out, r, wrap);
}

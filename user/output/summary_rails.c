// SPDX-License-Identifier: GPL-2.0
/*
 * The summary's power-rail lines (docs/traces.md, "Power rails"): what a
 * trace's CPU rails measured over the simulated window, beside the EM's
 * energy for the trace's own busy time and for its simulation. Only
 * when the trace had rails; the other rails are in the JSON alone.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "summary_rails.h"

/* "pd0 30.0/2.9, pd1 85.0/62.9" (mJ, or mW with per_s): each matched rail and its PD's traced energy. */
static void fmt_by_pd(char *buf, size_t len, const struct fs_report *r, bool per_s)
{
	const struct fs_sim_rails *R = &r->sim->trace.rails;
	const double k = fs_sim_mj_per_unit(r->em), win_s = (double)R->window_ns / 1e9;
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < R->nr && n < len; i++) {
		const struct fs_sim_rail *x = &R->rail[i];
		double em = r->sim->tcheck.energy_traced[x->pd] * k;

		if (!x->cpu || x->pd < 0)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%.16s %.1f/%.1f", n ? ", " : "", r->em->pd[x->pd].name,
				      per_s ? (x->covered_ns ? x->mj / ((double)x->covered_ns / 1e9) : 0) : x->mj,
				      per_s ? em / win_s : em);
	}
}

/* The EM's side: its energy for the traced busy time and the simulation's, in mJ or mean mW. */
static void fmt_model(char *buf, size_t len, const struct fs_report *r, bool per_s)
{
	const struct fs_sim_report *s = r->sim;
	const double k = fs_sim_mj_per_unit(r->em), win_s = (double)s->trace.rails.window_ns / 1e9;
	double traced = 0, sim = 0;

	if (isnan(k)) {
		snprintf(buf, len, "the EM is in bogoWatts: no mJ to set beside them");
		return;
	}
	for (int pd = 0; pd < r->em->nr_pd && pd < FS_MAX_PDS; pd++) {
		traced += s->tcheck.energy_traced[pd] * k;
		sim += s->tcheck.energy_sim[pd] * k;
	}
	if (per_s)
		traced /= win_s, sim /= win_s;
	if (s->has_check)
		snprintf(buf, len, "the EM: %.1f %s for the traced busy time, %.1f %s simulated", traced,
			 per_s ? "mW" : "mJ", sim, per_s ? "mW" : "mJ");
	else
		snprintf(buf, len, "the EM: %.1f %s for the traced busy time", traced, per_s ? "mW" : "mJ");
}

void fs_summary_rails(FILE *out, const struct fs_report *r, fs_wrap_fn wrap)
{
	const struct fs_sim_rails *R = &r->sim->trace.rails;
	struct fs_sim_rails_sum s;
	char model[160], by[320] = "", text[640];
	const double win_s = (double)R->window_ns / 1e9;

	if (!r->sim->trace.has_rails)
		return;
	if (R->nr_undescribed) {
		snprintf(text, sizeof(text), "%llu sampled without a rail_descriptor (a wrapped buffer loses it: "
			 "docs/traces.md), left out", (unsigned long long)R->nr_undescribed);
		wrap(out, "power rails: ", text, 2);
		if (!R->nr)
			return;
	}
	fs_sim_rails_sum(R, &s);
	if (!s.cpu) {
		snprintf(text, sizeof(text), "%d in the trace, none a CPU's by its name (docs/traces.md): see the "
			 "JSON", R->nr + (int)R->nr_more);
		wrap(out, "power rails: ", text, 2);
		return;
	}
	if (!s.covered) {
		snprintf(text, sizeof(text), "no CPU rail has samples around the window's %.3f s: nothing measured",
			 win_s);
		wrap(out, "power rails: ", text, 2);
		return;
	}
	const bool full = s.full == s.cpu;
	fmt_model(model, sizeof(model), r, !full);
	if (R->matched && !isnan(fs_sim_mj_per_unit(r->em)))
		fmt_by_pd(by, sizeof(by), r, !full);
	if (!full) {
		snprintf(text, sizeof(text), "no sample %s: %.3f of its %.3f s covered", s.no_before && s.no_after ?
			 "before or after the window" : s.no_before ? "before the window's start" :
			 "after the window's end", (double)s.covered_ns / 1e9, win_s);
		wrap(out, "power rails: ", text, 2);
	}
	snprintf(text, sizeof(text), "%sCPU %.1f %s measured%s; %s%s%s%s", full ? "" : "mean power: ", full ? s.mj : s.mw,
		 full ? "mJ" : "mW", full ? "" : " where covered", model, R->matched ? "" : " (the CPU rails do not match the PDs one "
		 "to one: totals only)", *by ? full ? "; by PD, measured/EM mJ: " : "; by PD, measured/EM mW: " : "",
		 by);
	wrap(out, full ? "power rails: " : "  ", text, full ? 2 : 4);
}

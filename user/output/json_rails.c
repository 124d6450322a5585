// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON report's power rails (json_rails.h, docs/json.md): every rail a
 * trace described, what it measured over the simulated window, and for the
 * CPU rails matched with a PD that PD's energy by the EM.
 */
#include <math.h>
#include <stdio.h>
#include "json_rails.h"
#include "json_sim.h"

static void num(FILE *o, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", o);
	else
		fprintf(o, "%.6f", v);
}

/* ns, or null for -1 (no sample there). */
static void ns_or_null(FILE *o, __s64 v)
{
	if (v < 0)
		fputs("null", o);
	else
		fprintf(o, "%lld", (long long)v);
}

static void write_rail(FILE *o, const struct fs_report *r, const struct fs_sim_rail *x)
{
	const struct fs_sim_report *s = r->sim;
	const double k = fs_sim_mj_per_unit(r->em);

	fputs("{\"name\": ", o);
	fs_json_str(o, x->name, sizeof(x->name));
	fputs(", \"subsys\": ", o);
	fs_json_str(o, x->subsys, sizeof(x->subsys));
	fprintf(o, ", \"cpu\": %s, \"cluster\": ", x->cpu ? "true" : "false");
	ns_or_null(o, x->cluster);
	fputs(", \"pd\": ", o);
	if (x->pd >= 0)
		fs_json_str(o, r->em->pd[x->pd].name, sizeof(r->em->pd[x->pd].name));
	else
		fputs("null", o);
	fprintf(o, ", \"sampling_hz\": %u, \"samples\": %llu, \"from_ns\": %llu, \"covered_ns\": %llu, "
		"\"measured_mj\": ", x->sampling_hz, (unsigned long long)x->samples,
		(unsigned long long)x->from_ns, (unsigned long long)x->covered_ns);
	num(o, x->covered_ns ? x->mj : NAN);
	fputs(", \"measured_mw\": ", o);
	num(o, x->covered_ns ? x->mj / ((double)x->covered_ns / 1e9) : NAN);
	fputs(", \"before_ns\": ", o);
	ns_or_null(o, x->before_ns);
	fputs(", \"after_ns\": ", o);
	ns_or_null(o, x->after_ns);
	fputs(", \"em_traced_mj\": ", o);
	num(o, x->pd >= 0 ? s->tcheck.energy_traced[x->pd] * k : NAN);
	fputs(", \"em_simulated_mj\": ", o);
	num(o, x->pd >= 0 && s->has_check ? s->tcheck.energy_sim[x->pd] * k : NAN);
	fputc('}', o);
}

void fs_json_rails(FILE *o, const struct fs_report *r)
{
	const struct fs_sim_report *s = r->sim;
	const struct fs_sim_rails *R = &s->trace.rails;
	const double k = fs_sim_mj_per_unit(r->em);
	double traced = 0, sim = 0;

	if (!s->trace.has_rails)
		return;
	for (int pd = 0; pd < r->em->nr_pd && pd < FS_MAX_PDS; pd++) {
		traced += s->tcheck.energy_traced[pd] * k;
		sim += s->tcheck.energy_sim[pd] * k;
	}
	fprintf(o, ",\n      \"power_rails\": {\"window_ns\": %llu, \"cpu_rails\": %d, \"matched\": %s, "
		"\"left_out\": %llu, \"undescribed\": %llu, \"em_traced_mj\": ", (unsigned long long)R->window_ns,
		R->nr_cpu, R->matched ? "true" : "false", (unsigned long long)R->nr_more,
		(unsigned long long)R->nr_undescribed);
	num(o, traced);
	fputs(", \"em_simulated_mj\": ", o);
	num(o, s->has_check ? sim : NAN);
	fputs(", \"rails\": [", o);
	for (int i = 0; i < R->nr; i++) {
		fputs(i ? ",\n        " : "\n        ", o);
		write_rail(o, r, &R->rail[i]);
	}
	fputs("]}", o);
}

// SPDX-License-Identifier: GPL-2.0
/* The JSON report's "simulation" object (docs/json.md): the closed-loop answer and its self-check. */
#include <math.h>
#include <stdio.h>
#include "json_sim.h"

/* A double in mJ with 6 decimals, null when it is not a number (a bogoWatt EM, no energy). */
static void num(FILE *o, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", o);
	else
		fprintf(o, "%.6f", v);
}

static void write_policies(FILE *o, const struct fs_report *r, const struct fs_sim_report *s)
{
	fputs(",\n    \"policies\": [", o);
	for (int i = 0; i < s->nr_policies; i++) {
		const struct fs_sim_policy_row *p = &s->pol[i];

		fprintf(o, "%s\n      {\"name\": \"%s\", \"energy_mj\": ", i ? "," : "", r->st->pol[i].desc->name);
		num(o, p->energy_mj);
		fputs(", \"vs_ref_mj\": ", o);
		num(o, s->answer.vs_ref[i] * fs_sim_mj_per_unit(r->em));
		fprintf(o, ", \"busy_ns\": %llu, \"migrations\": %llu, \"overutilized_ns\": %llu, "
			"\"wait_p50_ns\": %llu, \"wait_p99_ns\": %llu, \"done_p50_ns\": %llu, \"done_p99_ns\": %llu}",
			(unsigned long long)p->busy_ns, (unsigned long long)p->migrations,
			(unsigned long long)p->overutilized_ns, (unsigned long long)p->wait_p50_ns,
			(unsigned long long)p->wait_p99_ns, (unsigned long long)p->done_p50_ns,
			(unsigned long long)p->done_p99_ns);
	}
	fputs("\n    ]", o);
}

static void write_check(FILE *o, const struct fs_report *r, const struct fs_sim_report *s)
{
	const struct fs_sim_selfcheck *c = &s->check;

	if (!s->has_check) {
		fputs(",\n    \"self_check\": null", o);
		return;
	}
	fprintf(o, ",\n    \"self_check\": {\"policy\": \"%s\", \"reproduces\": %s, \"eas_emulated\": %s, \"pd\": [",
		s->kernel_policy->name, c->reproduces ? "true" : "false", c->eas_emulated ? "true" : "false");
	for (int p = 0; p < c->nr_pd; p++) {
		fprintf(o, "%s{\"name\": \"%s\", \"busy_recorded_ns\": %llu, \"busy_simulated_ns\": %llu, \"busy_pct\": ",
			p ? ", " : "", r->em->pd[p].name, (unsigned long long)c->busy_obs_ns[p],
			(unsigned long long)c->busy_sim_ns[p]);
		num(o, c->busy_pct[p]);
		fputc('}', o);
	}
	fprintf(o, "], \"migrations_recorded\": %llu, \"migrations_simulated\": %llu, \"energy_pct\": ",
		(unsigned long long)c->mig_obs, (unsigned long long)c->mig_sim);
	num(o, c->energy_pct);
	fputc('}', o);
}

void fs_json_sim(FILE *o, const struct fs_report *r)
{
	const struct fs_sim_report *s = r->sim;

	fputs("  \"simulation\": ", o);
	if (!s || !s->ran) {
		fputs("{\"ran\": false, \"why\": ", o);
		fs_json_str(o, s ? s->why : "no report", sizeof(s->why));
		fputs("},\n", o);
		return;
	}
	fprintf(o, "{\n    \"ran\": true, \"physics\": \"%s\", \"hz\": %u, \"rate_limit_ns\": %llu, "
		"\"tasks\": %llu, \"activations\": %llu",
		s->physics == FS_SIM_LAB ? "lab" : "device", s->hz, (unsigned long long)s->rate_limit_ns,
		(unsigned long long)s->tasks, (unsigned long long)s->activations);
	write_policies(o, r, s);
	fputs(",\n    \"verdicts\": [", o);
	for (int v = 0; v < s->answer.nr_verdicts; v++) {
		const struct fs_sim_verdict *V = &s->answer.v[v];

		fprintf(o, "%s{\"policy\": \"%s\", \"twin\": \"%s\", \"delta_mj\": ", v ? ", " : "",
			r->st->pol[V->pol].desc->name, r->st->pol[V->twin].desc->name);
		num(o, V->delta * fs_sim_mj_per_unit(r->em));
		fputc('}', o);
	}
	fputc(']', o);
	write_check(o, r, s);
	fputs("\n  },\n", o);
}

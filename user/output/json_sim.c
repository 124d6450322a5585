// SPDX-License-Identifier: GPL-2.0
/* The JSON report's "simulation" object (docs/json.md): the closed-loop answer and its self-check. */
#include <math.h>
#include <stdio.h>
#include "json_sim.h"
#include "json_rails.h"

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
		if (c->busyfreq) { /* only where the recording has busyfreq records (docs/json.md) */
			fprintf(o, ", \"busy_busyfreq_ns\": %llu, \"busy_busyfreq_pct\": ",
				(unsigned long long)c->busy_bf_ns[p]);
			num(o, c->busy_bf_pct[p]);
			fputs(", \"residency_apart_pct\": ", o);
			num(o, c->opp_pct[p]);
		}
		fputc('}', o);
	}
	fprintf(o, "], \"migrations_recorded\": %llu, \"migrations_simulated\": %llu, \"energy_pct\": ",
		(unsigned long long)c->mig_obs, (unsigned long long)c->mig_sim);
	num(o, c->energy_pct);
	fputc('}', o);
}

/* A trace's inputs and its part of the self-check (docs/traces.md); nothing for a recording. */
static void write_trace(FILE *o, const struct fs_report *r, const struct fs_sim_report *s)
{
	const struct fs_sim_trace_inputs *t = &s->trace;
	const struct fs_sim_trace_check *c = &s->tcheck;

	if (!s->from_trace)
		return;
	fputs(",\n    \"trace\": {\"format\": ", o);
	fs_json_str(o, t->format, sizeof(t->format));
	fprintf(o, ", \"events\": %llu, \"sched_switch\": %llu, \"wakeups\": %llu, \"sched_migrate_task\": %llu, "
		"\"cpu_frequency\": %llu, \"pelt_events\": %llu, \"unknown_events\": %llu, \"lost_events\": %llu, "
		"\"pelt\": \"%s\", \"pelt_tasks\": %llu, \"freq_assumed_cpus\": %llu, \"freq_assumed_ns\": %llu, \"tgid_assumed\": %d",
		(unsigned long long)t->events, (unsigned long long)t->switch_events,
		(unsigned long long)t->wake_events, (unsigned long long)t->migrate_events,
		(unsigned long long)t->freq_events, (unsigned long long)t->pelt_events,
		(unsigned long long)t->unknown_events, (unsigned long long)t->lost_events,
		t->pelt_tasks ? "traced" : "reconstructed", (unsigned long long)t->pelt_tasks,
		(unsigned long long)t->freq_assumed_cpus,
		(unsigned long long)t->freq_assumed_ns, t->tgid_assumed);
	fprintf(o, ", \"cfs_events\": %llu, \"rq_pelt\": \"%s\", \"rq_traced_cpus\": %llu, \"wake_utils\": %llu",
		(unsigned long long)t->cfs_events, t->rq_traced_cpus ? "traced" : "reconstructed",
		(unsigned long long)t->rq_traced_cpus, (unsigned long long)t->wake_utils);
	if (s->has_check) {
		fprintf(o, ", \"placed\": %llu, \"agree\": %llu, \"agree_pct\": ", (unsigned long long)c->placed,
			(unsigned long long)c->agree);
		num(o, c->agree_pct);
		fprintf(o, ", \"util_compared\": %llu, \"util_apart_mean\": ", (unsigned long long)c->util_n);
		num(o, c->util_mad);
		fputs(", \"util_bias\": ", o);
		num(o, c->util_bias);
		fputs(", \"opp\": [", o);
		for (int p = 0; p < c->nr_pd; p++) {
			fprintf(o, "%s{\"pd\": \"%s\", \"residency_apart_pct\": ", p ? ", " : "", r->em->pd[p].name);
			num(o, c->opp_known[p] ? c->opp_pct[p] : NAN);
			fputs(", \"mean_mhz_traced\": ", o);
			num(o, c->opp_known[p] ? c->mhz_obs[p] : NAN);
			fputs(", \"mean_mhz_simulated\": ", o);
			num(o, c->mhz_sim[p]);
			fputc('}', o);
		}
		fputc(']', o);
	}
	fs_json_rails(o, r);
	fputc('}', o);
}

/* Every process: its tasks' simulated energy under each policy and its share of each verdict. */
static void write_processes(FILE *o, const struct fs_report *r, const struct fs_sim_report *s)
{
	const struct fs_sim_answer *a = &s->answer;
	const double k = fs_sim_mj_per_unit(r->em);

	fputs(",\n    \"processes\": [", o);
	for (size_t i = 0; i < a->nr_procs; i++) {
		const struct fs_sim_process *p = &a->procs[i];

		fputs(i ? ",\n      {\"tgid\": " : "\n      {\"tgid\": ", o);
		if (p->tgid == FS_SIM_UNATTRIBUTED)
			fputs("null", o);
		else
			fprintf(o, "%d", p->tgid);
		fputs(", \"comm\": ", o);
		fs_json_str(o, p->comm, FS_COMM_LEN - 1);
		fprintf(o, ", \"threads\": %d, \"cpu_ns\": %llu, \"energy_mj\": [", p->nr_threads,
			(unsigned long long)p->rec_cpu_ns);
		for (int j = 0; j < a->nr_policies; j++) {
			fputs(j ? ", " : "", o);
			num(o, p->energy[j] * k);
		}
		fputs("], \"delta_mj\": [", o);
		for (int v = 0; v < a->nr_verdicts; v++) {
			fputs(v ? ", " : "", o);
			num(o, p->delta[v] * k);
		}
		fputs("]}", o);
	}
	fputs(a->nr_procs ? "\n    ]" : "]", o);
}

/*
 * HZ and each PD's rate limit, and where each came from (docs/json.md);
 * rate_limit_ns is the PDs' common one, null when they differ.
 */
static void write_settings(FILE *o, const struct fs_report *r, const struct fs_sim_report *s)
{
	const struct fs_sim_settings *set = &s->set;
	bool same = true;

	for (int pd = 1; pd < s->nr_pds; pd++)
		same = same && set->rate_limit_ns[pd] == set->rate_limit_ns[0];
	fprintf(o, ",\n    \"hz\": %u, \"hz_from\": \"%s\", \"rate_limit_ns\": ", set->hz, fs_sim_src_name(set->hz_src));
	if (same)
		fprintf(o, "%llu", (unsigned long long)set->rate_limit_ns[0]);
	else
		fputs("null", o);
	fputs(", \"pds\": [", o);
	for (int pd = 0; pd < s->nr_pds; pd++) {
		fprintf(o, "%s{\"first_cpu\": %d, \"rate_limit_ns\": %llu, \"rate_limit_from\": \"%s\", \"governor\": ",
			pd ? ", " : "", fs_em_pd_first_cpu(&r->em->pd[pd]), (unsigned long long)set->rate_limit_ns[pd],
			fs_sim_src_name(set->rate_src[pd]));
		if (set->governor[pd][0])
			fs_json_str(o, set->governor[pd], sizeof(set->governor[pd]) - 1);
		else
			fputs("null", o);
		fputc('}', o);
	}
	fputc(']', o);
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
	fprintf(o, "{\n    \"ran\": true, \"physics\": \"%s\", \"tasks\": %llu, \"activations\": %llu",
		s->physics == FS_SIM_LAB ? "lab" : "device", (unsigned long long)s->tasks,
		(unsigned long long)s->activations);
	write_settings(o, r, s);
	write_policies(o, r, s);
	fputs(",\n    \"verdicts\": [", o);
	for (int v = 0; v < s->answer.nr_verdicts; v++) {
		const struct fs_sim_verdict *V = &s->answer.v[v];

		const double k = fs_sim_mj_per_unit(r->em);

		fprintf(o, "%s{\"policy\": \"%s\", \"twin\": \"%s\", \"delta_mj\": ", v ? ", " : "",
			r->st->pol[V->pol].desc->name, r->st->pol[V->twin].desc->name);
		num(o, V->delta * k);
		if (isnan(V->lo)) {
			fputs(", \"ci95_mj\": null", o);
		} else {
			fputs(", \"ci95_mj\": [", o);
			num(o, V->lo * k);
			fputs(", ", o);
			num(o, V->hi * k);
			fputc(']', o);
		}
		fprintf(o, ", \"ci_blocks\": %zu, \"ci_block_s\": %.3f, \"ci_replicas\": %u, \"replica_sd_mj\": ",
			V->blocks, (double)V->block_ns / 1e9, V->replicas);
		num(o, V->rep_sd * k); /* null without replicas (NAN) */
		fprintf(o, ", \"measurable\": %s}", V->measurable ? "true" : "false");
	}
	fputc(']', o);
	write_check(o, r, s);
	write_trace(o, r, s);
	write_processes(o, r, s);
	fputs("\n  },\n", o);
}

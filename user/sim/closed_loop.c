// SPDX-License-Identifier: GPL-2.0
/*
 * The closed-loop answer of a recording (closed_loop.h): one simulation a
 * policy, the kernel's own added for the self-check when it is not among
 * them, then compare.c's verdicts and selfcheck.c's comparison.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "closed_loop.h"
#include "../engine/time_blocks.h"
#include "replicas.h"

void fs_sim_report_free(struct fs_sim_report *rep)
{
	fs_sim_answer_free(&rep->answer);
	for (int i = 0; i < FS_MAX_POLICIES; i++) {
		free(rep->dec[i]);
		rep->dec[i] = NULL;
	}
}

static void fill_row(const struct fs_sim_result *r, int nr_cpus, struct fs_sim_policy_row *row)
{
	row->energy = r->energy;
	row->energy_mj = r->energy_mj;
	for (int c = 0; c < nr_cpus && c < FS_MAX_CPUS; c++)
		row->busy_ns += r->busy_ns[c];
	row->wait_p50_ns = fs_sim_hist_quantile(r->wait_hist, 0.50);
	row->wait_p99_ns = fs_sim_hist_quantile(r->wait_hist, 0.99);
	row->done_p50_ns = fs_sim_hist_quantile(r->lat_hist, 0.50);
	row->done_p99_ns = fs_sim_hist_quantile(r->lat_hist, 0.99);
	row->migrations = r->migrations_wakeup + r->migrations_misfit + r->migrations_newidle;
	row->overutilized_ns = r->overutilized_ns;
}

const char *fs_sim_src_name(enum fs_sim_src src)
{
	return src == FS_SIM_RECORDED ? "recorded" : src == FS_SIM_GIVEN ? "given" : "assumed";
}

/* The settings the run simulates with: what was given or recorded, the defaults for the rest. */
static void resolve_settings(const struct fs_sim_run_in *in, struct fs_sim_report *rep)
{
	struct fs_sim_settings *set = &rep->set;

	if (in->settings)
		*set = *in->settings;
	rep->nr_pds = in->em && in->em->nr_pd <= FS_MAX_PDS ? in->em->nr_pd : 0;
	if (set->hz_src == FS_SIM_ASSUMED || !set->hz)
		set->hz = FS_SIM_DEFAULT_HZ, set->hz_src = FS_SIM_ASSUMED;
	for (int pd = 0; pd < FS_MAX_PDS; pd++)
		if (set->rate_src[pd] == FS_SIM_ASSUMED)
			set->rate_limit_ns[pd] = FS_SIM_DEFAULT_RATE_LIMIT_NS;
	rep->hz = set->hz;
}

/* The index of d among the run's policies, -1 if it is not one. */
static int index_of(const struct fs_sim_run_in *in, const struct fs_policy_desc *d)
{
	for (int i = 0; i < in->nr_policies; i++)
		if (in->policies[i] == d)
			return i;
	return -1;
}

/* One policy's simulation by the caller's runner: fs_sim_run(), or a resumed one (rerun.c). */
struct runner {
	fs_sim_run_fn fn;
	void *ctx;
};

static int run_plain(void *ctx, int slot, const struct fs_sim_workload *wl, const struct fs_sim_params *p,
		     struct fs_sim_result *r, char *err, size_t errlen)
{
	(void)ctx;
	(void)slot;
	return fs_sim_run(wl, p, r, err, errlen);
}

/* The machine's params for policy d: the run's physics and settings, the accounting's time blocks. */
static struct fs_sim_params params_for(const struct fs_sim_workload *wl, const struct fs_sim_run_in *in,
				       const struct fs_sim_report *rep, const struct fs_policy_desc *d)
{
	struct fs_sim_params p = {
		.em = in->em, .policy = d, .physics = in->physics,
		.hz = rep->hz, .sugov_rate_limit_ns = FS_SIM_DEFAULT_RATE_LIMIT_NS,
		/* the accounting's block rule over the recording's span (docs/accounting.md, The interval) */
		.block_ns = wl->end_ns ? fs_blocks_width(wl->end_ns) : 0,
		.keep_decisions = in->keep_decisions,
	};

	for (int pd = 0; pd < rep->nr_pds; pd++) {
		p.pd_rate_limit_ns[pd] = rep->set.rate_limit_ns[pd];
		p.pd_rate_limit_set |= 1u << pd;
	}
	return p;
}

static int simulate(const struct fs_sim_workload *wl, const struct fs_sim_run_in *in,
		    const struct fs_sim_report *rep, const struct runner *run, int slot,
		    const struct fs_policy_desc *d, struct fs_sim_result *r, char *err, size_t errlen)
{
	const struct fs_sim_params p = params_for(wl, in, rep, d);

	return run->fn(run->ctx, slot, wl, &p, r, err, errlen);
}

/* Replicas widen the verdicts' intervals (replicas.h): fs_sim_closed_loop() only, with in->replicas. */
static int widen(const struct fs_sim_workload *wl, const struct fs_sim_run_in *in, struct fs_sim_report *rep,
		 const struct fs_sim_result *res, char *err, size_t errlen)
{
	const struct fs_sim_params p = params_for(wl, in, rep, in->policies[0]);
	double mj = NAN;

	for (int i = 0; i < rep->nr_policies && isnan(mj); i++)
		if (res[i].energy != 0 && !isnan(res[i].energy_mj))
			mj = res[i].energy_mj / res[i].energy;
	return fs_sim_replicas_widen(wl, &p, in->policies, in->replicas, mj, &rep->answer, err, errlen);
}

/* The self-check: the kernel's policy's run, res[k] if it is among the run's, else one more. */
static int self_check(const struct fs_sim_workload *wl, const struct fs_sim_run_in *in, struct fs_sim_report *rep,
		      const struct runner *run, const struct fs_sim_result *res, char *err, size_t errlen)
{
	int k = index_of(in, in->kernel_policy);
	struct fs_sim_result extra;

	if (k < 0 && simulate(wl, in, rep, run, in->nr_policies, in->kernel_policy, &extra, err, errlen))
		return -1;
	fs_sim_selfcheck(in->em, &wl->observed, in->rec_energy, k < 0 ? &extra : &res[k], &rep->check);
	if (in->trace)
		fs_sim_trace_check(in->em, wl, k < 0 ? &extra : &res[k], &rep->tcheck);
	if (k < 0)
		fs_sim_result_free(&extra);
	rep->has_check = true;
	rep->kernel_policy = in->kernel_policy;
	return 0;
}

static int closed_loop(const struct fs_sim_workload *wl, const struct fs_sim_run_in *in, fs_sim_run_fn fn,
		       void *ctx, bool replicas, struct fs_sim_report *rep, char *err, size_t errlen);

int fs_sim_closed_loop(const struct fs_sim_workload *wl, const struct fs_sim_run_in *in, struct fs_sim_report *rep,
		       char *err, size_t errlen)
{
	return closed_loop(wl, in, run_plain, NULL, true, rep, err, errlen);
}

int fs_sim_closed_loop_with(const struct fs_sim_workload *wl, const struct fs_sim_run_in *in, fs_sim_run_fn fn,
			    void *ctx, struct fs_sim_report *rep, char *err, size_t errlen)
{
	return closed_loop(wl, in, fn, ctx, false, rep, err, errlen);
}

static int closed_loop(const struct fs_sim_workload *wl, const struct fs_sim_run_in *in, fs_sim_run_fn fn,
		       void *ctx, bool replicas, struct fs_sim_report *rep, char *err, size_t errlen)
{
	const struct runner run = { fn, ctx };
	struct fs_sim_result res[FS_MAX_POLICIES];
	int n = 0, ret = -1;

	memset(rep, 0, sizeof(*rep));
	rep->physics = in->physics;
	resolve_settings(in, rep);
	rep->tasks = (__u64)wl->nr_tasks;
	rep->activations = wl->nr_acts;
	rep->acts_unknown_work = wl->acts_unknown_work;
	rep->from_trace = in->trace != NULL;
	if (in->trace)
		rep->trace = *in->trace;
	if (in->nr_policies < 1 || in->nr_policies > FS_MAX_POLICIES) {
		snprintf(err, errlen, "simulation: %d policies (1..%d)", in->nr_policies, FS_MAX_POLICIES);
		return -1;
	}
	const __u64 max_span = in->max_span_ns ? in->max_span_ns : FS_SIM_MAX_SPAN_NS;

	if (wl->end_ns > max_span) {
		snprintf(rep->why, sizeof(rep->why), "the recording spans %.4g s, more than the simulation's %.4g s",
			 (double)wl->end_ns / 1e9, (double)max_span / 1e9);
		return 0;
	}
	/* A span of 0 s does not end the machine's loop: its work does, and that has to fit the limit too. */
	const __u64 horizon = in->em ? fs_sim_horizon_ns(wl, in->em, in->physics) : 0; /* no EM: an error below */

	if (horizon > max_span) {
		snprintf(rep->why, sizeof(rep->why), "the recording spans 0 s and its work could take %.4g s at the "
			 "slowest CPU, more than the simulation's %.4g s", (double)horizon / 1e9, (double)max_span / 1e9);
		return 0;
	}
	for (; n < in->nr_policies; n++) {
		if (simulate(wl, in, rep, &run, n, in->policies[n], &res[n], err, errlen))
			goto out;
		fill_row(&res[n], in->em->nr_cpus, &rep->pol[n]);
		rep->dec[n] = res[n].act_dec; /* the report's now */
		res[n].act_dec = NULL;
	}
	rep->nr_policies = n;
	if (fs_sim_answer_build(wl, in->policies, res, n, 0, &rep->answer, err, errlen))
		goto out;
	if (replicas && in->replicas && widen(wl, in, rep, res, err, errlen))
		goto out;
	if (in->kernel_policy && self_check(wl, in, rep, &run, res, err, errlen))
		goto out;
	rep->ran = true;
	ret = 0;
out:
	for (int i = 0; i < n; i++)
		fs_sim_result_free(&res[i]);
	return ret;
}

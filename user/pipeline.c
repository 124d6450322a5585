// SPDX-License-Identifier: GPL-2.0
/*
 * The record path shared by live and replay: outputs see every record, then
 * filters -> landscape -> every policy -> accounting (user/engine/) -> the
 * outputs' placement rows; at the end the report.
 */
#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pipeline.h"
#include "sim/closed_loop.h"
#include "sim/replicas.h"
#include "output/trace_decisions.h"
#include "engine/accounting.h"
#include "engine/cpu_energy.h"
#include "engine/landscape.h"
#include "engine/rules.h"
#include "engine/power_estimate.h"
#include "engine/time_blocks.h"
#include "engine/verdict.h"
#include "em/em_io.h"
#include "records/wire.h"

struct fs_pipeline {
	struct fs_pipeline_opts o;
	struct fs_policy pol[FS_MAX_POLICIES];
	int twin[FS_MAX_POLICIES];          /* index of the policy's twin in this run, -1 if not run */
	int redecide_from[FS_MAX_POLICIES]; /* an earlier twin whose scan this one re-decides, or -1 */
	struct fs_stats st;
	struct fs_acct *acct;
	struct fs_acct_sys sys;             /* the wall-time estimate's total */
	struct fs_cpu_energy cpu_energy;
	struct fs_verdict verdicts[FS_MAX_VERDICTS];
	int nr_verdicts;
	struct fs_time_blocks blocks;       /* each verdict's Δ over time, for its interval */
	fs_fj_t *block_sums;                /* scratch: one verdict's blocks */
	bool rows;                          /* some output takes placement rows */
	struct fs_decision_row *spare_rows; /* closed rows for reuse, chained through their first bytes */
	bool rd_overutilized;               /* last FS_REC_OVERUTIL state */
	bool any_ts, finished;
	/* the report handed out by snapshot/finish */
	struct fs_report rep;
	struct fs_process *procs;
	/* per wake-up scratch, kept here so a feed allocates nothing */
	struct fs_wakeup w;
	struct fs_em em;                    /* o.em's copy the run uses (cost_as_read, runtime updates) */
	struct fs_em *em_next;              /* an FS_REC_EM being parsed: made with the first one */
	struct fs_power_lut power_lut;      /* the power estimate's state table for o.em */
	const struct fs_wakeup *cur;        /* the wake-up being evaluated: the record itself or w */
	struct fs_feec_result res[FS_MAX_POLICIES];
	/* The closed-loop simulation (docs/simulation.md): its workload, built as records come. */
	struct fs_sim_builder *simb;
	struct fs_sim_report sim;
	/* A kernel trace's workload (fs_pipeline_set_workload): simulated instead of simb's. */
	bool has_trace;
	struct fs_sim_workload trace_wl;
	struct fs_sim_trace_inputs trace_in;
	/* the workload simulated at the finish, kept for the outputs' finish (fs_report.workload) */
	bool has_done_wl;
	struct fs_sim_workload done_wl;
	/*
	 * live (o.sim_live): the records the builder took since the last job,
	 * each at an 8-byte offset; the closed loop kept between jobs (NULL
	 * while a job has it); the last answer
	 */
	unsigned char *simlog;
	size_t simlog_len, simlog_cap;
	bool simlog_failed;                 /* out of memory: no more live answers */
	struct fs_sim_live *live;
	struct fs_sim_report sim_live;
	bool has_sim_live;
};

/* ---- outputs ---- */

static void free_outputs(struct fs_output *out, int n)
{
	for (int i = 0; i < n; i++)
		if (out[i].ops && out[i].ops->free)
			out[i].ops->free(out[i].self);
}

static int emit_record(struct fs_pipeline *p, const struct fs_rec_hdr *rec, char *err, size_t errlen)
{
	for (int i = 0; i < p->o.nr_outputs; i++)
		if (p->o.outputs[i].ops->record && p->o.outputs[i].ops->record(p->o.outputs[i].self, rec, err, errlen))
			return -1;
	return 0;
}

/* Closed rows wait in spare_rows for reuse, each holding the next one's address in its first bytes. */
static void spare_push(struct fs_pipeline *p, struct fs_decision_row *row)
{
	void *next = p->spare_rows;

	memcpy(row, &next, sizeof(next));
	p->spare_rows = row;
}

static struct fs_decision_row *spare_pop(struct fs_pipeline *p)
{
	struct fs_decision_row *r = p->spare_rows;
	void *next;

	if (r) {
		memcpy(&next, r, sizeof(next));
		p->spare_rows = next;
	}
	return r;
}

/* A placement closed: its row, completed with what it charged, goes to the outputs. */
static int emit_interval(struct fs_pipeline *p, struct fs_task_acct *t, const struct fs_interval *iv,
			 char *err, size_t errlen)
{
	struct fs_decision_row *row = t->pending;

	if (iv->runtime_known) /* the CPUs' energy: this CPU time at the OPPs its PD had then */
		fs_cpu_energy_busy(&p->cpu_energy, iv->run_cpu, iv->start_ns, iv->runtime_ns);
	if (p->nr_verdicts) {
		fs_fj_t d[FS_MAX_VERDICTS];

		for (int v = 0; v < p->nr_verdicts; v++)
			d[v] = iv->de_fj[p->verdicts[v].pol] - iv->de_fj[p->verdicts[v].twin];
		fs_blocks_add(&p->blocks, iv->start_ns, d);
	}

	if (!row)
		return 0;
	t->pending = NULL;
	row->iv = *iv;
	int rc = 0;

	for (int i = 0; i < p->o.nr_outputs && !rc; i++)
		if (p->o.outputs[i].ops->interval)
			rc = p->o.outputs[i].ops->interval(p->o.outputs[i].self, row, err, errlen);
	/* kept for the next wake-up: malloc and free of a 1.7 KiB row each cost more than writing its CSV text */
	spare_push(p, row);
	return rc;
}

/* A wake-up's row, before its placement closes, to the outputs that follow decisions as they come. */
static int emit_decision(struct fs_pipeline *p, const struct fs_decision_row *row, char *err, size_t errlen)
{
	for (int i = 0; i < p->o.nr_outputs; i++)
		if (p->o.outputs[i].ops->decision && p->o.outputs[i].ops->decision(p->o.outputs[i].self, row, err, errlen))
			return -1;
	return 0;
}

/* ---- setup ---- */

/* ---- the closed-loop simulation ---- */

/* The recorded kernel's policy, for the workload's OPPs and the self-check; NULL if unknown. */
static const struct fs_policy_desc *kernel_policy(const struct fs_pipeline *p)
{
	char why[256];

	if (p->o.sim_kernel_policy)
		return p->o.sim_kernel_policy;
	if (!p->o.kernel_release || !fs_release_valid(p->o.kernel_release))
		return NULL;
	return fs_policy_for_release(p->o.kernel_release, why, sizeof(why));
}

/* Not simulating is said, not fatal: the per-decision answer stands without it. */
static void sim_stop(struct fs_pipeline *p, const char *why)
{
	fs_sim_builder_free(p->simb);
	p->simb = NULL;
	p->sim.ran = false;
	snprintf(p->sim.why, sizeof(p->sim.why), "%s", why);
}

static void sim_start(struct fs_pipeline *p)
{
	struct fs_sim_builder_opts bo = { .kernel_policy = kernel_policy(p), .emulate_eas = p->o.emulate_eas };
	char err[160];

	/* the workload's frequencies under the rate limit the machine runs with (closed_loop.c's default) */
	for (int pd = 0; pd < FS_MAX_PDS; pd++)
		bo.rate_limit_ns[pd] = p->o.sim_settings.rate_src[pd] == FS_SIM_ASSUMED ? FS_SIM_DEFAULT_RATE_LIMIT_NS :
				       p->o.sim_settings.rate_limit_ns[pd];
	if (p->o.no_sim) {
		sim_stop(p, "not asked for (--no-sim)");
		return;
	}
	p->simb = fs_sim_builder_new_opts(&p->em, p->o.sim_physics, &bo, err, sizeof(err));
	if (!p->simb)
		sim_stop(p, err);
	/* live's own builder, as simb: the run's EM at the start (sim_finish() builds with it too) */
	if (p->simb && p->o.sim_live && !(p->live = fs_sim_live_new(&p->em, p->o.sim_physics, &bo, err, sizeof(err))))
		p->simlog_failed = true;
}

/* Live keeps what the builder took, for the simulation of the records so far (fs_pipeline_sim_job). */
static void simlog_add(struct fs_pipeline *p, const struct fs_rec_hdr *rec)
{
	const size_t n = (rec->size + 7) & ~(size_t)7;

	if (p->simlog_failed)
		return;
	if (p->simlog_len + n > p->simlog_cap) {
		size_t cap = p->simlog_cap ? p->simlog_cap : 1 << 16;

		while (cap < p->simlog_len + n)
			cap *= 2;
		unsigned char *l = realloc(p->simlog, cap);

		if (!l) {
			p->simlog_failed = true;
			return;
		}
		p->simlog = l;
		p->simlog_cap = cap;
	}
	memcpy(p->simlog + p->simlog_len, rec, rec->size);
	memset(p->simlog + p->simlog_len + rec->size, 0, n - rec->size);
	p->simlog_len += n;
}

static void sim_feed(struct fs_pipeline *p, const struct fs_rec_hdr *rec)
{
	char err[160];

	if (p->simb && fs_sim_builder_feed(p->simb, rec, err, sizeof(err)))
		sim_stop(p, err);
	if (p->simb && p->o.sim_live)
		simlog_add(p, rec);
}

struct fs_sim_job {
	struct fs_em em;
	const struct fs_policy_desc *pols[FS_MAX_POLICIES];
	struct fs_sim_run_in in;
	struct fs_sim_live *live;           /* the pipeline's, until published */
	unsigned char *log;                 /* the records since the last job */
	struct fs_sim_settings set; /* in.settings: the job's own copy, as the thread runs after the feed */
	size_t len;
	int rc;
	struct fs_sim_report rep;
	char err[256];
};

void fs_sim_job_free(struct fs_sim_job *j)
{
	if (!j)
		return;
	fs_sim_report_free(&j->rep);
	fs_sim_live_free(j->live); /* a job dropped unpublished (the run's end) */
	free(j->log);
	free(j);
}

/*
 * The job takes the records since the last one and the closed loop kept
 * between jobs; the pipeline has it back at publish. One job at a time.
 */
struct fs_sim_job *fs_pipeline_sim_job(struct fs_pipeline *p)
{
	const struct fs_report *r = &p->rep; /* the last snapshot's CPU energy, for the self-check */
	struct fs_sim_job *j;

	if (!p->simb || !p->o.sim_live || p->simlog_failed || !p->live || p->finished || !(j = calloc(1, sizeof(*j))))
		return NULL;
	j->log = p->simlog;
	j->len = p->simlog_len;
	p->simlog = NULL;
	p->simlog_len = p->simlog_cap = 0;
	j->live = p->live;
	p->live = NULL;
	j->em = p->em;
	memcpy(j->pols, p->o.policies, sizeof(j->pols));
	j->in = (struct fs_sim_run_in){
		.em = &j->em, .policies = j->pols, .nr_policies = p->o.nr_policies,
		.kernel_policy = kernel_policy(p), .physics = p->o.sim_physics, .max_span_ns = p->o.sim_max_span_ns,
		.rec_energy = !r->st || r->wall_time || r->cpu.busy_src == FS_BUSY_NONE ? NAN :
			      fs_sim_energy_of_fj(&p->em, r->cpu.total_fj),
	};
	j->set = p->o.sim_settings;
	j->in.settings = &j->set;
	return j;
}

int fs_sim_job_run(struct fs_sim_job *j)
{
	j->rc = fs_sim_live_answer(j->live, j->log, j->len, &j->in, &j->rep, j->err, sizeof(j->err));
	return j->rc;
}

void fs_pipeline_sim_publish(struct fs_pipeline *p, struct fs_sim_job *j)
{
	if (!j->rc) {
		fs_sim_report_free(&p->sim_live);
		p->sim_live = j->rep;
		memset(&j->rep, 0, sizeof(j->rep));
		p->has_sim_live = true;
		p->live = j->live;
		j->live = NULL;
	} else {
		p->simlog_failed = true; /* out of memory half-way: no more live answers */
	}
	fs_sim_job_free(j);
}

/* A trace's decision row (output/trace_decisions.h) to every output that takes rows, complete at once. */
static int trace_row(void *ctx, const struct fs_decision_row *row, char *err, size_t errlen)
{
	struct fs_pipeline *p = ctx;

	if (emit_decision(p, row, err, errlen))
		return -1;
	for (int i = 0; i < p->o.nr_outputs; i++)
		if (p->o.outputs[i].ops->interval && p->o.outputs[i].ops->interval(p->o.outputs[i].self, row, err, errlen))
			return -1;
	return 0;
}

/* At the end: the workload under every policy; the recording's CPU energy for the self-check. */
static int sim_finish(struct fs_pipeline *p, char *err, size_t errlen)
{
	struct fs_sim_workload wl;
	const struct fs_report *r = &p->rep;
	struct fs_sim_run_in in = {
		.em = &p->em, .policies = p->o.policies, .nr_policies = p->o.nr_policies,
		.kernel_policy = kernel_policy(p), .physics = p->o.sim_physics, .max_span_ns = p->o.sim_max_span_ns,
		.rec_energy = r->wall_time || r->cpu.busy_src == FS_BUSY_NONE ? NAN :
			      fs_sim_energy_of_fj(&p->em, r->cpu.total_fj),
		.settings = &p->o.sim_settings,
		.replicas = FS_SIM_REPLICAS, /* the final answer's interval (docs/simulation.md, "The interval") */
	};
	char why[160];

	if (!p->simb)
		return 0;
	int ret = fs_sim_builder_finish(p->simb, &wl, why, sizeof(why));

	p->simb = NULL;
	if (!ret && p->has_trace) { /* the trace's workload, built from its events, not records */
		fs_sim_workload_free(&wl);
		wl = p->trace_wl;
		memset(&p->trace_wl, 0, sizeof(p->trace_wl));
		p->has_trace = false;
		in.trace = &p->trace_in;
	}
	if (ret) {
		sim_stop(p, why);
		return 0;
	}
	in.keep_decisions = in.trace && (p->rows || fs_filter_active(&p->o.filter)); /* the rows count the filters' hits */
	ret = fs_sim_closed_loop(&wl, &in, &p->sim, err, errlen);
	if (!ret && in.keep_decisions && p->sim.ran)
		ret = fs_trace_decisions(&wl, &p->sim, p->o.nr_policies, &p->o.filter, &p->st.trace_rows,
					 &p->st.filtered, trace_row, p, err, errlen);
	p->done_wl = wl;
	p->has_done_wl = true;
	return ret;
}

struct fs_pipeline *fs_pipeline_new(const struct fs_pipeline_opts *o, char *err, size_t errlen)
{
	struct fs_pipeline *p;

	if (!o->em || o->nr_policies < 1 || o->nr_policies > FS_MAX_POLICIES) {
		snprintf(err, errlen, "pipeline: %s", !o->em ? "no Energy Model" : "need 1 to 24 policies");
		free_outputs((struct fs_output *)o->outputs, o->nr_outputs);
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p || !(p->acct = fs_acct_new(o->nr_policies))) {
		snprintf(err, errlen, "pipeline: out of memory");
		free(p);
		free_outputs((struct fs_output *)o->outputs, o->nr_outputs);
		return NULL;
	}
	p->o = *o;
	/* The observed kernel's own EM: its cost and inefficient columns are what feec used. */
	p->em = *o->em;
	p->em.cost_as_read = !o->emulate_eas;
	p->o.em = &p->em;
	o = &p->o;
	/* The reference policy's kernel decides how schedutil picks OPPs. */
	struct fs_power_opts po = fs_power_opts_for_policy(o->policies[0]);
	fs_power_lut_build_opts(&p->power_lut, o->em, &po);
	fs_cpu_energy_init(&p->cpu_energy, o->em);
	p->st.nr_policies = o->nr_policies;
	for (int i = 0; i < o->nr_outputs; i++)
		p->rows |= o->outputs[i].ops->interval || o->outputs[i].ops->decision;
	for (int i = 0; i < o->nr_policies; i++) {
		if (fs_policy_init(&p->pol[i], o->policies[i], o->em, err, errlen))
			goto fail;
		p->st.pol[i].desc = o->policies[i];
		p->twin[i] = -1;
		for (int j = 0; j < o->nr_policies; j++)
			if (o->policies[i]->twin && !strcmp(o->policies[j]->name, o->policies[i]->twin))
				p->twin[i] = j;
	}
	/* A twin evaluated earlier in the run shares its scan: only the final rule is redone. */
	for (int i = 0; i < o->nr_policies; i++) {
		int j = p->twin[i];

		p->redecide_from[i] = !o->no_twin_sharing && j >= 0 && j < i &&
				      fs_policy_can_redecide(&p->pol[i], &p->pol[j]) ? j : -1;
	}
	p->nr_verdicts = fs_verdict_pairs(o->policies, o->nr_policies, p->verdicts);
	sim_start(p);
	if (fs_blocks_init(&p->blocks, p->nr_verdicts) ||
	    !(p->block_sums = malloc(FS_BLOCK_BINS * sizeof(*p->block_sums)))) {
		snprintf(err, errlen, "pipeline: out of memory");
		goto fail;
	}
	return p;
fail:
	fs_pipeline_free(p);
	return NULL;
}

/* ---- per record ---- */

static int check_wakeup_values(const struct fs_wakeup *w, int n, char *err, size_t errlen)
{
	const char *what = NULL;
	int v = 0;
	if (w->prev_cpu < 0 || w->prev_cpu >= n)
		what = "prev_cpu", v = w->prev_cpu;
	else if (w->task_cpu < 0 || w->task_cpu >= n)
		what = "task_cpu", v = w->task_cpu;
	else if (w->waker_cpu < 0 || w->waker_cpu >= n)
		what = "waker_cpu", v = w->waker_cpu;
	else if (w->chosen_cpu < -1 || w->chosen_cpu >= n)
		what = "chosen_cpu", v = w->chosen_cpu;
	if (!what)
		return 0;
	snprintf(err, errlen, "wake-up of pid %d at %llu ns: %s %d out of range 0..%d", w->pid,
		 (unsigned long long)w->hdr.ts_ns, what, v, n - 1);
	return -1;
}

/* fs_system_power_uw() of this wake-up, each destination computed once, with its PD's state. */
struct power_memo {
	struct fs_power_ctx x;
	__u64 have;
	__u64 cache[FS_MAX_CPUS];
	int state[FS_MAX_CPUS];
};

static __u64 power_at(struct power_memo *m, int cpu)
{
	if (cpu < 0 || cpu >= FS_MAX_CPUS)
		return fs_power_ctx_at(&m->x, -1);
	if (!(m->have & (1ull << cpu))) {
		m->cache[cpu] = fs_power_ctx_at_state(&m->x, cpu, &m->state[cpu]);
		m->have |= 1ull << cpu;
	}
	return m->cache[cpu];
}

/* The state of cpu's PD with the task there: from the memo, else without the power's busy sum. */
static int state_at(const struct power_memo *m, int cpu)
{
	if (cpu >= 0 && cpu < FS_MAX_CPUS && (m->have & (1ull << cpu)))
		return m->state[cpu];
	return fs_power_ctx_state_at(&m->x, cpu);
}

static void count_policy(struct fs_pipeline *p, int i, int pd_prev)
{
	const struct fs_feec_result *r = &p->res[i];
	struct fs_policy_stats *ps = &p->st.pol[i];
	const struct fs_wakeup *w = p->cur;

	ps->reasons[r->reason < FS_FEEC__NR ? r->reason : 0]++;
	if (r->eligible) {
		ps->eligible++;
		if (w->chosen_cpu >= 0) {
			ps->kernel_known++;
			ps->agree_kernel += r->cpu == w->chosen_cpu;
		}
	}
	if (r->cpu < 0)
		return;
	ps->decided++;
	if (i && p->res[0].cpu >= 0 && r->cpu != p->res[0].cpu)
		ps->differ++;
	int pd_to = r->cpu < FS_MAX_CPUS ? p->o.em->cpu_pd[r->cpu] : -1;
	if (pd_prev >= 0 && pd_to >= 0)
		ps->pd_moves[pd_prev][pd_to]++;
}

/* A margin kept prev although this policy found a cheaper CPU, and the twin (if run) did move. */
static void count_blocked(struct fs_pipeline *p, int i, struct power_memo *m)
{
	const struct fs_feec_result *r = &p->res[i];
	struct fs_policy_stats *ps = &p->st.pol[i];
	int j = p->twin[i];

	if (r->reason != FS_FEEC_MARGIN_KEPT || r->best_cpu < 0 || r->prev_delta == UINT64_MAX ||
	    r->best_delta == UINT64_MAX || r->best_delta > r->prev_delta)
		return;
	if (j >= 0 && p->res[j].cpu == p->cur->prev_cpu)
		return;
	ps->blocked++;
	ps->blocked_hist[fs_acct_pct_bucket(r->prev_delta - r->best_delta, r->has_threshold ? r->threshold : 0)]++;
	__s64 uw = (__s64)power_at(m, p->cur->prev_cpu) - (__s64)power_at(m, r->best_cpu);
	ps->blocked_hist_uw[fs_acct_uw_bucket(uw)]++;
}

/* The row the outputs get when this wake-up's placement closes. */
static struct fs_decision_row *new_row(struct fs_pipeline *p, const struct fs_wakeup *w,
				       const int *acct_cpu, const __u64 *power, const __s64 *dp)
{
	struct fs_decision_row *r = spare_pop(p);

	if (!r && !(r = malloc(sizeof(*r))))
		return NULL;
	r->seq = p->st.wakeups;
	r->ts_ns = w->hdr.ts_ns;
	r->pid = w->pid;
	r->tgid = w->tgid;
	r->uid = w->uid;
	memcpy(r->comm, w->comm, FS_COMM_LEN);
	r->prev_cpu = w->prev_cpu;
	r->kernel_cpu = w->chosen_cpu;
	r->task_util = p->res[0].task_util;
	r->flags = w->flags & ~FS_WAKE_OU_EMULATED; /* engine-internal */
	r->wakeup = w;
	r->res = p->res;
	for (int i = 0; i < p->o.nr_policies; i++) {
		const struct fs_feec_result *res = &p->res[i];

		r->pol[i] = (struct fs_decision_pol){
			.cpu = res->cpu, .acct_cpu = acct_cpu[i], .reason = res->reason,
			.has_threshold = res->has_threshold, .prev_delta = res->prev_delta,
			.best_delta = res->best_delta, .threshold = res->threshold,
			.power_uw = power[i], .dpower_uw = dp[i],
		};
	}
	return r;
}

/*
 * The CPUs' energy: the CPU time a balance migration moved to mig_cpu, up to the
 * task's next reading (a misfit burst pulled up runs there, at that PD's OPPs).
 */
static void busy_after_migration(struct fs_pipeline *p, struct fs_task_acct *t, __u64 sum_exec)
{
	if (t->mig_open && sum_exec != FS_NO_RUNTIME && sum_exec >= t->mig_sum_exec)
		fs_cpu_energy_busy(&p->cpu_energy, t->mig_cpu, t->mig_ts, sum_exec - t->mig_sum_exec);
	t->mig_open = false;
}

/* End t's open placement and hand its row out. */
static int end_task(struct fs_pipeline *p, struct fs_task_acct *t, __u64 ts, __u64 sum_exec,
		    enum fs_interval_end end, char *err, size_t errlen)
{
	struct fs_interval iv;

	busy_after_migration(p, t, sum_exec);

	if (!fs_acct_end(p->acct, t, ts, sum_exec, end, &iv))
		return 0;
	return emit_interval(p, t, &iv, err, errlen);
}

/* Each PD's state after this wake-up (the task on run_cpu): the utilization-sampled residency. */
static void sample_states(struct fs_pipeline *p, const struct power_memo *m, int run_cpu, int run_state)
{
	int state[FS_MAX_PDS];

	fs_power_ctx_states(&m->x, run_cpu, run_state, state);
	fs_cpu_energy_sample(&p->cpu_energy, p->cur->hdr.ts_ns, state);
}

/* A wake-up record that fits the EM, has its size and sane values, or -1. */
static int check_wakeup(const struct fs_pipeline *p, const struct fs_rec_hdr *h, char *err, size_t errlen)
{
	const struct fs_em *em = p->o.em;

	if (h->nr_cpus != em->nr_cpus) {
		snprintf(err, errlen, "the EM has %d CPUs but the recording has %u", em->nr_cpus, h->nr_cpus);
		return -1;
	}
	if (h->size != fs_wakeup_size(h->nr_cpus)) { /* fs_rec_check()'s test, the rest is known by now */
		snprintf(err, errlen, "record %llu: type %u record of size %u, expected %zu",
			 (unsigned long long)p->st.records, h->type, h->size, fs_wakeup_size(h->nr_cpus));
		return -1;
	}
	return check_wakeup_values((const struct fs_wakeup *)h, em->nr_cpus, err, errlen);
}

/* The wake-up's task: its accounting entry, its interval, its pending decision row. */
static int place_task(struct fs_pipeline *p, const struct fs_wakeup *w, const struct fs_placement *pl,
		      const int *acct_cpu, const __u64 *power, char *err, size_t errlen)
{
	__u64 ts = pl->ts_ns; /* the record's own time, set by on_wakeup() */
	struct fs_task_acct *t = fs_acct_task_find(p->acct, w->pid);
	if (t && fs_acct_task_reused(t, w->tgid, pl->sum_exec_ns)) {
		if (end_task(p, t, ts, FS_NO_RUNTIME, FS_END_TRACE, err, errlen))
			return -1;
		t = NULL;
	}
	if (!t && !(t = fs_acct_task_new(p->acct, w->pid, w->tgid))) {
		snprintf(err, errlen, "pipeline: out of memory (task table)");
		return -1;
	}
	struct fs_interval iv;
	busy_after_migration(p, t, pl->sum_exec_ns);
	if (fs_acct_place(p->acct, t, pl, &iv) && emit_interval(p, t, &iv, err, errlen))
		return -1;
	memcpy(t->comm, w->comm, FS_COMM_LEN);
	if (w->uid != FS_NO_UID)
		t->uid = w->uid;
	if (p->rows && !(t->pending = new_row(p, w, acct_cpu, power, pl->dp_uw))) {
		snprintf(err, errlen, "pipeline: out of memory (placement row)");
		return -1;
	}
	if (!p->rows)
		return 0;
	struct fs_decision_row *row = t->pending;
	int rc = emit_decision(p, row, err, errlen);
	row->wakeup = NULL; /* both are the next wake-up's by its interval */
	row->res = NULL;
	return rc;
}

static int on_wakeup(struct fs_pipeline *p, const struct fs_rec_hdr *h, char *err, size_t errlen)
{
	const struct fs_wakeup *in = (const struct fs_wakeup *)h;
	const struct fs_em *em = p->o.em;
	int n = p->o.nr_policies;

	if (check_wakeup(p, h, err, errlen))
		return -1;
	if (!fs_filter_keep(&p->o.filter, in->pid, in->tgid, in->comm)) {
		p->st.filtered++;
		return 0;
	}
	/* The record as is, unless the landscape must change (emulated EAS, unknown rd state). */
	const struct fs_wakeup *w = in;
	if (p->o.emulate_eas || (in->flags & FS_WAKE_EAS_UNKNOWN)) {
		if (fs_landscape_apply(em, in, p->o.emulate_eas, p->rd_overutilized, &p->w, err, errlen))
			return -1;
		w = &p->w;
	}
	p->cur = w;
	p->st.wakeups++;
	p->st.forks += !!(w->flags & FS_WAKE_FORK);
	p->st.overutilized += !!(w->flags & FS_WAKE_OVERUTILIZED);
	p->st.kernel_known += w->chosen_cpu >= 0;
	/* select_task_rq_fair runs (and the flags are read) only for a task allowed on more than one CPU */
	p->st.flags_unknown += !(w->flags & (FS_WAKE_FLAGS_KNOWN | FS_WAKE_FORK)) && w->nr_cpus_allowed > 1;

	for (int i = 0; i < n; i++) {
		if (p->redecide_from[i] >= 0)
			fs_policy_redecide(&p->pol[i], &p->res[p->redecide_from[i]], &p->res[i]);
		else
			fs_policy_feec(&p->pol[i], w, &p->res[i]);
	}
	p->st.feec_eligible += p->res[0].eligible;

	struct power_memo memo;
	__u64 power[FS_MAX_POLICIES];
	int acct_cpu[FS_MAX_POLICIES];
	struct fs_placement pl;
	int pd_prev = em->cpu_pd[w->prev_cpu];
	fs_power_ctx_init_lut(&memo.x, em, w, &p->power_lut);
	memo.have = 0;
	for (int i = 0; i < n; i++) {
		acct_cpu[i] = fs_acct_effective_cpu(&p->res[i], w);
		power[i] = power_at(&memo, acct_cpu[i]);
		pl.dp_uw[i] = (__s64)power[i] - (__s64)power[0];
		count_policy(p, i, pd_prev);
		count_blocked(p, i, &memo);
	}
	for (int v = 0; v < p->nr_verdicts; v++)
		p->verdicts[v].differ += acct_cpu[p->verdicts[v].pol] != acct_cpu[p->verdicts[v].twin];

	/* Where the task really runs, and how its CPU time there converts to its active time. */
	pl.ts_ns = h->ts_ns;
	pl.sum_exec_ns = p->o.force_wall_time ? FS_NO_RUNTIME : w->sum_exec_ns;
	pl.run_cpu = w->chosen_cpu >= 0 ? w->chosen_cpu : acct_cpu[0];
	int run_state = state_at(&memo, pl.run_cpu);
	fs_power_ctx_window(&memo.x, pl.run_cpu, run_state, &pl.win_num, &pl.win_den);
	sample_states(p, &memo, pl.run_cpu, run_state);
	if (pl.sum_exec_ns == FS_NO_RUNTIME) /* the wall-time estimate's total (only it needs one) */
		fs_acct_sys_step(&p->sys, h->ts_ns, power[0]);

	return place_task(p, w, &pl, acct_cpu, power, err, errlen);
}

/* A task's CPU time outside a wake-up: exit, end of observation, balance migration. */
static int on_task_time(struct fs_pipeline *p, __s32 pid, __s32 tgid, const char *comm, __u64 ts,
			__u64 sum_exec, enum fs_interval_end end, char *err, size_t errlen)
{
	struct fs_task_acct *t = fs_acct_task_find(p->acct, pid);

	if (!t || t->exited || t->tgid != tgid)
		return 0; /* never woke while observed (or filtered out), or another task by that pid */
	if (comm && comm[0])
		memcpy(t->comm, comm, FS_COMM_LEN);
	return end_task(p, t, ts, sum_exec, end, err, errlen);
}

/* A runtime EM update keeps the PDs, their CPUs and frequencies; power and cost may change. */
static const char *em_shape_differs(const struct fs_em *a, const struct fs_em *b)
{
	if (a->nr_pd != b->nr_pd || a->nr_cpus != b->nr_cpus || a->unit != b->unit)
		return "its CPUs, PDs or power unit differ";
	for (int i = 0; i < a->nr_cpus && i < FS_MAX_CPUS; i++)
		if (a->capacity[i] != b->capacity[i])
			return "a CPU capacity differs";
	for (int i = 0; i < a->nr_pd; i++) {
		if (a->pd[i].cpus != b->pd[i].cpus || a->pd[i].nr_ps != b->pd[i].nr_ps)
			return "a PD's CPUs or state count differ";
		for (int s = 0; s < a->pd[i].nr_ps; s++)
			if (a->pd[i].ps[s].frequency != b->pd[i].ps[s].frequency)
				return "a state's frequency differs";
	}
	return NULL;
}

/*
 * FS_REC_EM: the observed kernel's EM from this record on. Policies rebuild
 * their tables (as read), the power estimate its state table. With an EM
 * that is not the kernel's (emulated EAS) the kernel's changes do not apply.
 */
static int on_em(struct fs_pipeline *p, const struct fs_rec_hdr *rec, char *err, size_t errlen)
{
	const struct fs_em_update *u = (const struct fs_em_update *)rec;
	char why[256];
	const char *shape;

	if (!fs_rec_wire_size(rec) || u->len != rec->size - offsetof(struct fs_em_update, text)) {
		snprintf(err, errlen, "record %llu: em record of %u bytes (head %zu, at most %zu)",
			 (unsigned long long)p->st.records, rec->size, offsetof(struct fs_em_update, text),
			 sizeof(struct fs_em_update));
		return -1;
	}
	p->st.em_updates++;
	if (p->o.emulate_eas)
		return 0;
	if (!p->em_next && !(p->em_next = malloc(sizeof(*p->em_next)))) {
		snprintf(err, errlen, "record %llu: out of memory", (unsigned long long)p->st.records);
		return -1;
	}
	if (fs_em_parse_text(u->text, u->len, "em record", p->em_next, why, sizeof(why))) {
		snprintf(err, errlen, "record %llu: %s", (unsigned long long)p->st.records, why);
		return -1;
	}
	if ((shape = em_shape_differs(&p->em, p->em_next))) {
		snprintf(err, errlen, "record %llu: em record at %llu ns: %s from the run's EM (only power, "
			 "cost and flags change at run time)", (unsigned long long)p->st.records,
			 (unsigned long long)rec->ts_ns, shape);
		return -1;
	}
	p->em_next->cost_as_read = true;
	p->em = *p->em_next;
	for (int i = 0; i < p->o.nr_policies; i++) {
		fs_policy_fini(&p->pol[i]);
		if (fs_policy_init(&p->pol[i], p->o.policies[i], &p->em, err, errlen))
			return -1;
	}
	struct fs_power_opts po = fs_power_opts_for_policy(p->o.policies[0]);
	fs_power_lut_build_opts(&p->power_lut, &p->em, &po);
	return 0;
}

static int bad_size(const struct fs_pipeline *p, const struct fs_rec_hdr *rec, char *err, size_t errlen)
{
	snprintf(err, errlen, "record %llu: type %u record of size %u, expected %zu", (unsigned long long)p->st.records,
		 rec->type, rec->size, fs_rec_wire_size(rec));
	return -1;
}

int fs_pipeline_feed(struct fs_pipeline *p, const struct fs_rec_hdr *rec, char *err, size_t errlen)
{
	char why[160];

	if (p->finished) {
		snprintf(err, errlen, "pipeline: fed after finish");
		return -1;
	}
	p->st.records++;
	if (emit_record(p, rec, err, errlen))
		return -1;
	sim_feed(p, rec);
	if (!p->any_ts) {
		p->st.first_ts = p->st.last_ts = rec->ts_ns;
		p->any_ts = true;
		fs_blocks_start(&p->blocks, rec->ts_ns);
	}
	if (rec->ts_ns > p->st.last_ts)
		p->st.last_ts = rec->ts_ns;
	if (rec->type != FS_REC_WAKEUP && fs_rec_wire_size(rec) && rec->size != fs_rec_wire_size(rec))
		return bad_size(p, rec, err, errlen);

	switch (rec->type) {
	case FS_REC_WAKEUP:
		return on_wakeup(p, rec, err, errlen);
	case FS_REC_EM:
		return on_em(p, rec, err, errlen);
	case FS_REC_MIGRATE: {
		const struct fs_migrate *m = (const struct fs_migrate *)rec;
		if (m->reason != FS_MIG_BALANCE)
			return 0; /* a wake-up's own migration: that wake-up accounts for it */
		p->st.migrations++;
		/* The balancer moved it under every policy alike: no difference until its next wake-up. */
		struct fs_task_acct *t = fs_acct_task_find(p->acct, m->pid);
		if (!t || t->exited)
			return 0;
		if (end_task(p, t, rec->ts_ns, m->sum_exec_ns, FS_END_MIGRATE, err, errlen))
			return -1;
		t->mig_open = m->sum_exec_ns != FS_NO_RUNTIME && m->dest_cpu >= 0;
		t->mig_cpu = m->dest_cpu;
		t->mig_ts = rec->ts_ns;
		t->mig_sum_exec = m->sum_exec_ns;
		return 0;
	}
	case FS_REC_OVERUTIL:
		p->rd_overutilized = ((const struct fs_overutil *)rec)->overutilized != 0;
		return 0;
	case FS_REC_LOST:
		p->st.lost += ((const struct fs_lost *)rec)->count;
		return 0;
	case FS_REC_EXIT:
	case FS_REC_RUNTIME: {
		const struct fs_task_time *tt = (const struct fs_task_time *)rec;
		p->st.exits += rec->type == FS_REC_EXIT;
		return on_task_time(p, tt->pid, tt->tgid, tt->comm, rec->ts_ns, tt->sum_exec_ns,
				    rec->type == FS_REC_EXIT ? FS_END_EXIT : FS_END_OBSERVED, err, errlen);
	}
	case FS_REC_CPUSTAT:
		if (fs_cpu_energy_cpustat(&p->cpu_energy, (const struct fs_cpustat *)rec, why, sizeof(why)))
			goto bad_body;
		return 0;
	case FS_REC_FREQSTAT:
		if (fs_cpu_energy_freqstat(&p->cpu_energy, (const struct fs_freqstat *)rec, why, sizeof(why)))
			goto bad_body;
		return 0;
	case FS_REC_BUSYFREQ:
		if (fs_cpu_energy_busyfreq(&p->cpu_energy, (const struct fs_busyfreq *)rec, why, sizeof(why)))
			goto bad_body;
		return 0;
	case FS_REC_FREQ:
		return 0; /* the workload's frequencies (the closed loop's builder has it) */
	}
	snprintf(err, errlen, "record %llu: unknown record type %u", (unsigned long long)p->st.records, rec->type);
	return -1;
bad_body:
	snprintf(err, errlen, "record %llu: %s", (unsigned long long)p->st.records, why);
	return -1;
}

int fs_pipeline_flush(struct fs_pipeline *p, char *err, size_t errlen)
{
	for (int i = 0; i < p->o.nr_outputs; i++)
		if (p->o.outputs[i].ops->flush && p->o.outputs[i].ops->flush(p->o.outputs[i].self, err, errlen))
			return -1;
	return 0;
}

int fs_pipeline_tick(struct fs_pipeline *p, const struct fs_view_sample *s, char *err, size_t errlen)
{
	for (int i = 0; i < p->o.nr_outputs; i++)
		if (p->o.outputs[i].ops->tick && p->o.outputs[i].ops->tick(p->o.outputs[i].self, s, err, errlen))
			return -1;
	return 0;
}

const struct fs_stats *fs_pipeline_stats(const struct fs_pipeline *p)
{
	return &p->st;
}

const struct fs_filter *fs_pipeline_filter(const struct fs_pipeline *p)
{
	return &p->o.filter;
}

/* Tasks with an open placement, ordered by the wake-up that opened it. */
static int cmp_open(const void *a, const void *b)
{
	const struct fs_task_acct *x = *(const struct fs_task_acct *const *)a;
	const struct fs_task_acct *y = *(const struct fs_task_acct *const *)b;

	if (x->pl.ts_ns != y->pl.ts_ns)
		return x->pl.ts_ns < y->pl.ts_ns ? -1 : 1;
	return x->pid < y->pid ? -1 : (x->pid > y->pid);
}

static struct fs_task_acct **open_tasks(const struct fs_pipeline *p, size_t *n)
{
	size_t nt = fs_acct_nr_tasks(p->acct);
	struct fs_task_acct **v = malloc((nt + 1) * sizeof(*v));

	*n = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < nt; i++) {
		struct fs_task_acct *t = fs_acct_task_at(p->acct, i);

		if (t->open)
			v[(*n)++] = t;
	}
	qsort(v, *n, sizeof(*v), cmp_open);
	return v;
}

void fs_pipeline_open_tasks(const struct fs_pipeline *p, fs_open_task_fn fn, void *ctx)
{
	size_t n;
	struct fs_task_acct **v = open_tasks(p, &n);

	for (size_t i = 0; v && i < n; i++)
		fn(ctx, v[i]->pid, v[i]->tgid);
	free(v);
}

/* Fill p->rep from the accounting as it stands. */
static int build_report(struct fs_pipeline *p, int rounds, char *err, size_t errlen)
{
	struct fs_report *r = &p->rep;
	size_t np = 0;

	free(p->procs);
	p->procs = NULL;
	if (fs_processes_build(p->acct, p->verdicts, p->nr_verdicts, p->o.nr_policies, &p->procs, &np)) {
		snprintf(err, errlen, "pipeline: out of memory (processes)");
		return -1;
	}
	/* Δ exactly, over the processes; its interval from a bootstrap over time blocks */
	fs_fj_t zero[FS_MAX_VERDICTS] = { 0 };

	fs_blocks_add(&p->blocks, p->st.last_ts, zero); /* the blocks reach the end of the observation */
	/* the last cut stays in the scratch: the first verdict's, which report pools (many_runs.c) */
	for (int v = p->nr_verdicts - 1; v >= 0; v--) {
		struct fs_verdict *V = &p->verdicts[v];

		V->decisions = p->st.wakeups; /* every wake-up is decided by both */
		V->delta_fj = 0;
		for (size_t i = 0; i < np; i++)
			V->delta_fj += p->procs[i].delta_fj[v];
		V->units = fs_blocks_cut(&p->blocks, v, p->st.last_ts, p->block_sums, FS_BLOCK_BINS, &V->block_ns);
		fs_bootstrap_sum(p->block_sums, V->units, rounds, &V->lo_fj, &V->hi_fj);
		V->measurable = fs_verdict_measurable(V);
	}
	memset(r, 0, sizeof(*r));
	r->st = &p->st;
	r->em = p->o.em;
	r->emulate_eas = p->o.emulate_eas;
	r->kernel_release = p->o.kernel_release;
	r->head = p->o.head;
	r->filter = &p->o.filter;
	r->threads = p->o.threads;
	r->apps = p->o.apps;
	r->wall_time = fs_acct_wall_time(p->acct);
	r->span_ns = p->st.last_ts > p->st.first_ts ? p->st.last_ts - p->st.first_ts : 0;
	r->tot = fs_acct_totals(p->acct);
	fs_cpu_energy_result(&p->cpu_energy, r->tot->run_cpu_ns, &r->cpu);
	if (r->wall_time) { /* the old estimate's total: the reference's system power over time */
		r->cpu.total_fj = p->sys.total_fj;
		r->cpu.busy_src = FS_BUSY_NONE;
		r->cpu.freq_src = FS_FREQ_NONE;
	}
	r->nr_verdicts = p->nr_verdicts;
	r->verdicts = p->verdicts;
	r->blocks0 = p->nr_verdicts ? p->block_sums : NULL;
	r->nr_procs = np;
	r->procs = p->procs;
	r->acct = p->acct;
	return 0;
}

const struct fs_report *fs_pipeline_snapshot(struct fs_pipeline *p)
{
	char err[128];

	/* while running (the live view): a rougher interval, cheap at every refresh */
	if (build_report(p, p->finished ? FS_BOOTSTRAP_ROUNDS : FS_BOOTSTRAP_ROUNDS_LIVE, err, sizeof(err)))
		return NULL;
	/* the closed loop of the records so far, when live has simulated them; the final one after finish */
	p->rep.sim = p->finished ? &p->sim : p->has_sim_live ? &p->sim_live : NULL;
	return &p->rep;
}

int fs_pipeline_finish(struct fs_pipeline *p, char *err, size_t errlen)
{
	int ret = 0;
	size_t nopen;

	if (p->finished) {
		snprintf(err, errlen, "pipeline: finished twice");
		return -1;
	}
	p->finished = true;
	/* Placements still open end at the last timestamp, CPU time unknown; rows in wake-up order. */
	struct fs_task_acct **open = open_tasks(p, &nopen);
	if (!open) {
		snprintf(err, errlen, "pipeline: out of memory");
		return -1;
	}
	for (size_t i = 0; i < nopen && !ret; i++)
		ret = end_task(p, open[i], p->st.last_ts, FS_NO_RUNTIME, FS_END_TRACE, err, errlen);
	free(open);
	fs_acct_sys_close(&p->sys, p->st.last_ts);
	fs_cpu_energy_close(&p->cpu_energy, p->st.last_ts);
	if (ret || build_report(p, FS_BOOTSTRAP_ROUNDS, err, errlen) || sim_finish(p, err, errlen))
		return -1;
	p->rep.sim = &p->sim;
	p->rep.workload = p->has_done_wl ? &p->done_wl : NULL;
	/* Every output is finished even when one fails; err keeps the first failure. */
	for (int i = 0; i < p->o.nr_outputs; i++) {
		const struct fs_output *o = &p->o.outputs[i];
		char later[256];

		if (o->ops->finish && o->ops->finish(o->self, &p->rep, ret ? later : err, ret ? sizeof(later) : errlen))
			ret = -1;
	}
	return ret;
}

const struct fs_report *fs_pipeline_report(const struct fs_pipeline *p)
{
	return p->finished && p->rep.sim ? &p->rep : NULL;
}

void fs_pipeline_free(struct fs_pipeline *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->o.nr_policies; i++)
		if (p->pol[i].desc)
			fs_policy_fini(&p->pol[i]);
	for (size_t i = 0; p->acct && i < fs_acct_nr_tasks(p->acct); i++)
		free(fs_acct_task_at(p->acct, i)->pending);
	for (struct fs_decision_row *r; (r = spare_pop(p));)
		free(r);
	fs_acct_free(p->acct);
	fs_blocks_free(&p->blocks);
	free(p->block_sums);
	free(p->em_next);
	free_outputs(p->o.outputs, p->o.nr_outputs);
	free(p->procs);
	fs_sim_builder_free(p->simb);
	fs_sim_report_free(&p->sim);
	if (p->has_trace)
		fs_sim_workload_free(&p->trace_wl);
	if (p->has_done_wl)
		fs_sim_workload_free(&p->done_wl);
	fs_sim_report_free(&p->sim_live);
	free(p->simlog);
	fs_sim_live_free(p->live);
	free(p);
}

void fs_pipeline_set_workload(struct fs_pipeline *p, struct fs_sim_workload *wl, const struct fs_sim_trace_inputs *in)
{
	if (p->has_trace)
		fs_sim_workload_free(&p->trace_wl);
	p->trace_wl = *wl;
	p->trace_in = *in;
	p->has_trace = true;
	memset(wl, 0, sizeof(*wl));
	/* the observation's span is the trace's, though no record came */
	p->st.first_ts = p->trace_wl.t0_ns;
	p->st.last_ts = p->trace_wl.t0_ns + p->trace_wl.end_ns;
	p->any_ts = true;
}

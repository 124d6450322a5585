// SPDX-License-Identifier: GPL-2.0
/*
 * The record path shared by live and replay: recording (every record, before
 * filters) -> filters -> landscape -> every policy -> accounting -> outputs.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pipeline.h"
#include "em/em_io.h"
#include "engine/accounting.h"
#include "engine/power_estimate.h"
#include "engine/landscape.h"
#include "output/decisions_csv.h"
#include "output/summary.h"
#include "source/recording.h"

struct task_slot {
	bool used;
	struct fs_task_stats st;
	struct fs_acct_task acct;
	fs_fj_t energy_fj[FS_MAX_POLICIES];
	struct fs_decision_row *row; /* the open interval's CSV row (only with --csv) */
};

struct fs_pipeline {
	struct fs_pipeline_opts o;
	struct fs_policy pol[FS_MAX_POLICIES];
	int twin[FS_MAX_POLICIES];   /* index of the policy's twin in this run, -1 if not run */
	int redecide_from[FS_MAX_POLICIES]; /* an earlier twin whose scan this one re-decides, or -1 */
	struct fs_stats st;
	fs_fj_t pol_fj[FS_MAX_POLICIES];
	struct fs_acct_sys sys;
	struct task_slot *tasks;
	size_t tasks_cap, tasks_used;
	bool rd_overutilized;        /* last FS_REC_OVERUTIL state */
	bool any_ts, finished;
	FILE *csv;
	char *csv_path;
	struct fs_rec_writer *rec;
	/* per wake-up scratch, kept here so a feed allocates nothing */
	struct fs_wakeup w;
	struct fs_power_lut power_lut; /* the power estimate's state table for o.em */
	const struct fs_wakeup *cur; /* the wake-up being evaluated: the record itself or w */
	struct fs_feec_result res[FS_MAX_POLICIES];
};

/* ---- task table: open addressing on pid ---- */

static size_t slot_hash(__s32 pid, size_t cap)
{
	return ((__u32)pid * 2654435761u) & (cap - 1);
}

static struct task_slot *task_find(struct fs_pipeline *p, __s32 pid)
{
	if (!p->tasks_cap)
		return NULL;
	for (size_t i = slot_hash(pid, p->tasks_cap);; i = (i + 1) & (p->tasks_cap - 1)) {
		if (!p->tasks[i].used)
			return NULL;
		if (p->tasks[i].st.pid == pid)
			return &p->tasks[i];
	}
}

static int task_grow(struct fs_pipeline *p)
{
	size_t cap = p->tasks_cap ? 2 * p->tasks_cap : 256;
	struct task_slot *n = calloc(cap, sizeof(*n));
	if (!n)
		return -1;
	for (size_t i = 0; i < p->tasks_cap; i++) {
		if (!p->tasks[i].used)
			continue;
		size_t j = slot_hash(p->tasks[i].st.pid, cap);
		while (n[j].used)
			j = (j + 1) & (cap - 1);
		n[j] = p->tasks[i];
	}
	free(p->tasks);
	p->tasks = n;
	p->tasks_cap = cap;
	return 0;
}

static struct task_slot *task_get(struct fs_pipeline *p, __s32 pid)
{
	struct task_slot *t = task_find(p, pid);
	if (t)
		return t;
	if ((p->tasks_used + 1) * 2 > p->tasks_cap && task_grow(p))
		return NULL;
	size_t i = slot_hash(pid, p->tasks_cap);
	while (p->tasks[i].used)
		i = (i + 1) & (p->tasks_cap - 1);
	t = &p->tasks[i];
	t->used = true;
	t->st.pid = pid;
	p->tasks_used++;
	return t;
}

/* ---- setup ---- */

static int em_text(const struct fs_em *em, char **text, size_t *len)
{
	FILE *m = open_memstream(text, len);
	if (!m)
		return -1;
	int rc = fs_em_write(m, em);
	if (fclose(m) || rc < 0)
		return -1;
	return 0;
}

struct fs_pipeline *fs_pipeline_new(const struct fs_pipeline_opts *o, char *err, size_t errlen)
{
	struct fs_pipeline *p;

	if (!o->em || o->nr_policies < 1 || o->nr_policies > FS_MAX_POLICIES) {
		snprintf(err, errlen, "pipeline: %s", !o->em ? "no Energy Model" : "need 1 to 16 policies");
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(err, errlen, "pipeline: out of memory");
		return NULL;
	}
	p->o = *o;
	fs_power_lut_build(&p->power_lut, o->em);
	p->st.nr_policies = o->nr_policies;
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
	if (o->csv_path) {
		p->csv_path = strdup(o->csv_path);
		p->csv = fopen(o->csv_path, "w");
		if (!p->csv) {
			snprintf(err, errlen, "%s: cannot create: %s", o->csv_path, strerror(errno));
			goto fail;
		}
		fs_decisions_csv_header(p->csv, o->nr_policies, o->policies);
	}
	if (o->record_path) {
		struct fs_rec_meta m = { .nr_cpus = o->em->nr_cpus, .em_is_kernel = !o->emulate_eas };
		snprintf(m.feecscope_version, sizeof(m.feecscope_version), "%s", FS_VERSION_STRING);
		snprintf(m.kernel_release, sizeof(m.kernel_release), "%s", o->kernel_release ? o->kernel_release : "");
		if (em_text(o->em, &m.em_text, &m.em_len)) {
			free(m.em_text);
			snprintf(err, errlen, "%s: cannot serialise the EM", o->record_path);
			goto fail;
		}
		p->rec = fs_rec_writer_open(o->record_path, &m, err, errlen);
		free(m.em_text);
		if (!p->rec)
			goto fail;
	}
	return p;
fail:
	fs_pipeline_free(p);
	return NULL;
}

/* ---- per record ---- */

static int emit_row(struct fs_pipeline *p, struct task_slot *t, __u64 dt, enum fs_interval_end end,
		    char *err, size_t errlen)
{
	if (!p->csv || !t->row)
		return 0;
	t->row->dt_ns = dt;
	t->row->end = end;
	if (fs_decisions_csv_row(p->csv, t->row, p->o.nr_policies)) {
		snprintf(err, errlen, "%s: write: %s", p->csv_path, strerror(errno ? errno : EIO));
		return -1;
	}
	free(t->row);
	t->row = NULL;
	return 0;
}

/* End t's placement interval at now: its ΔP·dt goes to the task and the policy totals. */
static int close_interval(struct fs_pipeline *p, struct task_slot *t, __u64 now, enum fs_interval_end end,
			  char *err, size_t errlen)
{
	if (!t->acct.open)
		return 0;
	int n = p->o.nr_policies;
	fs_fj_t e[FS_MAX_POLICIES] = { 0 };
	__u64 dt = fs_acct_task_close(&t->acct, now, n, e);
	for (int i = 0; i < n; i++) {
		t->energy_fj[i] += e[i];
		p->pol_fj[i] += e[i];
		p->st.pol[i].energy_mj = fs_fj_to_mj(p->pol_fj[i]);
	}
	return emit_row(p, t, dt, end, err, errlen);
}

static bool filtered(const struct fs_pipeline *p, __s32 pid, const char *comm)
{
	if (p->o.pid_filter && pid != p->o.pid_filter)
		return true;
	return p->o.comm_filter && strncmp(comm, p->o.comm_filter, FS_COMM_LEN - 1);
}

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

/* fs_system_power_uw() of this wake-up, each destination computed once. */
struct power_memo {
	struct fs_power_ctx x;
	__u64 have;
	__u64 cache[FS_MAX_CPUS];
};

static __u64 power_at(struct power_memo *m, int cpu)
{
	if (cpu < 0 || cpu >= FS_MAX_CPUS)
		return fs_power_ctx_at(&m->x, -1);
	if (!(m->have & (1ull << cpu))) {
		m->cache[cpu] = fs_power_ctx_at(&m->x, cpu);
		m->have |= 1ull << cpu;
	}
	return m->cache[cpu];
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

static int on_wakeup(struct fs_pipeline *p, const struct fs_rec_hdr *h, char *err, size_t errlen)
{
	const struct fs_wakeup *in = (const struct fs_wakeup *)h;
	const struct fs_em *em = p->o.em;
	int n = p->o.nr_policies;
	char why[160];

	if (h->nr_cpus != em->nr_cpus) {
		snprintf(err, errlen, "the EM has %d CPUs but the recording has %u", em->nr_cpus, h->nr_cpus);
		return -1;
	}
	if (fs_rec_check(h, h->size, em->nr_cpus, why, sizeof(why))) {
		snprintf(err, errlen, "record %llu: %s", (unsigned long long)p->st.records, why);
		return -1;
	}
	if (check_wakeup_values(in, em->nr_cpus, err, errlen))
		return -1;
	if (filtered(p, in->pid, in->comm)) {
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

	for (int i = 0; i < n; i++) {
		if (p->redecide_from[i] >= 0)
			fs_policy_redecide(&p->pol[i], &p->res[p->redecide_from[i]], &p->res[i]);
		else
			fs_policy_feec(&p->pol[i], w, &p->res[i]);
	}
	p->st.feec_eligible += p->res[0].eligible;

	struct power_memo memo;
	__u64 power[FS_MAX_POLICIES];
	__s64 dp[FS_MAX_POLICIES];
	int acct_cpu[FS_MAX_POLICIES];
	int pd_prev = em->cpu_pd[w->prev_cpu];
	fs_power_ctx_init_lut(&memo.x, em, w, &p->power_lut);
	memo.have = 0;
	for (int i = 0; i < n; i++) {
		acct_cpu[i] = fs_acct_effective_cpu(&p->res[i], w);
		power[i] = power_at(&memo, acct_cpu[i]);
		dp[i] = (__s64)power[i] - (__s64)power[0];
		count_policy(p, i, pd_prev);
		count_blocked(p, i, &memo);
	}

	struct task_slot *t = task_get(p, w->pid);
	if (!t) {
		snprintf(err, errlen, "pipeline: out of memory (task table)");
		return -1;
	}
	__u64 ts = h->ts_ns;
	if (close_interval(p, t, ts, FS_END_WAKEUP, err, errlen))
		return -1;
	fs_acct_task_open(&t->acct, ts, n, dp);
	fs_acct_sys_step(&p->sys, ts, power[0]);
	p->st.est_cpu_energy_mj = fs_fj_to_mj(p->sys.total_fj);

	memcpy(t->st.comm, w->comm, FS_COMM_LEN);
	t->st.wakeups++;
	for (int i = 1; i < n; i++)
		t->st.differ[i] += p->res[i].cpu >= 0 && p->res[0].cpu >= 0 && p->res[i].cpu != p->res[0].cpu;

	if (p->csv) {
		struct fs_decision_row *r = t->row ? t->row : malloc(sizeof(*r));
		if (!r) {
			snprintf(err, errlen, "pipeline: out of memory (CSV row)");
			return -1;
		}
		t->row = r;
		r->seq = p->st.wakeups;
		r->ts_ns = ts;
		r->pid = w->pid;
		memcpy(r->comm, w->comm, FS_COMM_LEN);
		r->prev_cpu = w->prev_cpu;
		r->kernel_cpu = w->chosen_cpu;
		r->task_util = p->res[0].task_util;
		r->flags = w->flags;
		for (int i = 0; i < n; i++) {
			const struct fs_feec_result *res = &p->res[i];
			r->pol[i] = (struct fs_decision_pol){
				.cpu = res->cpu, .acct_cpu = acct_cpu[i], .reason = res->reason,
				.has_threshold = res->has_threshold, .prev_delta = res->prev_delta,
				.best_delta = res->best_delta, .threshold = res->threshold,
				.power_uw = power[i], .dpower_uw = dp[i],
			};
		}
	}
	return 0;
}

int fs_pipeline_feed(struct fs_pipeline *p, const struct fs_rec_hdr *rec, char *err, size_t errlen)
{
	if (p->finished) {
		snprintf(err, errlen, "pipeline: fed after finish");
		return -1;
	}
	p->st.records++;
	if (p->rec && fs_rec_writer_add(p->rec, rec, err, errlen))
		return -1;
	if (!p->any_ts) {
		p->st.first_ts = p->st.last_ts = rec->ts_ns;
		p->any_ts = true;
	}
	if (rec->ts_ns > p->st.last_ts)
		p->st.last_ts = rec->ts_ns;

	switch (rec->type) {
	case FS_REC_WAKEUP:
		return on_wakeup(p, rec, err, errlen);
	case FS_REC_MIGRATE: {
		const struct fs_migrate *m = (const struct fs_migrate *)rec;
		if (rec->size != sizeof(*m))
			break;
		if (m->reason != FS_MIG_BALANCE)
			return 0; /* a wake-up's own migration: that wake-up accounts for it */
		p->st.migrations++;
		/* The balancer moved it under every policy alike: no difference until its next wake-up. */
		struct task_slot *t = task_find(p, m->pid);
		return t ? close_interval(p, t, rec->ts_ns, FS_END_MIGRATE, err, errlen) : 0;
	}
	case FS_REC_OVERUTIL:
		if (rec->size != sizeof(struct fs_overutil))
			break;
		p->rd_overutilized = ((const struct fs_overutil *)rec)->overutilized != 0;
		return 0;
	case FS_REC_LOST:
		if (rec->size != sizeof(struct fs_lost))
			break;
		p->st.lost += ((const struct fs_lost *)rec)->count;
		return 0;
	case FS_REC_EXIT:
	case FS_REC_RUNTIME:
	case FS_REC_CPUSTAT:
	case FS_REC_FREQSTAT:
		if (rec->size != fs_rec_wire_size(rec))
			break;
		return 0;
	default:
		snprintf(err, errlen, "record %llu: unknown record type %u", (unsigned long long)p->st.records, rec->type);
		return -1;
	}
	snprintf(err, errlen, "record %llu: type %u record of size %u, expected %zu", (unsigned long long)p->st.records,
		 rec->type, rec->size, fs_rec_wire_size(rec));
	return -1;
}

int fs_pipeline_flush(struct fs_pipeline *p, char *err, size_t errlen)
{
	if (p->csv && fflush(p->csv)) {
		snprintf(err, errlen, "%s: write: %s", p->csv_path, strerror(errno));
		return -1;
	}
	return p->rec ? fs_rec_writer_flush(p->rec, err, errlen) : 0;
}

const struct fs_stats *fs_pipeline_stats(const struct fs_pipeline *p)
{
	return &p->st;
}

static fs_fj_t abs_fj(fs_fj_t v)
{
	return v < 0 ? -v : v;
}

static int cmp_tasks(const struct task_slot *a, const struct task_slot *b, int k)
{
	fs_fj_t ea = abs_fj(a->energy_fj[k]), eb = abs_fj(b->energy_fj[k]);
	if (ea != eb)
		return ea > eb ? -1 : 1;
	if (a->st.differ[k] != b->st.differ[k])
		return a->st.differ[k] > b->st.differ[k] ? -1 : 1;
	if (a->st.wakeups != b->st.wakeups)
		return a->st.wakeups > b->st.wakeups ? -1 : 1;
	return a->st.pid < b->st.pid ? -1 : (a->st.pid > b->st.pid);
}

/* Top `max` slots by cmp_tasks (selection into a small sorted array: max is FS_TOP_TASKS-sized). */
static int top_slots(const struct fs_pipeline *p, const struct task_slot **out, int max)
{
	int k = p->o.nr_policies > 1 ? 1 : 0, n = 0;
	for (size_t i = 0; i < p->tasks_cap; i++) {
		const struct task_slot *t = &p->tasks[i];
		if (!t->used)
			continue;
		int pos = n;
		while (pos > 0 && cmp_tasks(t, out[pos - 1], k) < 0)
			pos--;
		if (pos >= max)
			continue;
		if (n < max)
			n++;
		memmove(&out[pos + 1], &out[pos], (size_t)(n - 1 - pos) * sizeof(*out));
		out[pos] = t;
	}
	return n;
}

static void fill_task_stats(const struct fs_pipeline *p, const struct task_slot *t, struct fs_task_stats *o)
{
	*o = t->st;
	for (int i = 0; i < p->o.nr_policies; i++)
		o->energy_mj[i] = fs_fj_to_mj(t->energy_fj[i]);
}

int fs_pipeline_top_tasks(const struct fs_pipeline *p, struct fs_task_stats *out, int max)
{
	const struct task_slot *top[64];
	if (max > 64)
		max = 64;
	int n = top_slots(p, top, max);
	for (int i = 0; i < n; i++)
		fill_task_stats(p, top[i], &out[i]);
	return n;
}

static int cmp_row_seq(const void *a, const void *b)
{
	const struct task_slot *x = *(const struct task_slot *const *)a, *y = *(const struct task_slot *const *)b;
	return x->row->seq < y->row->seq ? -1 : (x->row->seq > y->row->seq);
}

int fs_pipeline_finish(struct fs_pipeline *p, FILE *summary, char *err, size_t errlen)
{
	int ret = 0;
	if (p->finished) {
		snprintf(err, errlen, "pipeline: finished twice");
		return -1;
	}
	p->finished = true;
	/* Open intervals end at the last timestamp seen; their rows go out in wake-up order. */
	const struct task_slot **open = calloc(p->tasks_used + 1, sizeof(*open));
	size_t nopen = 0;
	if (!open) {
		snprintf(err, errlen, "pipeline: out of memory");
		return -1;
	}
	for (size_t i = 0; i < p->tasks_cap; i++)
		if (p->tasks[i].used && p->tasks[i].row)
			open[nopen++] = &p->tasks[i];
	qsort(open, nopen, sizeof(*open), cmp_row_seq);
	for (size_t i = 0; i < nopen && !ret; i++)
		ret = close_interval(p, (struct task_slot *)open[i], p->st.last_ts, FS_END_TRACE, err, errlen);
	free(open);
	for (size_t i = 0; i < p->tasks_cap && !ret; i++)
		if (p->tasks[i].used)
			ret = close_interval(p, &p->tasks[i], p->st.last_ts, FS_END_TRACE, err, errlen);
	fs_acct_sys_close(&p->sys, p->st.last_ts);
	p->st.est_cpu_energy_mj = fs_fj_to_mj(p->sys.total_fj);
	if (ret)
		return ret;

	if (p->csv) {
		if (fclose(p->csv)) {
			snprintf(err, errlen, "%s: write: %s", p->csv_path, strerror(errno));
			ret = -1;
		}
		p->csv = NULL;
	}
	if (p->rec) {
		if (fs_rec_writer_close(p->rec, err, errlen))
			ret = -1;
		p->rec = NULL;
	}
	if (summary) {
		const struct task_slot *top[FS_TOP_TASKS];
		struct fs_task_stats ts[FS_TOP_TASKS];
		fs_fj_t top_fj[FS_TOP_TASKS][FS_MAX_POLICIES];
		int nt = top_slots(p, top, FS_TOP_TASKS);
		for (int i = 0; i < nt; i++) {
			fill_task_stats(p, top[i], &ts[i]);
			memcpy(top_fj[i], top[i]->energy_fj, sizeof(top_fj[i]));
		}
		struct fs_summary s = {
			.st = &p->st, .em = p->o.em, .emulate_eas = p->o.emulate_eas,
			.kernel_release = p->o.kernel_release, .pid_filter = p->o.pid_filter,
			.comm_filter = p->o.comm_filter, .total_fj = p->sys.total_fj,
			.top = ts, .top_fj = (const fs_fj_t (*)[FS_MAX_POLICIES])top_fj, .nr_top = nt,
		};
		memcpy(s.pol_fj, p->pol_fj, sizeof(s.pol_fj));
		fs_summary_print(summary, &s);
		if (fflush(summary) && !ret) {
			snprintf(err, errlen, "summary: write: %s", strerror(errno));
			ret = -1;
		}
	}
	return ret;
}

void fs_pipeline_free(struct fs_pipeline *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->o.nr_policies; i++)
		if (p->pol[i].desc)
			fs_policy_fini(&p->pol[i]);
	for (size_t i = 0; i < p->tasks_cap; i++)
		free(p->tasks[i].row);
	free(p->tasks);
	if (p->csv)
		fclose(p->csv);
	fs_rec_writer_close(p->rec, NULL, 0);
	free(p->csv_path);
	free(p);
}

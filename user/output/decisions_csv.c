// SPDX-License-Identifier: GPL-2.0
/* Per-decision CSV writer: fixed formatting, no wall clock, so replays are byte-identical. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "decisions_csv.h"
#include "out_file.h"
#include "../records/csv_cells.h"

int fs_decisions_csv_header(FILE *out, int nr, const struct fs_policy_desc *const *pols)
{
	fputs("seq,ts_ns,pid,tgid,uid,comm,prev_cpu,kernel_cpu,task_util,flags,dt_ns,until,runtime_ns,window_ns", out);
	for (int i = 0; i < nr; i++) {
		const char *n = pols[i]->name;
		fprintf(out, ",%s_cpu,%s_reason,%s_prev_delta,%s_best_delta,%s_threshold,"
			"%s_acct_cpu,%s_power_uw,%s_dpower_uw,%s_denergy_nj", n, n, n, n, n, n, n, n, n);
	}
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}

static void put_u64_or_none(FILE *out, __u64 v)
{
	if (v == UINT64_MAX)
		fputs(",", out);
	else
		fprintf(out, ",%llu", (unsigned long long)v);
}

static void put_comm(FILE *out, const char *comm)
{
	char cell[FS_CSV_COMM_MAX];

	fs_csv_comm(cell, comm);
	fputs(cell, out);
}

int fs_decisions_csv_row(FILE *out, const struct fs_decision_row *r, int nr)
{
	char flags[160], e[64];
	fs_csv_format_wake_flags(flags, sizeof(flags), r->flags);
	fprintf(out, "%llu,%llu,%d,%d,", (unsigned long long)r->seq, (unsigned long long)r->ts_ns, r->pid, r->tgid);
	if (r->uid != FS_NO_UID)
		fprintf(out, "%u", r->uid);
	fputc(',', out);
	put_comm(out, r->comm);
	fprintf(out, ",%d,%d,%u,%s,%llu,%s,", r->prev_cpu, r->kernel_cpu, r->task_util, flags,
		(unsigned long long)r->iv.dt_ns, fs_interval_end_name(r->iv.end));
	if (r->iv.runtime_known)
		fprintf(out, "%llu", (unsigned long long)r->iv.runtime_ns);
	fprintf(out, ",%llu", (unsigned long long)r->iv.window_ns);
	for (int i = 0; i < nr; i++) {
		const struct fs_decision_pol *p = &r->pol[i];
		fprintf(out, ",%d,%s", p->cpu, fs_feec_reason_name(p->reason));
		put_u64_or_none(out, p->prev_delta);
		put_u64_or_none(out, p->best_delta);
		put_u64_or_none(out, p->has_threshold ? p->threshold : UINT64_MAX);
		/* µW × ns = fJ; nJ with 6 decimals prints the fJ exactly */
		fs_fmt_fj(e, sizeof(e), r->iv.de_fj[i], 6, 6);
		fprintf(out, ",%d,%llu,%lld,%s", p->acct_cpu, (unsigned long long)p->power_uw,
			(long long)p->dpower_uw, e);
	}
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}

/* ---- as an output ---- */

struct csv_out {
	struct fs_out_file out; /* renamed into place by finish */
	FILE *f;                /* out.f */
	int nr;
};

static int csv_interval(void *self, const struct fs_decision_row *row, char *err, size_t errlen)
{
	struct csv_out *c = self;

	if (fs_decisions_csv_row(c->f, row, c->nr)) {
		snprintf(err, errlen, "%s: write: %s", c->out.path, strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

static int csv_flush(void *self, char *err, size_t errlen)
{
	struct csv_out *c = self;

	if (fflush(c->f)) {
		snprintf(err, errlen, "%s: write: %s", c->out.path, strerror(errno));
		return -1;
	}
	return 0;
}

static int csv_finish(void *self, const struct fs_report *rep, char *err, size_t errlen)
{
	struct csv_out *c = self;

	(void)rep;
	c->f = NULL;
	return fs_out_commit(&c->out, err, errlen);
}

static void csv_free(void *self)
{
	struct csv_out *c = self;

	fs_out_abort(&c->out); /* no-op after finish; else the partial file goes */
	free(c);
}

static const struct fs_output_ops csv_ops = {
	.interval = csv_interval, .flush = csv_flush, .finish = csv_finish, .free = csv_free,
};

int fs_output_decisions_csv(struct fs_output *o, const char *path, int nr_policies,
			    const struct fs_policy_desc *const *pols, char *err, size_t errlen)
{
	struct csv_out *c = calloc(1, sizeof(*c));

	if (!c) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	c->nr = nr_policies;
	if (fs_out_open(&c->out, path, err, errlen)) {
		free(c);
		return -1;
	}
	c->f = c->out.f;
	fs_decisions_csv_header(c->f, nr_policies, pols);
	o->ops = &csv_ops;
	o->self = c;
	return 0;
}

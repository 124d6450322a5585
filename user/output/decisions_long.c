// SPDX-License-Identifier: GPL-2.0
/*
 * The decision CSV for analysis (--csv, layout 2, docs/csv.md): one row per
 * wake-up and policy, the policy in a column with its role (reference,
 * margin, twin), so a script works whatever policies ran; rows in wake-up
 * order (seq_sort.c holds rows whose placement closed early), time also
 * relative to the first wake-up. Fixed formatting: replays are identical.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "decisions_csv.h"
#include "out_file.h"
#include "row_pack.h"
#include "seq_sort.h"
#include "text_put.h"
#include "../source/csv_records.h"

#define HOLD_BYTES (64u << 20) /* rows held in memory before they are sorted on disk */
#define LINE_MAX_BYTES 640     /* one policy's row: the shared columns (comm, flags) and its own (< 500) */

static const char header[] =
	"seq,ts_ns,t_ns,pid,tgid,uid,comm,prev_cpu,kernel_cpu,task_util,flags,dt_ns,until,runtime_ns,window_ns,"
	"policy,is_reference,has_margin,twin,cpu,acct_cpu,reason,prev_delta,best_delta,threshold,"
	"power_uw,dpower_uw,denergy_nj\n";

struct long_out {
	struct fs_out_file out; /* the file, under a temporary name until finished */
	FILE *f;
	char *path;
	int nr;
	const struct fs_policy_desc *pols[FS_MAX_POLICIES];
	const char *twin[FS_MAX_POLICIES];   /* the twin's name when it runs too, else "" */
	bool have_t0;
	__u64 t0;                             /* the first wake-up's ts */
	struct fs_seq_sort *sort;
	__u32 flags;                          /* the wake-up flags flags_text spells (they repeat) */
	char flags_text[160];
	char buf[FS_MAX_POLICIES * LINE_MAX_BYTES];
	char packed[FS_ROW_PACK_MAX(FS_MAX_POLICIES)];
	struct fs_decision_row row;           /* a held row unpacked */
};

/* ",v", or "," for none */
static void put_opt(struct text *t, __u64 v)
{
	put_c(t, ',');
	if (v != UINT64_MAX)
		put_u(t, v);
}

/* The row's lines, one per policy, into c->buf; returns their length. */
static size_t format_row(struct long_out *c, const struct fs_decision_row *r)
{
	char comm[FS_CSV_COMM_MAX];
	struct text t = { c->buf };

	if (r->flags != c->flags) {
		c->flags = r->flags;
		fs_csv_format_wake_flags(c->flags_text, sizeof(c->flags_text), r->flags);
	}
	fs_csv_comm(comm, r->comm);
	/* the wake-up's columns once, copied in front of every policy's */
	put_u(&t, r->seq), put_c(&t, ',');
	put_u(&t, r->ts_ns), put_c(&t, ',');
	put_i(&t, (long long)(r->ts_ns - c->t0)), put_c(&t, ','); /* wraps, never overflows */
	put_i(&t, r->pid), put_c(&t, ',');
	put_i(&t, r->tgid), put_c(&t, ',');
	if (r->uid != FS_NO_UID)
		put_u(&t, r->uid);
	put_c(&t, ',');
	put_s(&t, comm), put_c(&t, ',');
	put_i(&t, r->prev_cpu), put_c(&t, ',');
	put_i(&t, r->kernel_cpu), put_c(&t, ',');
	put_u(&t, r->task_util), put_c(&t, ',');
	put_s(&t, c->flags_text), put_c(&t, ',');
	put_u(&t, r->iv.dt_ns), put_c(&t, ',');
	put_s(&t, fs_interval_end_name(r->iv.end)), put_c(&t, ',');
	if (r->iv.runtime_known)
		put_u(&t, r->iv.runtime_ns);
	put_c(&t, ',');
	put_u(&t, r->iv.window_ns);
	size_t shared = (size_t)(t.p - c->buf);
	for (int i = 0; i < c->nr; i++) {
		const struct fs_decision_pol *p = &r->pol[i];

		if (i) {
			memcpy(t.p, c->buf, shared);
			t.p += shared;
		}
		put_c(&t, ','), put_s(&t, c->pols[i]->name);
		put_s(&t, i ? ",0," : ",1,");
		put_s(&t, c->pols[i]->has_margin ? "1," : "0,");
		put_s(&t, c->twin[i]), put_c(&t, ',');
		put_i(&t, p->cpu), put_c(&t, ',');
		put_i(&t, p->acct_cpu), put_c(&t, ',');
		put_s(&t, fs_feec_reason_name(p->reason));
		put_opt(&t, p->prev_delta);
		put_opt(&t, p->best_delta);
		put_opt(&t, p->has_threshold ? p->threshold : UINT64_MAX);
		put_c(&t, ','), put_u(&t, p->power_uw);
		put_c(&t, ','), put_i(&t, p->dpower_uw);
		put_c(&t, ','), put_fj_nj6(&t, r->iv.de_fj[i]); /* nJ, exact */
		put_c(&t, '\n');
	}
	return (size_t)(t.p - c->buf);
}

static int long_decision(void *self, const struct fs_decision_row *row, char *err, size_t errlen)
{
	struct long_out *c = self;

	(void)err, (void)errlen;
	if (!c->have_t0) {
		c->have_t0 = true;
		c->t0 = row->ts_ns;
	}
	return 0;
}

/* Rows wait packed (row_pack.h) and become text when their turn comes. */
static int long_interval(void *self, const struct fs_decision_row *row, char *err, size_t errlen)
{
	struct long_out *c = self;
	size_t len = fs_row_pack(c->packed, row, c->nr);

	return fs_seq_sort_add(c->sort, row->seq, c->packed, len, err, errlen);
}

static int long_emit(void *self, const char *packed, size_t len, FILE *out)
{
	struct long_out *c = self;

	if (fs_row_unpack(packed, len, &c->row, c->nr)) {
		errno = EIO; /* cannot happen: the bytes are the packer's */
		return -1;
	}
	len = format_row(c, &c->row);
	return fwrite(c->buf, 1, len, out) == len ? 0 : -1;
}

static int long_flush(void *self, char *err, size_t errlen)
{
	struct long_out *c = self;

	if (fflush(c->f)) {
		snprintf(err, errlen, "%s: write: %s", c->path, strerror(errno));
		return -1;
	}
	return 0;
}

static int long_finish(void *self, const struct fs_report *rep, char *err, size_t errlen)
{
	struct long_out *c = self;
	int rc = fs_seq_sort_finish(c->sort, err, errlen);

	(void)rep;
	c->f = NULL;
	/* renamed into place only when complete (a failure leaves it for long_free to remove) */
	return rc ? rc : fs_out_commit(&c->out, err, errlen);
}

static void long_free(void *self)
{
	struct long_out *c = self;

	fs_seq_sort_free(c->sort);
	fs_out_abort(&c->out);
	free(c->path);
	free(c);
}

static const struct fs_output_ops long_ops = {
	.decision = long_decision, .interval = long_interval, .flush = long_flush, .finish = long_finish,
	.free = long_free,
};

int fs_output_decisions_long(struct fs_output *o, const char *path, int nr_policies,
			     const struct fs_policy_desc *const *pols, char *err, size_t errlen)
{
	struct long_out *c = calloc(1, sizeof(*c));

	if (!c || !(c->path = strdup(path))) {
		free(c);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	c->nr = nr_policies;
	fs_csv_format_wake_flags(c->flags_text, sizeof(c->flags_text), c->flags);
	for (int i = 0; i < nr_policies; i++) {
		c->pols[i] = pols[i];
		c->twin[i] = "";
		for (int j = 0; j < nr_policies; j++)
			if (pols[i]->twin && !strcmp(pols[i]->twin, pols[j]->name))
				c->twin[i] = pols[j]->name;
	}
	if (fs_out_open(&c->out, path, err, errlen)) {
		long_free(c);
		return -1;
	}
	c->f = c->out.f;
	if (!(c->sort = fs_seq_sort_new(c->f, c->path, 1, HOLD_BYTES))) {
		snprintf(err, errlen, "%s: out of memory", path);
		long_free(c);
		return -1;
	}
	fs_seq_sort_set_emit(c->sort, long_emit, c);
	fputs(header, c->f);
	o->ops = &long_ops;
	o->self = c;
	return 0;
}

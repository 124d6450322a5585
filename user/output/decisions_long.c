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
#include "../records/csv_cells.h"

#define HOLD_BYTES (64u << 20) /* rows held in memory before they are sorted on disk */
#define LINE_MAX_BYTES 640     /* one policy's row: the shared columns (comm, flags) and its own (< 500) */
#define ROW_MAX_BYTES (FS_MAX_POLICIES * LINE_MAX_BYTES)
_Static_assert(ROW_MAX_BYTES <= FS_OUT_ROOM, "a row is formatted in place");

static const char header[] =
	"seq,ts_ns,t_ns,pid,tgid,uid,comm,prev_cpu,kernel_cpu,task_util,flags,dt_ns,until,runtime_ns,window_ns,"
	"policy,is_reference,has_margin,twin,cpu,acct_cpu,reason,prev_delta,best_delta,threshold,"
	"power_uw,dpower_uw,denergy_nj\n";

/*
 * A constant piece of text and its length, so the rows copy it without
 * strlen; a short one sits in pad, so a fixed 32-byte copy (two moves, no
 * call) takes it whole and the bytes past its end are overwritten next.
 */
#define PIECE_FIXED 32
struct piece {
	const char *s;
	size_t n;
	char pad[PIECE_FIXED];
};

static void piece_set(struct piece *p, const char *s)
{
	p->n = strlen(s);
	memset(p->pad, 0, sizeof(p->pad));
	if (p->n < sizeof(p->pad)) {
		memcpy(p->pad, s, p->n);
		p->s = p->pad;
	} else {
		p->s = s;
	}
}

struct long_out {
	struct fs_out_file out; /* the file, under a temporary name until finished */
	FILE *f;
	char *path;
	int nr;
	struct piece pol_text[FS_MAX_POLICIES]; /* ",name,is_reference,has_margin,twin," */
	char *pol_heap[FS_MAX_POLICIES];       /* their text as made */
	struct piece reason[FS_FEEC__NR + 1];  /* the last: a reason out of range */
	struct piece until[FS_END__NR + 1];
	bool have_t0;
	__u64 t0;                             /* the first wake-up's ts */
	struct fs_seq_sort *sort;
	__u32 flags;                          /* the wake-up flags flags_text spells (they repeat) */
	char flags_text[160];
	size_t flags_len;
	char buf[ROW_MAX_BYTES];              /* a row's text, for a plain file (fs_out_room) */
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

static inline void put_piece(struct text *t, const struct piece *p)
{
	if (p->s == p->pad)
		memcpy(t->p, p->pad, PIECE_FIXED); /* the room is a row's worst case, far above a real row */
	else
		memcpy(t->p, p->s, p->n);
	t->p += p->n;
}

/* The row's lines, one per policy, at start (ROW_MAX_BYTES of room); their length. */
static size_t format_row(struct long_out *c, const struct fs_decision_row *r, char *start)
{
	struct text t = { start };

	if (r->flags != c->flags) {
		c->flags = r->flags;
		fs_csv_format_wake_flags(c->flags_text, sizeof(c->flags_text), r->flags);
		c->flags_len = strlen(c->flags_text);
	}
	/* the wake-up's columns once, copied in front of every policy's */
	put_u(&t, r->seq), put_c(&t, ',');
	put_u(&t, r->ts_ns), put_c(&t, ',');
	put_i(&t, (long long)(r->ts_ns - c->t0)), put_c(&t, ','); /* wraps, never overflows */
	put_i(&t, r->pid), put_c(&t, ',');
	put_i(&t, r->tgid), put_c(&t, ',');
	if (r->uid != FS_NO_UID)
		put_u(&t, r->uid);
	put_c(&t, ',');
	t.p += fs_csv_comm(t.p, r->comm), put_c(&t, ',');
	put_i(&t, r->prev_cpu), put_c(&t, ',');
	put_i(&t, r->kernel_cpu), put_c(&t, ',');
	put_u(&t, r->task_util), put_c(&t, ',');
	memcpy(t.p, c->flags_text, c->flags_len < PIECE_FIXED ? PIECE_FIXED : c->flags_len);
	t.p += c->flags_len, put_c(&t, ',');
	put_u(&t, r->iv.dt_ns), put_c(&t, ',');
	put_piece(&t, &c->until[(unsigned)r->iv.end < FS_END__NR ? r->iv.end : FS_END__NR]), put_c(&t, ',');
	if (r->iv.runtime_known)
		put_u(&t, r->iv.runtime_ns);
	put_c(&t, ',');
	put_u(&t, r->iv.window_ns);
	size_t shared = (size_t)(t.p - start);
	for (int i = 0; i < c->nr; i++) {
		const struct fs_decision_pol *p = &r->pol[i];

		if (i) {
			memcpy(t.p, start, shared);
			t.p += shared;
		}
		put_piece(&t, &c->pol_text[i]);
		put_i(&t, p->cpu), put_c(&t, ',');
		put_i(&t, p->acct_cpu), put_c(&t, ',');
		put_piece(&t, &c->reason[(unsigned)p->reason < FS_FEEC__NR ? p->reason : FS_FEEC__NR]);
		put_opt(&t, p->prev_delta);
		put_opt(&t, p->best_delta);
		put_opt(&t, p->has_threshold ? p->threshold : UINT64_MAX);
		put_c(&t, ','), put_u(&t, p->power_uw);
		put_c(&t, ','), put_i(&t, p->dpower_uw);
		put_c(&t, ','), put_fj_nj6(&t, r->iv.de_fj[i]); /* nJ, exact */
		put_c(&t, '\n');
	}
	return (size_t)(t.p - start);
}

/* A row's text into the file, formatted where it goes: 0, or -1 with errno. */
static int put_row(struct long_out *c, const struct fs_decision_row *r)
{
	char *at = fs_out_room(&c->out, c->buf);

	/* the gzip buffer is cold: ask for the lines the next row will write while this one is made */
	__builtin_prefetch(at + 384, 1);
	__builtin_prefetch(at + 448, 1);
	__builtin_prefetch(at + 512, 1);
	__builtin_prefetch(at + 576, 1);

	return fs_out_advance(&c->out, at, format_row(c, r, at));
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

/*
 * HOLD_BYTES, or FS_BENCH_SORT_HOLD=BYTES (hidden, as the other FS_BENCH_
 * knobs): a hold small enough that a short test run spills (tests/cli/out_safety.sh).
 */
static size_t hold_bytes(void)
{
	const char *e = getenv("FS_BENCH_SORT_HOLD");
	char *end;
	unsigned long long v;

	if (!e || !*e)
		return HOLD_BYTES;
	v = strtoull(e, &end, 10);
	return *end || !v || v > HOLD_BYTES ? HOLD_BYTES : (size_t)v;
}

/* Rows wait packed (row_pack.h) and become text when their turn comes; a row whose turn it is goes straight out. */
static int long_interval(void *self, const struct fs_decision_row *row, char *err, size_t errlen)
{
	struct long_out *c = self;

	if (fs_seq_sort_take(c->sort, row->seq)) {
		if (!put_row(c, row))
			return 0;
		snprintf(err, errlen, "%s: write: %s", c->path, strerror(errno ? errno : EIO));
		return -1;
	}
	size_t len = fs_row_pack(c->packed, row, c->nr);

	return fs_seq_sort_add(c->sort, row->seq, c->packed, len, err, errlen);
}

static int long_emit(void *self, const char *packed, size_t len, FILE *out)
{
	struct long_out *c = self;

	(void)out; /* c->f, through fs_out_room() */
	if (fs_row_unpack(packed, len, &c->row, c->nr)) {
		errno = EIO; /* cannot happen: the bytes are the packer's */
		return -1;
	}
	return put_row(c, &c->row);
}

static int long_flush(void *self, char *err, size_t errlen)
{
	struct long_out *c = self;

	if (fflush(c->f)) {
		snprintf(err, errlen, "%s: write: %s", c->path, strerror(errno ? errno : EIO));
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
	for (int i = 0; i < c->nr; i++)
		free(c->pol_heap[i]);
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
	c->flags_len = strlen(c->flags_text);
	for (int i = 0; i < nr_policies; i++) {
		const char *twin = "";
		char *t;

		for (int j = 0; j < nr_policies; j++)
			if (pols[i]->twin && !strcmp(pols[i]->twin, pols[j]->name))
				twin = pols[j]->name;
		if (asprintf(&t, ",%s,%d,%d,%s,", pols[i]->name, i == 0, pols[i]->has_margin ? 1 : 0, twin) < 0) {
			snprintf(err, errlen, "%s: out of memory", path);
			long_free(c);
			return -1;
		}
		piece_set(&c->pol_text[i], t);
		c->pol_heap[i] = t;
	}
	for (int r = 0; r <= FS_FEEC__NR; r++)
		piece_set(&c->reason[r], fs_feec_reason_name((enum fs_feec_reason)r));
	for (int e = 0; e <= FS_END__NR; e++)
		piece_set(&c->until[e], fs_interval_end_name((enum fs_interval_end)e));
	if (fs_out_open(&c->out, path, err, errlen)) {
		long_free(c);
		return -1;
	}
	c->f = c->out.f;
	if (!(c->sort = fs_seq_sort_new(c->f, c->path, 1, hold_bytes()))) {
		snprintf(err, errlen, "%s: out of memory", path);
		long_free(c);
		return -1;
	}
	fs_seq_sort_set_emit(c->sort, long_emit, c);
	size_t spare_len;
	void *spare = fs_out_spare(&c->out, &spare_len); /* the sort is done before the file closes */
	if (spare)
		fs_seq_sort_set_scratch(c->sort, spare, spare_len);
	if (c->out.gz) /* rows go in place (fs_out_room): stdio's buffer would only hold the header */
		setvbuf(c->f, NULL, _IONBF, 0);
	fputs(header, c->f);
	o->ops = &long_ops;
	o->self = c;
	return 0;
}

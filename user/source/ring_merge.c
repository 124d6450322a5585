// SPDX-License-Identifier: GPL-2.0
/* Timestamp-ordered merge of per-CPU ring buffers (see ring_merge.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "record.h"
#include "ring_merge.h"

/* One ring's FIFO: entries [u32 size][record, padded to 8] in a growable byte buffer. */
struct queue {
	unsigned char *buf;
	size_t head, tail, cap;
};

struct fs_ring_merge {
	unsigned int nr;
	struct queue *q;
	fs_merge_emit_fn emit;
	void *ctx;
	__u64 queued;
	__u64 released_ts; /* everything at or before this has gone out */
	int released_any;
	struct fs_ring_merge_stats st;
};

#define ENTRY_HDR 8u
#define ALIGN8(n) (((n) + 7u) & ~(size_t)7u)

struct fs_ring_merge *fs_ring_merge_new(unsigned int nr_rings, fs_merge_emit_fn emit, void *ctx)
{
	struct fs_ring_merge *m;

	if (!nr_rings || !emit)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->q = calloc(nr_rings, sizeof(*m->q));
	if (!m->q) {
		free(m);
		return NULL;
	}
	m->nr = nr_rings;
	m->emit = emit;
	m->ctx = ctx;
	return m;
}

void fs_ring_merge_free(struct fs_ring_merge *m)
{
	if (!m)
		return;
	for (unsigned int i = 0; i < m->nr; i++)
		free(m->q[i].buf);
	free(m->q);
	free(m);
}

const struct fs_ring_merge_stats *fs_ring_merge_stats(const struct fs_ring_merge *m)
{
	return &m->st;
}

/*
 * Room for need more bytes at the tail. The live part slides to the front only
 * when the dead part before it is at least as large (each byte moves O(1)
 * times); otherwise the buffer doubles.
 */
static int reserve(struct queue *q, size_t need)
{
	size_t live = q->tail - q->head;

	if (q->tail + need <= q->cap)
		return 0;
	if (q->head >= live + need) {
		memmove(q->buf, q->buf + q->head, live);
		q->head = 0;
		q->tail = live;
		return 0;
	}
	size_t cap = q->cap ? q->cap : 64 * 1024;

	while (cap < 2 * (live + need))
		cap *= 2;
	unsigned char *nb = malloc(cap);

	if (!nb)
		return -ENOMEM;
	if (live)
		memcpy(nb, q->buf + q->head, live);
	free(q->buf);
	q->buf = nb;
	q->cap = cap;
	q->head = 0;
	q->tail = live;
	return 0;
}

static const struct fs_rec_hdr *head_of(const struct queue *q, __u32 *size)
{
	if (q->head == q->tail)
		return NULL;
	memcpy(size, q->buf + q->head, sizeof(*size));
	return (const void *)(q->buf + q->head + ENTRY_HDR);
}

int fs_ring_merge_push(struct fs_ring_merge *m, unsigned int ring, const void *data, size_t size)
{
	const struct fs_rec_hdr *h = data;
	struct queue *q;
	__u32 sz = (__u32)size;

	if (ring >= m->nr || size < sizeof(*h) || size > 0xffffffffu)
		return -EINVAL;
	if (m->released_any && h->ts_ns <= m->released_ts) {
		m->st.late++; /* its turn has passed: out now, out of order */
		return m->emit(m->ctx, data, size);
	}
	q = &m->q[ring];
	if (reserve(q, ENTRY_HDR + ALIGN8(size)))
		return -ENOMEM;
	memcpy(q->buf + q->tail, &sz, sizeof(sz));
	memcpy(q->buf + q->tail + ENTRY_HDR, data, size);
	q->tail += ENTRY_HDR + ALIGN8(size);
	if (++m->queued > m->st.max_queued)
		m->st.max_queued = m->queued;
	return 0;
}

/* The ring whose head is earliest (ties: the lower ring), or -1 when all are empty. */
static int earliest(const struct fs_ring_merge *m, __u64 *ts)
{
	int best = -1;

	for (unsigned int i = 0; i < m->nr; i++) {
		__u32 size = 0;
		const struct fs_rec_hdr *h = head_of(&m->q[i], &size);

		if (h && (best < 0 || h->ts_ns < *ts)) {
			best = (int)i;
			*ts = h->ts_ns;
		}
	}
	return best;
}

static int release(struct fs_ring_merge *m, __u64 upto_ns, int all)
{
	int rc = 0;
	__u64 ts = 0;
	int r;

	while ((r = earliest(m, &ts)) >= 0 && (all || ts <= upto_ns)) {
		struct queue *q = &m->q[r];
		__u32 size = 0;
		const struct fs_rec_hdr *h = head_of(q, &size);

		if (!rc)
			rc = m->emit(m->ctx, h, size);
		q->head += ENTRY_HDR + ALIGN8(size);
		if (q->head == q->tail)
			q->head = q->tail = 0;
		m->queued--;
		if (!m->released_any || ts > m->released_ts)
			m->released_ts = ts;
		m->released_any = 1;
	}
	if (!all && (!m->released_any || upto_ns > m->released_ts)) {
		m->released_ts = upto_ns; /* nothing at or before upto_ns may queue any more */
		m->released_any = 1;
	}
	return rc;
}

int fs_ring_merge_release(struct fs_ring_merge *m, __u64 upto_ns)
{
	return release(m, upto_ns, 0);
}

int fs_ring_merge_flush(struct fs_ring_merge *m)
{
	return release(m, 0, 1);
}

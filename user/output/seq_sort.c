// SPDX-License-Identifier: GPL-2.0
/* Chunks back in sequence order (seq_sort.h): a min-heap in memory, sorted runs spilled to a file, a k-way merge. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "seq_sort.h"

/*
 * The arena is one address range reserved up front and never moved: one
 * early row that stays open (a task asleep for the whole capture) holds
 * nearly every later row, so the arena grows to the size of the CSV. Grown
 * by realloc, it was copied at each doubling and every new 4 KiB page
 * faulted: that, not the formatting, was most of the CSV's cost. Reserved
 * (only touched pages are memory) and marked for huge pages, a held row
 * costs its memcpy. Pages stay for reuse after a flush or spill.
 */
#define ARENA_SLACK (1u << 20) /* room beyond the limit: the spill comes after the add that crosses it */
#define HUGE_PAGE (2u << 20)   /* a multiple of it gets an aligned range (Linux 6.7+), else the first 2 MiB fault by 4 KiB */

struct chunk {
	__u64 seq;
	size_t off;             /* in the arena */
	size_t len;
};

struct run {
	off_t start, end;
};

struct fs_seq_sort {
	FILE *out;
	fs_seq_sort_emit_fn emit; /* NULL: chunks are written to out as they are */
	void *emit_ctx;
	const char *path;
	__u64 next;             /* the seq written next while nothing is spilled */
	size_t limit;
	char *arena;            /* held text; popped chunks leave garbage until compaction */
	size_t arena_len, arena_cap, live; /* arena_cap: the reservation, fixed */
	struct chunk *heap;     /* min-heap by seq */
	size_t n, cap;
	FILE *spill;            /* unlinked, beside the output; NULL until the first spill */
	off_t spill_end;
	struct run *runs;
	int nr_runs;
};

struct fs_seq_sort *fs_seq_sort_new(FILE *out, const char *path, __u64 first_seq, size_t mem_limit)
{
	struct fs_seq_sort *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->out = out;
	s->path = path;
	s->next = first_seq;
	s->limit = mem_limit;
	s->arena_cap = (mem_limit + ARENA_SLACK + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	s->arena = mmap(NULL, s->arena_cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (s->arena == MAP_FAILED) {
		free(s);
		return NULL;
	}
	(void)madvise(s->arena, s->arena_cap, MADV_HUGEPAGE); /* a hint: EINVAL without THP */
	return s;
}

void fs_seq_sort_set_emit(struct fs_seq_sort *s, fs_seq_sort_emit_fn emit, void *ctx)
{
	s->emit = emit;
	s->emit_ctx = ctx;
}

/* A chunk whose turn came: 0, or -1 with errno. */
static int out_chunk(struct fs_seq_sort *s, const char *chunk, size_t len)
{
	if (s->emit)
		return s->emit(s->emit_ctx, chunk, len, s->out);
	return fwrite(chunk, 1, len, s->out) == len ? 0 : -1;
}

int fs_seq_sort_runs(const struct fs_seq_sort *s)
{
	return s->nr_runs;
}

static bool less(const struct chunk *a, const struct chunk *b)
{
	return a->seq < b->seq;
}

static void sift_up(struct chunk *h, size_t i)
{
	while (i && less(&h[i], &h[(i - 1) / 2])) {
		struct chunk t = h[i];
		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static void sift_down(struct chunk *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < n && less(&h[l], &h[m]))
			m = l;
		if (l + 1 < n && less(&h[l + 1], &h[m]))
			m = l + 1;
		if (m == i)
			return;
		struct chunk t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static int write_err(struct fs_seq_sort *s, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s: %s", s->path, what, strerror(errno ? errno : EIO));
	return -1;
}

static int cmp_chunk(const void *a, const void *b)
{
	const struct chunk *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_off(const void *a, const void *b)
{
	const struct chunk *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* Slide live chunks to the front of the arena, in place (in arena order, so none overwrites another). */
static void compact(struct fs_seq_sort *s)
{
	size_t at = 0;

	qsort(s->heap, s->n, sizeof(*s->heap), cmp_off);
	for (size_t i = 0; i < s->n; i++) {
		memmove(s->arena + at, s->arena + s->heap[i].off, s->heap[i].len);
		s->heap[i].off = at;
		at += s->heap[i].len;
	}
	qsort(s->heap, s->n, sizeof(*s->heap), cmp_chunk); /* sorted by seq is a min-heap */
	s->arena_len = at;
}

/* Everything held, sorted, as one run at the end of the spill file. */
static int spill(struct fs_seq_sort *s, char *err, size_t errlen)
{
	if (!s->spill) {
		size_t n = strlen(s->path);
		char *tmpl = malloc(n + 16);

		if (!tmpl) {
			snprintf(err, errlen, "%s: out of memory", s->path);
			return -1;
		}
		snprintf(tmpl, n + 16, "%s.sort-XXXXXX", s->path);
		int fd = mkstemp(tmpl);
		if (fd >= 0)
			unlink(tmpl);
		free(tmpl);
		if (fd < 0 || !(s->spill = fdopen(fd, "w+"))) {
			if (fd >= 0)
				close(fd);
			return write_err(s, "cannot create a sort file beside it", err, errlen);
		}
	}
	struct run *r = realloc(s->runs, (size_t)(s->nr_runs + 1) * sizeof(*r));
	if (!r) {
		snprintf(err, errlen, "%s: out of memory", s->path);
		return -1;
	}
	s->runs = r;
	qsort(s->heap, s->n, sizeof(*s->heap), cmp_chunk);
	r[s->nr_runs].start = s->spill_end;
	for (size_t i = 0; i < s->n; i++) {
		__u64 hdr[2] = { s->heap[i].seq, s->heap[i].len };

		if (fwrite(hdr, sizeof(hdr), 1, s->spill) != 1 ||
		    fwrite(s->arena + s->heap[i].off, 1, s->heap[i].len, s->spill) != s->heap[i].len)
			return write_err(s, "write to the sort file", err, errlen);
		s->spill_end += (off_t)(sizeof(hdr) + s->heap[i].len);
	}
	r[s->nr_runs++].end = s->spill_end;
	s->n = 0;
	s->arena_len = s->live = 0;
	return 0;
}

bool fs_seq_sort_take(struct fs_seq_sort *s, __u64 seq)
{
	if (s->nr_runs || s->n || seq != s->next)
		return false;
	s->next++;
	return true;
}

int fs_seq_sort_add(struct fs_seq_sort *s, __u64 seq, const char *text, size_t len, char *err, size_t errlen)
{
	if (!s->nr_runs && !s->n && seq == s->next) { /* in order: straight through */
		s->next++;
		return out_chunk(s, text, len) ? write_err(s, "write", err, errlen) : 0;
	}
	if (s->arena_len + len > s->arena_cap) {
		if (s->live + len > s->arena_cap) {
			snprintf(err, errlen, "%s: a row of %zu bytes is larger than the sort's memory", s->path, len);
			return -1;
		}
		compact(s);
		if (s->arena_len + len > s->arena_cap && spill(s, err, errlen))
			return -1;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		struct chunk *h = realloc(s->heap, cap * sizeof(*h));
		if (!h)
			goto oom;
		s->heap = h;
		s->cap = cap;
	}
	memcpy(s->arena + s->arena_len, text, len);
	s->heap[s->n] = (struct chunk){ .seq = seq, .off = s->arena_len, .len = len };
	sift_up(s->heap, s->n++);
	s->arena_len += len;
	s->live += len;
	/* what is now contiguous goes out, unless a run on disk may hold earlier chunks */
	while (!s->nr_runs && s->n && s->heap[0].seq == s->next) {
		const struct chunk *c = &s->heap[0];

		if (out_chunk(s, s->arena + c->off, c->len))
			return write_err(s, "write", err, errlen);
		s->live -= c->len;
		s->next++;
		s->heap[0] = s->heap[--s->n];
		sift_down(s->heap, s->n, 0);
	}
	if (!s->n)
		s->arena_len = 0;
	/* written chunks leave garbage behind held ones: drop it once it outweighs them */
	if (s->arena_len > 2 * s->live + (1u << 20))
		compact(s);
	if (s->arena_len > s->limit)
		return spill(s, err, errlen);
	return 0;
oom:
	snprintf(err, errlen, "%s: out of memory holding rows for wake-up order", s->path);
	return -1;
}

/* One run read back in order. */
struct reader {
	off_t pos, end;
	char *buf;
	size_t cap;
	__u64 seq, len;
};

static int reader_next(struct fs_seq_sort *s, struct reader *r, char *err, size_t errlen)
{
	__u64 hdr[2];

	if (r->pos >= r->end)
		return 0;
	if (pread(fileno(s->spill), hdr, sizeof(hdr), r->pos) != (ssize_t)sizeof(hdr))
		return write_err(s, "read back the sort file", err, errlen);
	r->seq = hdr[0];
	r->len = hdr[1];
	if (r->len > r->cap) {
		char *b = realloc(r->buf, r->len);
		if (!b) {
			snprintf(err, errlen, "%s: out of memory", s->path);
			return -1;
		}
		r->buf = b;
		r->cap = r->len;
	}
	if (pread(fileno(s->spill), r->buf, r->len, r->pos + (off_t)sizeof(hdr)) != (ssize_t)r->len)
		return write_err(s, "read back the sort file", err, errlen);
	r->pos += (off_t)(sizeof(hdr) + r->len);
	return 1;
}

/* k-way merge of the runs: each step writes the smallest current chunk (k is small: a linear scan). */
static int merge(struct fs_seq_sort *s, char *err, size_t errlen)
{
	struct reader *rd = calloc((size_t)s->nr_runs, sizeof(*rd));
	int rc = 0;

	if (!rd) {
		snprintf(err, errlen, "%s: out of memory", s->path);
		return -1;
	}
	if (fflush(s->spill))
		rc = write_err(s, "write to the sort file", err, errlen);
	for (int i = 0; i < s->nr_runs && !rc; i++) {
		rd[i].pos = s->runs[i].start;
		rd[i].end = s->runs[i].end;
		int k = reader_next(s, &rd[i], err, errlen);
		if (k < 0)
			rc = -1;
		else if (!k)
			rd[i].pos = -1;
	}
	while (!rc) {
		int best = -1;

		for (int i = 0; i < s->nr_runs; i++)
			if (rd[i].pos >= 0 && (best < 0 || rd[i].seq < rd[best].seq))
				best = i;
		if (best < 0)
			break;
		if (out_chunk(s, rd[best].buf, rd[best].len)) {
			rc = write_err(s, "write", err, errlen);
			break;
		}
		int k = reader_next(s, &rd[best], err, errlen);
		if (k < 0)
			rc = -1;
		else if (!k)
			rd[best].pos = -1;
	}
	for (int i = 0; i < s->nr_runs; i++)
		free(rd[i].buf);
	free(rd);
	return rc;
}

int fs_seq_sort_finish(struct fs_seq_sort *s, char *err, size_t errlen)
{
	if (s->nr_runs)
		return s->n && spill(s, err, errlen) ? -1 : merge(s, err, errlen);
	if (s->n) /* an empty run has no heap yet (qsort must not get NULL) */
		qsort(s->heap, s->n, sizeof(*s->heap), cmp_chunk);
	for (size_t i = 0; i < s->n; i++)
		if (out_chunk(s, s->arena + s->heap[i].off, s->heap[i].len))
			return write_err(s, "write", err, errlen);
	s->n = 0;
	s->arena_len = s->live = 0;
	return 0;
}

void fs_seq_sort_free(struct fs_seq_sort *s)
{
	if (!s)
		return;
	if (s->spill)
		fclose(s->spill);
	munmap(s->arena, s->arena_cap);
	free(s->heap);
	free(s->runs);
	free(s);
}

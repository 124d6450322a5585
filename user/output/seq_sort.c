/*
 * Chunks back in sequence order (seq_sort.h): held chunks indexed by seq in
 * a ring, sorted runs spilled to a file, a k-way merge.
 *
 * Every seq comes once, and those not yet written lie between the next one
 * due and the highest one held, so a ring indexed by seq finds a chunk's
 * place and the next one due in one step. A min-heap did the same in
 * log2(held) steps, each a likely cache miss: a long capture holds tens of
 * thousands of rows behind one sleeping task, and popping them through the
 * heap cost more than turning them into text.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "out_cleanup.h"
#include "seq_sort.h"

/*
 * The arena is one address range reserved up front and never moved: one
 * early row that stays open (a task asleep for the whole capture) holds
 * nearly every later row, so the arena grows to the size of the CSV. Grown
 * by realloc, it was copied at each doubling and every new 4 KiB page
 * faulted: that, not the formatting, was most of the CSV's cost. Reserved
 * (only touched pages are memory) and marked for huge pages, a held row
 * costs its memcpy. Pages stay for reuse after a flush or spill.
 *
 * It is reserved at the first row held, and only when the scratch memory a
 * writer lent (fs_seq_sort_set_scratch: the rest of a gzip stream's huge
 * page) no longer holds the rows: a fresh huge page costs its 2 MiB of
 * zeroing, and 4 KiB pages cost more, a fault each (docs/perfetto.md, Cost:
 * fresh pages).
 */
#define ARENA_SLACK (1u << 20) /* room beyond the limit: the spill comes after the add that crosses it */
#define HUGE_PAGE (2u << 20)   /* a multiple of it gets an aligned range (Linux 6.7+), else the first 2 MiB fault by 4 KiB */

/* A held chunk in the ring: where its bytes are in the arena (under 4 GiB); len + 1, 0 for none. */
struct slot {
	__u32 off;
	__u32 len1;
};
#define ARENA_MAX (3ull << 30) /* offsets fit 32 bits: a slot is 8 bytes, and the ring's pages few */

/* A held chunk outside the ring (late, or in a list being sorted). */
struct chunk {
	__u64 seq;
	__u64 off;
	__u64 len;
	__u64 *where;           /* compaction: a late chunk's offset to update (NULL: the ring's slot) */
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
	char *arena;            /* held text; written chunks leave garbage until compaction */
	size_t arena_len, arena_cap, live; /* arena_cap: its size */
	bool own;               /* the arena is our reservation (else lent scratch, or none yet) */
	size_t reserve;         /* the reservation's size */
	/* the ring: ring[seq & (ring_cap - 1)] holds seq, for base <= seq < top (< base + ring_cap) */
	struct slot *ring;
	size_t ring_cap;
	__u64 base, top;        /* base == next until the first spill; after a spill, the top then */
	size_t n;               /* chunks held, in the ring and late */
	struct chunk *late;     /* after a spill: chunks below base (placements open at the spill) */
	size_t nr_late, cap_late;
	struct chunk *scratch;  /* compaction and spills: held chunks listed */
	size_t cap_scratch;
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
	s->next = s->base = s->top = first_seq;
	s->limit = mem_limit = mem_limit < ARENA_MAX - ARENA_SLACK - HUGE_PAGE ? mem_limit : ARENA_MAX - ARENA_SLACK - HUGE_PAGE;
	s->reserve = (mem_limit + ARENA_SLACK + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	return s;
}

void fs_seq_sort_set_scratch(struct fs_seq_sort *s, void *mem, size_t len)
{
	if (!s->own && !s->n) {
		s->arena = mem;
		s->arena_cap = len < ARENA_MAX ? len : ARENA_MAX;
	}
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

static int write_err(struct fs_seq_sort *s, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s: %s", s->path, what, strerror(errno ? errno : EIO));
	return -1;
}

static int oom(struct fs_seq_sort *s, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: out of memory holding rows for wake-up order", s->path);
	return -1;
}

static struct slot *slot_of(const struct fs_seq_sort *s, __u64 seq)
{
	return &s->ring[seq & (s->ring_cap - 1)];
}

/* Room in the ring for seq (>= base): 0, or -1 out of memory. */
static int ring_fit(struct fs_seq_sort *s, __u64 seq)
{
	if (seq - s->base < s->ring_cap)
		return 0;
	size_t cap = s->ring_cap ? s->ring_cap : 256;
	while (seq - s->base >= cap)
		cap *= 2;
	struct slot *r = calloc(cap, sizeof(*r));
	if (!r)
		return -1;
	for (__u64 q = s->base; q < s->top; q++)
		r[q & (cap - 1)] = *slot_of(s, q);
	free(s->ring);
	s->ring = r;
	s->ring_cap = cap;
	return 0;
}

static int cmp_seq(const void *a, const void *b)
{
	const struct chunk *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_off(const void *a, const void *b)
{
	const struct chunk *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* Every held chunk into s->scratch, late ones first (their order as held); how many, or -1 out of memory. */
static ssize_t list_held(struct fs_seq_sort *s)
{
	if (s->n > s->cap_scratch) {
		struct chunk *c = realloc(s->scratch, s->n * sizeof(*c));
		if (!c)
			return -1;
		s->scratch = c;
		s->cap_scratch = s->n;
	}
	size_t k = 0;
	for (size_t i = 0; i < s->nr_late; i++) {
		s->scratch[k] = s->late[i];
		s->scratch[k++].where = &s->late[i].off;
	}
	for (__u64 q = s->base; q < s->top; q++) {
		struct slot *sl = slot_of(s, q);

		if (sl->len1)
			s->scratch[k++] = (struct chunk){ .seq = q, .off = sl->off, .len = sl->len1 - 1 };
	}
	return (ssize_t)k;
}

/* A listed chunk's new place, in the ring or the late list. */
static void set_off(struct fs_seq_sort *s, const struct chunk *c, size_t at)
{
	if (c->where)
		*c->where = at;
	else
		slot_of(s, c->seq)->off = (__u32)at;
}

/* Every held chunk copied to dst from offset at up (late ones first, then in seq order), its place updated; the end. */
static size_t copy_held(struct fs_seq_sort *s, char *dst, size_t at)
{
	for (size_t i = 0; i < s->nr_late; i++) {
		memcpy(dst + at, s->arena + s->late[i].off, s->late[i].len);
		s->late[i].off = at;
		at += s->late[i].len;
	}
	for (__u64 q = s->base; q < s->top; q++) {
		struct slot *sl = slot_of(s, q);

		if (sl->len1) {
			memcpy(dst + at, s->arena + sl->off, sl->len1 - 1);
			sl->off = (__u32)at;
			at += sl->len1 - 1;
		}
	}
	return at;
}

/*
 * Held chunks to the front of the arena. With room past the end for them
 * all, they are copied there and the block moved down (no list of them,
 * whose fresh pages cost more than the copies); else slid down in place,
 * in arena order so none overwrites another.
 */
static int compact(struct fs_seq_sort *s)
{
	if (s->arena_cap - s->arena_len >= s->live) {
		size_t end = copy_held(s, s->arena, s->arena_len), from = s->arena_len;

		memmove(s->arena, s->arena + from, end - from);
		for (size_t i = 0; i < s->nr_late; i++)
			s->late[i].off -= from;
		for (__u64 q = s->base; q < s->top; q++)
			if (slot_of(s, q)->len1)
				slot_of(s, q)->off -= (__u32)from;
		s->arena_len = end - from;
		return 0;
	}
	ssize_t k = list_held(s);
	size_t at = 0;

	if (k < 0)
		return -1;
	qsort(s->scratch, (size_t)k, sizeof(*s->scratch), cmp_off);
	for (ssize_t i = 0; i < k; i++) {
		memmove(s->arena + at, s->arena + s->scratch[i].off, s->scratch[i].len);
		set_off(s, &s->scratch[i], at);
		at += s->scratch[i].len;
	}
	s->arena_len = at;
	return 0;
}

/* The held chunks into our own reservation, made now: 0, or -1 out of memory. */
static int reserve_arena(struct fs_seq_sort *s)
{
	char *a = mmap(NULL, s->reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (a == MAP_FAILED)
		return -1;
	(void)madvise(a, s->reserve, MADV_HUGEPAGE); /* a hint: EINVAL without THP */
	s->arena_len = copy_held(s, a, 0);
	s->arena = a;
	s->arena_cap = s->reserve;
	s->own = true;
	return 0;
}

/* Everything held, sorted, as one run at the end of the spill file; later chunks below the ring's top are late. */
static int spill(struct fs_seq_sort *s, char *err, size_t errlen)
{
	if (!s->spill) {
		size_t n = strlen(s->path);
		char *tmpl = malloc(n + 16);

		if (!tmpl)
			return oom(s, err, errlen);
		snprintf(tmpl, n + 16, "%s.sort-XXXXXX", s->path);
		/*
		 * Kept for the signal cleanup the output's own temporary name
		 * gets (out_cleanup.h), with signals held from its creation to
		 * its unlink: a SIGTERM there would leave it beside the output.
		 */
		sigset_t mask;
		fs_out_cleanup_hold(&mask);
		int fd = mkstemp(tmpl);
		if (fd >= 0) {
			int kept = fs_out_cleanup_keep(tmpl);

			unlink(tmpl);
			fs_out_cleanup_drop(kept);
		}
		fs_out_cleanup_release(&mask);
		free(tmpl);
		if (fd < 0 || !(s->spill = fdopen(fd, "w+"))) {
			if (fd >= 0)
				close(fd);
			return write_err(s, "cannot create a sort file beside it", err, errlen);
		}
	}
	struct run *r = realloc(s->runs, (size_t)(s->nr_runs + 1) * sizeof(*r));
	ssize_t k = list_held(s);
	if (!r || k < 0)
		return oom(s, err, errlen);
	s->runs = r;
	/* the late chunks sorted, then the ring's already in order: one sorted list */
	qsort(s->scratch, s->nr_late, sizeof(*s->scratch), cmp_seq);
	r[s->nr_runs].start = s->spill_end;
	for (ssize_t i = 0; i < k; i++) {
		__u64 hdr[2] = { s->scratch[i].seq, s->scratch[i].len };

		if (fwrite(hdr, sizeof(hdr), 1, s->spill) != 1 ||
		    fwrite(s->arena + s->scratch[i].off, 1, s->scratch[i].len, s->spill) != s->scratch[i].len)
			return write_err(s, "write to the sort file", err, errlen);
		s->spill_end += (off_t)(sizeof(hdr) + s->scratch[i].len);
	}
	r[s->nr_runs++].end = s->spill_end;
	for (__u64 q = s->base; q < s->top; q++)
		slot_of(s, q)->len1 = 0;
	s->base = s->top;
	s->n = s->nr_late = 0;
	s->arena_len = s->live = 0;
	return 0;
}

/*
 * Held chunks were written long before their turn and are out of the cache
 * by then; they go out in bursts (a late row releases every later one), so
 * the bytes of the chunk a few places ahead are fetched while this one is
 * turned into text.
 */
#define PREFETCH_AHEAD 4
static inline void prefetch_ahead(const struct fs_seq_sort *s, __u64 seq)
{
	if (seq + PREFETCH_AHEAD < s->top) {
		const struct slot *ahead = slot_of(s, seq + PREFETCH_AHEAD);

		if (ahead->len1) {
			__builtin_prefetch(s->arena + ahead->off);
			__builtin_prefetch(s->arena + ahead->off + 64);
		}
	}
}

bool fs_seq_sort_take(struct fs_seq_sort *s, __u64 seq)
{
	if (s->nr_runs || s->n || seq != s->next)
		return false;
	s->next = s->base = s->top = seq + 1;
	return true;
}

int fs_seq_sort_add(struct fs_seq_sort *s, __u64 seq, const char *text, size_t len, char *err, size_t errlen)
{
	if (fs_seq_sort_take(s, seq)) /* in order: straight through */
		return out_chunk(s, text, len) ? write_err(s, "write", err, errlen) : 0;
	if (len >= UINT32_MAX) {
		snprintf(err, errlen, "%s: a row of %zu bytes is larger than the sort's memory", s->path, len);
		return -1;
	}
	/* lent scratch (or none yet) that would be over half full: our own reservation from now on */
	if (s->arena_len + len > s->arena_cap && !s->own && s->live + len > s->arena_cap / 2 && reserve_arena(s))
		return oom(s, err, errlen);
	if (s->arena_len + len > s->arena_cap) {
		if (s->live + len > s->arena_cap) {
			snprintf(err, errlen, "%s: a row of %zu bytes is larger than the sort's memory", s->path, len);
			return -1;
		}
		if (compact(s))
			return oom(s, err, errlen);
		if (s->arena_len + len > s->arena_cap && spill(s, err, errlen))
			return -1;
	}
	if (seq < s->base) { /* only after a spill: a placement open when it happened */
		if (s->nr_late == s->cap_late) {
			size_t cap = s->cap_late ? s->cap_late * 2 : 64;
			struct chunk *l = realloc(s->late, cap * sizeof(*l));
			if (!l)
				return oom(s, err, errlen);
			s->late = l;
			s->cap_late = cap;
		}
		s->late[s->nr_late++] = (struct chunk){ .seq = seq, .off = s->arena_len, .len = len };
	} else {
		if (ring_fit(s, seq))
			return oom(s, err, errlen);
		*slot_of(s, seq) = (struct slot){ .off = (__u32)s->arena_len, .len1 = (__u32)len + 1 };
		if (seq >= s->top)
			s->top = seq + 1;
	}
	memcpy(s->arena + s->arena_len, text, len);
	s->n++;
	s->arena_len += len;
	s->live += len;
	/* what is now contiguous goes out, unless a run on disk may hold earlier chunks */
	while (!s->nr_runs && s->next < s->top) {
		struct slot *sl = slot_of(s, s->next);

		if (!sl->len1)
			break;
		prefetch_ahead(s, s->next);
		if (out_chunk(s, s->arena + sl->off, sl->len1 - 1))
			return write_err(s, "write", err, errlen);
		s->live -= sl->len1 - 1;
		sl->len1 = 0;
		s->n--;
		s->base = ++s->next;
	}
	if (!s->n)
		s->arena_len = 0;
	/* written chunks leave garbage behind held ones: drop it once it outweighs them */
	if (s->arena_len > 2 * s->live + (1u << 20) && compact(s))
		return oom(s, err, errlen);
	if (s->arena_len > s->limit)
		return spill(s, err, errlen);
	return 0;
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
	/* nothing spilled, so nothing is late: the ring in order (seqs that never came are skipped) */
	for (__u64 q = s->base; q < s->top; q++) {
		struct slot *sl = slot_of(s, q);

		prefetch_ahead(s, q);
		if (sl->len1 && out_chunk(s, s->arena + sl->off, sl->len1 - 1))
			return write_err(s, "write", err, errlen);
		sl->len1 = 0;
	}
	s->base = s->top;
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
	if (s->own)
		munmap(s->arena, s->arena_cap);
	free(s->ring);
	free(s->late);
	free(s->scratch);
	free(s->runs);
	free(s);
}

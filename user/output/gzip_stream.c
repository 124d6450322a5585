// SPDX-License-Identifier: GPL-2.0
/*
 * A FILE * that writes gzip (gzip_stream.h). zlib's deflate at level 1 cost
 * more than the replay that made the CSV, and libdeflate's still more than
 * the replay; ISA-L's igzip at level 1 is several times faster and
 * compresses a little better (docs/perfetto.md, Cost, has the figures), so
 * it is the compressor where Debian ships it as a shared library; the
 * static arm64 build (no libisal.a in Debian) keeps libdeflate
 * (FS_GZIP_LIBDEFLATE).
 * Both compress only whole buffers, so the text is cut into independent gzip
 * members of MEMBER bytes each: RFC 1952 allows any number, and gzip, zcat,
 * zlib's gzread, Python's gzip (pandas), DuckDB and Perfetto read them as one
 * stream.
 *
 * A thread compresses and writes the members while the caller fills the
 * next buffer: the live loop and the replay never wait for deflate or the
 * disk unless NBUF members are already waiting. The thread blocks every
 * signal, so SIGINT and SIGTERM still reach the thread that handles them.
 * The buffers are one mapping populated when it is made: page by page, the
 * first touch of each cost more than its copy on a virtual machine.
 */
#include <errno.h>
#ifdef FS_GZIP_LIBDEFLATE
#include <libdeflate.h>
#else
#include <isa-l/igzip_lib.h>
#endif
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "gzip_stream.h"

#define MEMBER (128u << 10) /* text per member: larger gains little ratio, costs memory */
#define NBUF 3              /* one filling, up to two waiting for (or in) compression */
#define LEVEL 1             /* most of the size for a fraction of the time */
#define HUGE_PAGE (2u << 20)  /* the buffers' mapping: one huge page where the kernel gives one */
#ifdef FS_GZIP_LIBDEFLATE
#define LEVEL_BUF 0
#define ZSTREAM 0
#else
#define LEVEL_BUF ISAL_DEF_LVL1_DEFAULT /* igzip's hash tables and tokens */
#define ZSTREAM ((sizeof(struct isal_zstream) + 63) / 64 * 64)
#endif
#define IN_STRIDE (MEMBER + FS_GZIP_ROOM) /* a member's text, and room for a row that runs past it */
#define STACK (64u << 10) /* the thread's: deflate's state is in the mapping; a small stack is cheap to start and end */

struct fs_gzip {
	int fd;
#ifdef FS_GZIP_LIBDEFLATE
	struct libdeflate_compressor *c; /* the thread's */
#endif
	char *in[NBUF], *out, *level_buf;
#ifndef FS_GZIP_LIBDEFLATE
	struct isal_zstream *zs; /* 80 KiB: in the mapping, not on the thread's small stack */
#endif
	void *mem;              /* in[] and out, one mapping */
	size_t mem_len, mem_used; /* mem_len - mem_used: lent by fs_gzip_spare() */
	size_t n[NBUF], out_cap;
	int fill;               /* the buffer the caller fills */
	int next;               /* the oldest queued buffer (the thread's next) */
	int queued;             /* buffers queued or in compression */
	bool any;               /* a member was queued: an empty file still gets one */
	bool closing;
	int err;                /* the first write error, sticky: later writes and fclose fail with it */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t work, room;
};

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			errno = w < 0 ? errno : EIO;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* One gzip member of in[0..n) into g->out; its length, 0 if it did not fit (cannot happen: out_cap is the bound). */
static size_t compress_member(struct fs_gzip *g, const char *in, size_t n)
{
#ifdef FS_GZIP_LIBDEFLATE
	return libdeflate_gzip_compress(g->c, in, n, g->out, g->out_cap);
#else
	struct isal_zstream *s = g->zs;

	isal_deflate_stateless_init(s);
	s->level = LEVEL;
	s->level_buf = (uint8_t *)g->level_buf;
	s->level_buf_size = LEVEL_BUF;
	s->gzip_flag = IGZIP_GZIP; /* a fixed header: no time or name, so replays give the same bytes */
	s->end_of_stream = 1;
	s->flush = NO_FLUSH;
	s->next_in = (uint8_t *)in;
	s->avail_in = (uint32_t)n;
	s->next_out = (uint8_t *)g->out;
	s->avail_out = (uint32_t)g->out_cap;
	return isal_deflate_stateless(s) == COMP_OK ? s->total_out : 0;
#endif
}

/* The thread: each queued buffer becomes one member, in order. */
static void *compressor(void *arg)
{
	struct fs_gzip *g = arg;

	pthread_mutex_lock(&g->lock);
	for (;;) {
		while (!g->queued && !g->closing)
			pthread_cond_wait(&g->work, &g->lock);
		if (!g->queued)
			break;
		int b = g->next;
		bool failed = g->err != 0;
		pthread_mutex_unlock(&g->lock);
		int e = 0;
		if (!failed) { /* after an error the rest is only drained */
			size_t len = compress_member(g, g->in[b], g->n[b]);
			if (!len) /* cannot happen: out_cap is the bound */
				e = EIO;
			else if (write_all(g->fd, g->out, len))
				e = errno;
		}
		pthread_mutex_lock(&g->lock);
		if (e && !g->err)
			g->err = e;
		g->n[b] = 0;
		g->next = (b + 1) % NBUF;
		g->queued--;
		pthread_cond_signal(&g->room);
	}
	pthread_mutex_unlock(&g->lock);
	return NULL;
}

/* Hand the filled buffer to the thread and take a free one. Called with the lock held. */
static void queue_fill(struct fs_gzip *g)
{
	g->queued++;
	g->any = true;
	pthread_cond_signal(&g->work);
	while (g->queued == NBUF)
		pthread_cond_wait(&g->room, &g->lock);
	g->fill = (g->fill + 1) % NBUF;
}

static ssize_t gz_write(void *cookie, const char *buf, size_t len)
{
	struct fs_gzip *g = cookie;
	size_t done = 0;

	while (done < len) {
		int b = g->fill;
		size_t part = MEMBER - g->n[b] < len - done ? MEMBER - g->n[b] : len - done;

		memcpy(g->in[b] + g->n[b], buf + done, part);
		g->n[b] += part;
		done += part;
		if (g->n[b] == MEMBER) {
			pthread_mutex_lock(&g->lock);
			queue_fill(g);
			pthread_mutex_unlock(&g->lock);
		}
	}
	pthread_mutex_lock(&g->lock);
	int e = g->err;
	pthread_mutex_unlock(&g->lock);
	if (e) {
		errno = e;
		return -1;
	}
	return (ssize_t)done;
}

void *fs_gzip_spare(struct fs_gzip *g, size_t *len)
{
	*len = g->mem_len - g->mem_used;
	return (char *)g->mem + g->mem_used;
}

char *fs_gzip_room(struct fs_gzip *g)
{
	return g->in[g->fill] + g->n[g->fill];
}

int fs_gzip_advance(struct fs_gzip *g, size_t len)
{
	int b = g->fill;

	g->n[b] += len;
	if (g->n[b] < MEMBER)
		return 0;
	/* the member is full: what ran past it starts the next, so members are cut as gz_write cuts them */
	size_t over = g->n[b] - MEMBER;
	g->n[b] = MEMBER;
	pthread_mutex_lock(&g->lock);
	queue_fill(g);
	int e = g->err;
	pthread_mutex_unlock(&g->lock);
	memcpy(g->in[g->fill], g->in[b] + MEMBER, over); /* the thread reads only in[b][0, MEMBER) */
	g->n[g->fill] = over;
	if (e) {
		errno = e;
		return -1;
	}
	return 0;
}

static void gz_free(struct fs_gzip *g)
{
	pthread_mutex_destroy(&g->lock);
	pthread_cond_destroy(&g->work);
	pthread_cond_destroy(&g->room);
#ifdef FS_GZIP_LIBDEFLATE
	libdeflate_free_compressor(g->c);
#endif
	if (g->mem)
		munmap(g->mem, g->mem_len);
	free(g);
}

static int gz_close(void *cookie)
{
	struct fs_gzip *g = cookie;

	pthread_mutex_lock(&g->lock);
	if (g->n[g->fill] || !g->any)
		queue_fill(g);
	g->closing = true;
	pthread_cond_signal(&g->work);
	pthread_mutex_unlock(&g->lock);
	pthread_join(g->thread, NULL);
	int e = g->err;
	if (close(g->fd) && !e)
		e = errno;
	gz_free(g);
	errno = e;
	return e ? -1 : 0;
}

FILE *fs_gzip_stream(int fd)
{
	return fs_gzip_open(fd, NULL);
}

FILE *fs_gzip_open(int fd, struct fs_gzip **direct)
{
	cookie_io_functions_t io = { .write = gz_write, .close = gz_close };
	struct fs_gzip *g = calloc(1, sizeof(*g));
	sigset_t all, old;
	FILE *f = NULL;

	if (!g)
		return NULL;
	g->fd = fd;
	pthread_mutex_init(&g->lock, NULL); /* default attributes: cannot fail */
	pthread_cond_init(&g->work, NULL);
	pthread_cond_init(&g->room, NULL);
#ifdef FS_GZIP_LIBDEFLATE
	g->c = libdeflate_alloc_compressor(LEVEL);
	bool ok = g->c;
	g->out_cap = ok ? libdeflate_gzip_compress_bound(g->c, MEMBER) : 0;
#else
	bool ok = true;
	/* igzip's bound: stored blocks (5 bytes each per 64 KiB) and the gzip header and trailer */
	g->out_cap = (MEMBER + (MEMBER / 65535 + 1) * 5 + ISAL_DEF_MAX_HDR_SIZE + 64 + 63) / 64 * 64;
#endif
	if (ok) {
		g->mem_used = (NBUF * IN_STRIDE + g->out_cap + LEVEL_BUF + ZSTREAM + 63) / 64 * 64;
		g->mem_len = (g->mem_used + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
		g->mem = mmap(NULL, g->mem_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (g->mem == MAP_FAILED)
			g->mem = NULL;
		else
			(void)madvise(g->mem, g->mem_len, MADV_HUGEPAGE); /* a hint: EINVAL without THP */
		ok = g->mem;
	}
	for (int i = 0; ok && i < NBUF; i++)
		g->in[i] = (char *)g->mem + (size_t)i * IN_STRIDE;
	if (ok) {
		g->out = (char *)g->mem + NBUF * IN_STRIDE;
		g->level_buf = g->out + g->out_cap;
#ifndef FS_GZIP_LIBDEFLATE
		g->zs = (struct isal_zstream *)(g->level_buf + LEVEL_BUF);
#endif
	}
	if (ok) {
		pthread_attr_t attr;

		bool attr_ok = !pthread_attr_init(&attr);

		if (attr_ok)
			(void)pthread_attr_setstacksize(&attr, STACK); /* on failure the default size */
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old); /* the thread starts with every signal blocked */
		ok = !pthread_create(&g->thread, attr_ok ? &attr : NULL, compressor, g);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (attr_ok)
			pthread_attr_destroy(&attr);
	}
	if (ok && !(f = fopencookie(g, "w", io))) {
		pthread_mutex_lock(&g->lock);
		g->closing = true;
		pthread_cond_signal(&g->work);
		pthread_mutex_unlock(&g->lock);
		pthread_join(g->thread, NULL);
	}
	if (!f) {
		gz_free(g);
		errno = ENOMEM;
		return NULL;
	}
	if (direct)
		*direct = g;
	return f;
}

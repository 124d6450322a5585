// SPDX-License-Identifier: GPL-2.0
/*
 * A FILE * that writes gzip (gzip_stream.h). zlib's deflate at level 1 ran at
 * about 130 MB/s here and cost more than the replay that made the CSV;
 * libdeflate at level 1 is about three times faster and compresses a little
 * better, but only whole buffers. So the text is cut into independent gzip
 * members of MEMBER bytes each: RFC 1952 allows any number, and gzip, zcat,
 * zlib's gzread, Python's gzip (pandas), DuckDB and Perfetto read them as one
 * stream.
 *
 * A thread compresses and writes the members while the caller fills the
 * next buffer: the live loop and the replay never wait for deflate or the
 * disk unless NBUF members are already waiting. The thread blocks every
 * signal, so SIGINT and SIGTERM still reach the thread that handles them.
 */
#include <errno.h>
#include <libdeflate.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gzip_stream.h"

#define MEMBER (128u << 10) /* text per member: larger gains little ratio, costs memory */
#define NBUF 3              /* one filling, up to two waiting for (or in) compression */
#define LEVEL 1             /* most of the size for a fraction of the time */

struct gz {
	int fd;
	struct libdeflate_compressor *c; /* the thread's */
	char *in[NBUF], *out;
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

/* The thread: each queued buffer becomes one member, in order. */
static void *compressor(void *arg)
{
	struct gz *g = arg;

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
			size_t len = libdeflate_gzip_compress(g->c, g->in[b], g->n[b], g->out, g->out_cap);
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
static void queue_fill(struct gz *g)
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
	struct gz *g = cookie;
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

static void gz_free(struct gz *g)
{
	pthread_mutex_destroy(&g->lock);
	pthread_cond_destroy(&g->work);
	pthread_cond_destroy(&g->room);
	libdeflate_free_compressor(g->c);
	for (int i = 0; i < NBUF; i++)
		free(g->in[i]);
	free(g->out);
	free(g);
}

static int gz_close(void *cookie)
{
	struct gz *g = cookie;

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
	cookie_io_functions_t io = { .write = gz_write, .close = gz_close };
	struct gz *g = calloc(1, sizeof(*g));
	sigset_t all, old;
	FILE *f = NULL;

	if (!g)
		return NULL;
	g->fd = fd;
	pthread_mutex_init(&g->lock, NULL); /* default attributes: cannot fail */
	pthread_cond_init(&g->work, NULL);
	pthread_cond_init(&g->room, NULL);
	g->c = libdeflate_alloc_compressor(LEVEL);
	bool ok = g->c;
	for (int i = 0; i < NBUF; i++)
		ok = ok && (g->in[i] = malloc(MEMBER));
	g->out_cap = ok ? libdeflate_gzip_compress_bound(g->c, MEMBER) : 0;
	ok = ok && (g->out = malloc(g->out_cap));
	if (ok) {
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old); /* the thread starts with every signal blocked */
		ok = !pthread_create(&g->thread, NULL, compressor, g);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
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
	return f;
}

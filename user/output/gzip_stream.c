// SPDX-License-Identifier: GPL-2.0
/*
 * A FILE * that writes gzip (gzip_stream.h). zlib's deflate at level 1 ran at
 * about 130 MB/s here and cost more than the replay that made the CSV;
 * libdeflate at level 1 is about three times faster and compresses a little
 * better, but only whole buffers. So the text is cut into independent gzip
 * members of MEMBER bytes each: RFC 1952 allows any number, and gzip, zcat,
 * zlib's gzread, Python's gzip (pandas) and DuckDB read them as one stream.
 */
#include <errno.h>
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gzip_stream.h"

#define MEMBER (128u << 10) /* text per member: larger gains little ratio, costs memory */
#define LEVEL 1             /* most of the size for a fraction of the time */

struct gz {
	int fd;
	struct libdeflate_compressor *c;
	char *in, *out;
	size_t n, out_cap;
	bool wrote;             /* a member is out: an empty file still gets one */
	int err;                /* the first write error, sticky: later writes and fclose fail with it */
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

static int member(struct gz *g)
{
	if (g->err) {
		errno = g->err;
		return -1;
	}
	size_t len = libdeflate_gzip_compress(g->c, g->in, g->n, g->out, g->out_cap);

	if (!len) { /* cannot happen: out_cap is the bound */
		errno = EIO;
		return -1;
	}
	g->n = 0;
	g->wrote = true;
	if (write_all(g->fd, g->out, len)) {
		g->err = errno;
		return -1;
	}
	return 0;
}

static ssize_t gz_write(void *cookie, const char *buf, size_t len)
{
	struct gz *g = cookie;
	size_t done = 0;

	if (g->err) {
		errno = g->err;
		return -1;
	}
	while (done < len) {
		size_t part = MEMBER - g->n < len - done ? MEMBER - g->n : len - done;

		memcpy(g->in + g->n, buf + done, part);
		g->n += part;
		done += part;
		if (g->n == MEMBER && member(g))
			return -1;
	}
	return (ssize_t)done;
}

static void gz_free(struct gz *g)
{
	libdeflate_free_compressor(g->c);
	free(g->in);
	free(g->out);
	free(g);
}

static int gz_close(void *cookie)
{
	struct gz *g = cookie;
	int rc = 0, e = 0;

	if ((g->n || !g->wrote || g->err) && member(g)) {
		rc = -1;
		e = errno;
	}
	if (close(g->fd) && !rc) {
		rc = -1;
		e = errno;
	}
	gz_free(g);
	errno = e;
	return rc;
}

FILE *fs_gzip_stream(int fd)
{
	cookie_io_functions_t io = { .write = gz_write, .close = gz_close };
	struct gz *g = calloc(1, sizeof(*g));
	FILE *f;

	if (!g)
		return NULL;
	g->fd = fd;
	g->c = libdeflate_alloc_compressor(LEVEL);
	g->in = malloc(MEMBER);
	g->out_cap = g->c ? libdeflate_gzip_compress_bound(g->c, MEMBER) : 0;
	g->out = g->out_cap ? malloc(g->out_cap) : NULL;
	if (!g->c || !g->in || !g->out || !(f = fopencookie(g, "w", io))) {
		gz_free(g);
		errno = ENOMEM;
		return NULL;
	}
	return f;
}

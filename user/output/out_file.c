// SPDX-License-Identifier: GPL-2.0
/* Output files: plain, or gzip through a stdio cookie so every writer keeps using FILE *. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "out_file.h"

bool fs_out_is_gz(const char *path)
{
	size_t n = strlen(path);

	return n > 3 && !strcmp(path + n - 3, ".gz");
}

static ssize_t gz_write(void *cookie, const char *buf, size_t len)
{
	size_t done = 0;

	/* gzwrite takes an unsigned count: write in pieces that fit it */
	while (done < len) {
		unsigned part = len - done > (1u << 30) ? 1u << 30 : (unsigned)(len - done);
		int n = gzwrite(cookie, buf + done, part);

		if (n <= 0) {
			errno = errno ? errno : EIO;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int gz_close(void *cookie)
{
	int rc = gzclose(cookie);

	if (rc == Z_OK)
		return 0;
	errno = rc == Z_ERRNO && errno ? errno : EIO;
	return -1;
}

FILE *fs_out_fopen(const char *path, char *err, size_t errlen)
{
	FILE *f;

	if (!fs_out_is_gz(path)) {
		f = fopen(path, "w");
		if (!f)
			snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
		return f;
	}
	/* level 1: most of the size for a fraction of the time of the higher levels */
	gzFile gz = gzopen(path, "wb1");
	if (!gz) {
		snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno ? errno : ENOMEM));
		return NULL;
	}
	gzbuffer(gz, 1 << 16);
	cookie_io_functions_t io = { .write = gz_write, .close = gz_close };
	f = fopencookie(gz, "w", io);
	if (!f) {
		gzclose(gz);
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 16);
	return f;
}

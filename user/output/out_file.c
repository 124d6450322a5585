// SPDX-License-Identifier: GPL-2.0
/*
 * Collision checks between a command's inputs and outputs, and output files
 * written under a temporary name and renamed when complete: plain, or gzip
 * (gzip_stream.c) so every writer keeps using FILE *.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "gzip_stream.h"
#include "out_file.h"

bool fs_out_is_gz(const char *path)
{
	size_t n = strlen(path);

	return n > 3 && !strcmp(path + n - 3, ".gz");
}

/* What a path is now: its inode if it exists, else where it would be created. */
struct ident {
	bool exists, regular;
	dev_t dev;
	ino_t ino;
	char where[PATH_MAX]; /* resolved directory + "/" + last component, "" if unknown */
};

static void identify(const char *path, struct ident *id)
{
	char copy1[PATH_MAX], copy2[PATH_MAX], dir[PATH_MAX];
	struct stat st;

	memset(id, 0, sizeof(*id));
	if (!stat(path, &st)) {
		id->exists = true;
		id->regular = S_ISREG(st.st_mode);
		id->dev = st.st_dev;
		id->ino = st.st_ino;
	}
	/* Spelled differently (./x, d/../x, a link to the directory): compare where it lands. */
	if (strlen(path) >= sizeof(copy1))
		return;
	strcpy(copy1, path);
	strcpy(copy2, path);
	if (realpath(dirname(copy1), dir)) {
		const char *base = basename(copy2);
		size_t ld = strlen(dir), lb = strlen(base);
		if (ld + 1 + lb < sizeof(id->where)) {
			memcpy(id->where, dir, ld);
			id->where[ld] = '/';
			memcpy(id->where + ld + 1, base, lb + 1);
		}
	}
}

static bool same(const struct ident *a, const struct ident *b)
{
	if (a->exists && b->exists)
		return a->dev == b->dev && a->ino == b->ino;
	return a->where[0] && !strcmp(a->where, b->where);
}

int fs_paths_check(const struct fs_io_path *p, int n, char *err, size_t errlen)
{
	struct ident *id = calloc(n > 0 ? (size_t)n : 1, sizeof(*id));

	if (!id) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (p[i].path && strcmp(p[i].path, "-"))
			identify(p[i].path, &id[i]);
	for (int i = 0; i < n; i++) {
		if (!p[i].output || !p[i].path || !strcmp(p[i].path, "-"))
			continue;
		/* Two writers on /dev/null or a terminal are harmless; on one FIFO they are the user's plan. */
		if (id[i].exists && !id[i].regular)
			continue;
		for (int j = 0; j < n; j++) {
			if (j == i || !p[j].path || !strcmp(p[j].path, "-") || (p[j].output && j > i))
				continue;
			if (!p[j].output && !id[j].exists)
				continue;
			if (!same(&id[i], &id[j]))
				continue;
			/* "--csv in.csv: the input FILE (./in.csv): not overwritten" */
			snprintf(err, errlen, "%s %s: %s%s%s%s%s%s", p[i].what, p[i].path,
				 p[j].output ? "the same file as " : "the input ", p[j].what,
				 strcmp(p[i].path, p[j].path) ? " (" : "", strcmp(p[i].path, p[j].path) ? p[j].path : "",
				 strcmp(p[i].path, p[j].path) ? ")" : "", p[j].output ? "" : ": not overwritten");
			free(id);
			return -1;
		}
	}
	free(id);
	return 0;
}

/* A stream on fd (closed with it): plain, or gzip (gzip_stream.c). */
static FILE *stream(struct fs_out_file *o, int fd, bool gz)
{
	return gz ? fs_gzip_open(fd, &o->gz) : fdopen(fd, "w");
}

_Static_assert(FS_OUT_ROOM <= FS_GZIP_ROOM, "a .gz's room is the compressor's");

char *fs_out_room(struct fs_out_file *o, char *scratch)
{
	if (!o->gz)
		return scratch;
	if (!o->direct) { /* what went through stdio first goes first */
		o->direct = true;
		fflush(o->f); /* an error stays in the stream for fs_out_commit */
	}
	return fs_gzip_room(o->gz);
}

void *fs_out_spare(struct fs_out_file *o, size_t *len)
{
	*len = 0;
	return o->gz ? fs_gzip_spare(o->gz, len) : NULL;
}

int fs_out_advance(struct fs_out_file *o, const char *text, size_t len)
{
	if (o->gz)
		return fs_gzip_advance(o->gz, len);
	return fwrite(text, 1, len, o->f) == len ? 0 : -1;
}

static void release(struct fs_out_file *o)
{
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	o->f = NULL;
	o->gz = NULL;
	o->direct = false;
}

int fs_out_open(struct fs_out_file *o, const char *path, char *err, size_t errlen)
{
	char copy1[PATH_MAX], copy2[PATH_MAX];
	struct stat st;
	int fd = -1;

	memset(o, 0, sizeof(*o));
	if (strlen(path) >= sizeof(copy1)) {
		snprintf(err, errlen, "%s: cannot create: %s", path, strerror(ENAMETOOLONG));
		return -1;
	}
	o->path = strdup(path);
	if (!o->path)
		goto nomem;
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		/* A FIFO, a terminal, /dev/null: no rename possible, nothing to protect. */
		fd = open(path, O_WRONLY | O_CLOEXEC);
		o->f = fd < 0 ? NULL : stream(o, fd, fs_out_is_gz(path));
		if (!o->f) {
			if (fd >= 0)
				close(fd);
			snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
			release(o);
			return -1;
		}
		return 0;
	}
	strcpy(copy1, path);
	strcpy(copy2, path);
	const char *dir = dirname(copy1), *base = basename(copy2);
	size_t tlen = strlen(dir) + strlen(base) + 32;
	o->tmp = malloc(tlen);
	if (!o->tmp)
		goto nomem;
	/* Hidden, next to the final name (a rename never crosses file systems), named after it. */
	for (int attempt = 0; fd < 0 && attempt < 100; attempt++) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		snprintf(o->tmp, tlen, "%s/.%s.%06lx.tmp", dir, base,
			 (unsigned long)((ts.tv_nsec ^ (getpid() << 8) ^ attempt * 7919) & 0xffffff));
		fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
		release(o);
		return -1;
	}
	o->f = stream(o, fd, fs_out_is_gz(path));
	if (!o->f) {
		close(fd);
		unlink(o->tmp);
		goto nomem;
	}
	return 0;
nomem:
	snprintf(err, errlen, "%s: cannot create: %s", path, strerror(ENOMEM));
	release(o);
	return -1;
}

int fs_out_commit(struct fs_out_file *o, char *err, size_t errlen)
{
	int e = 0;

	if (!o->f) {
		snprintf(err, errlen, "%s: write failed: not open", o->path ? o->path : "(output)");
		release(o);
		return -1;
	}
	errno = 0;
	if (fflush(o->f))
		e = errno ? errno : EIO;
	else if (ferror(o->f))
		e = EIO; /* an earlier write failed; its errno is gone */
	/* fclose ends a gzip member (and says if that failed) */
	errno = 0;
	if (fclose(o->f) && !e)
		e = errno ? errno : EIO;
	o->f = NULL;
	/* The data must be on disk before the name points at it. */
	if (!e && o->tmp) {
		int fd = open(o->tmp, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fsync(fd))
			e = errno;
		if (fd >= 0)
			close(fd);
	}
	if (!e && o->tmp && rename(o->tmp, o->path))
		e = errno;
	if (e) {
		snprintf(err, errlen, "%s: write failed: %s", o->path, strerror(e));
		if (o->tmp)
			unlink(o->tmp);
		release(o);
		return -1;
	}
	release(o);
	return 0;
}

void fs_out_abort(struct fs_out_file *o)
{
	if (o->f)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	release(o);
}

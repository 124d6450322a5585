// SPDX-License-Identifier: GPL-2.0
/*
 * Collision checks between a command's inputs and outputs, and output files
 * written under a temporary name and renamed when complete, never through
 * a link at their name: plain, or gzip (gzip_stream.c) so every writer
 * keeps using FILE *.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include "gzip_stream.h"
#include "out_cleanup.h"
#include "out_file.h"

bool fs_out_is_gz(const char *path)
{
	size_t n = strlen(path);

	return n > 3 && !strcmp(path + n - 3, ".gz");
}

int fs_out_fd_of(const char *path)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };

	if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout"))
		return 1;
	if (!strcmp(path, "/dev/stderr"))
		return 2;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t n = strlen(dirs[i]);
		char *end;
		long fd;

		if (strncmp(path, dirs[i], n) || !isdigit((unsigned char)path[n]))
			continue;
		errno = 0;
		fd = strtol(path + n, &end, 10);
		if (!*end && !errno && fd <= INT_MAX)
			return (int)fd;
	}
	return -1;
}

static const char *kind(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device" :
	       S_ISDIR(m) ? "a directory" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/*
 * Is path a symbolic link to something that is not a regular file? Then why
 * says "<path>: a symbolic link to <target> (a FIFO): not followed, nothing
 * written". A link to a regular file (or to nothing) is replaced by the
 * rename, never followed; one to a FIFO or a device would have to be.
 */
static bool link_refused(const char *path, char *why, size_t len)
{
	char target[PATH_MAX];
	struct stat ls, st;
	ssize_t n;

	if (lstat(path, &ls) || !S_ISLNK(ls.st_mode) || stat(path, &st) || S_ISREG(st.st_mode))
		return false;
	n = readlink(path, target, sizeof(target) - 1);
	target[n < 0 ? 0 : n] = '\0';
	snprintf(why, len, "%s: a symbolic link to %s (%s): not followed, nothing written", path, target,
		 kind(st.st_mode));
	return true;
}

/*
 * A device takes an output only when it is a terminal or a memory device
 * that writes cannot harm: null (1:3), zero (1:5), full (1:7), minors of
 * drivers/char/mem.c's devlist[] (v6.8), fixed by Documentation/admin-guide/
 * devices.txt. Any other, named directly, is refused like a link to it: a
 * hard link planted in a shared directory is no symbolic link, and where
 * fs.protected_hardlinks is 0 and /dev shares the directory's file system
 * (a static /dev on an embedded root) another user can make one. Opened to
 * ask isatty() when fd < 0 (the check before anything is written); a device
 * that cannot be opened is left to the open that says why.
 */
static bool device_refused(const char *path, const struct stat *st, int fd, char *why, size_t len)
{
	bool tty;

	if (!S_ISCHR(st->st_mode) && !S_ISBLK(st->st_mode))
		return false;
	if (S_ISCHR(st->st_mode)) {
		unsigned int mi = minor(st->st_rdev);
		int own = fd;

		if (major(st->st_rdev) == 1 && (mi == 3 || mi == 5 || mi == 7))
			return false;
		/* O_NONBLOCK: a serial line without carrier must not hold the check */
		if (own < 0 && (own = open(path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)) < 0)
			return false;
		tty = isatty(own);
		if (own != fd)
			close(own);
		if (tty)
			return false;
	}
	snprintf(why, len, "%s: %s, not a terminal or /dev/null: nothing written", path, kind(st->st_mode));
	return true;
}

/*
 * Is path, not a link, a directory or a device that takes no output
 * (device_refused())? A directory is the same usage error as a link to one
 * (link_refused()): a name that cannot be the file, refused before anything
 * is written, not an open that fails on the way.
 */
static bool direct_refused(const char *path, char *why, size_t len)
{
	struct stat st;

	if (lstat(path, &st))
		return false;
	if (S_ISDIR(st.st_mode)) {
		snprintf(why, len, "%s: a directory, not a file: nothing written", path);
		return true;
	}
	return device_refused(path, &st, -1, why, len);
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

/* Not compared: not given, stdin ("-" as an input), or an output's own descriptor. */
static bool skipped(const struct fs_io_path *p)
{
	return !p->path || !strcmp(p->path, "-") || (p->output && fs_out_fd_of(p->path) >= 0);
}

int fs_paths_check(const struct fs_io_path *p, int n, char *err, size_t errlen)
{
	struct ident *id = calloc(n > 0 ? (size_t)n : 1, sizeof(*id));
	const char *on_stdout = NULL;
	char why[PATH_MAX + 128];

	if (!id) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (!skipped(&p[i]))
			identify(p[i].path, &id[i]);
	for (int i = 0; i < n; i++) {
		if (!p[i].output || !p[i].path)
			continue;
		if (fs_out_is_stdout(p[i].path)) {
			if (on_stdout) {
				snprintf(err, errlen, "%s %s: standard output is already %s's (one output at most "
					 "goes there)", p[i].what, p[i].path, on_stdout);
				free(id);
				return -1;
			}
			on_stdout = p[i].what;
		}
		if (skipped(&p[i]))
			continue;
		if (link_refused(p[i].path, why, sizeof(why)) || direct_refused(p[i].path, why, sizeof(why))) {
			snprintf(err, errlen, "%s %s", p[i].what, why);
			free(id);
			return -1;
		}
		/* Two writers on /dev/null or a terminal are harmless; on one FIFO they are the user's plan. */
		if (id[i].exists && !id[i].regular)
			continue;
		for (int j = 0; j < n; j++) {
			if (j == i || skipped(&p[j]) || (p[j].output && j > i))
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

/*
 * A stream on fd (closed with it): plain, or gzip (gzip_stream.c). A plain
 * one buffers 64 KiB, so an output that size or smaller (a summary) meets a
 * full disk at fs_out_commit()'s fflush, which keeps the errno, not at an
 * earlier write whose errno stdio drops (EIO then).
 */
#define OUT_VBUF (64 * 1024)
static FILE *stream(struct fs_out_file *o, int fd, bool gz)
{
	FILE *f = gz ? fs_gzip_open(fd, &o->gz) : fdopen(fd, "w");

	/* glibc takes a size only with a buffer of the caller's; without one, stdio's own stays */
	if (f && !gz && (o->vbuf = malloc(OUT_VBUF)))
		setvbuf(f, o->vbuf, _IOFBF, OUT_VBUF);
	return f;
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

/* After the temporary name is renamed or removed: nothing left for a signal to remove. */
static void release(struct fs_out_file *o)
{
	fs_out_cleanup_drop(o->cleanup);
	o->cleanup = 0;
	free(o->path);
	free(o->tmp);
	free(o->vbuf); /* the stream that used it is closed, or never opened */
	o->vbuf = NULL;
	o->path = o->tmp = NULL;
	o->f = NULL;
	o->gz = NULL;
	o->direct = o->std = false;
}

/* An output named by one of the process's descriptors (fs_out_fd_of): written to it in place. */
static int open_fd(struct fs_out_file *o, int fd, char *err, size_t errlen)
{
	int copy;

	if (fd == STDOUT_FILENO || fd == STDERR_FILENO) {
		o->f = fd == STDOUT_FILENO ? stdout : stderr;
		o->std = true;
		return 0;
	}
	copy = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	o->f = copy < 0 ? NULL : fdopen(copy, "w");
	if (!o->f) {
		snprintf(err, errlen, "%s: cannot create: %s", o->path, strerror(errno));
		if (copy >= 0)
			close(copy);
		release(o);
		return -1;
	}
	return 0;
}

/*
 * A FIFO, a terminal, /dev/null named directly: written in place (no rename
 * possible, nothing to protect). 1 when path is not one (it is created
 * under a temporary name instead), 0 when open, -1 with err.
 */
static int open_in_place(struct fs_out_file *o, const char *path, bool gz, char *err, size_t errlen)
{
	struct stat ls, st;
	int fd;

	if (lstat(path, &ls) || S_ISREG(ls.st_mode) || S_ISLNK(ls.st_mode))
		return 1;
	if (S_ISBLK(ls.st_mode) && device_refused(path, &ls, -1, err, errlen)) { /* not even opened */
		release(o);
		return -1;
	}
	/*
	 * O_NOFOLLOW: a link put there since lstat() is not followed either
	 * (ELOOP); a regular file put there is replaced by the rename instead.
	 * O_NOCTTY: a terminal written to never becomes the controlling one of
	 * a process started without (adb shell, a service).
	 */
	fd = open(path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0 && fstat(fd, &st)) {
		int e = errno;

		close(fd);
		fd = -1;
		errno = e;
	}
	if (fd >= 0 && S_ISREG(st.st_mode)) {
		close(fd);
		return 1;
	}
	/* What was opened is what lstat() saw, and what it is decides, not the name. */
	if (fd >= 0 && (st.st_dev != ls.st_dev || st.st_ino != ls.st_ino)) {
		snprintf(err, errlen, "%s: replaced while it was opened: nothing written", path);
		goto refused;
	}
	if (fd >= 0 && device_refused(path, &st, fd, err, errlen))
		goto refused;
	o->f = fd < 0 ? NULL : stream(o, fd, gz);
	if (!o->f) {
		snprintf(err, errlen, "%s: cannot create: %s", path,
			 errno == ELOOP ? "a symbolic link put there meanwhile: not followed" : strerror(errno));
		goto refused;
	}
	return 0;
refused:
	if (fd >= 0)
		close(fd);
	release(o);
	return -1;
}

/*
 * A new file under a temporary name: hidden, next to the final name (a
 * rename never crosses file systems), named after it; O_EXCL: a new file of
 * ours, never one (or a link) someone put under that name. Kept for removal
 * should a signal end the process before it is renamed (out_cleanup.h).
 */
static int open_tmp(struct fs_out_file *o, const char *path, bool gz, char *err, size_t errlen)
{
	char copy1[PATH_MAX], copy2[PATH_MAX];
	int fd = -1;

	strcpy(copy1, path);
	strcpy(copy2, path);
	const char *dir = dirname(copy1), *base = basename(copy2);
	size_t tlen = strlen(dir) + strlen(base) + 32;
	o->tmp = malloc(tlen);
	if (!o->tmp)
		goto nomem;
	sigset_t mask;
	fs_out_cleanup_hold(&mask); /* no signal between the file's creation and its keeping */
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
		fs_out_cleanup_release(&mask);
		release(o);
		return -1;
	}
	o->cleanup = fs_out_cleanup_keep(o->tmp);
	fs_out_cleanup_release(&mask);
	o->f = stream(o, fd, gz);
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

/*
 * The final name's last component is never followed: a link there is
 * replaced by the rename, or refused when what it points to is not a
 * regular file (link_refused()).
 */
int fs_out_open_as(struct fs_out_file *o, const char *path, unsigned int how, char *err, size_t errlen)
{
	bool gz = !(how & FS_OUT_PLAIN) && fs_out_is_gz(path);
	int own = fs_out_fd_of(path), rc;

	memset(o, 0, sizeof(*o));
	if (strlen(path) >= PATH_MAX) {
		snprintf(err, errlen, "%s: cannot create: %s", path, strerror(ENAMETOOLONG));
		return -1;
	}
	o->path = strdup(own == STDOUT_FILENO ? "stdout" : own == STDERR_FILENO ? "stderr" : path);
	if (!o->path) {
		snprintf(err, errlen, "%s: cannot create: %s", path, strerror(ENOMEM));
		return -1;
	}
	if (own >= 0)
		return open_fd(o, own, err, errlen);
	if (link_refused(path, err, errlen)) {
		release(o);
		return -1;
	}
	rc = open_in_place(o, path, gz, err, errlen);
	if (rc <= 0)
		return rc;
	if (open_tmp(o, path, gz, err, errlen))
		return -1;
	if (how & FS_OUT_NOW) { /* under its name from the start; the rename replaces a link, never follows it */
		if (rename(o->tmp, path)) {
			snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
			fs_out_abort(o);
			return -1;
		}
		fs_out_cleanup_drop(o->cleanup);
		o->cleanup = 0;
		free(o->tmp);
		o->tmp = NULL;
	}
	return 0;
}

int fs_out_open(struct fs_out_file *o, const char *path, char *err, size_t errlen)
{
	return fs_out_open_as(o, path, 0, err, errlen);
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
	/* fclose ends a gzip member (and says if that failed); stdout stays open */
	errno = 0;
	if (!o->std && fclose(o->f) && !e)
		e = errno ? errno : EIO;
	o->f = NULL;
	/* The data must be on disk before the name points at it. */
	if (!e && o->tmp) {
		int fd = open(o->tmp, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
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
	if (o->f && o->std)
		fflush(o->f);
	else if (o->f)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	release(o);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files that never destroy an input or each other (issue 14):
 *  - fs_paths_check() compares every output with every input and every other
 *    output before anything is opened for writing: the same device and inode
 *    for files that exist (through symbolic and hard links), the same
 *    resolved path for files that do not exist yet;
 *  - fs_out_open()/fs_out_commit() write a regular file under a temporary
 *    name in its directory and rename it into place when complete, so a
 *    partial file never sits under the final name; fs_out_abort() removes it.
 *    FIFOs, terminals and /dev/null named directly are written in place;
 *    a symbolic link to one is never followed (issue 33: feecscope runs as
 *    root and its outputs go to shared directories). Any other device
 *    named directly (a block device; a character device other than a
 *    terminal, /dev/null, /dev/zero, /dev/full) is refused as well: a hard
 *    link can plant one. "-" and the names of the process's own
 *    descriptors write to that descriptor. A name
 *    ending in ".gz" gets gzip-compressed bytes (fclose ends the member).
 *    A dangling link is replaced like one to a regular file: the rename
 *    never follows it, so refusing it would protect nothing. A signal that
 *    ends the process removes the temporary names (out_cleanup.h).
 */
#ifndef FEECSCOPE_OUT_FILE_H
#define FEECSCOPE_OUT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Does path ask for gzip (ends in ".gz")? */
bool fs_out_is_gz(const char *path);

/*
 * The descriptor an output name stands for: "-" and /dev/stdout 1,
 * /dev/stderr 2, /dev/fd/N and /proc/self/fd/N N (bash's >(command)); -1
 * for any other name. Such an output is written to a copy of that
 * descriptor (these names are links, but the process's own).
 */
int fs_out_fd_of(const char *path);

/* Is path given and standard output? */
static inline bool fs_out_is_stdout(const char *path)
{
	return path && fs_out_fd_of(path) == 1;
}

/* One path a command reads or writes; what names it in messages ("--csv", "FILE"). */
struct fs_io_path {
	const char *path; /* NULL: not given (skipped); "-": standard output (skipped) */
	const char *what;
	bool output;
};

/*
 * 0 if no output is an input or another output, none is a symbolic link to
 * what is not a regular file nor a device that takes no output (above) and
 * at most one is standard output; else -1
 * with err like "--csv ./in.csv: the input FILE (in.csv): not overwritten",
 * "--csv l.csv: a symbolic link to f (a FIFO): not followed, nothing
 * written" or "--csv -: standard output is already --json's".
 * An input that does not exist is not compared (its reader reports it).
 */
int fs_paths_check(const struct fs_io_path *paths, int n, char *err, size_t errlen);

struct fs_gzip;

struct fs_out_file {
	FILE *f;      /* write here */
	char *path;   /* the final name */
	char *tmp;    /* the temporary name, NULL when writing in place */
	struct fs_gzip *gz; /* a .gz's compressor, for fs_out_room() */
	bool direct;  /* f was flushed for fs_out_room() */
	bool std;     /* f is stdout or stderr: flushed, never closed */
	int cleanup;  /* tmp's handle for removal on a signal (out_cleanup.h), 0 if none */
	char *vbuf;   /* a plain stream's buffer, freed with it */
};

/*
 * Open path for writing (see above). -1 with err "<path>: cannot create:
 * <why>", "<path>: a symbolic link to <target> (a FIFO): not followed,
 * nothing written" or "<path>: a block device, not a terminal or /dev/null:
 * nothing written".
 */
int fs_out_open(struct fs_out_file *o, const char *path, char *err, size_t errlen);
/*
 * fs_out_open() with how:
 *  FS_OUT_PLAIN  never gzip, whatever the name (a recording compresses itself);
 *  FS_OUT_NOW    for a file that must be readable while it is written (a live
 *                recording replays up to its last chunk after a crash):
 *                created under the temporary name as above, then renamed
 *                into place at once; fs_out_commit() closes it.
 */
enum { FS_OUT_PLAIN = 1, FS_OUT_NOW = 2 };
int fs_out_open_as(struct fs_out_file *o, const char *path, unsigned int how, char *err, size_t errlen);
/*
 * Flush, sync and close, then rename into place. On any failure the
 * temporary file is removed, the final name left as it was, and err says
 * "<path>: write failed: <why>"; returns -1. o is released either way.
 */
int fs_out_commit(struct fs_out_file *o, char *err, size_t errlen);
/* Close and remove the temporary file; the final name is untouched. o may be unopened (zeroed). */
void fs_out_abort(struct fs_out_file *o);

/*
 * Text formatted in place, for writers of much of it: fs_out_room() is
 * where the next bytes go, with room for FS_OUT_ROOM of them, and
 * fs_out_advance() takes the len written there (0, or -1 with errno). For
 * a .gz that is the compressor's buffer (no stdio, no copy); for a plain
 * file, scratch (FS_OUT_ROOM bytes of the caller's) written through o->f.
 * Text written to o->f before the first fs_out_room() comes first.
 */
#define FS_OUT_ROOM (16u << 10)
char *fs_out_room(struct fs_out_file *o, char *scratch);
int fs_out_advance(struct fs_out_file *o, const char *text, size_t len);

/* A .gz's spare memory (fs_gzip_spare), the writer's until fs_out_commit/abort; NULL and 0 for a plain file. */
void *fs_out_spare(struct fs_out_file *o, size_t *len);

#endif /* FEECSCOPE_OUT_FILE_H */

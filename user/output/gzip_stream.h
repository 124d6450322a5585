/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gzip output behind a FILE *, so every writer keeps using stdio: the text
 * goes out as a series of gzip members (a valid gzip file; docs/csv.md).
 */
#ifndef FEECSCOPE_GZIP_STREAM_H
#define FEECSCOPE_GZIP_STREAM_H

#include <stdbool.h>
#include <stdio.h>

/*
 * A stream that writes gzip to fd and closes fd with it; fclose ends the
 * last member and returns EOF with errno on a write error. NULL (ENOMEM).
 */
FILE *fs_gzip_stream(int fd);

/*
 * Text formatted in place, for writers of much of it (the decision CSV):
 * no stdio buffer and no copy. fs_gzip_room() is where the next bytes go,
 * with room for FS_GZIP_ROOM of them; fs_gzip_advance() takes the len
 * (<= FS_GZIP_ROOM) written there, 0 or -1 with errno on a write error of
 * the thread (sticky: fclose reports it too). The FILE must hold no
 * buffered bytes while its text is written this way (fflush it first).
 */
#define FS_GZIP_ROOM (16u << 10)
struct fs_gzip;
/* fs_gzip_stream(), and in *direct (when not NULL) the handle for the two calls below. */
FILE *fs_gzip_open(int fd, struct fs_gzip **direct);
char *fs_gzip_room(struct fs_gzip *g);
int fs_gzip_advance(struct fs_gzip *g, size_t len);
/*
 * The rest of the buffers' huge page, free for the writer until fclose
 * (about 1 MiB): memory already paid for, where a fresh mapping would cost
 * its own huge page or 4 KiB faults. *len is its size.
 */
void *fs_gzip_spare(struct fs_gzip *g, size_t *len);

#endif /* FEECSCOPE_GZIP_STREAM_H */

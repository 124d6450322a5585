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

#endif /* FEECSCOPE_GZIP_STREAM_H */

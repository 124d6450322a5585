/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where an output file is created: the one place every writer opens its file,
 * so naming rules (a ".gz" suffix writes gzip) and how files are created apply
 * to all of them alike.
 */
#ifndef FEECSCOPE_OUT_FILE_H
#define FEECSCOPE_OUT_FILE_H

#include <stdbool.h>
#include <stdio.h>

/* Does path ask for gzip (ends in ".gz")? */
bool fs_out_is_gz(const char *path);

/*
 * Create path for writing: a plain stdio stream, or, for "*.gz", a stream
 * whose bytes are gzip-compressed on their way to the file (fclose() ends
 * the gzip member and reports its errors). NULL with err naming the file.
 */
FILE *fs_out_fopen(const char *path, char *err, size_t errlen);

#endif /* FEECSCOPE_OUT_FILE_H */

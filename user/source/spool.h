/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inputs that can be read only once (a pipe, a FIFO, /dev/stdin, a process
 * substitution): copied into an anonymous memory file first, so the format
 * can be sniffed and the file read by name like any other.
 */
#ifndef FEECSCOPE_SPOOL_H
#define FEECSCOPE_SPOOL_H

#include <stddef.h>

/*
 * path as it is when it is a regular file or missing (its reader says so);
 * else (also for "-", standard input) the name of a copy ("/proc/self/fd/N") in buf. NULL with err
 * "<path>: cannot read: <why>" on failure.
 */
const char *fs_spool_if_stream(const char *path, char *buf, size_t buflen, char *err, size_t errlen);

#endif /* FEECSCOPE_SPOOL_H */

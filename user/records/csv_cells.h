/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Record fields as CSV cells, shared by the records CSV (csv_records.c) and
 * the decision CSVs (user/output/decisions_*.c), so both spell a flag set or
 * a comm alike (docs/csv.md).
 */
#ifndef FEECSCOPE_CSV_CELLS_H
#define FEECSCOPE_CSV_CELLS_H

#include <stddef.h>
#include "../record.h"

/* The names of FS_WAKE_* and FS_CPU_* bits, in bit order (the reader parses them too). */
#define FS_CSV_NR_WAKE_FLAGS 12
#define FS_CSV_NR_CPU_FLAGS 6
extern const char *const fs_csv_wake_flag_names[];
extern const char *const fs_csv_cpu_flag_names[];

/* Symbolic flag names used by both CSV forms ("overutilized|fork", "online|in_sd"). */
int fs_csv_format_wake_flags(char *buf, size_t len, __u32 flags);
int fs_csv_format_cpu_flags(char *buf, size_t len, __u32 flags);

/* A comm as a CSV cell (printable ASCII, others '?'; quoted when it holds , or "). Returns its length. */
#define FS_CSV_COMM_MAX (2 * FS_COMM_LEN + 3)
int fs_csv_comm(char *out, const char *comm);

#endif /* FEECSCOPE_CSV_CELLS_H */

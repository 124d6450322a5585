/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Records as CSV (docs/csv.md): one row per record, named columns, per-CPU
 * fields as cpuN_<field>. The reader takes any subset of columns (documented
 * defaults fill the rest) so traces from other tools convert easily; the
 * writer emits every column, so recording -> CSV -> recording is lossless.
 */
#ifndef FEECSCOPE_CSV_RECORDS_H
#define FEECSCOPE_CSV_RECORDS_H

#include <stdio.h>
#include "csv_cells.h"
#include "recording.h"

/* Comment lines, then the header row, for nr_cpus CPUs. meta->em_text (may be NULL) goes in "# em: " lines. */
int fs_csv_records_write_header(FILE *out, const struct fs_rec_meta *meta);
/* One row; rec must be a valid wire record (fs_rec_check) of meta's CPU count. */
int fs_csv_records_write(FILE *out, const struct fs_rec_hdr *rec, int nr_cpus);

struct fs_csv_reader;

/*
 * Open path, read the leading comment lines (meta: kernel_release, nr_cpus,
 * em_is_kernel, em text if any) and the header row. Errors are
 * "<path>:<line>: ..." naming the column where there is one.
 */
struct fs_csv_reader *fs_csv_reader_open(const char *path, struct fs_rec_meta *meta, char *err, size_t errlen);
/* 1 and *rec (valid until the next call), 0 at end of file, -1 with err. */
int fs_csv_reader_next(struct fs_csv_reader *r, const struct fs_rec_hdr **rec, char *err, size_t errlen);
__u64 fs_csv_reader_records(const struct fs_csv_reader *r);
void fs_csv_reader_close(struct fs_csv_reader *r);

#endif /* FEECSCOPE_CSV_RECORDS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* What `feecscope replay` does with a source's records, for the recording, records and CSV harnesses. */
#ifndef FEECSCOPE_FUZZ_REPLAY_COMMON_H
#define FEECSCOPE_FUZZ_REPLAY_COMMON_H

#include "fuzz.h"
#include "records/recording.h"

/* The records of one source, copied out (each hdr.size bytes). */
struct fuzz_records {
	unsigned char *buf;
	size_t len, cap;
	size_t nr;
};

void fuzz_records_add(struct fuzz_records *rs, const struct fs_rec_hdr *h);
void fuzz_records_free(struct fuzz_records *rs);
/* The i-th record walked from off (0 to start). */
const struct fs_rec_hdr *fuzz_records_next(const struct fuzz_records *rs, size_t *off);

/*
 * Replay the records through the pipeline the way `replay` does: the EM from
 * meta (or a built-in profile of meta's CPU count when it has none), the
 * default policies for meta's release and their twin; the decisions CSV (one
 * layout or the other), the JSON, the Perfetto trace and the summary written
 * to /dev/null. A record the pipeline refuses must come with an error.
 */
void fuzz_replay(const struct fs_rec_meta *meta, const struct fuzz_records *rs);

/*
 * The lossless claims: the records written as a records CSV read back the
 * same, and written as a recording read back the same.
 */
void fuzz_csv_round_trip(const struct fs_rec_meta *meta, const struct fuzz_records *rs);
void fuzz_recording_round_trip(const struct fs_rec_meta *meta, const struct fuzz_records *rs);

#endif

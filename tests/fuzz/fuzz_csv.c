// SPDX-License-Identifier: GPL-2.0
/*
 * The records CSV reader (docs/csv.md): comment lines with the meta and the
 * "# em:" EM, the header row naming any subset of columns, the rows; then the
 * replay of what it reads. Whatever reads completely must survive the CSV
 * and recording round trips.
 */
#include <string.h>
#include "replay_common.h"
#include "em/em_io.h"
#include "records/csv_records.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fs_em em;
	struct fuzz_records rs = { 0 };
	const struct fs_rec_hdr *h;
	struct fs_csv_reader *r;
	struct fs_rec_meta meta;
	char err[1024] = "";
	size_t len;
	int rc;

	r = fs_csv_reader_open(fuzz_file(0, data, size), &meta, err, sizeof(err));
	if (!r) {
		FUZZ_CHECK(err[0], "open failed without an error");
		return 0;
	}
	while ((rc = fs_csv_reader_next(r, &h, err, sizeof(err))) == 1)
		fuzz_records_add(&rs, h);
	FUZZ_CHECK(rc == 0 || err[0], "read failed without an error");
	FUZZ_CHECK(fs_csv_reader_records(r) == rs.nr, "reader counts %llu records, handed out %zu",
		   (unsigned long long)fs_csv_reader_records(r), rs.nr);
	fs_csv_reader_close(r);
	fuzz_replay(&meta, &rs);
	if (rc == 0) {
		fuzz_csv_round_trip(&meta, &rs);
		/* A recording needs an EM: a CSV without "# em:" lines takes the synthetic one, as --em would. */
		if (!meta.em_text && !fs_em_profile_for_cpus(meta.nr_cpus, &em, err, sizeof(err))) {
			meta.em_text = fuzz_em_text(&em, &len);
			meta.em_len = len;
		}
		if (meta.em_text)
			fuzz_recording_round_trip(&meta, &rs);
	}
	fs_rec_meta_free(&meta);
	fuzz_records_free(&rs);
	return 0;
}

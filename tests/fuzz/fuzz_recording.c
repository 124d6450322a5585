// SPDX-License-Identifier: GPL-2.0
/*
 * The binary recording reader (docs/recording.md): header, meta text, the
 * embedded EM, chunk framing, inflation and record checks, then the replay
 * of what it hands out. CRCs would stop almost every mutation at the first
 * check, so when the input's first byte is odd the harness recomputes the
 * header's and every chunk's CRC before the reader sees the file (the rest of
 * the input is the file); when it is even the file is read as it is.
 * Version 5's packages section is framed as a chunk, so its CRC is mended
 * alike; its text goes through the packages.list parser as replay's would.
 * Whatever reads completely must survive the CSV and recording round trips.
 * FS_FUZZ_READ_ONLY=1 in the environment leaves out the replay and the round
 * trips: the reader alone (header, chunk payloads, record checks) runs some
 * ten times as many inputs a second, for long runs of a changed decoder.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "replay_common.h"
#include "engine/apps.h"

#define FILE_HDR  (FS_REC_MAGIC_LEN + 16) /* docs/recording.md, "File header" */
#define CHUNK_HDR 20                      /* docs/recording.md, "Chunks" */

static __u32 get32(const unsigned char *p)
{
	return p[0] | (__u32)p[1] << 8 | (__u32)p[2] << 16 | (__u32)p[3] << 24;
}

static void put32(unsigned char *p, __u32 v)
{
	p[0] = v; p[1] = v >> 8; p[2] = v >> 16; p[3] = v >> 24;
}

static void fix_crcs(unsigned char *f, size_t len)
{
	size_t pos;
	__u64 body;

	if (len < FILE_HDR)
		return;
	body = (__u64)get32(f + 12) + get32(f + 16);
	if (body > len - FILE_HDR)
		return;
	put32(f + 20, (__u32)crc32(crc32(0, f + 8, 12), f + FILE_HDR, (uInt)body));
	for (pos = FILE_HDR + body; len - pos >= CHUNK_HDR;) {
		__u32 comp = get32(f + pos + 8);
		if (comp > len - pos - CHUNK_HDR)
			return;
		put32(f + pos + 16, (__u32)crc32(crc32(0, f + pos, 16), f + pos + CHUNK_HDR, comp));
		pos += CHUNK_HDR + comp;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_records rs = { 0 };
	const struct fs_rec_hdr *h;
	struct fs_rec_reader *r;
	struct fs_rec_meta meta;
	unsigned char *file;
	char err[1024] = "";
	int rc;

	if (!size)
		return 0;
	file = malloc(size);
	FUZZ_CHECK(file != NULL, "out of memory");
	memcpy(file, data + 1, size - 1);
	if (data[0] & 1)
		fix_crcs(file, size - 1);
	r = fs_rec_reader_open(fuzz_file(0, file, size - 1), &meta, err, sizeof(err));
	free(file);
	if (!r) {
		FUZZ_CHECK(err[0], "open failed without an error");
		return 0;
	}
	if (meta.packages_text) { /* version 5's list, as replay reads it (the packages target fuzzes the parser) */
		struct fs_apps apps;

		FUZZ_CHECK(meta.packages_text[meta.packages_len] == 0, "packages list not NUL-terminated");
		if (fs_apps_parse(&apps, meta.packages_text, meta.packages_len, "rec", err, sizeof(err)) == 0) {
			FUZZ_CHECK(apps.list_len == meta.packages_len, "parsed list keeps %zu of %zu bytes",
				   apps.list_len, meta.packages_len);
			fs_apps_free(&apps);
		}
		err[0] = 0;
	}
	static int read_only = -1;
	if (read_only < 0)
		read_only = getenv("FS_FUZZ_READ_ONLY") && !strcmp(getenv("FS_FUZZ_READ_ONLY"), "1");
	while ((rc = fs_rec_reader_next(r, &h, err, sizeof(err))) == 1)
		fuzz_records_add(&rs, h);
	FUZZ_CHECK(rc == 0 || err[0], "read failed without an error");
	FUZZ_CHECK(fs_rec_reader_records(r) == rs.nr, "reader counts %llu records, handed out %zu",
		   (unsigned long long)fs_rec_reader_records(r), rs.nr);
	fs_rec_reader_close(r);
	if (read_only) {
		fs_rec_meta_free(&meta);
		fuzz_records_free(&rs);
		return 0;
	}
	fuzz_replay(&meta, &rs);
	if (rc == 0) {
		fuzz_csv_round_trip(&meta, &rs);
		fuzz_recording_round_trip(&meta, &rs);
	}
	fs_rec_meta_free(&meta);
	fuzz_records_free(&rs);
	return 0;
}

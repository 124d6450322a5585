// SPDX-License-Identifier: GPL-2.0
/*
 * Chunk payloads by format version: version 4 writes zstd frames, versions
 * 1 to 3 (zlib) still read. The test turns a version-4 file into the
 * version-3 file an older build wrote (zlib at level 1, as it did) and
 * checks both read to the same records, byte for byte.
 */
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include "test.h"
#include "records/recording.h"

#define NCPU 4
#define FILE_HDR (FS_REC_MAGIC_LEN + 16)
#define CHUNK_HDR 20

static __u32 get32(const unsigned char *p)
{
	return p[0] | (__u32)p[1] << 8 | (__u32)p[2] << 16 | (__u32)p[3] << 24;
}

static void put32(unsigned char *p, __u32 v)
{
	p[0] = v; p[1] = v >> 8; p[2] = v >> 16; p[3] = v >> 24;
}

static const char *tmp_path(const char *tag)
{
	static char buf[2][256];
	static int i;

	i ^= 1;
	snprintf(buf[i], sizeof(buf[i]), "/tmp/fs_test_chunk_%d_%s.fsr", (int)getpid(), tag);
	return buf[i];
}

/* n wake-ups whose landscape drifts slowly, as a device's does, and a migrate between each. */
static int write_v4(const char *path, int n)
{
	struct fs_rec_meta m = { .nr_cpus = NCPU, .em_text = (char *)"x\n", .em_len = 2 };
	char err[256];
	struct fs_rec_writer *w = fs_rec_writer_open(path, &m, err, sizeof(err));
	struct fs_wakeup wk;
	struct fs_migrate mg = { .hdr = { FS_REC_MIGRATE, 0, sizeof(mg), 0 }, .dest_cpu = 1, .reason = 1 };

	if (!w)
		return -1;
	for (int i = 0; i < n; i++) {
		memset(&wk, 0, sizeof(wk));
		wk.hdr = (struct fs_rec_hdr){ FS_REC_WAKEUP, NCPU, (__u32)fs_wakeup_size(NCPU), 1000 + (__u64)i * 97 };
		wk.pid = 100 + i % 13;
		wk.prev_cpu = wk.chosen_cpu = i % NCPU;
		wk.cpus_allowed = (1ull << NCPU) - 1;
		wk.sum_exec_ns = (__u64)i * 12345;
		snprintf(wk.comm, sizeof(wk.comm), "t%d", i % 13);
		for (int c = 0; c < NCPU; c++) {
			wk.cpu[c].util_avg = (__u32)(100 + c * 50 + i / 7);
			wk.cpu[c].capacity = wk.cpu[c].capacity_orig = 1024;
		}
		mg.hdr.ts_ns = wk.hdr.ts_ns + 1;
		mg.pid = wk.pid;
		if (fs_rec_writer_add(w, &wk.hdr, err, sizeof(err)) || fs_rec_writer_add(w, &mg.hdr, err, sizeof(err)))
			return -1;
	}
	return fs_rec_writer_close(w, err, sizeof(err));
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b = malloc(16 << 20);

	*len = f && b ? fread(b, 1, 16 << 20, f) : 0;
	if (f)
		fclose(f);
	return b;
}

/*
 * Rewrite src as a version-3 file: its chunks as zlib at level 1, as the
 * version-3 writer made them (zlib_payload), or left zstd (!zlib_payload);
 * the CRCs made right either way.
 */
static int to_v3(const char *src, const char *dst, bool zlib_payload)
{
	size_t len, pos;
	unsigned char *in = slurp(src, &len), *raw = malloc(1 << 20), *z = malloc(1 << 20);
	FILE *f = fopen(dst, "wb");
	int rc = -1;

	if (!in || !raw || !z || !f || len < FILE_HDR)
		goto out;
	pos = FILE_HDR + get32(in + 12) + get32(in + 16);
	put32(in + 8, 3);
	put32(in + 20, (__u32)crc32(crc32(0, in + 8, 12), in + FILE_HDR, (uInt)(pos - FILE_HDR)));
	fwrite(in, 1, pos, f);
	while (pos + CHUNK_HDR <= len) {
		unsigned char *h = in + pos;
		__u32 raw_len = get32(h + 4), comp = get32(h + 8);
		const unsigned char *payload = h + CHUNK_HDR;
		uLongf zlen = 1 << 20;

		pos += CHUNK_HDR + comp;
		if (comp && zlib_payload) {
			if (ZSTD_decompress(raw, 1 << 20, payload, comp) != raw_len ||
			    compress2(z, &zlen, raw, raw_len, Z_BEST_SPEED) != Z_OK)
				goto out;
			payload = z;
			comp = (__u32)zlen;
			put32(h + 8, comp);
		}
		put32(h + 16, (__u32)crc32(crc32(0, h, 16), payload, comp));
		if (fwrite(h, 1, CHUNK_HDR, f) != CHUNK_HDR || fwrite(payload, 1, comp, f) != comp)
			goto out;
	}
	rc = pos == len ? 0 : -1;
out:
	if (f && fclose(f))
		rc = -1;
	free(in);
	free(raw);
	free(z);
	return rc;
}

/* Every record of path, concatenated as handed out; *nr records, *version the file's. */
static unsigned char *read_records(const char *path, size_t *len, int *nr, int *version, char *err, size_t errlen)
{
	struct fs_rec_meta m;
	const struct fs_rec_hdr *h;
	struct fs_rec_reader *r = fs_rec_reader_open(path, &m, err, errlen);
	unsigned char *out = malloc(16 << 20);
	int rc;

	*len = 0;
	*nr = 0;
	if (!r || !out) {
		free(out);
		return NULL;
	}
	*version = fs_rec_reader_version(r);
	while ((rc = fs_rec_reader_next(r, &h, err, errlen)) == 1 && *len + h->size <= (16u << 20)) {
		memcpy(out + *len, h, h->size);
		*len += h->size;
		(*nr)++;
	}
	fs_rec_reader_close(r);
	fs_rec_meta_free(&m);
	if (rc) {
		free(out);
		return NULL;
	}
	return out;
}

FS_TEST(rec_chunk_v4_is_zstd_and_v3_zlib_reads_the_same)
{
	const char *p4 = tmp_path("v4"), *p3 = tmp_path("v3");
	char err[512] = "";
	size_t len4, len3, flen;
	int nr4, nr3, v4 = 0, v3 = 0;

	ASSERT_TRUE(write_v4(p4, 3000) == 0); /* 2 x 3000 records: several 64 KiB chunks */
	unsigned char *file = slurp(p4, &flen);
	ASSERT_TRUE(file && flen > FILE_HDR);
	EXPECT_EQ((int)get32(file + 8), 4);
	size_t c1 = FILE_HDR + get32(file + 12) + get32(file + 16);
	EXPECT_TRUE(!memcmp(file + c1, "FSCK", 4));
	EXPECT_EQ((int)get32(file + c1 + CHUNK_HDR), (int)ZSTD_MAGICNUMBER); /* a zstd frame */
	free(file);
	ASSERT_TRUE(to_v3(p4, p3, true) == 0);
	unsigned char *r4 = read_records(p4, &len4, &nr4, &v4, err, sizeof(err));
	EXPECT_STR(err, "");
	unsigned char *r3 = read_records(p3, &len3, &nr3, &v3, err, sizeof(err));
	EXPECT_STR(err, "");
	ASSERT_TRUE(r4 && r3);
	EXPECT_EQ(v4, 4);
	EXPECT_EQ(v3, 3);
	EXPECT_EQ(nr4, 6000);
	EXPECT_EQ(nr3, nr4);
	EXPECT_EQ_U64(len3, len4);
	EXPECT_TRUE(len3 == len4 && !memcmp(r3, r4, len4));
	free(r4);
	free(r3);
	unlink(p4);
	unlink(p3);
}

/* The version picks the codec: a zstd payload in a version-3 file is damage, named as such. */
FS_TEST(rec_chunk_codec_follows_the_version)
{
	const char *p4 = tmp_path("v4x"), *p3 = tmp_path("v3x");
	char err[512] = "", want[512];
	size_t len, flen;
	int nr, v;

	ASSERT_TRUE(write_v4(p4, 10) == 0);
	ASSERT_TRUE(to_v3(p4, p3, false) == 0);
	unsigned char *file = slurp(p3, &flen);
	ASSERT_TRUE(file && flen > FILE_HDR);
	size_t c1 = FILE_HDR + get32(file + 12) + get32(file + 16);
	EXPECT_TRUE(read_records(p3, &len, &nr, &v, err, sizeof(err)) == NULL);
	snprintf(want, sizeof(want), "%s: chunk 1 at byte %zu: does not inflate to its %u bytes; replayed 0 records",
		 p3, c1, get32(file + c1 + 4));
	EXPECT_STR(err, want);
	free(file);
	unlink(p4);
	unlink(p3);
}

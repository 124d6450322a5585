// SPDX-License-Identifier: GPL-2.0
/* Binary recording: round trip, chunking, and every kind of damage the reader must name. */
#include <unistd.h>
#include <sys/stat.h>
#include <zlib.h>
#include "test.h"
#include "records/recording.h"

#define NCPU 8

static const char *tmp_path(const char *tag)
{
	static char buf[256];
	snprintf(buf, sizeof(buf), "/tmp/fs_test_rec_%d_%s.fsr", (int)getpid(), tag);
	return buf;
}

static void fill_wakeup(struct fs_wakeup *w, int i)
{
	memset(w, 0, sizeof(*w));
	w->hdr.type = FS_REC_WAKEUP;
	w->hdr.nr_cpus = NCPU;
	w->hdr.size = (__u32)fs_wakeup_size(NCPU);
	w->hdr.ts_ns = 1000 + (__u64)i * 10;
	w->pid = 100 + i % 7;
	w->prev_cpu = i % NCPU;
	w->chosen_cpu = -1;
	w->cpus_allowed = (1ull << NCPU) - 1;
	snprintf(w->comm, sizeof(w->comm), "t%d", i % 7);
	for (int c = 0; c < NCPU; c++)
		w->cpu[c].util_avg = (__u32)(i * 3 + c);
}

/* Writes n wake-ups (plus a lost and a migrate record up front); returns records written. */
static int write_rec(const char *path, int n)
{
	char err[256];
	struct fs_rec_meta m = { .nr_cpus = NCPU, .em_is_kernel = true };
	snprintf(m.kernel_release, sizeof(m.kernel_release), "5.4.0-test");
	m.em_text = (char *)"pd 0 cpus 0-3\n";
	m.em_len = strlen(m.em_text);
	struct fs_rec_writer *w = fs_rec_writer_open(path, &m, err, sizeof(err));
	if (!w) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	struct fs_lost l = { .hdr = { FS_REC_LOST, 0, sizeof(l), 5 }, .count = 42 };
	struct fs_migrate mg = { .hdr = { FS_REC_MIGRATE, 0, sizeof(mg), 6 }, .pid = 7, .orig_cpu = 1, .dest_cpu = 2, .reason = 1 };
	fs_rec_writer_add(w, &l.hdr, err, sizeof(err));
	fs_rec_writer_add(w, &mg.hdr, err, sizeof(err));
	struct fs_wakeup wk;
	for (int i = 0; i < n; i++) {
		fill_wakeup(&wk, i);
		if (fs_rec_writer_add(w, &wk.hdr, err, sizeof(err)))
			return -1;
	}
	if (fs_rec_writer_close(w, err, sizeof(err)))
		return -1;
	return n + 2;
}

/* Reads to the end; returns records read, err holds the failure if any. */
static int read_all(const char *path, int *rc, char *err, size_t errlen)
{
	struct fs_rec_meta m;
	const struct fs_rec_hdr *h;
	int n = 0;
	err[0] = 0;
	struct fs_rec_reader *r = fs_rec_reader_open(path, &m, err, errlen);
	if (!r) {
		*rc = -2;
		return 0;
	}
	while ((*rc = fs_rec_reader_next(r, &h, err, errlen)) == 1)
		n++;
	fs_rec_reader_close(r);
	fs_rec_meta_free(&m);
	return n;
}

FS_TEST(recording_roundtrip_bytes_and_meta)
{
	const char *p = tmp_path("rt");
	char err[256];
	ASSERT_TRUE(write_rec(p, 3000) == 3002);
	struct fs_rec_meta m;
	struct fs_rec_reader *r = fs_rec_reader_open(p, &m, err, sizeof(err));
	ASSERT_TRUE(r);
	EXPECT_EQ(m.nr_cpus, NCPU);
	EXPECT_STR(m.kernel_release, "5.4.0-test");
	EXPECT_STR(m.em_text, "pd 0 cpus 0-3\n");
	EXPECT_TRUE(m.em_is_kernel);
	const struct fs_rec_hdr *h;
	ASSERT_TRUE(fs_rec_reader_next(r, &h, err, sizeof(err)) == 1);
	EXPECT_EQ(h->type, FS_REC_LOST);
	EXPECT_EQ(((const struct fs_lost *)h)->count, 42);
	ASSERT_TRUE(fs_rec_reader_next(r, &h, err, sizeof(err)) == 1);
	EXPECT_EQ(((const struct fs_migrate *)h)->dest_cpu, 2);
	struct fs_wakeup want;
	for (int i = 0; i < 3000; i++) {
		ASSERT_TRUE(fs_rec_reader_next(r, &h, err, sizeof(err)) == 1);
		fill_wakeup(&want, i);
		if (memcmp(h, &want, sizeof(want))) {
			FS_FAIL_AT("wake-up %d differs after the round trip", i);
			break;
		}
	}
	EXPECT_EQ(fs_rec_reader_next(r, &h, err, sizeof(err)), 0);
	fs_rec_reader_close(r);
	fs_rec_meta_free(&m);
	unlink(p);
}

/* Byte offset of chunk k (1-based) by walking the chunk headers; independent of the reader. */
static long chunk_offset(const char *path, int k, unsigned *nr_out)
{
	FILE *f = fopen(path, "rb");
	unsigned char h[24];
	if (!f || fread(h, 1, 24, f) != 24)
		return -1;
	long off = 24 + (long)(h[12] | h[13] << 8 | h[14] << 16 | (long)h[15] << 24) +
		   (long)(h[16] | h[17] << 8 | h[18] << 16 | (long)h[19] << 24);
	for (int i = 1; i < k; i++) {
		fseek(f, off, SEEK_SET);
		if (fread(h, 1, 20, f) != 20)
			return -1;
		off += 20 + (long)(h[8] | h[9] << 8 | h[10] << 16 | (long)h[11] << 24);
	}
	fseek(f, off, SEEK_SET);
	if (nr_out && fread(h, 1, 20, f) == 20)
		*nr_out = h[12] | h[13] << 8 | h[14] << 16 | (unsigned)h[15] << 24;
	fclose(f);
	return off;
}

FS_TEST(recording_chunks_hold_64k_of_raw_records)
{
	const char *p = tmp_path("ch");
	ASSERT_TRUE(write_rec(p, 3000) > 0);
	unsigned nr1 = 0;
	chunk_offset(p, 1, &nr1);
	/* chunk 1: lost (24 B) + migrate (32 B) + as many wake-ups as fit in 65536 raw bytes */
	size_t ws = fs_wakeup_size(NCPU);
	unsigned want = 2 + (unsigned)((65536 - sizeof(struct fs_lost) - sizeof(struct fs_migrate)) / ws);
	EXPECT_EQ(nr1, want);
	unlink(p);
}

static void truncate_to(const char *p, long len)
{
	EXPECT_EQ(truncate(p, len), 0);
}

FS_TEST(recording_truncated_replays_complete_chunks)
{
	const char *p = tmp_path("tr");
	char err[512], want[512];
	int rc;
	ASSERT_TRUE(write_rec(p, 3000) > 0);
	unsigned nr1 = 0;
	chunk_offset(p, 1, &nr1);
	long c2 = chunk_offset(p, 2, NULL);
	truncate_to(p, c2 + 100);
	int n = read_all(p, &rc, err, sizeof(err));
	EXPECT_EQ(rc, -1);
	EXPECT_EQ(n, (int)nr1);
	/* chunk 2 keeps its 20-byte header and 80 payload bytes */
	unsigned nr2 = 0;
	(void)nr2;
	snprintf(want, sizeof(want), "%s: chunk 2 at byte %ld: truncated (chunk needs ", p, c2);
	EXPECT_CONTAINS(err, want);
	snprintf(want, sizeof(want), "file has 100); replayed %u records", nr1);
	EXPECT_CONTAINS(err, want);
	unlink(p);
}

FS_TEST(recording_cut_at_chunk_boundary_reports_missing_end)
{
	const char *p = tmp_path("cb");
	char err[512], want[512];
	int rc;
	ASSERT_TRUE(write_rec(p, 3000) > 0);
	unsigned nr1 = 0;
	chunk_offset(p, 1, &nr1);
	long c2 = chunk_offset(p, 2, NULL);
	truncate_to(p, c2);
	EXPECT_EQ(read_all(p, &rc, err, sizeof(err)), (int)nr1);
	snprintf(want, sizeof(want), "%s: chunk 2 at byte %ld: file ends without the end marker (recording cut short); replayed %u records",
		 p, c2, nr1);
	EXPECT_STR(err, want);
	unlink(p);
}

FS_TEST(recording_flipped_byte_is_crc_mismatch)
{
	const char *p = tmp_path("fl");
	char err[512], want[512];
	int rc;
	ASSERT_TRUE(write_rec(p, 3000) > 0);
	unsigned nr1 = 0, nr2 = 0;
	chunk_offset(p, 1, &nr1);
	chunk_offset(p, 2, &nr2);
	long c3 = chunk_offset(p, 3, NULL);
	FILE *f = fopen(p, "r+b");
	ASSERT_TRUE(f);
	fseek(f, c3 + 20 + 33, SEEK_SET);
	int c = fgetc(f);
	fseek(f, c3 + 20 + 33, SEEK_SET);
	fputc(c ^ 0x10, f);
	fclose(f);
	EXPECT_EQ(read_all(p, &rc, err, sizeof(err)), (int)(nr1 + nr2));
	EXPECT_EQ(rc, -1);
	snprintf(want, sizeof(want), "%s: chunk 3 at byte %ld: CRC mismatch; replayed %u records", p, c3, nr1 + nr2);
	EXPECT_STR(err, want);
	unlink(p);
}

FS_TEST(recording_bad_magic_and_version)
{
	const char *p = tmp_path("mg");
	char err[512], want[512];
	int rc;
	ASSERT_TRUE(write_rec(p, 10) > 0);
	FILE *f = fopen(p, "r+b");
	ASSERT_TRUE(f);
	fseek(f, 8, SEEK_SET);
	fputc(7, f); /* version field, little-endian u32 at offset 8 */
	fclose(f);
	read_all(p, &rc, err, sizeof(err));
	EXPECT_EQ(rc, -2);
	snprintf(want, sizeof(want), "%s: recording version 7 is not supported (this build reads versions 1 to 5)", p);
	EXPECT_STR(err, want);
	f = fopen(p, "r+b");
	fputc('X', f);
	fclose(f);
	read_all(p, &rc, err, sizeof(err));
	snprintf(want, sizeof(want), "%s: bad magic: not a feecscope recording", p);
	EXPECT_STR(err, want);
	unlink(p);
}

FS_TEST(recording_rejects_wrong_record_size)
{
	char err[256];
	struct fs_wakeup w;
	fill_wakeup(&w, 0);
	w.hdr.size -= 4;
	EXPECT_EQ(fs_rec_check(&w.hdr, sizeof(w), NCPU, err, sizeof(err)), -1);
	char want[128];
	snprintf(want, sizeof(want), "type 1 record of size %zu, expected %zu", fs_wakeup_size(NCPU) - 4, fs_wakeup_size(NCPU));
	EXPECT_STR(err, want);
	fill_wakeup(&w, 0);
	EXPECT_EQ(fs_rec_check(&w.hdr, sizeof(w), 4, err, sizeof(err)), -1);
	EXPECT_STR(err, "wake-up with nr_cpus 8 in a recording of 4 CPUs");
	w.hdr.type = 12;
	EXPECT_EQ(fs_rec_check(&w.hdr, sizeof(w), NCPU, err, sizeof(err)), -1);
	EXPECT_STR(err, "unknown record type 12");
}

/* An em record (version 3) is self-sized: its len must match, its size stay in bounds. */
FS_TEST(recording_em_record_round_trip_and_bounds)
{
	static struct fs_em_update u, big;
	const char *p = tmp_path("em");
	const char *text = "feecscope-em 1\nend\n";
	char err[256];
	struct fs_rec_meta m = { .nr_cpus = NCPU, .em_is_kernel = true, .em_text = (char *)"x\n", .em_len = 2 };
	const struct fs_rec_hdr *h;

	u.len = (__u32)strlen(text);
	memcpy(u.text, text, u.len);
	u.hdr = (struct fs_rec_hdr){ FS_REC_EM, 0, (__u32)(offsetof(struct fs_em_update, text) + u.len), 77 };
	struct fs_rec_writer *w = fs_rec_writer_open(p, &m, err, sizeof(err));
	ASSERT_TRUE(w);
	/* a text of the largest size travels too (the writer's buffer holds it) */
	big.len = FS_EM_TEXT_MAX;
	memset(big.text, 'e', sizeof(big.text));
	big.hdr = (struct fs_rec_hdr){ FS_REC_EM, 0, (__u32)sizeof(big), 78 };
	EXPECT_EQ(fs_rec_writer_add(w, &u.hdr, err, sizeof(err)), 0);
	EXPECT_EQ(fs_rec_writer_add(w, &big.hdr, err, sizeof(err)), 0);
	EXPECT_EQ(fs_rec_writer_close(w, err, sizeof(err)), 0);
	struct fs_rec_reader *r = fs_rec_reader_open(p, &m, err, sizeof(err));
	ASSERT_TRUE(r);
	EXPECT_EQ(fs_rec_reader_version(r), FS_REC_VERSION_PLAIN); /* no packages list: version 4 */
	ASSERT_TRUE(fs_rec_reader_next(r, &h, err, sizeof(err)) == 1);
	EXPECT_EQ(h->type, FS_REC_EM);
	EXPECT_EQ(((const struct fs_em_update *)h)->len, u.len);
	EXPECT_TRUE(!memcmp(((const struct fs_em_update *)h)->text, text, u.len));
	ASSERT_TRUE(fs_rec_reader_next(r, &h, err, sizeof(err)) == 1);
	EXPECT_EQ(((const struct fs_em_update *)h)->len, FS_EM_TEXT_MAX);
	EXPECT_EQ(((const struct fs_em_update *)h)->text[FS_EM_TEXT_MAX - 1], 'e');
	EXPECT_EQ(fs_rec_reader_next(r, &h, err, sizeof(err)), 0);
	fs_rec_reader_close(r);
	fs_rec_meta_free(&m);
	unlink(p);
	u.len += 1;
	EXPECT_EQ(fs_rec_check(&u.hdr, u.hdr.size, NCPU, err, sizeof(err)), -1);
	EXPECT_STR(err, "em record of 43 bytes says its text has 20");
	u.hdr.size = 8;
	EXPECT_EQ(fs_rec_check(&u.hdr, sizeof(u), NCPU, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "em record of 8 bytes (head 24");
}

/* A frequency step (type 11) travels as written, in a version-4 file; another size is refused. */
FS_TEST(recording_freq_record_round_trip_and_size)
{
	const char *p = tmp_path("freq");
	char err[256];
	struct fs_rec_meta m = { .nr_cpus = NCPU, .em_is_kernel = true, .em_text = (char *)"x\n", .em_len = 2 };
	struct fs_freq f = { .hdr = { FS_REC_FREQ, 0, sizeof(f), 1234 }, .cpu = 4, .khz = 1805000 };
	const struct fs_rec_hdr *h;
	struct fs_rec_writer *w = fs_rec_writer_open(p, &m, err, sizeof(err));

	ASSERT_TRUE(w);
	EXPECT_EQ(fs_rec_writer_add(w, &f.hdr, err, sizeof(err)), 0);
	EXPECT_EQ(fs_rec_writer_close(w, err, sizeof(err)), 0);
	struct fs_rec_reader *r = fs_rec_reader_open(p, &m, err, sizeof(err));
	ASSERT_TRUE(r);
	EXPECT_EQ(fs_rec_reader_version(r), FS_REC_VERSION_PLAIN);
	ASSERT_TRUE(fs_rec_reader_next(r, &h, err, sizeof(err)) == 1);
	EXPECT_EQ(h->size, sizeof(f));
	EXPECT_TRUE(!memcmp(h, &f, sizeof(f)));
	EXPECT_EQ(fs_rec_reader_next(r, &h, err, sizeof(err)), 0);
	fs_rec_reader_close(r);
	fs_rec_meta_free(&m);
	unlink(p);
	f.hdr.size = 16;
	EXPECT_EQ(fs_rec_check(&f.hdr, sizeof(f), NCPU, err, sizeof(err)), -1);
	EXPECT_STR(err, "type 11 record of size 16, expected 24");
}

/* Writes a recording of 3 wake-ups with list as its packages list (NULL: none). */
static void write_pkg(const char *path, const char *list)
{
	char err[256];
	struct fs_rec_meta m = { .nr_cpus = NCPU, .em_text = (char *)"x\n", .em_len = 2, .packages_text = (char *)list,
				 .packages_len = list ? strlen(list) : 0 };
	struct fs_rec_writer *w = fs_rec_writer_open(path, &m, err, sizeof(err));
	struct fs_wakeup wk;

	for (int i = 0; w && i < 3; i++) {
		fill_wakeup(&wk, i);
		fs_rec_writer_add(w, &wk.hdr, err, sizeof(err));
	}
	if (!w || fs_rec_writer_close(w, err, sizeof(err)))
		fprintf(stderr, "write_pkg: %s\n", err);
}

/* Version 5: the packages list comes back byte for byte, the records as without it. */
FS_TEST(recording_v5_keeps_the_packages_list)
{
	const char *list = "com.a 10123 0 /data/user/0/com.a default 3003\nandroid 1000 0 /data/system x none\n";
	const char *p = tmp_path("pkg");
	char err[256];
	struct fs_rec_meta m;
	const struct fs_rec_hdr *h;
	int n = 0;

	write_pkg(p, list);
	struct fs_rec_reader *r = fs_rec_reader_open(p, &m, err, sizeof(err));
	ASSERT_TRUE(r);
	EXPECT_EQ(fs_rec_reader_version(r), 5);
	ASSERT_TRUE(m.packages_text != NULL);
	EXPECT_EQ(m.packages_len, strlen(list));
	EXPECT_STR(m.packages_text, list);
	while (fs_rec_reader_next(r, &h, err, sizeof(err)) == 1)
		EXPECT_EQ(((const struct fs_wakeup *)h)->cpu[1].util_avg, (__u32)(n++ * 3 + 1));
	EXPECT_EQ(n, 3);
	fs_rec_reader_close(r);
	fs_rec_meta_free(&m);
	/* an empty list is a list: kept, as version 5 */
	write_pkg(p, "");
	r = fs_rec_reader_open(p, &m, err, sizeof(err));
	ASSERT_TRUE(r);
	EXPECT_EQ(fs_rec_reader_version(r), 5);
	EXPECT_TRUE(m.packages_text && m.packages_len == 0);
	fs_rec_reader_close(r);
	fs_rec_meta_free(&m);
	/* none: version 4, and no list read back */
	write_pkg(p, NULL);
	r = fs_rec_reader_open(p, &m, err, sizeof(err));
	ASSERT_TRUE(r);
	EXPECT_EQ(fs_rec_reader_version(r), FS_REC_VERSION_PLAIN);
	EXPECT_TRUE(m.packages_text == NULL);
	fs_rec_reader_close(r);
	fs_rec_meta_free(&m);
	unlink(p);
}

/* Bytes of the file at path into buf (at most cap); its length. */
static size_t slurp(const char *path, unsigned char *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(buf, 1, cap, f) : 0;

	if (f)
		fclose(f);
	return n;
}

static void spill(const char *path, const unsigned char *buf, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (f) {
		fwrite(buf, 1, n, f);
		fclose(f);
	}
}

/* A damaged packages section is one error naming it and its byte; the same bytes under version 4 are no section. */
FS_TEST(recording_v5_packages_section_damage)
{
	static unsigned char buf[65536];
	const char *p = tmp_path("pkgbad");
	char err[512], want[400];
	int rc;

	write_pkg(p, "com.a 10123 0 /data/user/0/com.a default 3003\n");
	size_t n = slurp(p, buf, sizeof(buf));
	size_t at = 24 + (buf[12] | buf[13] << 8) + (buf[16] | buf[17] << 8); /* after meta and EM */
	ASSERT_TRUE(n > at + 20 && !memcmp(buf + at, "FSPK", 4));
	buf[at + 21] ^= 0x40; /* its payload */
	spill(p, buf, n);
	read_all(p, &rc, err, sizeof(err));
	EXPECT_EQ(rc, -2);
	snprintf(want, sizeof(want), "%s: packages section at byte %zu: CRC mismatch", p, at);
	EXPECT_STR(err, want);
	buf[at + 21] ^= 0x40;
	spill(p, buf, at + 30); /* cut inside it */
	read_all(p, &rc, err, sizeof(err));
	EXPECT_EQ(rc, -2);
	EXPECT_CONTAINS(err, "packages section at byte");
	EXPECT_CONTAINS(err, "truncated (needs");
	buf[8] = 4; /* version 4 knows no such section: its first chunk has a bad magic */
	__u32 crc = (__u32)crc32(crc32(0, buf + 8, 12), buf + 24, (uInt)(at - 24));
	for (int i = 0; i < 4; i++)
		buf[20 + i] = (unsigned char)(crc >> (8 * i));
	spill(p, buf, n);
	read_all(p, &rc, err, sizeof(err));
	EXPECT_EQ(rc, -1);
	snprintf(want, sizeof(want), "%s: chunk 1 at byte %zu: bad chunk magic; replayed 0 records", p, at);
	EXPECT_STR(err, want);
	unlink(p);
}

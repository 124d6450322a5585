// SPDX-License-Identifier: GPL-2.0
/* gzip_stream: what it writes reads back through zlib as the same bytes, members and all; errors stick. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>
#include "test.h"
#include "output/gzip_stream.h"

/* Write len bytes of text through the stream into a temporary file; return its gunzipped size in *back. */
static char *roundtrip(const char *text, size_t len, size_t *back, off_t *gz_size)
{
	char path[] = "/tmp/fs-gzstream-XXXXXX";
	int fd = mkstemp(path);
	char *out = NULL;

	if (fd < 0)
		return NULL;
	FILE *f = fs_gzip_stream(dup(fd));
	if (!f || (len && fwrite(text, 1, len, f) != len) || fclose(f)) {
		unlink(path);
		close(fd);
		return NULL;
	}
	*gz_size = lseek(fd, 0, SEEK_END);
	close(fd);
	gzFile z = gzopen(path, "rb");
	out = malloc(len + 1);
	int n = z && out ? gzread(z, out, (unsigned)len + 1) : -1;
	if (z)
		gzclose(z);
	unlink(path);
	*back = n < 0 ? (size_t)-1 : (size_t)n;
	return out;
}

FS_TEST(gzip_stream_many_members_read_back_as_one)
{
	size_t len = 1000000, back = 0; /* about 8 members of 128 KiB */
	char *text = malloc(len);
	off_t gz = 0;

	ASSERT_TRUE(text);
	for (size_t i = 0; i < len; i++) /* rows of digits, as a CSV is */
		text[i] = i % 41 == 40 ? '\n' : (char)('0' + (i * 7 / 3) % 10);
	char *out = roundtrip(text, len, &back, &gz);
	ASSERT_TRUE(out);
	EXPECT_EQ(back, len);
	EXPECT_TRUE(!memcmp(out, text, len));
	EXPECT_TRUE(gz > 0 && gz < (off_t)len / 4); /* compressed, not stored */
	free(out);
	free(text);
}

FS_TEST(gzip_stream_empty_file_is_valid_gzip)
{
	size_t back = 99;
	off_t gz = 0;
	char *out = roundtrip("", 0, &back, &gz);

	ASSERT_TRUE(out);
	EXPECT_EQ(back, 0);
	EXPECT_TRUE(gz >= 18); /* header, an empty deflate block, crc and size */
	free(out);
}

FS_TEST(gzip_stream_write_error_reaches_fclose)
{
	int fd = open("/dev/full", O_WRONLY);

	ASSERT_TRUE(fd >= 0);
	FILE *f = fs_gzip_stream(fd);
	ASSERT_TRUE(f);
	char row[64] = "1,2,3,4,5,6,7,8,9\n";
	for (int i = 0; i < 20000; i++) /* past a member: its write fails (ENOSPC), later ones too */
		fputs(row, f);
	errno = 0;
	EXPECT_EQ(fclose(f), EOF);
	EXPECT_EQ(errno, ENOSPC);
}

FS_TEST(gzip_stream_incompressible_bytes_read_back)
{
	size_t len = 300000, back = 0; /* random bytes: members are stored, larger than their text */
	char *text = malloc(len);
	off_t gz = 0;
	uint64_t x = 0x9e3779b97f4a7c15ull;

	ASSERT_TRUE(text);
	for (size_t i = 0; i < len; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		text[i] = (char)(x >> 24);
	}
	char *out = roundtrip(text, len, &back, &gz);
	ASSERT_TRUE(out);
	EXPECT_EQ(back, len);
	EXPECT_TRUE(!memcmp(out, text, len));
	EXPECT_TRUE(gz > (off_t)len);
	free(out);
	free(text);
}

/* text through fwrite, or (direct) its first head bytes through fputs and the rest in place; the file's bytes */
static char *write_gz(const char *text, size_t len, size_t head, bool direct, off_t *size)
{
	char path[] = "/tmp/fs-gzdirect-XXXXXX";
	int fd = mkstemp(path);
	struct fs_gzip *g = NULL;
	char *bytes = NULL;

	if (fd < 0)
		return NULL;
	FILE *f = fs_gzip_open(dup(fd), direct ? &g : NULL);
	bool ok = f && (!direct || g);
	if (ok && !direct)
		ok = fwrite(text, 1, len, f) == len;
	if (ok && direct) {
		size_t spare_len = 0;
		void *spare = fs_gzip_spare(g, &spare_len);
		/* the lent rest of the mapping is the writer's: scribbled over, the file must not change */
		ok = spare && spare_len >= (512u << 10);
		if (ok)
			memset(spare, 0xa5, spare_len);
		ok = ok && fwrite(text, 1, head, f) == head && !fflush(f);
		/* rows of 1 to FS_GZIP_ROOM bytes, so some run past a member's end */
		for (size_t at = head, n = 1; ok && at < len; at += n, n = n * 7 % (FS_GZIP_ROOM - 1) + 1) {
			if (n > len - at)
				n = len - at;
			memcpy(fs_gzip_room(g), text + at, n);
			ok = !fs_gzip_advance(g, n);
		}
	}
	if (f && fclose(f))
		ok = false;
	*size = lseek(fd, 0, SEEK_END);
	if (ok && *size > 0 && (bytes = malloc((size_t)*size)) && pread(fd, bytes, (size_t)*size, 0) != *size) {
		free(bytes);
		bytes = NULL;
	}
	close(fd);
	unlink(path);
	return bytes;
}

/* Written in place, the text is cut into the same members: the same file, byte for byte (the spare memory scribbled over). */
FS_TEST(gzip_stream_in_place_writes_the_same_file)
{
	size_t len = 700000; /* five members and a part */
	char *text = malloc(len);
	off_t a = 0, b = 0;

	ASSERT_TRUE(text);
	for (size_t i = 0; i < len; i++)
		text[i] = i % 37 == 36 ? '\n' : (char)('a' + (i * 13 / 5) % 26);
	char *via_stdio = write_gz(text, len, 100, false, &a);
	char *in_place = write_gz(text, len, 100, true, &b);
	ASSERT_TRUE(via_stdio && in_place);
	EXPECT_TRUE(a > 0 && a < (off_t)len / 2);
	EXPECT_EQ(a, b);
	EXPECT_TRUE(a == b && !memcmp(via_stdio, in_place, (size_t)a));
	free(via_stdio);
	free(in_place);
	free(text);
}

FS_TEST(gzip_stream_in_place_write_error_sticks)
{
	int fd = open("/dev/full", O_WRONLY);
	struct fs_gzip *g = NULL;
	int failed = 0;

	ASSERT_TRUE(fd >= 0);
	FILE *f = fs_gzip_open(fd, &g);
	ASSERT_TRUE(f && g);
	for (int i = 0; i < 20000; i++) { /* past three members: the thread's ENOSPC comes back */
		memcpy(fs_gzip_room(g), "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23\n", 60);
		failed += fs_gzip_advance(g, 60) != 0;
	}
	EXPECT_TRUE(failed > 0);
	errno = 0;
	EXPECT_EQ(fclose(f), EOF);
	EXPECT_EQ(errno, ENOSPC);
}

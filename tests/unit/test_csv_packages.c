// SPDX-License-Identifier: GPL-2.0
/* The records CSV's "# package: " lines: any list's bytes back exactly, bad lines named. */
#include <unistd.h>
#include "test.h"
#include "records/csv_records.h"

/* Each tag its own buffer: a test holds two paths at once, and a shared one leaked a file. */
static const char *tmp_path(const char *tag)
{
	static char bufs[4][256];
	static unsigned next;
	char *buf = bufs[next++ % 4];

	snprintf(buf, sizeof(bufs[0]), "/tmp/fs_test_csvpk_%d_%s.csv", (int)getpid(), tag);
	return buf;
}

/* meta with list[0..len) written as a records CSV's header to path; its text in *out (malloc'd). */
static void write_csv(const char *path, const char *list, size_t len, char **out)
{
	struct fs_rec_meta m = { .nr_cpus = 2 };
	FILE *f = fopen(path, "w");

	snprintf(m.kernel_release, sizeof(m.kernel_release), "6.1.0");
	m.packages_text = (char *)list;
	m.packages_len = len;
	ASSERT_TRUE(f && !fs_csv_records_write_header(f, &m));
	fclose(f);
	f = fopen(path, "r");
	ASSERT_TRUE(f);
	*out = calloc(1, 1 << 16);
	size_t n = fread(*out, 1, (1 << 16) - 1, f);
	(*out)[n] = 0;
	fclose(f);
}

/* Every byte value, blank lines, a CR before a newline, a backslash and a blank at the list's end. */
FS_TEST(csv_packages_round_trip_every_byte)
{
	static const char head[] = "com.a 10123 0 /data/a default 3003\n\ncom.b\\ 1 x\r\n\t\n";
	char list[sizeof(head) - 1 + 256 + 3];
	size_t len = 0;

	memcpy(list, head, sizeof(head) - 1);
	len = sizeof(head) - 1;
	for (int c = 0; c < 256; c++)
		list[len++] = (char)c;
	memcpy(list + len, "z \t", 3); /* no newline at its end: blanks there kept */
	len += 3;

	const char *p = tmp_path("rt");
	char *text, *again, err[256];
	struct fs_rec_meta m;

	write_csv(p, list, len, &text);
	EXPECT_CONTAINS(text, "# package: com.a 10123 0 /data/a default 3003\\n\n# package: \\n\n");
	EXPECT_CONTAINS(text, "# package: com.b\\\\ 1 x\\x0d\\n\n");
	EXPECT_CONTAINS(text, "z \\x09\n");
	struct fs_csv_reader *r = fs_csv_reader_open(p, &m, err, sizeof(err));
	ASSERT_TRUE(r);
	EXPECT_EQ(m.packages_len, len);
	EXPECT_TRUE(m.packages_text && !memcmp(m.packages_text, list, len));
	/* and the CSV written from what was read is the same text */
	write_csv(tmp_path("rt2"), m.packages_text, m.packages_len, &again);
	EXPECT_STR(again, text);
	fs_csv_reader_close(r);
	fs_rec_meta_free(&m);
	free(text);
	free(again);
	unlink(p);
	unlink(tmp_path("rt2"));
}

FS_TEST(csv_packages_none_and_empty)
{
	const char *p = tmp_path("none");
	char *text, err[256];
	struct fs_rec_meta m;

	write_csv(p, NULL, 0, &text);
	EXPECT_TRUE(!strstr(text, "package"));
	struct fs_csv_reader *r = fs_csv_reader_open(p, &m, err, sizeof(err));
	ASSERT_TRUE(r);
	EXPECT_TRUE(m.packages_text == NULL); /* a CSV without the lines: no list, as before */
	fs_csv_reader_close(r);
	fs_rec_meta_free(&m);
	free(text);
	unlink(p);
}

/* A bad "# package:" line: the file, the line and what is wrong, nothing opened. */
static void expect_error(const char *lines, const char *want)
{
	const char *p = tmp_path("bad");
	FILE *f = fopen(p, "w");
	char err[256] = "";
	struct fs_rec_meta m;

	fprintf(f, "# nr_cpus=2\n%stype,ts_ns\n", lines);
	fclose(f);
	struct fs_csv_reader *r = fs_csv_reader_open(p, &m, err, sizeof(err));
	EXPECT_TRUE(r == NULL);
	EXPECT_CONTAINS(err, p);
	EXPECT_CONTAINS(err, want);
	fs_csv_reader_close(r);
	unlink(p);
}

FS_TEST(csv_packages_bad_lines)
{
	expect_error("# package: com.a 1 \\q\\n\n", ":2: package: '\\q' at 9 is not an escape");
	expect_error("# package: com.a \\x4\n", ":2: package: '\\x' at 7 is not an escape");
	expect_error("# package: com.a\\n x\n", ":2: package: text after the closing \\n at 6");
	expect_error("# package: com.a\n# package: com.b\\n\n", ":3: package: a line after one without");
}

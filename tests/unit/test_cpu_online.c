// SPDX-License-Identifier: GPL-2.0
/* The online CPUs from sysfs's CPU list (source/cpu_online.c). */
#include <unistd.h>
#include "test.h"
#include "source/cpu_online.h"

FS_TEST(cpu_list_takes_ranges_commas_and_singles)
{
	char err[200] = "";
	__u64 m = 0;

	EXPECT_EQ(fs_cpu_online_parse("0-3,5,7-8\n", "t", &m, err, sizeof(err)), 0);
	EXPECT_EQ_U64(m, 0x1afull);
	EXPECT_EQ(fs_cpu_online_parse("0\n", "t", &m, err, sizeof(err)), 0);
	EXPECT_EQ_U64(m, 1);
	EXPECT_EQ(fs_cpu_online_parse("1,3", "t", &m, err, sizeof(err)), 0);
	EXPECT_EQ_U64(m, 0xa);
	/* a CPU past the mask is left out, not an error: the collector covers 0..FS_MAX_CPUS-1 */
	EXPECT_EQ(fs_cpu_online_parse("0-1,62-70\n", "t", &m, err, sizeof(err)), 0);
	EXPECT_EQ_U64(m, 0xc000000000000003ull);
}

FS_TEST(cpu_list_refuses_what_the_kernel_never_prints)
{
	const char *bad[] = { "", "\n", "a", "0-", "-3", "3-1", "0,,1", "0,", "0 ,1", "0-3\n\n", "0x3",
			      "99999999999" };
	char err[200];
	__u64 m = 7;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		EXPECT_EQ(fs_cpu_online_parse(bad[i], "online", &m, err, sizeof(err)), -1);
		EXPECT_CONTAINS(err, "online: '");
		EXPECT_CONTAINS(err, "is not a CPU list");
		EXPECT_TRUE(!strchr(err, '\n'));
	}
	EXPECT_EQ_U64(m, 7); /* untouched on an error */
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

FS_TEST(cpu_online_reads_the_file_and_names_it_when_bad)
{
	char dir[] = "/tmp/fs-online-XXXXXX", path[64], err[300] = "";
	__u64 m = 0;

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/online", dir);
	/* absent: every CPU online, as before sysfs */
	EXPECT_EQ(fs_cpu_online_read(path, &m, err, sizeof(err)), 0);
	EXPECT_EQ_U64(m, ~0ull);
	put(path, "0-2,4\n");
	EXPECT_EQ(fs_cpu_online_read(path, &m, err, sizeof(err)), 0);
	EXPECT_EQ_U64(m, 0x17);
	put(path, "0-2;4\n");
	EXPECT_EQ(fs_cpu_online_read(path, &m, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, path);
	EXPECT_CONTAINS(err, "'0-2;4' is not a CPU list");
	EXPECT_TRUE(!strchr(err, '\n'));
	put(path, "");
	EXPECT_EQ(fs_cpu_online_read(path, &m, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "'' is not a CPU list");
	unlink(path);
	rmdir(dir);
}

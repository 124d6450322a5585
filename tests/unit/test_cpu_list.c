// SPDX-License-Identifier: GPL-2.0
/* The kernel's CPU lists, both forms (engine/cpu_list.c). */
#include <string.h>
#include "test.h"
#include "engine/cpu_list.h"

static struct fs_cpu_list parsed(const char *text)
{
	struct fs_cpu_list l = { .mask = 0xdead, .highest = -7 };

	EXPECT_EQ(fs_cpu_list_parse(text, &l), 0);
	return l;
}

FS_TEST(cpu_list_reads_the_pbl_form)
{
	EXPECT_EQ_U64(parsed("0-3,5,7-8\n").mask, 0x1afull);
	EXPECT_EQ(parsed("0-3,5,7-8\n").highest, 8);
	EXPECT_EQ_U64(parsed("6").mask, 0x40);
	EXPECT_EQ_U64(parsed("  1,3  ").mask, 0xa);
}

FS_TEST(cpu_list_reads_cpufreq_show_cpus_form)
{
	/* cpufreq_show_cpus() prints "%u " for each CPU, then a newline */
	EXPECT_EQ_U64(parsed("0 1 2 3 \n").mask, 0xf);
	EXPECT_EQ_U64(parsed("4\t5 6\n").mask, 0x70);
	EXPECT_EQ_U64(parsed("0-1 4-5").mask, 0x33);
}

FS_TEST(cpu_list_empty_and_past_the_mask)
{
	/* %*pbl of an empty mask prints nothing */
	EXPECT_EQ_U64(parsed("").mask, 0);
	EXPECT_EQ(parsed("\n").highest, -1);
	/* CPUs past 63 are named in highest, left out of the mask */
	EXPECT_EQ_U64(parsed("0-1,62-70\n").mask, 0xc000000000000003ull);
	EXPECT_EQ(parsed("0-1,62-70\n").highest, 70);
	EXPECT_EQ(parsed("1048576").highest, 1048576);
}

FS_TEST(cpu_list_refuses_what_the_kernel_never_prints)
{
	const char *bad[] = { "a", "0-", "-3", "3-1", "0,,1", "0,", ",0", "0, 1", "0 ,1", "0-3\n\n",
			      "\n0", "0x3", "0-3;", "1048577", "99999999999999999999", "0\n1" };
	struct fs_cpu_list l = { .mask = 7, .highest = 2 };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_EQ(fs_cpu_list_parse(bad[i], &l), -1);
	EXPECT_EQ_U64(l.mask, 7); /* untouched on an error */
	EXPECT_EQ(l.highest, 2);
}

FS_TEST(cpu_list_format_round_trips)
{
	const __u64 masks[] = { 0, 1, 0xf, 0x1af, 0x8000000000000001ull, ~0ull, 0x5555 };
	char buf[256];

	fs_cpu_list_format(0x1af, buf, sizeof(buf));
	EXPECT_STR(buf, "0-3,5,7-8");
	for (size_t i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		fs_cpu_list_format(masks[i], buf, sizeof(buf));
		EXPECT_EQ_U64(parsed(buf).mask, masks[i]);
	}
}

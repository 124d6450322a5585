// SPDX-License-Identifier: GPL-2.0
/* cpufreq_get_pressure() from a hand-made sysfs tree, against hand arithmetic. */
#include <sys/stat.h>
#include <unistd.h>
#include "test.h"
#include "source/cpufreq_pressure.h"

static void put(const char *root, const char *rel, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *s = strchr(path + strlen(root) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		mkdir(path, 0755);
		*s = '/';
	}
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/*
 * Pixel 4 shape. policy0 (cpus 0-3, cap 306) capped at 1209.6 of 1785.6 MHz:
 * 306 - mult_frac(306, 1209600, 1785600) = 306 - (0 + 370137600 / 1785600) = 306 - 207 = 99.
 * policy4 uncapped: 0. policy7 allows a boost above the reference: 0, as the kernel clears it.
 */
FS_TEST(cpufreq_pressure_follows_cpufreq_update_pressure)
{
	char root[] = "/tmp/fs-cpufreq-XXXXXX";
	__u32 cap[8] = { 306, 306, 306, 306, 871, 871, 871, 1024 }, pr[8];

	ASSERT_TRUE(mkdtemp(root) != NULL);
	put(root, "cpufreq/policy0/related_cpus", "0 1 2 3\n");
	put(root, "cpufreq/policy0/cpuinfo_max_freq", "1785600\n");
	put(root, "cpufreq/policy0/scaling_max_freq", "1209600\n");
	put(root, "cpufreq/policy4/related_cpus", "4-6\n");
	put(root, "cpufreq/policy4/cpuinfo_max_freq", "2419200\n");
	put(root, "cpufreq/policy4/scaling_max_freq", "2419200\n");
	put(root, "cpufreq/policy7/related_cpus", "7\n");
	put(root, "cpufreq/policy7/cpuinfo_max_freq", "2841600\n");
	put(root, "cpufreq/policy7/scaling_max_freq", "3000000\n");
	EXPECT_EQ(fs_cpufreq_pressure(root, cap, 8, pr), 3);
	for (int c = 0; c < 4; c++)
		EXPECT_EQ(pr[c], 99);
	for (int c = 4; c < 8; c++)
		EXPECT_EQ(pr[c], 0);

	/* A policy with an unreadable file leaves its CPUs at 0 instead of guessing. */
	put(root, "cpufreq/policy0/scaling_max_freq", "garbage\n");
	EXPECT_EQ(fs_cpufreq_pressure(root, cap, 8, pr), 2);
	EXPECT_EQ(pr[0], 0);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	EXPECT_EQ(system(cmd), 0);
}

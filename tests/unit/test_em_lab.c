// SPDX-License-Identifier: GPL-2.0
/*
 * The decisive check of the EM arithmetic: the QEMU lab guest's device-tree
 * facts (tests/fixtures/em/lab-eas-dts.tsv, copied from make-eas-dts.py) run
 * through our port of the kernel's registration must give exactly the EM the
 * real 6.1 kernel wrote for that tree (tests/fixtures/em/v6.1-lab).
 */
#include "test.h"
#include "em/em_internal.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(1 << 16);
	*len = fread(buf, 1, (1 << 16) - 1, f);
	fclose(f);
	return buf;
}

FS_TEST(em_lab_dt_facts_equal_real_6_1_tree)
{
	struct fs_dt_device dev;
	struct fs_em built, real;
	char err[512] = "", dir[4096], *store = NULL, *text;
	size_t len;
	int checked = 0;

	text = slurp(fs_fixture("em/lab-eas-dts.tsv"), &len);
	ASSERT_TRUE(text != NULL);
	ASSERT_TRUE(fs_dt_parse_tsv(text, len, "lab-eas-dts.tsv", &dev, &store, err, sizeof(err)) == 0);
	ASSERT_TRUE(fs_em_from_dt(&dev, "lab", &built, err, sizeof(err)) == 0);
	snprintf(dir, sizeof(dir), "%s", fs_fixture("em/v6.1-lab"));
	ASSERT_TRUE(fs_em_read_debugfs_kernel(dir, NULL, "6.1", &real, err, sizeof(err)) == 0);

	EXPECT_EQ(built.nr_pd, real.nr_pd);
	EXPECT_EQ(built.unit, real.unit);
	for (int cpu = 0; cpu < 4; cpu++)
		EXPECT_EQ(built.capacity[cpu], real.capacity[cpu]);
	for (int i = 0; i < real.nr_pd && i < built.nr_pd; i++) {
		EXPECT_EQ_U64(built.pd[i].cpus, real.pd[i].cpus);
		EXPECT_EQ(built.pd[i].flags, real.pd[i].flags);
		EXPECT_EQ(built.pd[i].nr_ps, real.pd[i].nr_ps);
		for (int j = 0; j < real.pd[i].nr_ps && j < built.pd[i].nr_ps; j++) {
			EXPECT_EQ_U64(built.pd[i].ps[j].frequency, real.pd[i].ps[j].frequency);
			EXPECT_EQ_U64(built.pd[i].ps[j].power, real.pd[i].ps[j].power);
			EXPECT_EQ_U64(built.pd[i].ps[j].cost, real.pd[i].ps[j].cost);
			EXPECT_EQ(built.pd[i].ps[j].inefficient, real.pd[i].ps[j].inefficient);
			checked++;
		}
	}
	EXPECT_EQ(checked, 10);
	free(store);
	free(text);
}

/* The built-in tables are the em-data TSVs, not a hand-edited copy. */
FS_TEST(em_lab_builtin_tables_equal_tsv_facts)
{
	static const struct { const char *profile, *tsv; } pairs[] = {
		{ "hikey960", "em-data/hikey960.tsv" },
		{ "pixel4", "em-data/pixel4_sm8150.tsv" },
		{ "rb5", "em-data/rb5_sm8250.tsv" },
		{ "juno-r2", "em-data/juno_r2.tsv" },
	};

	for (size_t k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++) {
		struct fs_dt_device dev;
		struct fs_em a, b;
		char err[512] = "", *store = NULL, *text;
		size_t len;

		text = slurp(fs_fixture(pairs[k].tsv), &len);
		ASSERT_TRUE(text != NULL);
		ASSERT_TRUE(fs_dt_parse_tsv(text, len, pairs[k].tsv, &dev, &store, err, sizeof(err)) == 0);
		ASSERT_TRUE(fs_em_from_dt(&dev, pairs[k].tsv, &a, err, sizeof(err)) == 0);
		ASSERT_TRUE(fs_em_profile_build(pairs[k].profile, &b, err, sizeof(err)) == 0);
		EXPECT_EQ(a.nr_pd, b.nr_pd);
		for (int cpu = 0; cpu < FS_MAX_CPUS; cpu++)
			EXPECT_EQ(a.capacity[cpu], b.capacity[cpu]);
		for (int i = 0; i < a.nr_pd; i++) {
			EXPECT_EQ_U64(a.pd[i].cpus, b.pd[i].cpus);
			EXPECT_EQ(a.pd[i].nr_ps, b.pd[i].nr_ps);
			for (int j = 0; j < a.pd[i].nr_ps; j++) {
				EXPECT_EQ_U64(a.pd[i].ps[j].frequency, b.pd[i].ps[j].frequency);
				EXPECT_EQ_U64(a.pd[i].ps[j].power, b.pd[i].ps[j].power);
			}
		}
		free(store);
		free(text);
	}
}

FS_TEST(em_lab_tsv_errors)
{
	struct fs_dt_device dev;
	char err[512] = "", *store = NULL;
	const char *bad = "# pd0 cpus=0-1 core=A53 capacity-dmips-mhz=592 dynamic-power-coefficient=1x0 cpuinfo_max_khz=1\n";

	EXPECT_EQ(fs_dt_parse_tsv(bad, strlen(bad), "x.tsv", &dev, &store, err, sizeof(err)), -1);
	EXPECT_STR(err, "x.tsv:1: dynamic-power-coefficient: missing or not a number");
	free(store);
	bad = "# pd0 cpus=0-1 core=A53 capacity-dmips-mhz=592 dynamic-power-coefficient=110 cpuinfo_max_khz=1\n"
	      "pd\tcpus\tfreq_khz\tvoltage_uv\topp_flags\n"
	      "pd0\t0-1\t533000\tNA\t-\n";
	EXPECT_EQ(fs_dt_parse_tsv(bad, strlen(bad), "x.tsv", &dev, &store, err, sizeof(err)), -1);
	EXPECT_STR(err, "x.tsv:3: voltage_uv: 'NA' is not a positive number");
	free(store);
}

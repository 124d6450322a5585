// SPDX-License-Identifier: GPL-2.0
/* fs_em_read_debugfs: every layout's fixture tree, and every malformed case with its exact error. */
#include <errno.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "test.h"
#include "em/em_internal.h"

static int read_tree(const char *rel, const char *release, struct fs_em *em, char *err, size_t len)
{
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s", fs_fixture(rel));
	return fs_em_read_debugfs_kernel(dir, NULL, release, em, err, len);
}

FS_TEST(em_debugfs_v5_4_pd_cs_layout)
{
	struct fs_em em;
	char err[512] = "";

	ASSERT_TRUE(read_tree("em/v5.4", NULL, &em, err, sizeof(err)) == 0);
	EXPECT_EQ(em.nr_pd, 2);
	EXPECT_STR(em.pd[0].name, "pd0");
	EXPECT_STR(em.pd[1].name, "pd2");
	EXPECT_EQ_U64(em.pd[1].cpus, 0xc);
	EXPECT_EQ(em.unit, FS_POWER_MW); /* no units file before v5.11: mW */
	EXPECT_EQ(em.pd[0].flags, 0);
	EXPECT_EQ(em.pd[0].has_inefficient, 0);
	/* cs:533000: 110 * 700^2 * 533 / 10^9 = 28 mW; cost 1844000 * 28 / 533000 = 96 */
	EXPECT_EQ_U64(em.pd[0].ps[0].frequency, 533000);
	EXPECT_EQ_U64(em.pd[0].ps[0].power, 28);
	EXPECT_EQ_U64(em.pd[0].ps[0].cost, 96);
	/* states come back in frequency order, not the directory's string order */
	EXPECT_EQ_U64(em.pd[1].ps[0].frequency, 903000);
	EXPECT_EQ_U64(em.pd[1].ps[2].frequency, 2362000);
	EXPECT_EQ(em.capacity[1], 462);
	EXPECT_EQ(em.capacity[3], 1024);
	EXPECT_EQ(em.nr_cpus, 4);
}

FS_TEST(em_debugfs_v5_10_cpu_ps_layout_capacity_dir)
{
	struct fs_em em;
	char err[512] = "";

	ASSERT_TRUE(read_tree("em/v5.10", NULL, &em, err, sizeof(err)) == 0);
	EXPECT_STR(em.pd[0].name, "cpu0");
	EXPECT_EQ(em.unit, FS_POWER_MW);
	EXPECT_CONTAINS(em.source, "cpus/cpuN/cpu_capacity");
	EXPECT_EQ(em.capacity[0], 462);
}

FS_TEST(em_debugfs_v5_15_units)
{
	struct fs_em em;
	char err[512] = "";

	ASSERT_TRUE(read_tree("em/v5.15", NULL, &em, err, sizeof(err)) == 0);
	EXPECT_EQ(em.unit, FS_POWER_MW);
	/* v5.15 cost with em_scale_power: 1844000 * 28000 / 533000 = 96870.5 -> 96870 */
	EXPECT_EQ_U64(em.pd[0].ps[0].cost, 96870);
}

FS_TEST(em_debugfs_v5_17_skip_inefficiencies)
{
	struct fs_em em;
	char err[512] = "";

	ASSERT_TRUE(read_tree("em/v5.17", NULL, &em, err, sizeof(err)) == 0);
	EXPECT_EQ(em.pd[0].flags, FS_EM_PD_SKIP_INEFFICIENT);
	EXPECT_EQ(em.pd[1].flags, 0);
	EXPECT_EQ(em.pd[0].has_inefficient, 1);
	EXPECT_EQ(em.pd[0].ps[0].inefficient, 1);
	EXPECT_EQ(em.pd[0].ps[1].inefficient, 0);
	EXPECT_CONTAINS(em.source, "v5.17/cpu_capacity"); /* grep-form table */
	EXPECT_EQ(em.capacity[2], 1024);
}

/* flags bit 0: MILLIWATTS in v5.19 (the tree's kernel_release says 5.19.0) */
FS_TEST(em_debugfs_v5_19_flags_bit0_is_milliwatts)
{
	struct fs_em em;
	char err[512] = "";

	ASSERT_TRUE(read_tree("em/v5.19", NULL, &em, err, sizeof(err)) == 0);
	EXPECT_STR(em.kernel, "5.19.0");
	EXPECT_EQ(em.unit, FS_POWER_MW);
	EXPECT_EQ(em.pd[0].flags, FS_EM_PD_SKIP_INEFFICIENT); /* 0x3 -> mW + SKIP */
	EXPECT_EQ(em.pd[1].flags, 0);
	/* --kernel overrides: the same files read as a 6.x tree mean microwatts */
	ASSERT_TRUE(read_tree("em/v5.19", "6.1.0", &em, err, sizeof(err)) == 0);
	EXPECT_EQ(em.unit, FS_POWER_UW);
	EXPECT_EQ(em.pd[0].flags, FS_EM_PD_MICROWATTS | FS_EM_PD_SKIP_INEFFICIENT);
}

FS_TEST(em_debugfs_v6_1_lab_real_tree)
{
	struct fs_em em;
	char err[512] = "";

	ASSERT_TRUE(read_tree("em/v6.1-lab", "6.1.0", &em, err, sizeof(err)) == 0);
	EXPECT_EQ(em.unit, FS_POWER_UW);
	EXPECT_EQ(em.nr_pd, 2);
	EXPECT_EQ_U64(em.pd[0].cpus, 0x3);
	EXPECT_EQ_U64(em.pd[1].cpus, 0xc);
	EXPECT_EQ(em.pd[0].flags, FS_EM_PD_MICROWATTS);
	/* values exactly as the 6.1 kernel wrote them (v6.1-lab.txt) */
	EXPECT_EQ_U64(em.pd[0].ps[0].power, 28728);
	EXPECT_EQ_U64(em.pd[0].ps[0].cost, 99389);
	EXPECT_EQ_U64(em.pd[1].ps[4].power, 1571911);
	EXPECT_EQ_U64(em.pd[1].ps[0].cost, 636557);
	EXPECT_STR(em.kernel, "6.1.0");
}

FS_TEST(em_debugfs_unknown_release_is_stated)
{
	struct fs_em em;
	char err[512] = "";

	ASSERT_TRUE(read_tree("em/v6.12", NULL, &em, err, sizeof(err)) == 0);
	EXPECT_EQ(em.unit, FS_POWER_UW);
	EXPECT_CONTAINS(em.source, "kernel release unknown: flags bit 0 read as MICROWATTS (v6.0+)");
	EXPECT_STR(em.kernel, "");
}

FS_TEST(em_debugfs_v6_12_performance)
{
	struct fs_em em;
	char err[512] = "";

	ASSERT_TRUE(read_tree("em/v6.12", NULL, &em, err, sizeof(err)) == 0);
	/* performance = 462 * 533000 / 1844000 = 133.5 -> 133; cost = 10 * 28728 / 133 = 2160 */
	EXPECT_EQ_U64(em.pd[0].ps[0].performance, 133);
	EXPECT_EQ_U64(em.pd[0].ps[0].cost, 2160);
	EXPECT_EQ_U64(em.pd[1].ps[2].performance, 1024);
}

FS_TEST(em_debugfs_v6_19_id)
{
	struct fs_em em;
	char err[512] = "";

	ASSERT_TRUE(read_tree("em/v6.19", NULL, &em, err, sizeof(err)) == 0);
	EXPECT_STR(em.kernel, "6.19.0");
	EXPECT_EQ(em.nr_pd, 2);
	EXPECT_EQ_U64(em.pd[1].ps[2].performance, 1024);
}

FS_TEST(em_debugfs_gpu_devfreq_pd_skipped)
{
	struct fs_em em;
	char err[512] = "";

	ASSERT_TRUE(read_tree("em/v6.1-gpu", NULL, &em, err, sizeof(err)) == 0);
	EXPECT_EQ(em.nr_pd, 2);
	EXPECT_CONTAINS(em.source, "skipped non-CPU PDs ff9a0000.gpu");
}

/* --- malformed trees, built in a temporary directory --- */

static char tmpdir[256];

static void put(const char *rel, const char *fmt, ...)
{
	char path[1024], *slash;
	va_list ap;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	for (slash = strchr(path + strlen(tmpdir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		abort();
	}
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

/* A good v6.1-style tree: cpu0 (cpus 0-1, 2 states), cpu2 (cpus 2-3, 2 states), capacities. */
static void good_tree(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/fs-em-test-XXXXXX");
	if (!mkdtemp(tmpdir))
		abort();
	put("cpu0/cpus", "0-1\n");
	put("cpu0/flags", "0x1\n");
	put("cpu0/ps:500000/frequency", "500000\n");
	put("cpu0/ps:500000/power", "20000\n");
	put("cpu0/ps:500000/cost", "40000\n");
	put("cpu0/ps:1000000/frequency", "1000000\n");
	put("cpu0/ps:1000000/power", "60000\n");
	put("cpu0/ps:1000000/cost", "60000\n");
	put("cpu2/cpus", "2-3\n");
	put("cpu2/flags", "0x1\n");
	put("cpu2/ps:800000/frequency", "800000\n");
	put("cpu2/ps:800000/power", "200000\n");
	put("cpu2/ps:800000/cost", "500000\n");
	put("cpu2/ps:2000000/frequency", "2000000\n");
	put("cpu2/ps:2000000/power", "900000\n");
	put("cpu2/ps:2000000/cost", "900000\n");
	put("cpu_capacity", "cpu0 400\ncpu1 400\ncpu2 1024\ncpu3 1024\n");
}

static int read_tmp(struct fs_em *em, char *err, size_t len)
{
	return fs_em_read_debugfs_kernel(tmpdir, NULL, "6.1.0", em, err, len);
}

static void cleanup(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", tmpdir);
}

/* Expect failure with err == "<tmpdir>/<suffix>" exactly. */
#define EXPECT_TREE_ERR(suffix)                                                     \
	do {                                                                        \
		struct fs_em em_;                                                   \
		char err_[1024] = "", want_[1024];                                  \
		EXPECT_EQ(read_tmp(&em_, err_, sizeof(err_)), -1);                  \
		snprintf(want_, sizeof(want_), "%s/%s", tmpdir, suffix);            \
		EXPECT_STR(err_, want_);                                            \
	} while (0)

FS_TEST(em_debugfs_good_tree_reads)
{
	struct fs_em em;
	char err[512] = "";

	good_tree();
	EXPECT_EQ(read_tmp(&em, err, sizeof(err)), 0);
	EXPECT_STR(err, "");
	cleanup();
}

FS_TEST(em_debugfs_err_non_numeric)
{
	good_tree();
	put("cpu2/ps:800000/power", "12abc\n");
	EXPECT_TREE_ERR("cpu2/ps:800000/power: power: '12abc' is not a decimal number");
	cleanup();
}

FS_TEST(em_debugfs_err_negative)
{
	good_tree();
	put("cpu0/ps:500000/frequency", "-500000\n");
	EXPECT_TREE_ERR("cpu0/ps:500000/frequency: frequency: '-500000' is not a decimal number");
	cleanup();
}

FS_TEST(em_debugfs_err_zero_power)
{
	good_tree();
	put("cpu0/ps:1000000/power", "0\n");
	EXPECT_TREE_ERR("cpu0/ps:1000000/power: power: 0 (the kernel never registers a zero-power state)");
	cleanup();
}

FS_TEST(em_debugfs_err_non_increasing_frequency)
{
	good_tree();
	/* the state named 1000000 claims a frequency below the 500000 one */
	put("cpu0/ps:1000000/frequency", "400000\n");
	EXPECT_TREE_ERR("cpu0/ps:1000000/frequency: frequency: 400000 kHz is not above ps:500000's 500000 kHz");
	cleanup();
}

FS_TEST(em_debugfs_err_cpu_in_two_pds_names_both)
{
	struct fs_em em;
	char err[1024] = "", want[1024];

	good_tree();
	put("cpu2/cpus", "1-3\n");
	EXPECT_EQ(read_tmp(&em, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s/cpu2/cpus: cpus: CPU 1 is also in %s/cpu0/cpus", tmpdir, tmpdir);
	EXPECT_STR(err, want);
	cleanup();
}

FS_TEST(em_debugfs_err_missing_capacity)
{
	good_tree();
	put("cpu_capacity", "cpu0 400\ncpu1 400\ncpu2 1024\n");
	EXPECT_TREE_ERR("cpu_capacity: cpu_capacity: no value for cpu3, a CPU of the Energy Model");
	cleanup();
}

FS_TEST(em_debugfs_err_no_capacity_source)
{
	good_tree();
	put("cpu_capacity", "");
	{
		char path[512];
		snprintf(path, sizeof(path), "%s/cpu_capacity", tmpdir);
		unlink(path);
	}
	{
		struct fs_em em;
		char err[1024] = "";
		EXPECT_EQ(read_tmp(&em, err, sizeof(err)), -1);
		EXPECT_CONTAINS(err, "cpu_capacity: no capacity for cpu0: a copied tree needs a cpu_capacity file");
	}
	cleanup();
}

FS_TEST(em_debugfs_err_bad_capacity_value)
{
	good_tree();
	put("cpu_capacity", "cpu0 400\ncpu1 4x0\n");
	EXPECT_TREE_ERR("cpu_capacity:2: cpu_capacity: '4x0' for cpu1 is not a number in 1..1024");
	cleanup();
}

FS_TEST(em_debugfs_err_bad_cpulist)
{
	good_tree();
	put("cpu2/cpus", "2-\n");
	EXPECT_TREE_ERR("cpu2/cpus: cpus: '2-' is not a cpulist of CPUs below 32 (FS_MAX_CPUS)");
	cleanup();
	good_tree();
	put("cpu2/cpus", "2-3,\n");
	EXPECT_TREE_ERR("cpu2/cpus: cpus: '2-3,' is not a cpulist of CPUs below 32 (FS_MAX_CPUS)");
	cleanup();
}

FS_TEST(em_debugfs_err_too_many_cpus)
{
	good_tree();
	put("cpu2/cpus", "2-40\n");
	EXPECT_TREE_ERR("cpu2/cpus: cpus: '2-40' is not a cpulist of CPUs below 32 (FS_MAX_CPUS)");
	cleanup();
}

FS_TEST(em_debugfs_err_too_many_states)
{
	good_tree();
	for (int i = 0; i < FS_MAX_PS; i++) {
		char rel[64];
		snprintf(rel, sizeof(rel), "cpu2/ps:%d/frequency", 3000000 + i);
		put(rel, "%d\n", 3000000 + i);
	}
	EXPECT_TREE_ERR("cpu2: performance states: more than 64 (FS_MAX_PS)");
	cleanup();
}

FS_TEST(em_debugfs_err_too_many_pds)
{
	good_tree();
	for (int i = 4; i < 4 + FS_MAX_PDS; i++) {
		char rel[64];
		snprintf(rel, sizeof(rel), "cpu%d/cpus", i);
		put(rel, "%d\n", i);
		snprintf(rel, sizeof(rel), "cpu%d/flags", i);
		put(rel, "0x1\n");
		snprintf(rel, sizeof(rel), "cpu%d/ps:100000/frequency", i);
		put(rel, "100000\n");
		snprintf(rel, sizeof(rel), "cpu%d/ps:100000/power", i);
		put(rel, "1000\n");
	}
	/* PDs are read in name order: cpu0 cpu10 cpu11 cpu2 cpu4 cpu5 cpu6 cpu7 | cpu8: the 9th */
	EXPECT_TREE_ERR("cpu8: performance domains: more than 8 (FS_MAX_PDS)");
	cleanup();
}

FS_TEST(em_debugfs_err_missing_power)
{
	char path[512];

	good_tree();
	snprintf(path, sizeof(path), "%s/cpu0/ps:500000/power", tmpdir);
	unlink(path);
	EXPECT_TREE_ERR("cpu0/ps:500000/power: power: missing");
	cleanup();
}

FS_TEST(em_debugfs_err_unreadable_file)
{
	char path[512];

	if (geteuid() == 0) {
		/* root reads mode-000 files; a directory in place of the file is unreadable for everyone */
		good_tree();
		snprintf(path, sizeof(path), "%s/cpu0/flags", tmpdir);
		unlink(path);
		mkdir(path, 0755);
		{
			struct fs_em em;
			char err[1024] = "";
			EXPECT_EQ(read_tmp(&em, err, sizeof(err)), -1);
			EXPECT_CONTAINS(err, "cpu0/flags: flags: cannot read: Is a directory");
		}
		cleanup();
		return;
	}
	good_tree();
	snprintf(path, sizeof(path), "%s/cpu0/flags", tmpdir);
	chmod(path, 0);
	EXPECT_TREE_ERR("cpu0/flags: flags: cannot read: Permission denied");
	cleanup();
}

FS_TEST(em_debugfs_err_bad_units_and_flags)
{
	good_tree();
	put("cpu0/flags", "0x10\n");
	EXPECT_TREE_ERR("cpu0/flags: flags: 0x10 has bits feecscope does not know");
	cleanup();
	good_tree();
	{
		char path[512];
		snprintf(path, sizeof(path), "%s/cpu0/flags", tmpdir);
		unlink(path);
		snprintf(path, sizeof(path), "%s/cpu2/flags", tmpdir);
		unlink(path);
	}
	put("cpu0/units", "kiloWatts\n");
	EXPECT_TREE_ERR("cpu0/units: units: 'kiloWatts', want milliWatts or bogoWatts");
	cleanup();
}

FS_TEST(em_debugfs_err_mixed_units)
{
	good_tree();
	put("cpu2/flags", "0\n"); /* 6.x without MICROWATTS: abstract scale */
	EXPECT_TREE_ERR("cpu2: units: power unit differs from the other performance domains'");
	cleanup();
}

FS_TEST(em_debugfs_err_not_a_tree)
{
	struct fs_em em;
	char err[1024] = "";

	EXPECT_EQ(fs_em_read_debugfs("/nonexistent/em", NULL, &em, err, sizeof(err)), -1);
	EXPECT_STR(err, "/nonexistent/em: cannot open: No such file or directory");
	good_tree();
	{
		char cmd[1024], want[1024];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'/cpu0 '%s'/cpu2", tmpdir, tmpdir);
		EXPECT_EQ(system(cmd), 0);
		EXPECT_EQ(read_tmp(&em, err, sizeof(err)), -1);
		snprintf(want, sizeof(want), "%s: no CPU performance domains (no directory with a cpus file)", tmpdir);
		EXPECT_STR(err, want);
	}
	cleanup();
}

FS_TEST(em_debugfs_cpu_dir_option)
{
	struct fs_em em;
	char err[1024] = "", dir[4096];

	snprintf(dir, sizeof(dir), "%s", fs_fixture("em/v6.12/cpus"));
	/* the v5.4 tree read with the v6.12 tree's per-CPU capacity directory */
	{
		char tree[4096];
		snprintf(tree, sizeof(tree), "%s", fs_fixture("em/v5.4"));
		ASSERT_TRUE(fs_em_read_debugfs_kernel(tree, dir, NULL, &em, err, sizeof(err)) == 0);
	}
	EXPECT_CONTAINS(em.source, "em/v6.12/cpus/cpuN/cpu_capacity");
	EXPECT_EQ(em.capacity[0], 462);
}

/* --- odd names, links and permissions (issue 14: each was a crash or a silent success) --- */

static void mkdir_rel(const char *rel)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	if (mkdir(path, 0755))
		perror(path);
}

static void symlink_rel(const char *target, const char *rel)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	if (symlink(target, path))
		perror(path);
}

/* The name used to be printed from a closed DIR's buffer: a heap use-after-free under ASan. */
FS_TEST(em_debugfs_err_state_name_not_a_number)
{
	good_tree();
	mkdir_rel("cpu0/ps:abc");
	EXPECT_TREE_ERR("cpu0/ps:abc: state directory: 'ps:abc' is not <cs|ps>:<frequency in kHz>");
	cleanup();
	good_tree();
	mkdir_rel("cpu2/ps:");
	EXPECT_TREE_ERR("cpu2/ps:: state directory: 'ps:' is not <cs|ps>:<frequency in kHz>");
	cleanup();
	/* strtoull's extras (hex, signs, blanks) are not the kernel's %lu */
	good_tree();
	mkdir_rel("cpu2/ps:0x10");
	EXPECT_TREE_ERR("cpu2/ps:0x10: state directory: 'ps:0x10' is not <cs|ps>:<frequency in kHz>");
	cleanup();
	good_tree();
	mkdir_rel("cpu2/ps:99999999999999999999");
	EXPECT_TREE_ERR("cpu2/ps:99999999999999999999: state directory: 'ps:99999999999999999999' is not "
			"<cs|ps>:<frequency in kHz>");
	cleanup();
}

/* Same use-after-free for a performance-domain name of 32+ characters. */
FS_TEST(em_debugfs_long_pd_names)
{
	struct fs_em em;
	char err[1024] = "", name[64], rel[128];

	memset(name, 'x', 40);
	name[40] = '\0';
	good_tree();
	snprintf(rel, sizeof(rel), "%s/cpus", name);
	put(rel, "4\n");
	snprintf(rel, sizeof(rel), "%s: performance domain: directory name longer than 31 characters", name);
	EXPECT_TREE_ERR(rel);
	cleanup();
	/* a device that is not a CPU PD may have any name: it is skipped */
	good_tree();
	mkdir_rel(name);
	EXPECT_EQ(read_tmp(&em, err, sizeof(err)), 0);
	EXPECT_CONTAINS(em.source, "skipped non-CPU PDs xxxxxxxx");
	cleanup();
	/* many devices besides the CPUs */
	good_tree();
	for (int i = 0; i < 40; i++) {
		snprintf(rel, sizeof(rel), "dev%02d.gpu", i);
		mkdir_rel(rel);
	}
	EXPECT_EQ(read_tmp(&em, err, sizeof(err)), 0);
	EXPECT_EQ(em.nr_pd, 2);
	cleanup();
}

FS_TEST(em_debugfs_err_duplicate_state)
{
	good_tree();
	put("cpu0/cs:500000/frequency", "500000\n");
	put("cpu0/cs:500000/power", "20000\n");
	EXPECT_TREE_ERR("cpu0/ps:500000: state directory: the same frequency as cs:500000");
	cleanup();
}

FS_TEST(em_debugfs_err_symlink_loops)
{
	good_tree();
	symlink_rel("loop", "loop");
	EXPECT_TREE_ERR("loop: cannot open: Too many levels of symbolic links");
	cleanup();
	good_tree();
	symlink_rel("dangling-target", "gone");
	EXPECT_TREE_ERR("gone: cannot open: dangling symbolic link");
	cleanup();
	good_tree();
	{
		char path[1024];
		snprintf(path, sizeof(path), "%s/cpu2/cpus", tmpdir);
		unlink(path);
	}
	symlink_rel("cpus", "cpu2/cpus");
	EXPECT_TREE_ERR("cpu2/cpus: cpus: cannot read: Too many levels of symbolic links");
	cleanup();
	good_tree();
	{
		char path[1024];
		snprintf(path, sizeof(path), "%s/cpu0/ps:500000/cost", tmpdir);
		unlink(path);
	}
	symlink_rel("nowhere", "cpu0/ps:500000/cost");
	EXPECT_TREE_ERR("cpu0/ps:500000/cost: cost: cannot read: dangling symbolic link");
	cleanup();
	/* a link to a directory is followed once: a state that is its own PD has no frequency */
	good_tree();
	symlink_rel(".", "cpu0/ps:700000");
	EXPECT_TREE_ERR("cpu0/ps:700000/frequency: frequency: missing");
	cleanup();
}

/*
 * Unreadable directories: root reads everything, so the reads run as nobody in
 * a child process; this one then restores the modes and removes the tree.
 */
static void as_nobody(const char *pd_rel, mode_t mode, void (*check)(void))
{
	char path[1024];
	int status;
	pid_t pid;

	chmod(tmpdir, 0755);
	snprintf(path, sizeof(path), "%s/%s", tmpdir, pd_rel);
	chmod(path, mode);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		if (geteuid() == 0 && (setgid(65534) || setuid(65534))) {
			FS_FAIL_AT("cannot become nobody: %s", strerror(errno));
			_exit(1);
		}
		check();
		fflush(NULL);
		_exit(fs_test_failures ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		FS_FAIL_AT("the check as nobody failed (see above)");
	chmod(path, 0755);
	cleanup();
}

static void check_unreadable(void)
{
	EXPECT_TREE_ERR("cpu2/cpus: cpus: cannot read: Permission denied");
}

static void check_unlistable(void)
{
	EXPECT_TREE_ERR("cpu2: cannot open: Permission denied");
}

FS_TEST(em_debugfs_err_unreadable_pd_dir)
{
	good_tree();
	as_nobody("cpu2", 0, check_unreadable);
	/* searchable but not listable: its states cannot be found */
	good_tree();
	as_nobody("cpu2", 0111, check_unlistable);
}

FS_TEST(em_debugfs_err_file_too_long_or_binary)
{
	char big[400];

	good_tree();
	memset(big, ' ', sizeof(big) - 3);
	big[sizeof(big) - 3] = '5';
	big[sizeof(big) - 2] = '\n';
	big[sizeof(big) - 1] = '\0';
	put("cpu0/ps:500000/cost", "%s", big);
	EXPECT_TREE_ERR("cpu0/ps:500000/cost: cost: longer than 62 bytes");
	cleanup();
	good_tree();
	put("cpu0/ps:500000/power", "%c%s", '7', "");
	{
		char path[1024];
		FILE *f;
		snprintf(path, sizeof(path), "%s/cpu0/ps:500000/power", tmpdir);
		f = fopen(path, "w");
		ASSERT_TRUE(f != NULL);
		fwrite("20000\0junk\n", 1, 11, f);
		fclose(f);
	}
	EXPECT_TREE_ERR("cpu0/ps:500000/power: power: binary data (a NUL byte)");
	cleanup();
	/* the edge: 63 bytes fit the 64-byte buffer (blanks trimmed), 64 do not */
	good_tree();
	put("cpu0/ps:500000/cost", "%-63s", "40000");
	{
		struct fs_em em;
		char err[1024] = "";

		EXPECT_EQ(read_tmp(&em, err, sizeof(err)), 0);
		EXPECT_STR(err, "");
		EXPECT_EQ(em.pd[0].ps[0].cost, 40000);
	}
	put("cpu0/ps:500000/cost", "%-64s", "40000");
	EXPECT_TREE_ERR("cpu0/ps:500000/cost: cost: longer than 62 bytes");
	cleanup();
}

FS_TEST(em_debugfs_err_capacity_table_lines)
{
	good_tree();
	put("cpu_capacity", "cpu0 400\ncpu1 400\ncpu2 1024\ncpu3 1024\ncpu1 500\n");
	EXPECT_TREE_ERR("cpu_capacity:5: cpu: cpu1 appears twice");
	cleanup();
	good_tree();
	put("cpu_capacity", "cpu0 400\ncpu1x 400\n");
	EXPECT_TREE_ERR("cpu_capacity:2: cpu: 'cpu1x' is not cpuN");
	cleanup();
	good_tree();
	put("cpu_capacity", "cpu0 400\ncpu99999999999999999999 400\n");
	EXPECT_TREE_ERR("cpu_capacity:2: cpu: 'cpu99999999999999999999' is not cpuN");
	cleanup();
	/* the grep form and comments still read */
	good_tree();
	put("cpu_capacity", "# pulled\n/sys/devices/system/cpu/cpu0/cpu_capacity:400\n"
			    "/sys/devices/system/cpu/cpu1/cpu_capacity:400\ncpu2 1024\r\ncpu3\t1024\n");
	{
		struct fs_em em;
		char err[1024] = "";
		EXPECT_EQ(read_tmp(&em, err, sizeof(err)), 0);
		EXPECT_STR(err, "");
		EXPECT_EQ(em.capacity[1], 400);
		EXPECT_EQ(em.capacity[3], 1024);
	}
	cleanup();
}

FS_TEST(em_debugfs_err_release_out_of_range)
{
	struct fs_em em;
	char err[1024] = "", want[1024];

	good_tree();
	put("kernel_release", "99999999999.1\n");
	EXPECT_EQ(fs_em_read_debugfs(tmpdir, NULL, &em, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: kernel release: '99999999999.1' does not start with MAJOR.MINOR", tmpdir);
	EXPECT_STR(err, want);
	cleanup();
}

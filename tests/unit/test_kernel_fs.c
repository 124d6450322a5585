// SPDX-License-Identifier: GPL-2.0
/* Finding debugfs and tracefs from a hand-written mount table (em/kernel_fs.c). */
#include <sys/stat.h>
#include <unistd.h>
#include "test.h"
#include "em/kernel_fs.h"

/* A fake /proc/self/mounts in a fresh directory; its path in file. */
static void table(char *dir, char *file, size_t len, const char *text)
{
	FILE *f;

	snprintf(file, len, "%s/mounts", dir);
	f = fopen(file, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void rm_rf(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	EXPECT_EQ(system(cmd), 0);
}

/* An Android-like table: debugfs bind-mounted elsewhere first, then at its usual place. */
FS_TEST(mounts_find_prefers_the_usual_place_else_takes_the_first)
{
	char dir[] = "/tmp/fs-mounts-XXXXXX", file[300], got[256], err[300];

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	table(dir, file, sizeof(file),
	      "/dev/root / ext4 rw 0 0\n"
	      "debugfs /data/debug debugfs rw 0 0\n"
	      "tracefs /data/debug/tracing tracefs rw 0 0\n"
	      "debugfs /sys/kernel/debug debugfs rw,relatime 0 0\n");
	EXPECT_EQ(fs_mounts_find(file, "debugfs", "/sys/kernel/debug", got, sizeof(got), err, sizeof(err)), 0);
	EXPECT_STR(got, "/sys/kernel/debug");
	/* tracefs is not at /sys/kernel/tracing here: the one listed */
	EXPECT_EQ(fs_mounts_find(file, "tracefs", "/sys/kernel/tracing", got, sizeof(got), err, sizeof(err)), 0);
	EXPECT_STR(got, "/data/debug/tracing");
	EXPECT_EQ(fs_mounts_find(file, "debugfs", NULL, got, sizeof(got), err, sizeof(err)), 0);
	EXPECT_STR(got, "/data/debug");
	/* a type that is no file system's, nor a prefix match of one */
	EXPECT_EQ(fs_mounts_find(file, "debug", NULL, got, sizeof(got), err, sizeof(err)), 1);
	rm_rf(dir);
}

/* The kernel writes space, tab, newline and backslash in a mount point as \ooo. */
FS_TEST(mounts_find_decodes_octal_escapes)
{
	char dir[] = "/tmp/fs-mounts-XXXXXX", file[300], got[256], err[300];

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	table(dir, file, sizeof(file), "none /mnt/my\\040debug\\134fs debugfs rw 0 0\n");
	EXPECT_EQ(fs_mounts_find(file, "debugfs", "/sys/kernel/debug", got, sizeof(got), err, sizeof(err)), 0);
	EXPECT_STR(got, "/mnt/my debug\\fs");
	rm_rf(dir);
}

FS_TEST(mounts_find_names_the_file_and_line_it_cannot_read)
{
	char dir[] = "/tmp/fs-mounts-XXXXXX", file[300], got[256], err[300] = "";

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	table(dir, file, sizeof(file), "proc /proc proc rw 0 0\n\ndebugfs relative debugfs rw 0 0\n");
	EXPECT_EQ(fs_mounts_find(file, "debugfs", NULL, got, sizeof(got), err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, file);
	EXPECT_CONTAINS(err, "line 3");
	table(dir, file, sizeof(file), "onlyadevice\n");
	EXPECT_EQ(fs_mounts_find(file, "debugfs", NULL, got, sizeof(got), err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "line 1");
	unlink(file);
	EXPECT_EQ(fs_mounts_find(file, "debugfs", NULL, got, sizeof(got), err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "cannot open");
	rm_rf(dir);
}

/* A mount point longer than the caller's buffer is an error, never a cut path. */
FS_TEST(mounts_find_refuses_a_mount_point_it_cannot_hold)
{
	char dir[] = "/tmp/fs-mounts-XXXXXX", file[300], got[16], err[300] = "";

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	table(dir, file, sizeof(file), "debugfs /a/rather/long/mount/point debugfs rw 0 0\n");
	EXPECT_EQ(fs_mounts_find(file, "debugfs", NULL, got, sizeof(got), err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "longer than 15 bytes");
	rm_rf(dir);
}

/* No tracefs listed, but debugfs is, and the kernel's automount point under it holds events/. */
FS_TEST(tracefs_is_found_under_a_debugfs_mount)
{
	char dir[] = "/tmp/fs-mounts-XXXXXX", file[300], text[400], want[300], got[256], err[400] = "";

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	snprintf(text, sizeof(text), "debugfs %s debugfs rw 0 0\n", dir);
	table(dir, file, sizeof(file), text);
	/* debugfs/tracing without events/ is not tracefs: not taken, and nothing mounted */
	snprintf(want, sizeof(want), "%s/tracing", dir);
	ASSERT_TRUE(mkdir(want, 0755) == 0);
	EXPECT_EQ(fs_kernel_fs_find(FS_KFS_TRACEFS, file, false, got, sizeof(got), err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "the debugfs mount has no tracing/events");
	snprintf(text, sizeof(text), "%s/events", want);
	ASSERT_TRUE(mkdir(text, 0755) == 0);
	EXPECT_EQ(fs_kernel_fs_find(FS_KFS_TRACEFS, file, false, got, sizeof(got), err, sizeof(err)), 0);
	EXPECT_STR(got, want);
	/* a tracefs mount of its own wins over the one under debugfs */
	snprintf(text, sizeof(text), "debugfs %s debugfs rw 0 0\ntracefs /elsewhere/tracing tracefs rw 0 0\n", dir);
	table(dir, file, sizeof(file), text);
	EXPECT_EQ(fs_kernel_fs_find(FS_KFS_TRACEFS, file, false, got, sizeof(got), err, sizeof(err)), 0);
	EXPECT_STR(got, "/elsewhere/tracing");
	EXPECT_TRUE(fs_kernel_fs_mounted() == NULL);
	rm_rf(dir);
}

/* Neither listed and mounting not allowed: the error says what was looked at and what was not done. */
FS_TEST(kernel_fs_find_says_what_it_tried)
{
	char dir[] = "/tmp/fs-mounts-XXXXXX", file[300], got[256], err[400] = "";

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	table(dir, file, sizeof(file), "proc /proc proc rw 0 0\nsysfs /sys sysfs rw 0 0\n");
	EXPECT_EQ(fs_kernel_fs_find(FS_KFS_DEBUGFS, file, false, got, sizeof(got), err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "debugfs: ");
	EXPECT_CONTAINS(err, "lists no debugfs mount");
	EXPECT_CONTAINS(err, "not mounting it here");
	EXPECT_EQ(fs_kernel_fs_find(FS_KFS_TRACEFS, file, false, got, sizeof(got), err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "lists no tracefs mount, nor a debugfs one");
	EXPECT_TRUE(fs_kernel_fs_mounted() == NULL);
	rm_rf(dir);
}

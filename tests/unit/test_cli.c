// SPDX-License-Identifier: GPL-2.0
/* Command-line helpers: "did you mean", wrapped help text, release check, --pid/--comm lists. */
#include <unistd.h>
#include "test.h"
#include "cli.h"
#include "filter.h"
#include "engine/policy.h"

FS_TEST(cli_closest_suggests_only_near_names)
{
	static const char *const opts[] = { "duration", "interval", "pid", "policies", "comm", "csv", "em" };

	EXPECT_STR(fs_cli_closest("durtion", opts, 7), "duration");
	EXPECT_STR(fs_cli_closest("intreval", opts, 7), "interval"); /* a transposition is one edit */
	EXPECT_STR(fs_cli_closest("polices", opts, 7), "policies");
	EXPECT_STR(fs_cli_closest("pids", opts, 7), "pid");
	EXPECT_TRUE(fs_cli_closest("xx", opts, 7) == NULL);        /* short words: one edit at most */
	EXPECT_TRUE(fs_cli_closest("frequency", opts, 7) == NULL);
	EXPECT_TRUE(fs_cli_closest("", opts, 0) == NULL);
}

FS_TEST(cli_wrap_keeps_80_columns_and_preformatted_lines)
{
	static char buf[4096];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	fs_cli_wrap(f, 8, "One paragraph of words that runs on well past the edge of an eighty column terminal "
		    "window, so it must wrap at a space, and keep its indent on every line it takes.\n"
		    "\n"
		    "  keep   this as is\n"
		    "Next.");
	fclose(f);
	EXPECT_CONTAINS(buf, "\n\n         keep   this as is\n        Next.\n");
	for (char *l = buf, *e; (e = strchr(l, '\n')); l = e + 1) {
		if (e - l > FS_CLI_COLUMNS)
			FS_FAIL_AT("line of %d columns: %.*s", (int)(e - l), (int)(e - l), l);
		if (e > l)
			EXPECT_TRUE(!strncmp(l, "        ", 8));
	}
}

FS_TEST(release_valid_is_what_the_policy_map_can_read)
{
	EXPECT_TRUE(fs_release_valid("6.1.0-13-arm64"));
	EXPECT_TRUE(fs_release_valid("v5.4"));
	EXPECT_TRUE(fs_release_valid("5.10.198-android12-9"));
	EXPECT_TRUE(!fs_release_valid("garbage"));
	EXPECT_TRUE(!fs_release_valid("6"));
	EXPECT_TRUE(!fs_release_valid("0.9"));
	EXPECT_TRUE(!fs_release_valid(""));
	EXPECT_TRUE(!fs_release_valid(NULL));
}

FS_TEST(filter_lists_accumulate_and_count_what_they_kept)
{
	struct fs_filter f = { 0 };
	char why[128], buf[256];

	EXPECT_TRUE(!fs_filter_active(&f));
	EXPECT_TRUE(fs_filter_keep(&f, 1, 1, "x"));
	EXPECT_EQ(fs_filter_add_pids(&f, "10,20", why, sizeof(why)), 0);
	EXPECT_EQ(fs_filter_add_pids(&f, "30", why, sizeof(why)), 0);
	EXPECT_EQ(fs_filter_add_comms(&f, "surfaceflinger,RenderThread", why, sizeof(why)), 0);
	EXPECT_EQ(f.nr_pids, 3);
	EXPECT_EQ(f.nr_comms, 2);
	EXPECT_TRUE(fs_filter_keep(&f, 10, 10, "a"));
	EXPECT_TRUE(fs_filter_keep(&f, 11, 20, "b"));               /* a thread of process 20 */
	EXPECT_TRUE(fs_filter_keep(&f, 99, 99, "RenderThread"));
	EXPECT_TRUE(!fs_filter_keep(&f, 99, 99, "RenderThreadX"));
	EXPECT_TRUE(!fs_filter_keep(&f, 7, 0, "c"));
	fs_filter_describe(&f, buf, sizeof(buf));
	EXPECT_STR(buf, "--pid 10,20,30 --comm surfaceflinger,RenderThread");
	EXPECT_EQ(fs_filter_unmatched(&f, buf, sizeof(buf)), 2);
	EXPECT_STR(buf, "--pid 30, --comm surfaceflinger");
}

FS_TEST(filter_refuses_bad_items_naming_them)
{
	struct fs_filter f = { 0 };
	char why[128];

	EXPECT_EQ(fs_filter_add_pids(&f, "12,x", why, sizeof(why)), -1);
	EXPECT_STR(why, "--pid 'x': expected a positive pid");
	EXPECT_EQ(fs_filter_add_pids(&f, "0", why, sizeof(why)), -1);
	EXPECT_EQ(fs_filter_add_pids(&f, "3,,4", why, sizeof(why)), -1);
	EXPECT_CONTAINS(why, "an empty item");
	EXPECT_EQ(fs_filter_add_pids(&f, "99999999999", why, sizeof(why)), -1);
	EXPECT_EQ(fs_filter_add_comms(&f, "0123456789abcdef", why, sizeof(why)), -1);
	EXPECT_CONTAINS(why, "longer than a task's comm (15 characters)");
	EXPECT_EQ(fs_filter_add_comms(&f, "", why, sizeof(why)), -1);
	for (int i = 0; i < FS_MAX_FILTER; i++)
		EXPECT_EQ(fs_filter_add_comms(&f, "a", why, sizeof(why)), 0);
	EXPECT_EQ(fs_filter_add_comms(&f, "a", why, sizeof(why)), -1);
	EXPECT_CONTAINS(why, "at most 32 items");
}

/* Errors about an input file, in the words every command uses. */
FS_TEST(cli_input_file_says_what_is_wrong)
{
	char err[512], path[] = "/tmp/fs-cli-test-XXXXXX";
	int fd = mkstemp(path);

	ASSERT_TRUE(fd >= 0);
	EXPECT_EQ(fs_cli_input_file(path, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, ": is empty");
	EXPECT_EQ(write(fd, "x\n", 2), 2);
	EXPECT_EQ(fs_cli_input_file(path, err, sizeof(err)), 0);
	close(fd);
	unlink(path);
	EXPECT_EQ(fs_cli_input_file("/", err, sizeof(err)), -1);
	EXPECT_STR(err, "/: is a directory");
	EXPECT_EQ(fs_cli_input_file("/nonexistent.fsr", err, sizeof(err)), -1);
	EXPECT_STR(err, "/nonexistent.fsr: cannot open: No such file or directory");
	EXPECT_EQ(fs_cli_input_file("/dev/null", err, sizeof(err)), 0); /* a device or pipe is read as it comes */
	EXPECT_STR(fs_cli_past_path("a.em: cannot open: x", "a.em"), "cannot open: x");
	EXPECT_STR(fs_cli_past_path("a.emx: y", "a.em"), "a.emx: y");
	EXPECT_STR(fs_cli_past_path("profile 'p': no such", "p"), "profile 'p': no such");
}

// SPDX-License-Identifier: GPL-2.0
/* apps: packages.list lines to uid -> package, shared uids, other users, and one line per bad field. */
#include "test.h"
#include "engine/apps.h"

static const char LIST[] =
	"com.b 10123 0 /data/user/0/com.b default:targetSdkVersion=34 3003 0 1 1 @null\n"
	"android 1000 0 /data/system platform:privapp none 0 34 1 @system\n"
	"com.a 10123 1 /data/user/0/com.a default 3003,1065\n"
	"\n"
	"com.android.settings 1000 0 /data/user_de/0/com.android.settings platform 3002 0 34 1 @system\n"
	"com.android.phone 1000 0 /data/user_de/0/com.android.phone platform 3002 0 34 1 @system\n"
	"com.solo 10200 0 /data/user/0/com.solo default none\n";

FS_TEST(apps_labels_single_shared_and_other_users)
{
	struct fs_apps a;
	char err[256], b[128];

	ASSERT_TRUE(!fs_apps_parse(&a, LIST, sizeof(LIST) - 1, "p.list", err, sizeof(err)));
	EXPECT_EQ(a.nr, 6);
	EXPECT_TRUE(fs_apps_label(&a, 10200, b, sizeof(b)));
	EXPECT_STR(b, "com.solo");
	EXPECT_TRUE(fs_apps_label(&a, 1010200, b, sizeof(b)));
	EXPECT_STR(b, "com.solo (user 10)");
	EXPECT_TRUE(fs_apps_label(&a, 10123, b, sizeof(b)));
	EXPECT_STR(b, "shared:uid 10123 (com.a, com.b)");
	EXPECT_TRUE(fs_apps_label(&a, 1000, b, sizeof(b)));
	EXPECT_STR(b, "shared:uid 1000 (android, com.android.phone, com.android.settings)");
	/* too long for the room: the names that fit, then how many more */
	EXPECT_TRUE(fs_apps_label(&a, 1000, b, 45));
	EXPECT_STR(b, "shared:uid 1000 (android, +2)");
	EXPECT_TRUE(strlen(b) < 45);
	EXPECT_TRUE(!fs_apps_label(&a, 0, b, sizeof(b)));
	EXPECT_STR(b, "");
	EXPECT_TRUE(!fs_apps_label(&a, 10124, b, sizeof(b)));
	EXPECT_TRUE(!fs_apps_label(&a, ~0u, b, sizeof(b)));
	size_t n, i = fs_apps_find(&a, 2010123, &n);
	EXPECT_EQ(n, 2);
	EXPECT_STR(a.pkgs[i].name, "com.a");
	fs_apps_free(&a);
}

FS_TEST(apps_bad_lines_name_file_line_and_field)
{
	static const struct { const char *text, *want; } cases[] = {
		{ "com.a 10123 0 /data/a x\nnot a package\n", "p.list: line 2: uid: not an app id (0 .. 99999)" },
		{ "com.a\n", "p.list: line 1: uid: missing" },
		{ "com/a 10 0 /d\n", "p.list: line 1: name: not a package name" },
		{ " com.a 10 0 /d\n", "p.list: line 1: name: not a package name" },
		{ "com.a 100000 0 /d\n", "p.list: line 1: uid: not an app id (0 .. 99999)" },
		{ "com.a -1 0 /d\n", "p.list: line 1: uid: not an app id (0 .. 99999)" },
		{ "com.a 10 2 /d\n", "p.list: line 1: debug flag: not 0 or 1" },
		{ "com.a 10 0\n", "p.list: line 1: data directory: not a path" },
		{ "com.a 10 0 data\n", "p.list: line 1: data directory: not a path" },
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct fs_apps a;
		char err[256] = "";

		EXPECT_EQ(fs_apps_parse(&a, cases[k].text, strlen(cases[k].text), "p.list", err, sizeof(err)), -1);
		EXPECT_STR(err, cases[k].want);
		EXPECT_TRUE(!a.pkgs && !a.nr);
	}
}

FS_TEST(apps_empty_file_is_no_app)
{
	struct fs_apps a;
	char err[64], b[32];

	ASSERT_TRUE(!fs_apps_parse(&a, "", 0, "e", err, sizeof(err)));
	EXPECT_EQ(a.nr, 0);
	EXPECT_TRUE(!fs_apps_label(&a, 10000, b, sizeof(b)));
	fs_apps_free(&a);
	EXPECT_TRUE(!fs_apps_label(NULL, 10000, b, sizeof(b)));
}

// SPDX-License-Identifier: GPL-2.0
/* Policy registry, aliases, release mapping and explanations. */
#include "test.h"
#include "engine/policy.h"

FS_TEST(policy_registry_twins_point_back)
{
	EXPECT_EQ(fs_policy_count(), 22);
	EXPECT_TRUE(fs_policy_count() <= FS_MAX_POLICIES);
	for (int i = 0; i < fs_policy_count(); i++) {
		const struct fs_policy_desc *d = fs_policy_at(i), *t = fs_policy_find(d->twin);
		ASSERT_TRUE(t != NULL);
		EXPECT_STR(t->twin, d->name);
		EXPECT_TRUE(t->has_margin != d->has_margin);
	}
	EXPECT_STR(fs_policy_find("v4.20")->name, "v5.0"); /* feec arrived in v5.0 */
	EXPECT_TRUE(fs_policy_find("v9.9") == NULL);
}

FS_TEST(policy_for_release_nearest_earlier)
{
	char why[512];
	EXPECT_STR(fs_policy_for_release("6.1.0-13-arm64", why, sizeof(why))->name, "v6.1");
	EXPECT_STR(fs_policy_for_release("5.10.198-android12-9-g0123", why, sizeof(why))->name, "v5.10");
	EXPECT_CONTAINS(why, "5.10.198 -> v5.10");
	EXPECT_CONTAINS(why, "late 5.10.y");
	/* 5.5 - 5.9, 5.11 - 5.14 and 5.16 - 5.19 take the nearest earlier policy. */
	EXPECT_STR(fs_policy_for_release("5.9.1", why, sizeof(why))->name, "v5.4");
	EXPECT_STR(fs_policy_for_release("5.14.0-rc5", why, sizeof(why))->name, "v5.10");
	EXPECT_CONTAINS(why, "v5.14 candidate-PD base not modelled");
	EXPECT_STR(fs_policy_for_release("5.15.167-android13-8", why, sizeof(why))->name, "v5.15");
	EXPECT_STR(fs_policy_for_release("5.19.0", why, sizeof(why))->name, "v5.15");
	EXPECT_CONTAINS(why, "v5.16 inefficient states");
	EXPECT_STR(fs_policy_for_release("6.0.0", why, sizeof(why))->name, "v6.0");
	EXPECT_STR(fs_policy_for_release("6.18.44-fc", why, sizeof(why))->name, "v6.12");
	EXPECT_STR(fs_policy_for_release("5.3.1", why, sizeof(why))->name, "v5.0");
	EXPECT_STR(fs_policy_for_release("4.19.0", why, sizeof(why))->name, "v5.0");
	EXPECT_CONTAINS(why, "no EAS");
	EXPECT_STR(fs_policy_for_release("garbage", why, sizeof(why))->name, "v7.2");
	EXPECT_CONTAINS(why, "fell back");
}

/* 6.0 alone is v6.0; 6.1 - 6.5 the 6.1.y body, 6.6 - 6.11 v6.6, 6.12+ v6.12. */
FS_TEST(policy_for_release_6x_stable_map)
{
	static const char *const map[][2] = {
		{ "6.0.19", "v6.0" },            { "6.1.0-57-arm64", "v6.1" },
		{ "6.1.192", "v6.1" },           { "6.2.16", "v6.1" },
		{ "6.5.13", "v6.1" },            { "6.6.30-android15-8-g1", "v6.6" },
		{ "6.11.11", "v6.6" },           { "6.12.0", "v6.12" },
		{ "6.12.96", "v6.12" },          { "6.12.97", "v6.12.97" },
		{ "6.12.118+deb12-amd64", "v6.12.97" }, { "6.13.2", "v6.12" },
		{ "7.0.13", "v6.12" },           { "7.1.3", "v7.1" },
		{ "7.2.0", "v7.2" },             { "7.3.4+deb13-arm64", "v7.2" },
	};
	char why[512];

	for (int i = 0; i < (int)(sizeof(map) / sizeof(map[0])); i++)
		EXPECT_STR(fs_policy_for_release(map[i][0], why, sizeof(why))->name, map[i][1]);
	fs_policy_for_release("6.1.0-57-arm64", why, sizeof(why));
	EXPECT_CONTAINS(why, "6.1.0-57 -> v6.1: a distribution's ABI name");
	/* 6.1.0 itself has v6.0's feec (the policy table's v6.0 row says so), an rc of it too */
	EXPECT_STR(fs_policy_for_release("6.1.0", why, sizeof(why))->name, "v6.0");
	EXPECT_CONTAINS(why, "6.1.0 -> v6.0: nearest earlier policy (v6.0 follows it exactly, as does 6.1.0)");
	EXPECT_STR(fs_policy_for_release("6.1.0-rc7", why, sizeof(why))->name, "v6.0");
	EXPECT_STR(fs_policy_for_release("6.1.1", why, sizeof(why))->name, "v6.1");
	EXPECT_STR(fs_policy_for_release("5.15.0-91-generic", why, sizeof(why))->name, "v5.15");
	EXPECT_STR(fs_policy_for_release("6.12.0-1-amd64", why, sizeof(why))->name, "v6.12");
	/* The twins exist and are never what a release maps to. */
	EXPECT_STR(fs_policy_find("v6.1")->twin, "v6.1+margin");
	EXPECT_STR(fs_policy_find("v6.6")->twin, "v6.6+margin");
	EXPECT_TRUE(fs_policy_find("v6.6+margin")->has_margin);
	EXPECT_TRUE(!fs_policy_find("v6.1")->has_margin);
	EXPECT_STR(fs_policy_find("v6.12.97")->twin, "v6.12.97+margin");
	EXPECT_STR(fs_policy_find("v7.1")->twin, "v7.1+margin");
	EXPECT_TRUE(fs_policy_find("v7.2+margin")->has_margin);
	/* A stable tree after 6.13 may carry the backport: the note says how to tell. */
	fs_policy_for_release("6.18.44", why, sizeof(why));
	EXPECT_CONTAINS(why, "--policies v6.12,v6.12.97");
}

FS_TEST(policy_explain_margin_line)
{
	struct fs_feec_result r = { 0 };
	char buf[128];
	r.reason = FS_FEEC_MARGIN_KEPT;
	r.prev_delta = 468;
	r.best_delta = 356;
	r.threshold = 356;
	fs_feec_explain(&r, buf, sizeof(buf));
	EXPECT_STR(buf, "margin kept prev: saving 112 < threshold 356");
	EXPECT_STR(fs_feec_reason_name(FS_FEEC_FITS_RULE), "fits-rule");
}

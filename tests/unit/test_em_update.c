// SPDX-License-Identifier: GPL-2.0
/*
 * A runtime EM update (FS_REC_EM) in the pipeline: from that record on the
 * policies use the new table as read; with an EM that is not the kernel's it
 * is counted and ignored; a changed layout is refused. The wake-up is
 * test_em_as_read.c's: p (util 100) waking on big cpu2, every CPU idle; the
 * kernel put it on cpu2.
 */
#include <stdio.h>
#include "test.h"
#include "em_builders.h"
#include "pipeline.h"
#include "em/em_io.h"

static void em_record(struct fs_em_update *u, const struct fs_em *em, __u64 ts)
{
	FILE *f = fmemopen(u->text, sizeof(u->text), "w");

	fs_em_write(f, em);
	u->len = (__u32)ftell(f);
	fclose(f);
	u->hdr = (struct fs_rec_hdr){ FS_REC_EM, 0, (__u32)(offsetof(struct fs_em_update, text) + u->len), ts };
}

static struct fs_pipeline *pipe_of(const struct fs_em *em, bool emulate)
{
	struct fs_pipeline_opts o = { .em = em, .nr_policies = 1, .kernel_release = "6.18.0",
				      .emulate_eas = emulate };
	char err[256];
	struct fs_pipeline *p;

	o.policies[0] = fs_policy_find("v6.12");
	p = fs_pipeline_new(&o, err, sizeof(err));
	if (!p)
		fprintf(stderr, "    %s\n", err);
	return p;
}

FS_TEST(em_update_switches_the_tables_from_its_record_on)
{
	static struct fs_em em, dear;
	static struct fs_em_update u;
	struct fs_wakeup w;
	unsigned int util[4] = { 0, 0, 0, 0 };
	char err[256];

	fs_test_em_2pd_v6_9(&em);
	fs_test_wakeup(&w, &em, util, 2, 100);
	w.chosen_cpu = 2;
	struct fs_pipeline *p = pipe_of(&em, false);
	ASSERT_TRUE(p);
	/* registered table: little is cheaper, feec moves p off cpu2 */
	ASSERT_TRUE(fs_pipeline_feed(p, &w.hdr, err, sizeof(err)) == 0);
	EXPECT_EQ(fs_pipeline_stats(p)->pol[0].agree_kernel, 0);
	/* the driver made little dear: from here on feec keeps p on big */
	dear = em;
	dear.pd[0].ps[0].cost = dear.pd[0].ps[1].cost = 40000;
	em_record(&u, &dear, 2000);
	ASSERT_TRUE(fs_pipeline_feed(p, &u.hdr, err, sizeof(err)) == 0);
	w.hdr.ts_ns = 3000;
	ASSERT_TRUE(fs_pipeline_feed(p, &w.hdr, err, sizeof(err)) == 0);
	EXPECT_EQ(fs_pipeline_stats(p)->pol[0].agree_kernel, 1);
	EXPECT_EQ(fs_pipeline_stats(p)->em_updates, 1);
	/* a table of another shape is not a runtime update */
	dear.pd[1].ps[2].frequency = 2100000;
	em_record(&u, &dear, 4000);
	EXPECT_EQ(fs_pipeline_feed(p, &u.hdr, err, sizeof(err)), -1);
	EXPECT_STR(err, "record 4: em record at 4000 ns: a state's frequency differs from the run's EM "
			"(only power, cost and flags change at run time)");
	fs_pipeline_free(p);

	/* Emulated EAS (not the kernel's EM): the kernel's update does not apply. */
	p = pipe_of(&em, true);
	ASSERT_TRUE(p);
	dear.pd[1].ps[2].frequency = 2000000;
	em_record(&u, &dear, 2000);
	ASSERT_TRUE(fs_pipeline_feed(p, &u.hdr, err, sizeof(err)) == 0);
	ASSERT_TRUE(fs_pipeline_feed(p, &w.hdr, err, sizeof(err)) == 0);
	EXPECT_EQ(fs_pipeline_stats(p)->pol[0].agree_kernel, 0);
	EXPECT_EQ(fs_pipeline_stats(p)->em_updates, 1);
	fs_pipeline_free(p);
}

// SPDX-License-Identifier: GPL-2.0
/* Pipeline wiring: the recording holds every record before filters; counters; a balance migration ends the interval. */
#include <unistd.h>
#include "test.h"
#include "em_builders.h"
#include "pipeline.h"
#include "em/em_io.h"
#include "records/recording.h"

static struct fs_em em;

static struct fs_pipeline *mk(const char *rec, __s32 pid_filter, char *err)
{
	struct fs_pipeline_opts o = { .em = &em, .nr_policies = 2, .kernel_release = "5.4.0",
				      .emulate_eas = true };
	struct fs_rec_meta m = { .nr_cpus = em.nr_cpus, .em_is_kernel = false, .kernel_release = "5.4.0",
				 .em_text = (char *)"test EM\n", .em_len = 8 };
	if (pid_filter)
		o.filter.pid[o.filter.nr_pids++] = pid_filter;
	o.policies[0] = fs_policy_find("v5.4");
	o.policies[1] = fs_policy_find("v5.4-nomargin");
	if (rec && fs_output_recording(&o.outputs[o.nr_outputs++], rec, &m, err, 256))
		return NULL;
	return fs_pipeline_new(&o, err, 256);
}

FS_TEST(pipeline_records_before_filters_and_counts)
{
	char err[256], path[128];
	ASSERT_TRUE(fs_em_profile_build("pixel4", &em, err, sizeof(err)) == 0);
	snprintf(path, sizeof(path), "/tmp/fs_test_pipe_%d.fsr", (int)getpid());
	struct fs_pipeline *p = mk(path, 101, err);
	ASSERT_TRUE(p);
	struct fs_wakeup w;
	struct fs_lost l = { { FS_REC_LOST, 0, sizeof(l), 3000 }, 5 };
	struct fs_migrate m = { { FS_REC_MIGRATE, 0, sizeof(m), 4000 }, 101, 4, 0, FS_MIG_BALANCE, FS_NO_RUNTIME };
	fs_test_plain_wakeup(&w, &em, 101, 1000, 4);
	EXPECT_EQ(fs_pipeline_feed(p, &w.hdr, err, sizeof(err)), 0);
	fs_test_plain_wakeup(&w, &em, 202, 2000, 0);
	EXPECT_EQ(fs_pipeline_feed(p, &w.hdr, err, sizeof(err)), 0);
	EXPECT_EQ(fs_pipeline_feed(p, &l.hdr, err, sizeof(err)), 0);
	EXPECT_EQ(fs_pipeline_feed(p, &m.hdr, err, sizeof(err)), 0);
	const struct fs_stats *st = fs_pipeline_stats(p);
	EXPECT_EQ(st->records, 4);
	EXPECT_EQ(st->wakeups, 1);
	EXPECT_EQ(st->filtered, 1);
	EXPECT_EQ(st->lost, 5);
	EXPECT_EQ(st->migrations, 1);
	/* the migration at 4000 closed pid 101's interval: its energy is ΔP × 3000 ns, fixed from now on */
	fs_fj_t e_after_migrate = fs_pipeline_snapshot(p)->tot->energy_fj[1];
	struct fs_overutil ou = { { FS_REC_OVERUTIL, 0, sizeof(ou), 90000000 }, 0, 0 };
	EXPECT_EQ(fs_pipeline_feed(p, &ou.hdr, err, sizeof(err)), 0); /* moves last_ts far out */
	EXPECT_EQ(fs_pipeline_finish(p, err, sizeof(err)), 0);
	EXPECT_TRUE(fs_pipeline_snapshot(p)->tot->energy_fj[1] == e_after_migrate);
	fs_pipeline_free(p);

	struct fs_rec_meta meta;
	const struct fs_rec_hdr *h;
	struct fs_rec_reader *r = fs_rec_reader_open(path, &meta, err, sizeof(err));
	ASSERT_TRUE(r);
	EXPECT_STR(meta.kernel_release, "5.4.0");
	EXPECT_TRUE(!meta.em_is_kernel);
	int n = 0, rc;
	while ((rc = fs_rec_reader_next(r, &h, err, sizeof(err))) == 1)
		n++;
	EXPECT_EQ(rc, 0);
	EXPECT_EQ(n, 5); /* the filtered wake-up of pid 202 is in the recording */
	fs_rec_reader_close(r);
	fs_rec_meta_free(&meta);
	unlink(path);
}

FS_TEST(pipeline_rejects_bad_records)
{
	char err[256];
	ASSERT_TRUE(fs_em_profile_build("pixel4", &em, err, sizeof(err)) == 0);
	struct fs_pipeline *p = mk(NULL, 0, err);
	ASSERT_TRUE(p);
	struct fs_wakeup w;
	fs_test_plain_wakeup(&w, &em, 1, 1000, 4);
	w.prev_cpu = 9;
	EXPECT_EQ(fs_pipeline_feed(p, &w.hdr, err, sizeof(err)), -1);
	EXPECT_STR(err, "wake-up of pid 1 at 1000 ns: prev_cpu 9 out of range 0..7");
	fs_test_plain_wakeup(&w, &em, 1, 1000, 4);
	w.hdr.nr_cpus = 6;
	w.hdr.size = (__u32)fs_wakeup_size(6);
	EXPECT_EQ(fs_pipeline_feed(p, &w.hdr, err, sizeof(err)), -1);
	EXPECT_STR(err, "the EM has 8 CPUs but the recording has 6");
	struct fs_rec_hdr bad = { 12, 0, sizeof(bad), 5 };
	EXPECT_EQ(fs_pipeline_feed(p, &bad, err, sizeof(err)), -1);
	EXPECT_STR(err, "record 3: unknown record type 12");
	bad.type = FS_REC_EM;
	EXPECT_EQ(fs_pipeline_feed(p, &bad, err, sizeof(err)), -1);
	EXPECT_STR(err, "record 4: em record of 16 bytes (head 24, at most 61464)");
	fs_pipeline_free(p);
}

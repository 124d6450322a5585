// SPDX-License-Identifier: GPL-2.0
/*
 * Live's closed-loop verdict at intervals (pipeline.h, fs_pipeline_sim_job):
 * a job of the records so far, run apart from the pipeline and published,
 * is what the live view's snapshot shows; over all the records it is the
 * final answer, and the first line leads with it.
 */
#include <math.h>
#include "test.h"
#include "pipeline.h"
#include "em/em_io.h"
#include "records/recording.h"
#include "output/summary.h"

FS_TEST(sim_live_job_follows_the_records_and_ends_at_the_final_answer)
{
	char err[256], why[256], line[128];
	struct fs_rec_meta meta;
	struct fs_rec_reader *r = fs_rec_reader_open(fs_fixture("view/live.fsr"), &meta, err, sizeof(err));
	const struct fs_rec_hdr *h;
	struct fs_em em;
	int rc;
	__u64 n = 0;

	ASSERT_TRUE(r);
	ASSERT_TRUE(fs_em_parse_text(meta.em_text, meta.em_len, "live.fsr", &em, why, sizeof(why)) == 0);
	struct fs_pipeline_opts po = { .em = &em, .nr_policies = 2, .kernel_release = meta.kernel_release,
				       .emulate_eas = !meta.em_is_kernel, .sim_live = true };

	po.policies[0] = fs_policy_find("v6.12.97");
	po.policies[1] = fs_policy_find("v6.12.97+margin");
	struct fs_pipeline *p = fs_pipeline_new(&po, err, sizeof(err));

	ASSERT_TRUE(p);
	/* before any job: the first line says it is the per-decision figure */
	EXPECT_TRUE(fs_pipeline_snapshot(p)->sim == NULL);
	while ((rc = fs_rec_reader_next(r, &h, err, sizeof(err))) == 1) {
		EXPECT_EQ(fs_pipeline_feed(p, h, err, sizeof(err)), 0);
		if (++n == 1200) { /* half-way: an interval's job */
			struct fs_sim_job *j = fs_pipeline_sim_job(p);

			ASSERT_TRUE(j);
			EXPECT_EQ(fs_sim_job_run(j), 0);
			fs_pipeline_sim_publish(p, j);
			const struct fs_report *s = fs_pipeline_snapshot(p);

			ASSERT_TRUE(s->sim && s->sim->ran && s->sim->answer.nr_verdicts == 1);
			EXPECT_TRUE(s->sim->activations > 0 && s->sim->activations < 1418);
			fs_verdict_line(line, sizeof(line), s, 0);
			EXPECT_TRUE(!strstr(line, "per decision"));
		}
	}
	EXPECT_EQ(rc, 0);
	/* every record: the job's answer is the one finish gives */
	struct fs_sim_job *j = fs_pipeline_sim_job(p);

	ASSERT_TRUE(j);
	EXPECT_EQ(fs_sim_job_run(j), 0);
	fs_pipeline_sim_publish(p, j);
	const struct fs_report *s = fs_pipeline_snapshot(p);

	ASSERT_TRUE(s->sim && s->sim->ran);
	const __int128 live = s->sim->answer.v[0].delta_x;
	const double lo = s->sim->answer.v[0].lo;

	EXPECT_EQ(fs_pipeline_finish(p, err, sizeof(err)), 0);
	s = fs_pipeline_snapshot(p);
	EXPECT_TRUE(s->sim->answer.v[0].delta_x == live && s->sim->answer.v[0].lo == lo);
	EXPECT_TRUE(s->sim->activations == 1418);
	EXPECT_TRUE(fs_pipeline_sim_job(p) == NULL); /* none after finish */
	fs_pipeline_free(p);
	fs_rec_reader_close(r);
	fs_rec_meta_free(&meta);
}

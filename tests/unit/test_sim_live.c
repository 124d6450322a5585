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
#include "sim/closed_loop.h"
#include "sim/replicas.h"

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
	/* every record: the job's verdict is the one finish gives */
	struct fs_sim_job *j = fs_pipeline_sim_job(p);

	ASSERT_TRUE(j);
	EXPECT_EQ(fs_sim_job_run(j), 0);
	fs_pipeline_sim_publish(p, j);
	const struct fs_report *s = fs_pipeline_snapshot(p);

	ASSERT_TRUE(s->sim && s->sim->ran);
	const __int128 live = s->sim->answer.v[0].delta_x;
	const double lo = s->sim->answer.v[0].lo, hi = s->sim->answer.v[0].hi;

	EXPECT_EQ((int)s->sim->answer.v[0].replicas, 0); /* live's intervals: batch means alone */
	EXPECT_EQ(fs_pipeline_finish(p, err, sizeof(err)), 0);
	s = fs_pipeline_snapshot(p);
	/* the same verdict; the final interval adds the replicas' spread, so it holds live's */
	EXPECT_TRUE(s->sim->answer.v[0].delta_x == live);
	EXPECT_EQ((int)s->sim->answer.v[0].replicas, FS_SIM_REPLICAS);
	EXPECT_TRUE(s->sim->answer.v[0].lo <= lo && s->sim->answer.v[0].hi >= hi);
	EXPECT_TRUE(s->sim->activations == 1418);
	EXPECT_TRUE(fs_pipeline_sim_job(p) == NULL); /* none after finish */
	fs_pipeline_free(p);
	fs_rec_reader_close(r);
	fs_rec_meta_free(&meta);
}

/* NAN == NAN here: the same figure either way. */
static bool same_d(double a, double b)
{
	return a == b || (a != a && b != b);
}

static bool same_report(const struct fs_sim_report *a, const struct fs_sim_report *b)
{
	bool same = a->ran == b->ran && a->nr_policies == b->nr_policies && a->tasks == b->tasks &&
		    a->activations == b->activations && a->has_check == b->has_check &&
		    a->answer.nr_verdicts == b->answer.nr_verdicts && a->answer.nr_procs == b->answer.nr_procs;

	for (int i = 0; same && i < a->nr_policies; i++) {
		const struct fs_sim_policy_row *x = &a->pol[i], *y = &b->pol[i];

		same = same_d(x->energy, y->energy) && same_d(x->energy_mj, y->energy_mj) && x->busy_ns == y->busy_ns &&
		       x->wait_p50_ns == y->wait_p50_ns && x->wait_p99_ns == y->wait_p99_ns &&
		       x->done_p50_ns == y->done_p50_ns && x->done_p99_ns == y->done_p99_ns &&
		       x->migrations == y->migrations && x->overutilized_ns == y->overutilized_ns &&
		       a->answer.energy_x[i] == b->answer.energy_x[i];
	}
	for (int v = 0; same && v < a->answer.nr_verdicts; v++) {
		const struct fs_sim_verdict *x = &a->answer.v[v], *y = &b->answer.v[v];

		same = x->delta_x == y->delta_x && same_d(x->lo, y->lo) && same_d(x->hi, y->hi) && x->blocks == y->blocks &&
		       x->block_ns == y->block_ns && x->measurable == y->measurable;
	}
	for (size_t k = 0; same && k < a->answer.nr_procs; k++)
		same = a->answer.procs[k].tgid == b->answer.procs[k].tgid &&
		       !memcmp(a->answer.procs[k].energy_x, b->answer.procs[k].energy_x, sizeof(a->answer.procs[k].energy_x));
	return same && a->check.mig_sim == b->check.mig_sim && same_d(a->check.energy_sim, b->check.energy_sim) &&
	       !memcmp(a->check.busy_sim_ns, b->check.busy_sim_ns, sizeof(a->check.busy_sim_ns));
}

/* The records of live.fsr, each at an 8-byte offset as live keeps them. */
static size_t load_log(unsigned char **log, size_t **at, size_t *n, struct fs_rec_meta *meta, struct fs_em *em)
{
	char err[256], why[256];
	struct fs_rec_reader *r = fs_rec_reader_open(fs_fixture("view/live.fsr"), meta, err, sizeof(err));
	const struct fs_rec_hdr *h;
	size_t len = 0, cap = 8 << 20;

	*log = calloc(1, cap);
	*at = calloc(4096, sizeof(**at));
	*n = 0;
	if (!r || fs_em_parse_text(meta->em_text, meta->em_len, "live.fsr", em, why, sizeof(why)))
		return 0;
	while (fs_rec_reader_next(r, &h, err, sizeof(err)) == 1 && *n < 4095 && len + h->size + 8 < cap) {
		(*at)[(*n)++] = len;
		memcpy(*log + len, h, h->size);
		len += (h->size + 7) & ~(size_t)7;
	}
	(*at)[*n] = len;
	fs_rec_reader_close(r);
	return len;
}

/*
 * live's closed loop resumed from interval to interval (fs_sim_live_answer)
 * gives at each interval what the closed loop of every record so far gives,
 * with live.fsr cut at random records, under both physics, with the
 * self-check's policy among the run's and beside them.
 */
FS_TEST(sim_live_resumed_answer_equals_the_whole_window_at_random_intervals)
{
	static const char *const pairs[][2] = { { "v6.12.97", "v6.12.97+margin" }, { "v5.4", "v5.4-nomargin" } };
	struct fs_rec_meta meta;
	struct fs_em em;
	unsigned char *log;
	size_t *at, n, differ = 0, intervals = 0;
	__u64 seed = 0x11fe5eed;
	char err[256];
	struct fs_sim_resume_stats st, all = { 0 };

	ASSERT_TRUE(load_log(&log, &at, &n, &meta, &em) > 0 && n == 2466);
	em.cost_as_read = meta.em_is_kernel; /* as the pipeline has it */
	for (int round = 0; round < 4; round++) {
		const struct fs_policy_desc *pols[2] = { fs_policy_find(pairs[round / 2][0]), fs_policy_find(pairs[round / 2][1]) };
		const struct fs_sim_builder_opts bo = { .kernel_policy = fs_policy_for_release(meta.kernel_release, err, sizeof(err)),
							.emulate_eas = !meta.em_is_kernel };
		const struct fs_sim_run_in in = { .em = &em, .policies = pols, .nr_policies = 2, .kernel_policy = bo.kernel_policy,
						  .physics = round & 1 ? FS_SIM_DEVICE : FS_SIM_LAB, .rec_energy = NAN };
		struct fs_sim_live *l = fs_sim_live_new(&em, in.physics, &bo, err, sizeof(err));
		size_t done = 0;

		ASSERT_TRUE(l);
		for (size_t cut = 0; done < n; ) {
			struct fs_sim_report a, b;
			struct fs_sim_workload wl;
			struct fs_sim_builder *ref = fs_sim_builder_new_opts(&em, in.physics, &bo, err, sizeof(err));

			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			cut = done + 1 + seed % 400;
			cut = cut < n ? cut : n;
			ASSERT_TRUE(fs_sim_live_answer(l, log + at[done], at[cut] - at[done], &in, &a, err, sizeof(err)) == 0);
			for (size_t i = 0; i < cut; i++)
				ASSERT_TRUE(fs_sim_builder_feed(ref, (const void *)(log + at[i]), err, sizeof(err)) == 0);
			ASSERT_TRUE(fs_sim_builder_finish(ref, &wl, err, sizeof(err)) == 0);
			ASSERT_TRUE(fs_sim_closed_loop(&wl, &in, &b, err, sizeof(err)) == 0);
			differ += !same_report(&a, &b);
			intervals++;
			fs_sim_report_free(&a);
			fs_sim_report_free(&b);
			fs_sim_workload_free(&wl);
			done = cut;
		}
		fs_sim_live_stats(l, &st);
		all.sim_ns += st.sim_ns;
		all.whole_ns += st.whole_ns;
		all.runs += st.runs;
		all.from_start += st.from_start;
		fs_sim_live_free(l);
	}
	EXPECT_EQ(differ, 0);
	EXPECT_TRUE(intervals > 20);
	/* it resumed: not every run from t0, and less simulated than whole windows would */
	EXPECT_TRUE(all.from_start < all.runs && all.sim_ns < all.whole_ns);
	free(log);
	free(at);
	fs_rec_meta_free(&meta);
}

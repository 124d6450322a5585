// SPDX-License-Identifier: GPL-2.0
/*
 * The self-check on real recordings: tests/fixtures/view/live.fsr (an
 * 8-CPU arm64 lab guest, 4+3+1, kernel 6.12.118, rt-app under -icount) and
 * tests/fixtures/sim/ab-bigsmall-a1.fsr (the A/B lab's kernel A, Debian's
 * 6.1.192, 4+3+1 bigsmall under device physics and skew_tick=1, run 1):
 * the simulation of the recorded kernel's policy against what the
 * recording saw, held to what the machine's rules reach
 * (docs/simulation.md, "The self-check").
 */
#include <math.h>
#include "test.h"
#include "pipeline.h"
#include "em/em_io.h"
#include "sim/sim.h"
#include "sim/compare.h"
#include "records/recording.h"

/* Build both physics' workloads and the recording's CPU energy in one read. */
static void load_rec(const char *fixture, struct fs_em *em, struct fs_sim_workload *dev, struct fs_sim_workload *lab,
		     double *rec_energy, const struct fs_policy_desc **kp, __u64 *rec_ou_wakeups)
{
	char err[256], why[256];
	struct fs_rec_meta meta;
	struct fs_rec_reader *r = fs_rec_reader_open(fs_fixture(fixture), &meta, err, sizeof(err));
	const struct fs_rec_hdr *h;
	int rc;

	ASSERT_TRUE(r);
	ASSERT_TRUE(fs_em_parse_text(meta.em_text, meta.em_len, fixture, em, why, sizeof(why)) == 0);
	*kp = fs_policy_for_release(meta.kernel_release, why, sizeof(why));
	ASSERT_TRUE(*kp);
	struct fs_sim_builder_opts bo = { .kernel_policy = *kp, .emulate_eas = !meta.em_is_kernel };
	struct fs_sim_builder *bd = fs_sim_builder_new_opts(em, FS_SIM_DEVICE, &bo, err, sizeof(err));
	struct fs_sim_builder *bl = fs_sim_builder_new_opts(em, FS_SIM_LAB, &bo, err, sizeof(err));
	struct fs_pipeline_opts po = { .em = em, .nr_policies = 1, .kernel_release = meta.kernel_release,
				       .emulate_eas = !meta.em_is_kernel };

	po.policies[0] = *kp;
	struct fs_pipeline *p = fs_pipeline_new(&po, err, sizeof(err));

	ASSERT_TRUE(bd && bl && p);
	*rec_ou_wakeups = 0;
	while ((rc = fs_rec_reader_next(r, &h, err, sizeof(err))) == 1) {
		if (h->type == FS_REC_WAKEUP && (((const struct fs_wakeup *)h)->flags & FS_WAKE_OVERUTILIZED))
			(*rec_ou_wakeups)++;
		EXPECT_EQ(fs_pipeline_feed(p, h, err, sizeof(err)), 0);
		EXPECT_EQ(fs_sim_builder_feed(bd, h, err, sizeof(err)), 0);
		EXPECT_EQ(fs_sim_builder_feed(bl, h, err, sizeof(err)), 0);
	}
	EXPECT_EQ(rc, 0);
	EXPECT_EQ(fs_pipeline_finish(p, err, sizeof(err)), 0);
	*rec_energy = fs_sim_energy_of_fj(em, fs_pipeline_snapshot(p)->cpu.total_fj);
	EXPECT_EQ(fs_sim_builder_finish(bd, dev, err, sizeof(err)), 0);
	EXPECT_EQ(fs_sim_builder_finish(bl, lab, err, sizeof(err)), 0);
	fs_pipeline_free(p);
	fs_rec_reader_close(r);
	fs_rec_meta_free(&meta);
}

static void check_at(const struct fs_em *em, const struct fs_sim_workload *wl, const struct fs_policy_desc *kp,
		     enum fs_sim_physics ph, __u64 rate_limit_ns, double rec_energy, struct fs_sim_selfcheck *c,
		     __u64 *ou_wakeups)
{
	struct fs_sim_params prm = { .em = em, .policy = kp, .physics = ph, .sugov_rate_limit_ns = rate_limit_ns };
	struct fs_sim_result res;
	char err[256];

	ASSERT_TRUE(fs_sim_run(wl, &prm, &res, err, sizeof(err)) == 0);
	fs_sim_selfcheck(em, &wl->observed, rec_energy, &res, c);
	*ou_wakeups = res.overutilized_wakeups;
	fs_sim_result_free(&res);
}

static void check(const struct fs_em *em, const struct fs_sim_workload *wl, const struct fs_policy_desc *kp,
		  enum fs_sim_physics ph, double rec_energy, struct fs_sim_selfcheck *c, __u64 *ou_wakeups)
{
	check_at(em, wl, kp, ph, 0, rec_energy, c, ou_wakeups);
}

/*
 * What the rules reach on live.fsr (docs/simulation.md, "What it shows on
 * live.fsr"): the worst PD is big (cpu7), +50 % under DEVICE and +63 %
 * under LAB (the recording's physics); before the PELT attach at the rq's
 * present and the misfit pulled by a busy CPU with room it was +51 % and
 * +86 %, before the kernel's select_idle_capacity() fallback, the
 * first-bigger-CPU misfit push and the root balance interval +61 % and
 * +103 %; with an idle CPU's blocked load read as last updated (nohz.c) and
 * util_est's flag cleared at the enqueue's aging, +42 % and +73 %. The LAB
 * bound sits between +73 and +86 %, so the older rules fail it. Energy: within 10 % of the recording's CPU
 * energy since that weights the PDs' OPPs by busy time (cpu_energy.h);
 * with the wall-time util samples it was +69 % / +80 %, outside the bound.
 * DEVICE's work is the frequency estimate kept inside the bounds the tasks'
 * own PELT puts on it (work_pelt.c): -9 %, held within 10 %. Read as the
 * least work the util's growth allows it was -19 %: the kthreads preempted
 * for up to 1.2 s kept a fraction of their running in their util
 * (docs/simulation.md, "Work from the task's PELT").
 * Overutilized wake-ups, LAB: the recording's 777 against the machine's
 * 337, and big +81 %, since idle CPUs balance at their own deadlines
 * (balance.c): this kernel rewrote its flag once per 87 ms of idle CPU
 * time, the A/B lab's once per 16 ms, the deadline (docs/simulation.md,
 * "The balancer"), so the machine clears the flag sooner than this one
 * did. Before, with only the kicked and busy balances, 798 and +73 %:
 * 368 of its overutilized ticks had no CPU over. Held at what it is.
 */
FS_TEST(sim_selfcheck_on_live_fsr_holds_what_the_rules_reach)
{
	struct fs_sim_workload dev = { 0 }, lab = { 0 };
	const struct fs_policy_desc *kp = NULL;
	struct fs_sim_selfcheck cd, cl;
	double rec_energy = NAN;
	__u64 rec_ou = 0, ou_dev = 0, ou_lab = 0;
	struct fs_em em;

	load_rec("view/live.fsr", &em, &dev, &lab, &rec_energy, &kp, &rec_ou);
	check(&em, &dev, kp, FS_SIM_DEVICE, rec_energy, &cd, &ou_dev);
	check(&em, &lab, kp, FS_SIM_LAB, rec_energy, &cl, &ou_lab);
	EXPECT_TRUE(rec_ou > 0);
	EXPECT_TRUE(ou_lab >= rec_ou * 35 / 100 && ou_lab <= rec_ou * 125 / 100);
	EXPECT_EQ(cd.nr_pd, 3);
	EXPECT_TRUE(fabs(cd.busy_worst_pct) <= 55.0);
	EXPECT_TRUE(fabs(cl.busy_worst_pct) <= 85.0);
	/* LAB work is CPU time: the PDs' busy times add up to the recording's */
	EXPECT_EQ_U64(cl.busy_sim_ns[0] + cl.busy_sim_ns[1] + cl.busy_sim_ns[2],
		      cl.busy_obs_ns[0] + cl.busy_obs_ns[1] + cl.busy_obs_ns[2]);
	EXPECT_TRUE(fabs(cd.energy_pct) <= 10.0);
	EXPECT_TRUE(fabs(cl.energy_pct) <= 10.0);
	EXPECT_TRUE(!cd.reproduces && !cl.reproduces);
	fs_sim_workload_free(&dev);
	fs_sim_workload_free(&lab);
}

/*
 * The overutilized flag on the A/B lab's kernel A (bigsmall, half its
 * wake-ups overutilized): the recording's 1427 against the machine's 1408
 * (DEVICE, the lab's 10 ms schedutil rate limit). Idle CPUs balance at
 * their deadlines and a newly idle CPU rewrites the flag while rd->overload
 * is set, as 6.1.192 does (balance.c); with the kicked and busy balances
 * only, the machine had 2397 (+68 %). Held within 15 %.
 */
FS_TEST(sim_selfcheck_overutilized_on_ab_bigsmall)
{
	struct fs_sim_workload dev = { 0 }, lab = { 0 };
	const struct fs_policy_desc *kp = NULL;
	struct fs_sim_selfcheck cd;
	double rec_energy = NAN;
	__u64 rec_ou = 0, ou_dev = 0;
	struct fs_em em;

	load_rec("sim/ab-bigsmall-a1.fsr", &em, &dev, &lab, &rec_energy, &kp, &rec_ou);
	check_at(&em, &dev, kp, FS_SIM_DEVICE, 10000000ull, rec_energy, &cd, &ou_dev);
	EXPECT_TRUE(rec_ou > 1000);
	EXPECT_TRUE(ou_dev >= rec_ou * 85 / 100 && ou_dev <= rec_ou * 115 / 100);
	EXPECT_TRUE(fabs(cd.energy_pct) <= 5.0);
	fs_sim_workload_free(&dev);
	fs_sim_workload_free(&lab);
}

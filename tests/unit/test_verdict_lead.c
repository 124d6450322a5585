// SPDX-License-Identifier: GPL-2.0
/*
 * Which verdict leads (user/output/verdict_lead.c): the closed loop's, in
 * fJ, where the simulation ran; else the per-decision one, and the first
 * line says so.
 */
#include <math.h>
#include "test.h"
#include "output/verdict_lead.h"
#include "output/summary.h"

static const struct fs_policy_desc dm = { .name = "v5.4" }, dt = { .name = "v5.4-nomargin" };

struct lead_case {
	struct fs_stats st;
	struct fs_em em;
	struct fs_acct_totals tot;
	struct fs_verdict v;
	struct fs_sim_report sim;
	struct fs_report r;
};

/* A per-decision verdict of +4.5 mJ [0, 9] over 4 blocks; a simulation of -2 mJ [-3, -1] over 10 (mW EM). */
static void setup(struct lead_case *c)
{
	memset(c, 0, sizeof(*c));
	c->em.unit = FS_POWER_MW;
	c->st.nr_policies = 2;
	c->st.pol[0].desc = &dm;
	c->st.pol[1].desc = &dt;
	c->v = (struct fs_verdict){ .pol = 0, .twin = 1, .delta_fj = 4500000000000, .lo_fj = 0,
				    .hi_fj = 9000000000000, .units = 4, .block_ns = 10000000, .decisions = 3,
				    .differ = 3 };
	c->sim.ran = true;
	c->sim.activations = 10;
	c->sim.answer.nr_verdicts = 1;
	c->sim.answer.v[0] = (struct fs_sim_verdict){ .pol = 0, .twin = 1, .delta_x = -2000000000, .delta = -2,
						      .lo = -3, .hi = -1, .blocks = 10, .block_ns = 100000000,
						      .measurable = true };
	c->r = (struct fs_report){ .st = &c->st, .em = &c->em, .tot = &c->tot, .nr_verdicts = 1, .verdicts = &c->v,
				   .sim = &c->sim, .span_ns = 1000000000 };
	c->r.cpu.total_fj = (fs_fj_t)200000000000000; /* 200 mJ of CPU energy */
}

FS_TEST(verdict_lead_closed_loop_in_fj)
{
	struct lead_case c;
	struct fs_verdict V;
	const char *why;
	char line[128];

	setup(&c);
	ASSERT_TRUE(fs_verdict_lead(&c.r, 0, &V, &why));
	/* 1 mW x 1 ns = 1000 fJ: -2e9 mW ns = -2 mJ = -2e12 fJ */
	EXPECT_TRUE(V.delta_fj == -(fs_fj_t)2000000000000 && V.lo_fj == -(fs_fj_t)3000000000000);
	EXPECT_TRUE(V.hi_fj == -(fs_fj_t)1000000000000 && V.units == 10 && V.measurable);
	EXPECT_TRUE(V.decisions == 3 && V.differ == 3); /* the per-decision table's counts stay */
	fs_verdict_line(line, sizeof(line), &c.r, 0);
	EXPECT_STR(line, "margin costs -2.00 mJ (-3.00..-1.00) over 1.00 s (-2.0 mW, -1.0% of CPU energy)");
}

FS_TEST(verdict_lead_falls_back_and_says_so)
{
	struct lead_case c;
	struct fs_verdict V;
	const char *why;
	char line[128];

	setup(&c);
	c.sim.ran = false; /* --no-sim */
	EXPECT_TRUE(!fs_verdict_lead(&c.r, 0, &V, &why) && V.delta_fj == c.v.delta_fj);
	fs_verdict_line(line, sizeof(line), &c.r, 0);
	EXPECT_CONTAINS(line, "+4.50 mJ");
	EXPECT_CONTAINS(line, "per decision");
	setup(&c);
	c.sim.acts_unknown_work = 10; /* no CPU times: nothing was simulated */
	EXPECT_TRUE(!fs_verdict_lead(&c.r, 0, &V, &why));
	setup(&c);
	c.em.unit = FS_POWER_BOGO; /* no energy unit to put beside the per-decision figure */
	EXPECT_TRUE(!fs_verdict_lead(&c.r, 0, &V, &why));
	setup(&c);
	c.r.sim = NULL; /* live before its first job */
	EXPECT_TRUE(!fs_verdict_lead(&c.r, 0, &V, &why));
	EXPECT_STR(why, "not simulated yet");
}

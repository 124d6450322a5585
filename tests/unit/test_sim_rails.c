// SPDX-License-Identifier: GPL-2.0
/*
 * A trace's power rails against the model (user/sim/rails.c): the CPU
 * rule, the clusters, the match with the EM's PDs by capacity, each rail's
 * energy at the window's edges by hand, and the EM's energy of a PD.
 */
#include "test.h"
#include "em_builders.h"
#include "sim/rails.h"

FS_TEST(rails_cpu_rule)
{
	EXPECT_TRUE(fs_sim_rail_is_cpu("S4M_VDD_CPUCL0", "CPU(LITTLE)"));
	EXPECT_TRUE(fs_sim_rail_is_cpu("vdd_cpu_big", ""));
	EXPECT_TRUE(fs_sim_rail_is_cpu("power.rails.cpu.mid", ""));
	EXPECT_TRUE(fs_sim_rail_is_cpu("L9A", "cpu"));
	EXPECT_TRUE(!fs_sim_rail_is_cpu("S4M_VDD_CPUCL0_M", "CPU(LITTLE)")); /* the cluster's memory */
	EXPECT_TRUE(!fs_sim_rail_is_cpu("S2S_VDD_G3D", "GPU"));
	EXPECT_TRUE(!fs_sim_rail_is_cpu("power.rails.gpu", "Multimedia"));
	EXPECT_EQ(fs_sim_rail_cluster("S2M_VDD_CPUCL2", "CPU(BIG)"), 2);
	EXPECT_EQ(fs_sim_rail_cluster("S5M_VDD_CPUCL1", ""), 1);
	EXPECT_EQ(fs_sim_rail_cluster("power.rails.cpu.mid", ""), 1);
	EXPECT_EQ(fs_sim_rail_cluster("VDD_CPU", "CPU(BIG)"), 2);
	EXPECT_EQ(fs_sim_rail_cluster("VDD_CPU", "CPU"), -1);
}

/* A rail of n samples at ts[] (ms) with counters uws[]. */
static void rail(struct fs_power_rail *r, const char *name, const char *subsys, size_t n, const __u64 *ms,
		 const __u64 *uws, struct fs_rail_sample *s)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->subsys, sizeof(r->subsys), "%s", subsys);
	for (size_t i = 0; i < n; i++)
		s[i] = (struct fs_rail_sample){ ms[i] * 1000000, uws[i] };
	r->nr = n;
	r->s = s;
}

/*
 * The window [1000, 1300] ms. Rail a: samples at 900, 1000, 1100, 1400 ms;
 * E(1000) = 5000 (a sample there), E(1300) = 8000 + 3000 * 200 / 300 =
 * 10000: 5 mJ; its nearest samples 0 ms before (at the start), 100 after. Rail b: no sample before 1050:
 * it covers 1050 .. 1300 (E 100 -> 100 + 500 * 250 / 350 = 457.142857),
 * from_ns 50 ms. Rail c: one sample, after the window: none covered.
 */
FS_TEST(rails_window_by_hand)
{
	static const __u64 ms_a[] = { 900, 1000, 1100, 1400 }, uws_a[] = { 1000, 5000, 8000, 11000 };
	static const __u64 ms_b[] = { 1050, 1400 }, uws_b[] = { 100, 600 };
	static const __u64 ms_c[] = { 1500 }, uws_c[] = { 9 };
	struct fs_rail_sample sa[4], sb[2], sc[1];
	struct fs_power_rail r[3];
	struct fs_power_rails in = { .nr = 3, .rail = r };
	struct fs_sim_rails out;
	struct fs_em em;

	fs_test_em_2pd(&em);
	rail(&r[0], "S4M_VDD_CPUCL0", "", 4, ms_a, uws_a, sa);
	rail(&r[1], "S2M_VDD_CPUCL2", "", 2, ms_b, uws_b, sb);
	rail(&r[2], "VSYS_PWR_DISPLAY", "Display", 1, ms_c, uws_c, sc);
	fs_sim_rails_measure(&em, &in, 1000000000ull, 300000000ull, &out);
	ASSERT_TRUE(out.nr == 3);
	EXPECT_EQ(out.nr_cpu, 2);
	EXPECT_TRUE(out.matched);
	EXPECT_NEAR(out.rail[0].mj, 5.0);
	EXPECT_EQ(out.rail[0].before_ns, 0);
	EXPECT_EQ(out.rail[0].after_ns, 100000000);
	EXPECT_EQ_U64(out.rail[0].covered_ns, 300000000);
	EXPECT_EQ(out.rail[0].pd, 0);
	EXPECT_NEAR(out.rail[1].mj, 357.142857142857 / 1000.0);
	EXPECT_EQ(out.rail[1].before_ns, -1);
	EXPECT_EQ_U64(out.rail[1].from_ns, 50000000);
	EXPECT_EQ_U64(out.rail[1].covered_ns, 250000000);
	EXPECT_EQ(out.rail[1].pd, 1);
	EXPECT_TRUE(!out.rail[2].cpu && out.rail[2].pd == -1);
	EXPECT_EQ_U64(out.rail[2].covered_ns, 0);
	EXPECT_EQ(out.rail[2].before_ns, -1);
	EXPECT_EQ(out.rail[2].after_ns, 200000000);
}

/* The CPU rails stand for the PDs by capacity, not by the PDs' order; a third CPU rail breaks the match. */
FS_TEST(rails_match_by_capacity)
{
	static const __u64 ms[] = { 0, 1000 }, uws[] = { 0, 1000 };
	struct fs_rail_sample s[3][2];
	struct fs_power_rail r[3];
	struct fs_power_rails in = { .nr = 2, .rail = r };
	struct fs_sim_rails out;
	struct fs_em em;

	fs_test_em_2pd(&em);
	em.capacity[0] = em.capacity[1] = 1024; /* pd0 is the big one here */
	em.capacity[2] = em.capacity[3] = 512;
	rail(&r[0], "VDD_CPU_BIG", "", 2, ms, uws, s[0]);
	rail(&r[1], "VDD_CPU_LITTLE", "", 2, ms, uws, s[1]);
	fs_sim_rails_measure(&em, &in, 100000000ull, 500000000ull, &out);
	EXPECT_TRUE(out.matched);
	EXPECT_STR(out.rail[0].name, "VDD_CPU_LITTLE"); /* by cluster: little first */
	EXPECT_EQ(out.rail[0].pd, 1);
	EXPECT_EQ(out.rail[1].pd, 0);
	rail(&r[2], "VDD_CPU_MID", "", 2, ms, uws, s[2]);
	in.nr = 3;
	fs_sim_rails_measure(&em, &in, 100000000ull, 500000000ull, &out);
	EXPECT_TRUE(!out.matched);
	for (int i = 0; i < out.nr; i++)
		EXPECT_EQ(out.rail[i].pd, -1);
}

/*
 * The EM's energy of the traced busy time: pd0's CPUs ran 2 s at 500 MHz
 * (50 mW) and 1 s before any cpu_frequency (its top: 150 mW): 250 mJ;
 * the simulation's 3 s at 1000 MHz: 450 mJ.
 */
FS_TEST(rails_model_by_hand)
{
	struct fs_sim_observed obs = { 0 };
	struct fs_sim_result r = { 0 };
	double traced[FS_MAX_PDS] = { 0 }, sim[FS_MAX_PDS] = { 0 };
	struct fs_em em;

	fs_test_em_2pd(&em);
	obs.busy_ns[0] = 2000000000ull;
	obs.busy_ns[1] = 1000000000ull;
	obs.opp_busy_ns[0][0] = 2000000000ull;
	r.opp_busy_ns[0][1] = 3000000000ull;
	fs_sim_rails_model(&em, &obs, &r, traced, sim);
	EXPECT_NEAR(traced[0] * fs_sim_mj_per_unit(&em), 250.0);
	EXPECT_NEAR(sim[0] * fs_sim_mj_per_unit(&em), 450.0);
	EXPECT_NEAR(traced[1], 0.0);
}

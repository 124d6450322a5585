// SPDX-License-Identifier: GPL-2.0
/* The input probes (user/source/probe.c) and a trace's self-check (user/sim/trace_check.c), by hand. */
#include <math.h>
#include <string.h>
#include "test.h"
#include "em_builders.h"
#include "sim/trace_check.h"
#include "source/probe.h"

static enum fs_input_fmt fmt_of(const char *buf, size_t n)
{
	const struct fs_input_probe *p = fs_input_probe(buf, n);

	return p ? p->fmt : FS_IN_UNKNOWN;
}

/* Each format by its first bytes, whatever the name; the Perfetto slot takes nothing until its reader fills it. */
FS_TEST(probe_by_content)
{
	static const char rec[] = "\x89" "FSREC\r\n\x03\x00\x00\x00";
	static const char dat[] = "\x17\x08\x44tracing6\0\0\0";
	static const char text[] = "# tracer: nop\n#\n  sh-1 [000] d..2. 1.000000: sched_waking: comm=a pid=2 "
				   "prio=120 target_cpu=000\n";
	static const char report[] = "cpus=2\n";
	static const char csv[] = "# feecscope records\nts_ns,type\n";
	static const char gz[] = "\x1f\x8b\x08\x00";
	static const char bin[] = "\x0a\x05hello\x00\x01";

	EXPECT_EQ(fmt_of(rec, sizeof(rec) - 1), FS_IN_RECORDING);
	EXPECT_EQ(fmt_of(dat, sizeof(dat) - 1), FS_IN_TRACE_DAT);
	EXPECT_EQ(fmt_of(text, sizeof(text) - 1), FS_IN_TRACE_TEXT);
	EXPECT_EQ(fmt_of(report, sizeof(report) - 1), FS_IN_TRACE_TEXT);
	EXPECT_EQ(fmt_of(csv, sizeof(csv) - 1), FS_IN_RECORDS_CSV);
	EXPECT_EQ(fmt_of(gz, sizeof(gz) - 1), FS_IN_GZIP);
	EXPECT_EQ(fmt_of(bin, sizeof(bin) - 1), FS_IN_UNKNOWN);
	EXPECT_TRUE(fmt_of(dat, 5) != FS_IN_TRACE_DAT); /* a cut magic is no magic */
	EXPECT_EQ(fmt_of("", 0), FS_IN_RECORDS_CSV); /* empty: the CSV reader says so */
	EXPECT_TRUE(fs_input_probe(dat, sizeof(dat) - 1)->read != NULL);
	EXPECT_TRUE(fs_input_probe(rec, sizeof(rec) - 1)->read == NULL);
}

/* The OPP a cpu_frequency stands for: the lowest at or above it, else the top. */
FS_TEST(trace_check_opp_of_khz)
{
	struct fs_em em;

	fs_test_em_2pd(&em); /* big: 500, 1000, 2000 MHz */
	EXPECT_EQ(fs_sim_opp_of_khz(&em, 1, 400000), 0);
	EXPECT_EQ(fs_sim_opp_of_khz(&em, 1, 500000), 0);
	EXPECT_EQ(fs_sim_opp_of_khz(&em, 1, 700000), 1);
	EXPECT_EQ(fs_sim_opp_of_khz(&em, 1, 2000000), 2);
	EXPECT_EQ(fs_sim_opp_of_khz(&em, 1, 3000000), 2);
}

/*
 * Four activations: traced on cpu0 and cpu1, one without a traced CPU,
 * one fork. The simulation puts them on 0, 2, 1, 0: of the two both
 * placed (the fork left out), one agrees. OPPs: the trace ran little
 * 100 ns at 500 MHz, the simulation 100 ns at 1000: all apart.
 */
FS_TEST(trace_check_by_hand)
{
	struct fs_em em;
	struct fs_sim_act acts[4] = {
		{ .rec_cpu = 0 }, { .rec_cpu = 1 }, { .rec_cpu = -1 }, { .rec_cpu = 0, .flags = FS_SIM_ACT_FORK },
	};
	struct fs_sim_workload wl = { .nr_acts = 4, .acts = acts };
	__s32 act_cpu[4] = { 0, 2, 1, 0 };
	__s8 act_how[4] = { 0, 0, 0, 3 };
	struct fs_sim_result r = { .act_cpu = act_cpu, .act_how = act_how };
	struct fs_sim_trace_check c;

	fs_test_em_2pd(&em);
	wl.observed.opp_busy_ns[0][0] = 100;
	r.opp_busy_ns[0][1] = 100;
	r.opp_busy_ns[1][2] = 50; /* big: simulated but not traced */
	fs_sim_trace_check(&em, &wl, &r, &c);
	EXPECT_EQ_U64(c.placed, 2);
	EXPECT_EQ_U64(c.agree, 1);
	EXPECT_NEAR(c.agree_pct, 50.0);
	EXPECT_EQ(c.nr_pd, 2);
	EXPECT_TRUE(c.opp_known[0] && !c.opp_known[1]);
	EXPECT_NEAR(c.opp_pct[0], 100.0);
	EXPECT_NEAR(c.mhz_obs[0], 500.0);
	EXPECT_NEAR(c.mhz_sim[0], 1000.0);
	EXPECT_TRUE(isnan(c.opp_pct[1]) && isnan(c.mhz_obs[1]));
	EXPECT_NEAR(c.mhz_sim[1], 2000.0);
	/* the same residency: 0 % apart */
	r.opp_busy_ns[0][1] = 0;
	r.opp_busy_ns[0][0] = 300;
	fs_sim_trace_check(&em, &wl, &r, &c);
	EXPECT_NEAR(c.opp_pct[0], 0.0);
}

/*
 * PELT at the wake-up (pelt_apart()): of five activations, two count: a
 * traced 100 simulated 130 (+30) and a traced 200 simulated 150 (-50):
 * 40 apart on average, bias -10, traced mean 150. A fork, one the
 * simulation did not place and one without a traced util are left; the
 * high half of act_util (task_util_est()) is not the util_avg compared.
 */
FS_TEST(trace_check_pelt_apart_by_hand)
{
	struct fs_em em;
	struct fs_sim_act acts[5] = {
		{ .rec_cpu = 0, .flags = FS_SIM_ACT_UTIL_TRACED, .traced_util = 100 },
		{ .rec_cpu = 0, .flags = FS_SIM_ACT_UTIL_TRACED, .traced_util = 200 },
		{ .rec_cpu = 0, .flags = FS_SIM_ACT_UTIL_TRACED | FS_SIM_ACT_FORK, .traced_util = 900 },
		{ .rec_cpu = 0, .flags = FS_SIM_ACT_UTIL_TRACED, .traced_util = 900 },
		{ .rec_cpu = 0, .traced_util = 900 },
	};
	struct fs_sim_workload wl = { .nr_acts = 5, .acts = acts };
	__s32 act_cpu[5] = { 0, 1, 0, -1, 0 };
	__s8 act_how[5] = { 0, 0, 3, -1, 0 };
	__u32 act_util[5] = { 130 | 999u << 16, 150 | 999u << 16, 5, 5, 5 };
	struct fs_sim_result r = { .act_cpu = act_cpu, .act_how = act_how, .act_util = act_util };
	struct fs_sim_trace_check c;

	fs_test_em_2pd(&em);
	fs_sim_trace_check(&em, &wl, &r, &c);
	EXPECT_EQ_U64(c.util_n, 2);
	EXPECT_NEAR(c.util_mad, 40.0);
	EXPECT_NEAR(c.util_bias, -10.0);
	EXPECT_NEAR(c.util_traced_mean, 150.0);
	/* none traced: no figure */
	for (int i = 0; i < 5; i++)
		acts[i].flags &= ~FS_SIM_ACT_UTIL_TRACED;
	fs_sim_trace_check(&em, &wl, &r, &c);
	EXPECT_EQ_U64(c.util_n, 0);
	EXPECT_TRUE(isnan(c.util_mad) && isnan(c.util_bias));
}

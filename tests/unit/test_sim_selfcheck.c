// SPDX-License-Identifier: GPL-2.0
/*
 * The simulation's self-check (user/sim/selfcheck.c) on fabricated results:
 * the machine is not needed to check how its figures are compared and worded.
 */
#include <math.h>
#include "test.h"
#include "em_builders.h"
#include "sim/compare.h"

#define MS 1000000ull

static struct fs_em em;
static struct fs_sim_result res[1];
static struct fs_sim_observed obs;

/* Little (cpu0-1) 1000 ms busy, big (cpu2-3) 1000 ms; 100 migrations; simulated +2 % / -3 %, 112 moves. */
static void close_run(void)
{
	fs_test_em_2pd(&em);
	memset(&obs, 0, sizeof(obs));
	memset(res, 0, sizeof(res));
	obs.busy_ns[0] = 600 * MS;
	obs.busy_ns[1] = 400 * MS;
	obs.busy_ns[2] = 1000 * MS;
	obs.migrations = 100;
	res[0].busy_ns[0] = 1020 * MS;
	res[0].busy_ns[3] = 970 * MS;
	res[0].migrations_wakeup = 100;
	res[0].migrations_misfit = 10;
	res[0].migrations_newidle = 2;
	res[0].energy = 10.4;
}

FS_TEST(sim_selfcheck_reproduces)
{
	struct fs_sim_selfcheck c;
	char line[128];

	close_run();
	fs_sim_selfcheck(&em, &obs, 10.0, &res[0], &c);
	EXPECT_EQ_U64(c.busy_obs_ns[0], 1000 * MS);
	EXPECT_EQ_U64(c.busy_sim_ns[1], 970 * MS);
	EXPECT_NEAR(c.busy_pct[0], 2.0);
	EXPECT_EQ(c.worst_pd, 1);
	EXPECT_NEAR(c.busy_worst_pct, -3.0);
	EXPECT_EQ_U64(c.mig_sim, 112);
	EXPECT_NEAR(c.mig_pct, 12.0);
	EXPECT_NEAR(c.energy_pct, 4.0);
	EXPECT_TRUE(c.reproduces);
	/* migrations do not fit 80 columns beside energy: they go to the JSON */
	EXPECT_EQ(fs_sim_selfcheck_line(&c, &em, line, sizeof(line)), 79);
	EXPECT_STR(line, "simulation reproduces the recording: PD busy time within 3 %, energy within 4 %");
	/* without the recording's energy the migrations fit */
	fs_sim_selfcheck(&em, &obs, NAN, &res[0], &c);
	EXPECT_TRUE(c.reproduces);
	fs_sim_selfcheck_line(&c, &em, line, sizeof(line));
	EXPECT_STR(line, "simulation reproduces the recording: PD busy time within 3 %, migrations +12 %");
}

FS_TEST(sim_selfcheck_differs)
{
	struct fs_sim_selfcheck c;
	char line[128];

	close_run();
	res[0].busy_ns[3] = 1410 * MS;
	fs_sim_selfcheck(&em, &obs, 10.0, &res[0], &c);
	EXPECT_EQ(c.worst_pd, 1);
	EXPECT_TRUE(!c.reproduces);
	res[0].energy = 8.8;
	fs_sim_selfcheck(&em, &obs, 10.0, &res[0], &c);
	fs_sim_selfcheck_line(&c, &em, line, sizeof(line));
	EXPECT_STR(line, "simulation differs from the recording: busy time of PD big +41 %, energy -12 %");
	/* busy time within the bound but not energy: it does not reproduce the recording */
	close_run();
	res[0].energy = 11.0;
	fs_sim_selfcheck(&em, &obs, 10.0, &res[0], &c);
	EXPECT_TRUE(!c.reproduces);
	fs_sim_selfcheck_line(&c, &em, line, sizeof(line));
	EXPECT_STR(line, "simulation differs from the recording: PD busy time within 3 %, energy +10 %");
	/* nothing to compare */
	memset(&obs, 0, sizeof(obs));
	fs_sim_selfcheck(&em, &obs, NAN, &res[0], &c);
	EXPECT_EQ(c.worst_pd, -1);
	EXPECT_TRUE(!c.reproduces);
	fs_sim_selfcheck_line(&c, &em, line, sizeof(line));
	EXPECT_STR(line, "simulation: the recording has no CPU time to check it against");
}

/*
 * A recording whose EM was not the kernel's (EAS emulated): the recorded
 * kernel did not place with these rules, so the line says the check is not
 * a test of the kernel, never that the simulation reproduces it.
 */
FS_TEST(sim_selfcheck_eas_emulated_is_not_a_test_of_the_kernel)
{
	struct fs_sim_selfcheck c;
	char line[128];

	close_run();
	obs.eas_emulated = true;
	fs_sim_selfcheck(&em, &obs, 10.0, &res[0], &c);
	EXPECT_TRUE(c.eas_emulated);
	/* energy does not fit beside the longer lead: it is in the JSON */
	EXPECT_EQ(fs_sim_selfcheck_line(&c, &em, line, sizeof(line)), 71);
	EXPECT_STR(line, "simulation, EAS emulated (not a test of the kernel): PD busy within 3 %");
	res[0].busy_ns[3] = 1410 * MS;
	res[0].energy = 8.8;
	fs_sim_selfcheck(&em, &obs, 10.0, &res[0], &c);
	fs_sim_selfcheck_line(&c, &em, line, sizeof(line));
	EXPECT_STR(line, "simulation, EAS emulated (not a test of the kernel): PD busy +41 %, energy -12 %");
	obs.eas_emulated = false;
	fs_sim_selfcheck(&em, &obs, 10.0, &res[0], &c);
	fs_sim_selfcheck_line(&c, &em, line, sizeof(line));
	EXPECT_TRUE(strstr(line, "not a test") == NULL);
}

/* Long PD names and absurd figures: the line still keeps to 80 columns. */
FS_TEST(sim_selfcheck_line_fits_80_columns)
{
	struct fs_sim_selfcheck c;
	char line[256];
	static const double sim_ms[] = { 0.001, 1, 999, 1001, 1e6, 1e12 };
	static const double energies[] = { NAN, 1e-9, 10, 1e15 };

	close_run();
	strcpy(em.pd[1].name, "a-performance-domain-named-long");
	for (size_t i = 0; i < sizeof(sim_ms) / sizeof(sim_ms[0]); i++)
		for (size_t j = 0; j < sizeof(energies) / sizeof(energies[0]); j++) {
			res[0].busy_ns[3] = (__u64)(sim_ms[i] * MS);
			res[0].energy = energies[j];
			for (int emul = 0; emul < 2; emul++) {
				obs.eas_emulated = emul;
				fs_sim_selfcheck(&em, &obs, 10.0, &res[0], &c);
				int n = fs_sim_selfcheck_line(&c, &em, line, sizeof(line));

				EXPECT_TRUE(n <= 80);
				EXPECT_EQ(n, (int)strlen(line));
				EXPECT_CONTAINS(line, "PD");
				if (emul)
					EXPECT_CONTAINS(line, "not a test of the kernel");
			}
		}
}

FS_TEST(sim_energy_of_fj_in_the_ems_unit)
{
	fs_test_em_2pd(&em); /* mW */
	EXPECT_NEAR(fs_sim_energy_of_fj(&em, (fs_fj_t)1000000000000ll), 1.0); /* 1 mJ = 1 mW x s */
	em.unit = FS_POWER_UW;
	EXPECT_NEAR(fs_sim_energy_of_fj(&em, (fs_fj_t)1000000000000ll), 1000.0); /* 1000 µW x s */
}


/*
 * Against busyfreq records. The CPUs' own busy time: little 1100 ms (the
 * simulation's 1020 ms is -7.27 %), big 1000 ms (970: -3 %). Little's OPPs
 * recorded 800 / 300 ms (shares 0.727, 0.273), simulated 510 / 510 (0.5,
 * 0.5): half of |0.5 - 0.727| + |0.5 - 0.273| = 22.7 % apart. Big has no
 * known OPP: NAN, left out of the line.
 */
FS_TEST(sim_selfcheck_busyfreq)
{
	struct fs_sim_selfcheck c;
	char line[128];

	close_run();
	fs_sim_selfcheck(&em, &obs, 10.0, &res[0], &c);
	EXPECT_TRUE(!c.busyfreq);
	EXPECT_EQ(fs_sim_selfcheck_busyfreq_line(&c, &em, line, sizeof(line)), 0);
	obs.busyfreq = true;
	obs.rec_busy_ns[0] = 700 * MS;
	obs.rec_busy_ns[1] = 400 * MS;
	obs.rec_busy_ns[2] = 1000 * MS;
	obs.opp_busy_ns[0][0] = 800 * MS;
	obs.opp_busy_ns[0][1] = 300 * MS;
	res[0].opp_busy_ns[0][0] = 510 * MS;
	res[0].opp_busy_ns[0][1] = 510 * MS;
	res[0].opp_busy_ns[1][2] = 970 * MS;
	fs_sim_selfcheck(&em, &obs, 10.0, &res[0], &c);
	EXPECT_TRUE(c.busyfreq);
	EXPECT_EQ_U64(c.busy_bf_ns[0], 1100 * MS);
	EXPECT_NEAR(c.busy_bf_pct[0], (1020.0 - 1100.0) / 1100.0 * 100.0);
	EXPECT_NEAR(c.busy_bf_pct[1], -3.0);
	EXPECT_NEAR(c.opp_pct[0], (0.5 - 800.0 / 1100.0) * 100.0 * -1.0);
	EXPECT_TRUE(isnan(c.opp_pct[1]));
	EXPECT_TRUE(c.reproduces); /* the activations' figure decides it, as before */
	fs_sim_selfcheck_busyfreq_line(&c, &em, line, sizeof(line));
	EXPECT_STR(line, "against the CPUs' busy time: PD little -7 %, OPP residency of little 23 % apart");
}

// SPDX-License-Identifier: GPL-2.0
/*
 * schedutil's rate limit per PD (user/sim/sugov.c), the machine's settings
 * a recording keeps (records/rec_values.c, recording.c) and the collector's
 * reading of them (source/cpufreq_tunables.c), on hand-set state.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "test.h"
#include "em_builders.h"
#include "records/recording.h"
#include "sim/sim_internal.h"
#include "source/cpufreq_tunables.h"

#define MS 1000000ull

/* sim_sugov_update() on PD pd at t with every CPU of the PD at util u. */
static int update_at(struct sim *s, int pd, __u64 t, __u64 u)
{
	s->now = t;
	for (int c = 0; c < s->ncpu; c++)
		if (s->cpu[c].pd == pd)
			s->cpu[c].avg.util_avg = s->cpu[c].seen.util_avg = u; /* idle: read as last updated (nohz.c) */
	sim_sugov_update(s, pd);
	return s->pd[pd].opp;
}

/*
 * The 2-PD EM (little 0.5/1 GHz cap 512, big 0.5/1/2 GHz cap 1024), v6.12's
 * schedutil (target fmax x min(1.25 u, cap) / cap, the lowest OPP at or
 * above), big limited to one change per 10 ms, little not at all.
 * Big: t 0 u 100 -> 244 MHz: 0.5 GHz (a change: the first is free);
 * t 4 ms u 500 -> 1221 MHz wants 2 GHz, held (4 < 10 ms); t 10 ms: 2 GHz;
 * t 15 ms u 100 held at 2 GHz; t 20 ms u 300 -> 732 MHz: 1 GHz; t 30 ms
 * u 300 again: no change, so the last change stays at 20 ms
 * (sugov_update_next_freq() moves last_freq_update_time only on a change)
 * and t 31 ms u 500 may go to 2 GHz. Little: 0.5 GHz at t 0, 1 GHz 1 ns
 * later (u 400 -> 977 MHz).
 */
FS_TEST(sim_sugov_rate_limit_per_pd_hand_worked)
{
	static struct sim s;
	struct fs_sim_params p = { .physics = FS_SIM_DEVICE, .sugov_rate_limit_ns = 1 * MS };
	struct fs_em em;

	fs_test_em_2pd(&em);
	memset(&s, 0, sizeof(s));
	p.em = &em;
	p.pd_rate_limit_ns[0] = 0;
	p.pd_rate_limit_ns[1] = 10 * MS;
	p.pd_rate_limit_set = 0x3;
	s.em = &em;
	s.p = &p;
	s.ncpu = 4;
	sim_kernel_of(fs_policy_find("v6.12"), &s.k);
	for (int c = 0; c < 4; c++) {
		s.cpu[c].pd = em.cpu_pd[c];
		s.cpu[c].cap = em.capacity[c];
	}
	sim_sugov_init(&s);
	EXPECT_EQ(update_at(&s, 1, 0, 100), 0);
	EXPECT_EQ(update_at(&s, 1, 4 * MS, 500), 0);
	EXPECT_EQ(update_at(&s, 1, 10 * MS - 1, 500), 0);
	EXPECT_EQ(update_at(&s, 1, 10 * MS, 500), 2);
	EXPECT_EQ(update_at(&s, 1, 15 * MS, 100), 2);
	EXPECT_EQ(update_at(&s, 1, 20 * MS, 300), 1);
	EXPECT_EQ(update_at(&s, 1, 30 * MS, 300), 1);
	EXPECT_EQ_U64(s.pd[1].last_change_ns, 20 * MS);
	EXPECT_EQ(update_at(&s, 1, 31 * MS, 500), 2);
	EXPECT_EQ(update_at(&s, 0, 0, 100), 0);
	EXPECT_EQ(update_at(&s, 0, 1, 400), 1);
	/* without a PD's own, the run's one (1 ms) holds little */
	p.pd_rate_limit_set = 0x2;
	EXPECT_EQ(update_at(&s, 0, 1 * MS, 100), 1);
	EXPECT_EQ(update_at(&s, 0, 1 * MS + 1, 100), 0);
}

/* hz and cpufreq through a recording's header and back; a recording without them reads as unknown. */
FS_TEST(recording_keeps_hz_and_cpufreq_policies)
{
	char path[128], err[256];
	struct fs_rec_meta m = { .nr_cpus = 4, .hz = 250, .nr_cpufreq = 2 }, got;

	snprintf(path, sizeof(path), "/tmp/fs_test_rl_%d.fsr", (int)getpid());
	m.em_text = (char *)"pd 0 cpus 0-3\n";
	m.em_len = strlen(m.em_text);
	m.cpufreq[0] = (struct fs_rec_cpufreq){ .cpus = 0x3, .governor = "schedutil", .rate_limit_us = 10000 };
	m.cpufreq[1] = (struct fs_rec_cpufreq){ .cpus = 0xc, .governor = "performance", .rate_limit_us = -1 };
	struct fs_rec_writer *w = fs_rec_writer_open(path, &m, err, sizeof(err));
	ASSERT_TRUE(w && !fs_rec_writer_close(w, err, sizeof(err)));
	struct fs_rec_reader *r = fs_rec_reader_open(path, &got, err, sizeof(err));
	ASSERT_TRUE(r != NULL);
	EXPECT_EQ(fs_rec_reader_version(r), FS_REC_VERSION_PLAIN);
	EXPECT_EQ(got.hz, 250);
	EXPECT_EQ(got.nr_cpufreq, 2);
	EXPECT_EQ_U64(got.cpufreq[0].cpus, 0x3);
	EXPECT_STR(got.cpufreq[0].governor, "schedutil");
	EXPECT_EQ((int)got.cpufreq[0].rate_limit_us, 10000);
	EXPECT_STR(got.cpufreq[1].governor, "performance");
	EXPECT_EQ((int)got.cpufreq[1].rate_limit_us, -1);
	fs_rec_reader_close(r);
	fs_rec_meta_free(&got);
	m.hz = 0;
	m.nr_cpufreq = 0;
	w = fs_rec_writer_open(path, &m, err, sizeof(err));
	ASSERT_TRUE(w && !fs_rec_writer_close(w, err, sizeof(err)));
	r = fs_rec_reader_open(path, &got, err, sizeof(err));
	ASSERT_TRUE(r != NULL);
	EXPECT_EQ(got.hz, 0);
	EXPECT_EQ(got.nr_cpufreq, 0);
	fs_rec_reader_close(r);
	fs_rec_meta_free(&got);
	unlink(path);
}

/* Each bad value is refused with why naming it. */
FS_TEST(recording_machine_values_refused)
{
	static const char *const bad[][3] = {
		{ "hz", "0", "10..10000" }, { "hz", "250x", "10..10000" }, { "hz", "-250", "10..10000" },
		{ "cpufreq", "3:schedutil", "MASK:GOVERNOR" }, { "cpufreq", "0:schedutil:1", "CPU mask" },
		{ "cpufreq", "3:sched util:1", "want MASK" }, { "cpufreq", "3:a$b:1", "governor" },
		{ "cpufreq", "3:schedutil:-5", "rate limit" }, { "cpufreq", "3:schedutil:1  c:x:2", "empty item" },
		{ "cpufreq", "g3:schedutil:1", "CPU mask" },
	};
	char why[128];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct fs_rec_meta m = { 0 };

		why[0] = 0;
		EXPECT_EQ(fs_rec_machine_parse(bad[i][0], bad[i][1], &m, why, sizeof(why)), -1);
		EXPECT_CONTAINS(why, bad[i][2]);
	}
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/*
 * A sysfs tree: policy0 schedutil with its own rate limit, policy2 schedutil
 * without one (no governor_per_policy: the global directory's), policy3
 * performance; and CONFIG_HZ from a plain config when config.gz is absent.
 */
FS_TEST(cpufreq_tunables_per_policy_global_and_hz)
{
	char root[128], d[256];
	struct fs_rec_cpufreq c[4];

	snprintf(root, sizeof(root), "/tmp/fs_test_cft_%d", (int)getpid());
	const char *dirs[] = { "", "/cpufreq", "/cpufreq/policy0", "/cpufreq/policy0/schedutil", "/cpufreq/policy2",
			       "/cpufreq/policy3", "/cpufreq/schedutil" };
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(d, sizeof(d), "%s%s", root, dirs[i]);
		mkdir(d, 0755);
	}
	snprintf(d, sizeof(d), "%s/cpufreq/policy0", root);
	put(d, "related_cpus", "0 1\n");
	put(d, "scaling_governor", "schedutil\n");
	put(d, "schedutil/rate_limit_us", "500\n");
	snprintf(d, sizeof(d), "%s/cpufreq/policy2", root);
	put(d, "related_cpus", "2\n");
	put(d, "scaling_governor", "schedutil\n");
	snprintf(d, sizeof(d), "%s/cpufreq/policy3", root);
	put(d, "related_cpus", "3\n");
	put(d, "scaling_governor", "performance\n");
	snprintf(d, sizeof(d), "%s/cpufreq/schedutil", root);
	put(d, "rate_limit_us", "10000\n");
	ASSERT_TRUE(fs_cpufreq_tunables(root, c, 4) == 3);
	EXPECT_EQ_U64(c[0].cpus, 0x3);
	EXPECT_EQ((int)c[0].rate_limit_us, 500);
	EXPECT_EQ_U64(c[1].cpus, 0x4);
	EXPECT_EQ((int)c[1].rate_limit_us, 10000);
	EXPECT_STR(c[2].governor, "performance");
	EXPECT_EQ((int)c[2].rate_limit_us, -1);
	put(root, "config", "# CONFIG_HZ_100 is not set\nCONFIG_HZ_250=y\nCONFIG_HZ=250\n");
	snprintf(d, sizeof(d), "%s/config", root);
	char nogz[256];

	snprintf(nogz, sizeof(nogz), "%s/none.gz", root);
	EXPECT_EQ(fs_kernel_hz(nogz, d), 250);
	EXPECT_EQ(fs_kernel_hz(nogz, NULL), 0);
	put(root, "config", "CONFIG_HZ_250=y\n");
	EXPECT_EQ(fs_kernel_hz(nogz, d), 0);
	snprintf(d, sizeof(d), "rm -rf %s", root);
	EXPECT_EQ(system(d), 0);
}

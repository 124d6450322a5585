// SPDX-License-Identifier: GPL-2.0
/* The CPU-energy denominator (engine/cpu_energy.c): busy time and its floor. */
#include <string.h>
#include "test.h"
#include "em_builders.h"
#include "engine/cpu_energy.h"

static void cpustat(struct fs_cpustat *cs, int nr, __u64 busy0, __u64 busy1)
{
	memset(cs, 0, sizeof(*cs));
	cs->hdr.type = FS_REC_CPUSTAT;
	cs->nr_cpus = (__u32)nr;
	cs->source = FS_CPUSTAT_PROC_STAT;
	cs->busy_ns[0] = busy0;
	cs->busy_ns[1] = busy1;
}

/*
 * /proc/stat ticks that did not move (an idle VM) while a task ran 3 ms on
 * CPU 0: busy time is the task's 3 ms, not 0; CPU 1's 40 ms of ticks stand
 * above its 1 ms of task time. Energy at the util samples' one state:
 * little 500 MHz = 50 mW -> 3 ms x 50 mW = 150 uJ; CPU 1 (little too) 40 ms
 * x 50 mW = 2000 uJ; 2150 uJ = 2.15e12 fJ.
 */
FS_TEST(cpu_energy_busy_never_below_task_time)
{
	struct fs_em em;
	struct fs_cpu_energy ce;
	struct fs_cpustat a, b;
	struct fs_cpu_energy_result r;
	char why[128];
	__u64 run[FS_MAX_CPUS] = { 3000000, 1000000 };
	int state[FS_MAX_PDS] = { 0, 0 };

	fs_test_em_2pd(&em);
	fs_cpu_energy_init(&ce, &em);
	cpustat(&a, em.nr_cpus, 5000000000ull, 7000000000ull);
	cpustat(&b, em.nr_cpus, 5000000000ull, 7040000000ull);
	ASSERT_TRUE(fs_cpu_energy_cpustat(&ce, &a, why, sizeof(why)) == 0);
	ASSERT_TRUE(fs_cpu_energy_cpustat(&ce, &b, why, sizeof(why)) == 0);
	fs_cpu_energy_sample(&ce, 0, state);
	fs_cpu_energy_close(&ce, 1000000000ull);
	fs_cpu_energy_result(&ce, run, &r);
	EXPECT_EQ_U64(r.busy_ns[0], 3000000ull);
	EXPECT_EQ_U64(r.busy_ns[1], 40000000ull);
	EXPECT_EQ(r.busy_floored, 1);
	EXPECT_TRUE(r.total_fj == (fs_fj_t)2150000000000ll);
}

/*
 * Busy-time weighting. The little PD is sampled at 500 MHz (50 mW) from 0,
 * 1 GHz (150 mW) from 10 ms, 500 MHz from 20 ms; big stays at 500 MHz. A task
 * runs 10 ms on CPU 0 from its wake-up at 5 ms (5 ms at each state), another
 * 4 ms on CPU 1 from 18 ms (2 ms at each): 7 ms at each state, 100 mW.
 * Busy time (no cpustat: the tasks' CPU time) 14 ms x 100 mW = 1400 uJ. By
 * wall time the little PD spent 90 of 100 ms at 50 mW and 10 at 150: 60 mW,
 * 840 uJ. Big ran nothing: it costs nothing and names no source.
 */
FS_TEST(cpu_energy_weights_states_by_busy_time)
{
	static struct fs_cpu_energy ce; /* its step history is 256 KiB */
	struct fs_em em;
	struct fs_cpu_energy_result r;
	__u64 run[FS_MAX_CPUS] = { 10000000, 4000000 };
	int lo[FS_MAX_PDS] = { 0, 0 }, hi[FS_MAX_PDS] = { 1, 0 };

	fs_test_em_2pd(&em);
	fs_cpu_energy_init(&ce, &em);
	fs_cpu_energy_sample(&ce, 0, lo);
	fs_cpu_energy_sample(&ce, 10000000, hi);
	fs_cpu_energy_sample(&ce, 20000000, lo);
	fs_cpu_energy_busy(&ce, 0, 5000000, 10000000);
	fs_cpu_energy_busy(&ce, 1, 18000000, 4000000);
	fs_cpu_energy_close(&ce, 100000000);
	fs_cpu_energy_result(&ce, run, &r);
	EXPECT_EQ_U64(r.mean_power_uw[0], 100000ull);
	EXPECT_TRUE(r.total_fj == (fs_fj_t)1400000000000ll);
	EXPECT_TRUE(r.wall_total_fj == (fs_fj_t)840000000000ll);
	EXPECT_EQ(r.freq_src, FS_FREQ_BUSY_SAMPLES);
}

/*
 * The step history keeps the latest FS_CE_HIST changes: with 3000 steps 1 us
 * apart (500 MHz at even ones, 1 GHz at odd), 2 us from step 2500 on are 1 us
 * at each state; 2 us at step 100, long dropped, count nothing.
 */
FS_TEST(cpu_energy_busy_history_wraps)
{
	static struct fs_cpu_energy ce;
	struct fs_em em;

	fs_test_em_2pd(&em);
	fs_cpu_energy_init(&ce, &em);
	for (int i = 0; i < 3000; i++)
		fs_cpu_energy_sample_pd(&ce, 0, (__u64)i * 1000, i % 2);
	fs_cpu_energy_busy(&ce, 0, 100000, 2000);
	EXPECT_EQ_U64(ce.busy_state_ns[0][0] + ce.busy_state_ns[0][1], 0ull);
	fs_cpu_energy_busy(&ce, 0, 2500000, 2000);
	EXPECT_EQ_U64(ce.busy_state_ns[0][0], 1000ull);
	EXPECT_EQ_U64(ce.busy_state_ns[0][1], 1000ull);
	fs_cpu_energy_busy(&ce, 1, 2999000, 5000); /* past the last step: its state goes on */
	EXPECT_EQ_U64(ce.busy_state_ns[0][1], 6000ull);
}

static void busyfreq(struct fs_busyfreq *bf, int cpu, __u64 unknown_ns, int nr, const __u32 *khz, const __u64 *ns)
{
	memset(bf, 0, sizeof(*bf));
	bf->hdr.type = FS_REC_BUSYFREQ;
	bf->cpu = cpu;
	bf->nr = (__u32)nr;
	bf->unknown_ns = unknown_ns;
	for (int i = 0; i < nr; i++)
		bf->st[i] = (struct fs_freq_time){ .khz = khz[i], .ns = ns[i] };
}

/* The 2pd EM's CPUs 0-3 each given a first (all 0 but CPU 0's 1 ms at 500 MHz) and a last busyfreq. */
static void feed_busyfreq(struct fs_cpu_energy *ce, bool cpu3_last)
{
	static const __u32 lk[] = { 500000, 700000, 1000000 }, bk[] = { 500000, 1000000, 2000000 };
	static const __u64 z[3] = { 0 }, c0a[] = { 1000000, 0, 0 }, c0b[] = { 11000000, 0, 5000000 },
			   c1b[] = { 2000000, 4000000, 0 }, c2b[] = { 0, 0, 3000000 };
	struct fs_busyfreq bf;
	char why[128];

	busyfreq(&bf, 0, 0, 3, lk, c0a);
	ASSERT_TRUE(fs_cpu_energy_busyfreq(ce, &bf, why, sizeof(why)) == 0);
	busyfreq(&bf, 0, 0, 3, lk, c0b);
	ASSERT_TRUE(fs_cpu_energy_busyfreq(ce, &bf, why, sizeof(why)) == 0);
	busyfreq(&bf, 1, 0, 3, lk, z);
	ASSERT_TRUE(fs_cpu_energy_busyfreq(ce, &bf, why, sizeof(why)) == 0);
	busyfreq(&bf, 1, 0, 3, lk, c1b);
	ASSERT_TRUE(fs_cpu_energy_busyfreq(ce, &bf, why, sizeof(why)) == 0);
	busyfreq(&bf, 2, 0, 3, bk, z);
	ASSERT_TRUE(fs_cpu_energy_busyfreq(ce, &bf, why, sizeof(why)) == 0);
	busyfreq(&bf, 2, 0, 3, bk, c2b);
	ASSERT_TRUE(fs_cpu_energy_busyfreq(ce, &bf, why, sizeof(why)) == 0);
	busyfreq(&bf, 3, 0, 3, bk, z);
	ASSERT_TRUE(fs_cpu_energy_busyfreq(ce, &bf, why, sizeof(why)) == 0);
	if (cpu3_last)
		ASSERT_TRUE(fs_cpu_energy_busyfreq(ce, &bf, why, sizeof(why)) == 0);
}

/*
 * The meter's definition from busyfreq records. CPU 0: 10 ms at 500 MHz (50 mW)
 * and 5 ms at 1 GHz (150 mW) = 500 + 750 = 1250 uJ. CPU 1: 2 ms at 500 MHz and
 * 4 ms at 700 MHz, which the EM lacks: unknown, priced at the little PD's
 * power without busyfreq (util samples at 500 MHz: 50 mW), 6 ms x 50 mW =
 * 300 uJ. CPU 2: 3 ms at 2 GHz (1200 mW) = 3600 uJ. CPU 3: no busy time in
 * the records; its 2 ms of task CPU time do not raise it (the records hold
 * every switch out of idle; the tasks' time is counted over another window).
 * Total 5150 uJ; little's mean 1550 uJ / 21 ms = 73809 uW; big's 3600 uJ /
 * 3 ms = 1200000 uW.
 */
FS_TEST(cpu_energy_busyfreq_is_the_meters)
{
	static struct fs_cpu_energy ce;
	struct fs_em em;
	struct fs_cpu_energy_result r;
	__u64 run[FS_MAX_CPUS] = { 1000000, 1000000, 1000000, 2000000 };
	int lo[FS_MAX_PDS] = { 0, 0 };

	fs_test_em_2pd(&em);
	fs_cpu_energy_init(&ce, &em);
	fs_cpu_energy_sample(&ce, 0, lo);
	feed_busyfreq(&ce, true);
	fs_cpu_energy_close(&ce, 100000000);
	fs_cpu_energy_result(&ce, run, &r);
	EXPECT_EQ(r.busy_src, FS_BUSY_SWITCH);
	EXPECT_EQ(r.freq_src, FS_FREQ_BUSY_AT_FREQ_MIXED);
	EXPECT_EQ_U64(r.busy_ns[0], 15000000ull);
	EXPECT_EQ_U64(r.busy_ns[1], 6000000ull);
	EXPECT_EQ_U64(r.busy_ns[2], 3000000ull);
	EXPECT_EQ_U64(r.busy_ns[3], 0ull);
	EXPECT_EQ_U64(r.unknown_freq_ns, 4000000ull);
	EXPECT_EQ(r.busy_floored, 0);
	EXPECT_EQ_U64(r.mean_power_uw[0], 73809ull);
	EXPECT_EQ_U64(r.mean_power_uw[1], 1200000ull);
	EXPECT_TRUE(r.total_fj == (fs_fj_t)5150000000000ll);
}

/* A CPU with one busyfreq record only (the collector stopped reading): the denominator without them. */
FS_TEST(cpu_energy_busyfreq_needs_every_cpu)
{
	static struct fs_cpu_energy ce;
	struct fs_em em;
	struct fs_cpu_energy_result r;
	__u64 run[FS_MAX_CPUS] = { 1000000, 1000000, 1000000, 2000000 };
	int lo[FS_MAX_PDS] = { 0, 0 };

	fs_test_em_2pd(&em);
	fs_cpu_energy_init(&ce, &em);
	fs_cpu_energy_sample(&ce, 0, lo);
	feed_busyfreq(&ce, false);
	fs_cpu_energy_close(&ce, 100000000);
	fs_cpu_energy_result(&ce, run, &r);
	EXPECT_EQ(r.busy_src, FS_BUSY_TASK_RUNTIME);
	EXPECT_EQ(r.freq_src, FS_FREQ_UTIL_SAMPLES);
	/* the tasks' CPU time: 2 ms at 50 mW on little, 3 ms at 200 mW on big */
	EXPECT_TRUE(r.total_fj == (fs_fj_t)700000000000ll);
}

/* A busyfreq of a CPU the EM lacks, or with too many frequencies, is refused. */
FS_TEST(cpu_energy_busyfreq_bad_record)
{
	static struct fs_cpu_energy ce;
	struct fs_em em;
	struct fs_busyfreq bf;
	char why[128];

	fs_test_em_2pd(&em);
	fs_cpu_energy_init(&ce, &em);
	busyfreq(&bf, 4, 0, 0, NULL, NULL);
	EXPECT_TRUE(fs_cpu_energy_busyfreq(&ce, &bf, why, sizeof(why)) == -1);
	busyfreq(&bf, 0, 0, 0, NULL, NULL);
	bf.nr = FS_MAX_FREQS + 1;
	EXPECT_TRUE(fs_cpu_energy_busyfreq(&ce, &bf, why, sizeof(why)) == -1);
}

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

// SPDX-License-Identifier: GPL-2.0
/*
 * DEVICE work from the task's own PELT (user/sim/work_pelt.c), worked by hand
 * on the 2-PD test EM (little: capacity 512). A task on cpu0 wakes at 10 ms
 * and again at 110 ms; each record holds its sched_avg as its last update
 * left it (util_sum / (LOAD_AVG_MAX - 1024 + period_contrib) = util, the
 * divider 46718 with contrib 0) and the rq PELT clock then. With u_end =
 * u_start y^T + 1024 (1 - y^W), y^32 = 1/2, a period 1,048,576 ns:
 *   u 0 -> 512 over T = 100 periods:   1 - y^W = 1/2, W = 32 periods
 *   u 256 -> 576 over T = 64 periods:  256/4 = 64, (576 - 64)/1024 = 1/2: 32
 * so the activation's work is 32 x 1,048,576 = 33,554,432 ns, whatever the
 * 80 ms of CPU time at the estimated OPP would give (at most 40,000,000).
 * Where the record cannot tell it, the estimate stays: the task moved to
 * cpu1 (another rq's clock) or LAB physics. With 40 ms of CPU time the work
 * is capped at its CPU time at fmax: 40 ms x 512 / 1024 = 20,000,000.
 */
#include "test.h"
#include "em_builders.h"
#include "sim/sim.h"
#include "sim/work_pelt.h"

#define MS 1000000ull
#define PERIOD 1048576ull
#define DIVIDER 46718u

static struct fs_em em;

static void feed(struct fs_sim_builder *b, const void *rec)
{
	char err[256];

	if (fs_sim_builder_feed(b, rec, err, sizeof(err)))
		fprintf(stderr, "    feed: %s\n", err);
}

/* Task 30's wake-up at ts on cpu (prev and chosen), CPU time so far sum, its PELT util at lut. */
static void wake(struct fs_wakeup *w, __u64 ts, __u64 sum, int prev, int cpu, __u32 util, __u64 lut)
{
	static const unsigned int idle[FS_MAX_CPUS];

	fs_test_wakeup(w, &em, idle, prev, 0);
	w->hdr.ts_ns = ts;
	w->pid = w->tgid = 30;
	w->sum_exec_ns = sum;
	w->chosen_cpu = cpu;
	w->task.util_avg = util;
	w->task.util_sum = util * DIVIDER;
	w->task.period_contrib = 0;
	w->task.last_update_time = lut;
}

struct case_in {
	enum fs_sim_physics phys;
	__u32 u0, u1;
	__u64 span_periods, cpu_ns;
	int prev2;  /* the second wake-up's prev_cpu: where the first activation ran */
};

/* The first activation's work, and the number of activations PELT measured. */
static __u64 first_work(const struct case_in *c, __u64 *measured)
{
	char err[128];
	struct fs_sim_builder *b = fs_sim_builder_new(&em, c->phys);
	struct fs_sim_workload wl;
	struct fs_wakeup w;
	const __u64 lut = 5 * MS;

	wake(&w, 10 * MS, 0, 0, 0, c->u0, lut);
	feed(b, &w);
	wake(&w, 110 * MS, c->cpu_ns, c->prev2, c->prev2, c->u1, lut + c->span_periods * PERIOD);
	feed(b, &w);
	struct fs_task_time t = { { FS_REC_RUNTIME, 0, sizeof(t), 120 * MS }, 30, 30, c->cpu_ns + MS, "test" };

	feed(b, &t);
	if (fs_sim_builder_finish(b, &wl, err, sizeof(err))) {
		fprintf(stderr, "    finish: %s\n", err);
		return UINT64_MAX;
	}
	__u64 work = wl.nr_acts ? wl.acts[0].work : UINT64_MAX;

	*measured = wl.pelt_acts;
	fs_sim_workload_free(&wl);
	return work;
}

FS_TEST(sim_work_pelt_measures_an_activation_by_hand)
{
	struct case_in c = { FS_SIM_DEVICE, 0, 512, 100, 80 * MS, 0 };
	__u64 n;

	fs_test_em_2pd(&em);
	EXPECT_EQ_U64(first_work(&c, &n), 32 * PERIOD);
	EXPECT_EQ_U64(n, 1);
	c.u0 = 256;
	c.u1 = 576;
	c.span_periods = 64;
	EXPECT_EQ_U64(first_work(&c, &n), 32 * PERIOD);
	c.cpu_ns = 40 * MS;
	EXPECT_EQ_U64(first_work(&c, &n), 20 * MS);
}

FS_TEST(sim_work_pelt_leaves_what_it_cannot_tell)
{
	struct case_in c = { FS_SIM_DEVICE, 0, 512, 100, 80 * MS, 1 };
	__u64 n, w;

	fs_test_em_2pd(&em);
	w = first_work(&c, &n); /* moved to cpu1: another rq's clock */
	EXPECT_EQ_U64(n, 0);
	EXPECT_TRUE(w != 32 * PERIOD && w <= 40 * MS);
	c.prev2 = 0;
	c.phys = FS_SIM_LAB;
	EXPECT_EQ_U64(first_work(&c, &n), 80 * MS);
	EXPECT_EQ_U64(n, 0);
	c.phys = FS_SIM_DEVICE;
	c.u1 = 1010; /* at the ceiling: the growth is too flat to read */
	first_work(&c, &n);
	EXPECT_EQ_U64(n, 0);
}

/*
 * The kernel's PELT clock runs at its frequency scale rounded down,
 * (khz << 10) / fmax (topology_set_freq_scale(), drivers/base/arch_topology.c,
 * v6.1): the lab guest's little PD at 533 of 1844 MHz counts 295/1024 of the
 * time where the work is 545,792,000 / 1,844,000 = 295.98/1024. So the 32
 * periods the growth 0 -> 512 reads are 32 x 1,048,576 x 295.98 / 295 ns of
 * work (33,665,870), not 33,554,432: the lean the lab's trace check measured
 * (docs/traces.md, "Under device physics"). The estimate holds the lowest OPP
 * (the task's util 0 on idle CPUs); 80 ms x 462 / 1024 caps nothing here.
 */
FS_TEST(sim_work_pelt_undoes_the_kernels_rounded_frequency_scale)
{
	struct case_in c = { FS_SIM_DEVICE, 0, 512, 100, 80 * MS, 0 };
	const double fie = 533000.0 * 1024.0 / (295.0 * 1844000.0);
	__u64 n, w;

	fs_test_em_2pd(&em);
	em.pd[0].nr_ps = 0;
	fs_test_add_state(&em.pd[0], 533000, 50);
	fs_test_add_state(&em.pd[0], 1844000, 300);
	em.capacity[0] = em.capacity[1] = 462;
	EXPECT_EQ_U64(wp_freq_scale(533000, 1844000), 295);
	EXPECT_EQ_U64(wp_freq_scale(1844000, 1844000), 1024);
	w = first_work(&c, &n);
	EXPECT_EQ_U64(n, 1);
	EXPECT_EQ_U64(w, (__u64)(32 * PERIOD * fie + 0.5));
	EXPECT_TRUE(w > 32 * PERIOD);
}

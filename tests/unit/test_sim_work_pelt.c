// SPDX-License-Identifier: GPL-2.0
/*
 * DEVICE work bounded by the task's own PELT (user/sim/work_pelt.c), worked by
 * hand on the 2-PD test EM (little: capacity 512, OPPs 500 MHz and 1 GHz). A
 * task on cpu0 wakes at 10 ms and again at 110 ms; each record holds its
 * sched_avg as its last update left it (util_sum / (LOAD_AVG_MAX - 1024 +
 * period_contrib) = util, the divider 46718 with contrib 0; runnable_sum the
 * same) and the rq PELT clock then. y^32 = 1/2, a period 1,048,576 ns, D the
 * util's growth over 1024, R the runnable span read from runnable_sum's.
 * Run last, u_end = u_start y^T + 1024 (1 - y^W); run first and then wait,
 * u_end = u_start y^T + 1024 (1 - y^W) y^(R - W):
 *   u 0 -> 512, runnable 0 -> 512 over T = 100 periods: R = 32, both 32 periods
 *   u 256 -> 576, runnable the same, over T = 64: 256/4 = 64, (576 - 64)/1024
 *     = 1/2: R = 32, both 32
 * so the activation's work is 32 x 1,048,576 = 33,554,432 ns, whatever the
 * 80 ms of CPU time at the estimated OPP would give (the idle landscape asks
 * 500 MHz: 80 ms x 512/1024 x 1/2 = 20 ms; at most 40 ms at fmax). With 40 ms
 * of CPU time the work is capped at its CPU time at fmax, 20,000,000.
 *   A task that ran 32 periods and then waited 64 queued: u 0 -> 512 y^64 =
 *   128, runnable 0 -> 1024 (1 - y^96) = 896. Run last, 128 = 1024 (1 - y^W):
 *   W = -32 log2(7/8) = 6.1646 periods, 6,464,096 ns (what the work was read
 *   as before the bounds); R = 96, run first: 96 + 32 log2(1/8 + 1/8) = 32
 *   periods. The estimate, 20 ms, lies between: it stays.
 * Where the record cannot tell it, the estimate stays: the task moved to
 * cpu1 (another rq's clock) or LAB physics; where runnable_sum cannot tell
 * the span (0 before v5.7, or near 1024) the bound above is the CPU time at
 * fmax.
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

/* Task 30's wake-up at ts on cpu (prev and chosen), CPU time so far sum, its PELT util and runnable at lut. */
static void wake(struct fs_wakeup *w, __u64 ts, __u64 sum, int prev, int cpu, __u32 util, __u32 runnable, __u64 lut)
{
	static const unsigned int idle[FS_MAX_CPUS];

	fs_test_wakeup(w, &em, idle, prev, 0);
	w->hdr.ts_ns = ts;
	w->pid = w->tgid = 30;
	w->sum_exec_ns = sum;
	w->chosen_cpu = cpu;
	w->task.util_avg = util;
	w->task.util_sum = util * DIVIDER;
	w->task.runnable_avg = runnable;
	w->task.runnable_sum = (__u64)runnable * DIVIDER;
	w->task.period_contrib = 0;
	w->task.last_update_time = lut;
}

struct case_in {
	__u32 step_khz; /* 0, or the little PD's frequency step from 1 ms on (FS_REC_FREQ) */
	enum fs_sim_physics phys;
	__u32 u0, u1;
	__u64 span_periods, cpu_ns;
	int prev2;  /* the second wake-up's prev_cpu: where the first activation ran */
	__u32 r0, r1; /* runnable_avg at both ends */
};

/* The last first_work()'s activations whose steps' work stood against bounds that meet. */
static __u64 last_kept;

/* The first activation's work, and the number of activations PELT measured. */
static __u64 first_work(const struct case_in *c, __u64 *measured)
{
	char err[128];
	struct fs_sim_builder *b = fs_sim_builder_new(&em, c->phys);
	struct fs_sim_workload wl;
	struct fs_wakeup w;
	const __u64 lut = 5 * MS;
	struct fs_freq f = { { FS_REC_FREQ, 0, sizeof(f), MS }, 0, c->step_khz };

	if (c->step_khz)
		feed(b, &f);
	wake(&w, 10 * MS, 0, 0, 0, c->u0, c->r0, lut);
	feed(b, &w);
	wake(&w, 110 * MS, c->cpu_ns, c->prev2, c->prev2, c->u1, c->r1, lut + c->span_periods * PERIOD);
	feed(b, &w);
	struct fs_task_time t = { { FS_REC_RUNTIME, 0, sizeof(t), 120 * MS }, 30, 30, c->cpu_ns + MS, "test" };

	feed(b, &t);
	if (fs_sim_builder_finish(b, &wl, err, sizeof(err))) {
		fprintf(stderr, "    finish: %s\n", err);
		return UINT64_MAX;
	}
	__u64 work = wl.nr_acts ? wl.acts[0].work : UINT64_MAX;

	*measured = wl.pelt_acts;
	last_kept = wl.pelt_steps_kept;
	fs_sim_workload_free(&wl);
	return work;
}

FS_TEST(sim_work_pelt_measures_an_activation_by_hand)
{
	struct case_in c = { 0, FS_SIM_DEVICE, 0, 512, 100, 80 * MS, 0, 0, 512 };
	__u64 n;

	fs_test_em_2pd(&em);
	EXPECT_EQ_U64(first_work(&c, &n), 32 * PERIOD);
	EXPECT_EQ_U64(n, 1);
	c.u0 = c.r0 = 256;
	c.u1 = c.r1 = 576;
	c.span_periods = 64;
	EXPECT_EQ_U64(first_work(&c, &n), 32 * PERIOD);
	c.cpu_ns = 40 * MS;
	EXPECT_EQ_U64(first_work(&c, &n), 20 * MS);
}

/* Ran 32 periods, then waited 64: the util's growth reads 6.16 periods run last, 32 run first. */
FS_TEST(sim_work_pelt_keeps_the_estimate_between_its_bounds)
{
	struct case_in c = { 0, FS_SIM_DEVICE, 0, 128, 100, 80 * MS, 0, 0, 896 };
	__u64 n;

	fs_test_em_2pd(&em);
	EXPECT_EQ_U64(first_work(&c, &n), 20 * MS);
	EXPECT_EQ_U64(n, 1);
	c.r1 = 0; /* no runnable_sum (before v5.7): at most the CPU time at fmax */
	EXPECT_EQ_U64(first_work(&c, &n), 20 * MS);
	EXPECT_EQ_U64(n, 1);
	c.u1 = 512; /* run last it needs 32 periods: more than the estimate's 20 ms */
	EXPECT_EQ_U64(first_work(&c, &n), 32 * PERIOD);
	c.cpu_ns = 200 * MS; /* the estimate 50 ms; ran without a wait (R = 32): 32 periods */
	c.r1 = 512;
	EXPECT_EQ_U64(first_work(&c, &n), 32 * PERIOD);
	/*
	 * Runnable all of T = 32 (a fork's first activation): runnable 513 reads
	 * R = -32 log2(511/1024) = 32.09, a hair over T, taken as T: still 32.
	 */
	c.span_periods = 32;
	c.r1 = 513;
	EXPECT_EQ_U64(first_work(&c, &n), 32 * PERIOD);
}

/*
 * With the little PD's frequency recorded (a step to 1 GHz at 1 ms), the
 * 80 ms of CPU time at 1 GHz are 80 ms x 512/1024 = 40,000,000 ns of work.
 * Where the bounds meet (no wait: 32 periods) the steps' work stands;
 * where the task waited (bounds 6.46 and 32 periods apart) the clamp
 * still takes it to 32 periods, as without steps.
 */
FS_TEST(sim_work_pelt_bounds_that_meet_leave_the_steps_work)
{
	struct case_in c = { 1000000, FS_SIM_DEVICE, 0, 512, 100, 80 * MS, 0, 0, 512 };
	__u64 n;

	fs_test_em_2pd(&em);
	EXPECT_EQ_U64(first_work(&c, &n), 40 * MS);
	EXPECT_EQ_U64(n, 0);
	EXPECT_EQ_U64(last_kept, 1);
	c.u1 = 128;
	c.r1 = 896;
	EXPECT_EQ_U64(first_work(&c, &n), 32 * PERIOD);
	EXPECT_EQ_U64(n, 1);
	EXPECT_EQ_U64(last_kept, 0);
}

/* The bounds themselves, and where runnable_sum cannot give the upper one. */
FS_TEST(sim_work_pelt_bounds_by_hand)
{
	struct fs_wakeup w0, w1;
	struct wp_mark m;
	struct wp_range r = { 0, 0 };
	const __u64 lut = 5 * MS;

	fs_test_em_2pd(&em);
	wake(&w0, 10 * MS, 0, 0, 0, 0, 0, lut);
	wake(&w1, 110 * MS, 80 * MS, 0, 0, 128, 896, lut + 100 * PERIOD);
	wp_start(&w0, 0, &m);
	ASSERT_TRUE(m.ok);
	ASSERT_TRUE(wp_bounds(&m, &w1, 80 * MS, 512, 1.0, &r));
	EXPECT_TRUE(r.lo >= 6464095 && r.lo <= 6464097);
	EXPECT_TRUE(r.hi >= 32 * PERIOD - 1 && r.hi <= 32 * PERIOD + 1);
	w1.task.runnable_avg = 1010; /* near 1024: the span is not readable */
	w1.task.runnable_sum = 1010ull * DIVIDER;
	ASSERT_TRUE(wp_bounds(&m, &w1, 80 * MS, 512, 1.0, &r));
	EXPECT_EQ_U64(r.hi, 40 * MS);
	/*
	 * It waited before (runnable 512 at the start, util 0): 512 y^100 = 58.7
	 * of it left, so runnable 512 at the end reads R = -32 log2(1 - 453.3 /
	 * 1024) = 26.99, shorter than the 32 periods run: no wait, 32 both.
	 */
	w0.task.runnable_avg = 512;
	w0.task.runnable_sum = 512ull * DIVIDER;
	w1.task.util_avg = w1.task.runnable_avg = 512;
	w1.task.util_sum = w1.task.runnable_sum = 512ull * DIVIDER;
	wp_start(&w0, 0, &m);
	ASSERT_TRUE(wp_bounds(&m, &w1, 80 * MS, 512, 1.0, &r));
	EXPECT_TRUE(r.lo >= 32 * PERIOD - 1 && r.lo <= 32 * PERIOD + 1);
	EXPECT_EQ_U64(r.hi, r.lo);
	w0.task.runnable_avg = 0;
	w0.task.runnable_sum = 0;
	wp_start(&w0, 0, &m);
	w1.task.util_avg = 128;
	w1.task.util_sum = 128ull * DIVIDER;
	w1.task.runnable_avg = 100; /* runnable below util: not readable */
	w1.task.runnable_sum = 100ull * DIVIDER;
	ASSERT_TRUE(wp_bounds(&m, &w1, 80 * MS, 512, 1.0, &r));
	EXPECT_EQ_U64(r.hi, 40 * MS);
	EXPECT_TRUE(r.lo >= 6464095 && r.lo <= 6464097);
}

FS_TEST(sim_work_pelt_leaves_what_it_cannot_tell)
{
	struct case_in c = { 0, FS_SIM_DEVICE, 0, 512, 100, 80 * MS, 1, 0, 512 };
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
	struct case_in c = { 0, FS_SIM_DEVICE, 0, 512, 100, 80 * MS, 0, 0, 512 };
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

// SPDX-License-Identifier: GPL-2.0
/*
 * The energy answer worked by hand: recordings fed through the pipeline,
 * every figure derived below from the EM and the landscape alone.
 *
 * EM (fs_test_em_2pd, mW): little cpu0-1 capacity 512, 500 MHz 50 mW,
 * 1 GHz 150 mW; big cpu2-3 capacity 1024, 0.5/1/2 GHz 200/400/1200 mW.
 * Landscape: cpu0 250, cpu1 250, cpu2 690 + the task's 128, cpu3 819
 * (util_avg; no CPU is overutilized: 819 × 1280 < 1024 × 1024). The task
 * (util 128) last ran on cpu2.
 *
 * fs_system_power_uw (docs/power-estimate.md), in µW:
 *   task on cpu2: little m = 250, 1.25·m → 609 375 kHz: 1 GHz; P = 150 000 × 500/512 = 146 484
 *                 big m = 819, 1.25·m → 1 998 046 kHz: 2 GHz; P = 1 200 000 × (818+819)/1024 = 1 918 359
 *                 total 2 064 843
 *   task on cpu0: little m = 378 -> 1 GHz; P = 150 000 × (378+250)/512 = 183 984
 *                 big m = 819 -> 2 GHz; P = 1 200 000 × (690+819)/1024 = 1 768 359
 *                 total 1 952 343
 *   ΔP(cpu0 − cpu2) = −112 500 µW: 150 mW × 128/512 − 1200 mW × 128/1024.
 * v5.4 keeps the task on cpu2 (its margin: a saving below 6.25 % of the
 * whole system's energy), v5.4-nomargin moves it to cpu0.
 *
 * Share of time the task's utilization implies where it runs (1/β = cap·f / (u·fmax)):
 *   on cpu2 at 2 GHz: 1024 × 2 000 000 / (128 × 2 000 000) = 8
 *   on cpu0 at 1 GHz:  512 × 1 000 000 / (128 × 1 000 000) = 4
 */
#include "test.h"
#include "em_builders.h"
#include "pipeline.h"
#include "engine/verdict.h"

static struct fs_em em;
static const unsigned int land[4] = { 250, 250, 690, 819 };

static struct fs_pipeline *mk(void)
{
	char err[256];
	struct fs_pipeline_opts o = { .em = &em, .nr_policies = 2, .emulate_eas = true };

	fs_test_em_2pd(&em);
	o.policies[0] = fs_policy_find("v5.4");
	o.policies[1] = fs_policy_find("v5.4-nomargin");
	struct fs_pipeline *p = fs_pipeline_new(&o, err, sizeof(err));
	if (!p)
		fprintf(stderr, "    %s\n", err);
	return p;
}

/* The task wakes at ts having used sum_exec ns of CPU; the kernel puts it on chosen. */
static void wake(struct fs_pipeline *p, __u64 ts, __u64 sum_exec, int prev, int chosen)
{
	struct fs_wakeup w;
	char err[256];
	unsigned int u[4];

	memcpy(u, land, sizeof(u));
	if (prev != 2) { /* the task's utilization went with it */
		u[2] += 128;
		u[prev] -= 128;
	}
	fs_test_wakeup(&w, &em, u, prev, 128);
	w.hdr.ts_ns = ts;
	w.sum_exec_ns = sum_exec;
	w.chosen_cpu = chosen;
	if (fs_pipeline_feed(p, &w.hdr, err, sizeof(err)))
		FS_FAIL_AT("feed: %s", err);
}

static void task_time(struct fs_pipeline *p, enum fs_rec_type type, __u64 ts, __u64 sum_exec)
{
	struct fs_task_time t = { { (__u16)type, 0, sizeof(t), ts }, 100, 100, sum_exec, "test" };
	char err[256];

	if (fs_pipeline_feed(p, &t.hdr, err, sizeof(err)))
		FS_FAIL_AT("feed: %s", err);
}

static const struct fs_report *finish(struct fs_pipeline *p)
{
	char err[256];

	if (fs_pipeline_finish(p, err, sizeof(err)))
		FS_FAIL_AT("finish: %s", err);
	return fs_pipeline_snapshot(p);
}

/*
 * Periodic: 2 ms of CPU on cpu2 every 16 ms (the 1/8 its utilization says).
 * Each placement: r/β = 2 ms × 8 = 16 ms = the period: charged 16 ms.
 * nomargin: −112 500 µW × 16 ms = −1.8 mJ per placement; two placements (the
 * second ends at the CPU-time reading) → the margin costs +3.6 mJ.
 */
FS_TEST(answer_periodic_task_big_vs_little)
{
	struct fs_pipeline *p = mk();
	ASSERT_TRUE(p);
	wake(p, 1000000, 0, 2, 2);
	wake(p, 17000000, 2000000, 2, 2);
	task_time(p, FS_REC_RUNTIME, 33000000, 4000000);
	const struct fs_report *r = finish(p);
	ASSERT_TRUE(r && r->nr_verdicts == 1);
	EXPECT_EQ(r->st->pol[0].reasons[FS_FEEC_MARGIN_KEPT], 2);
	EXPECT_EQ(r->st->pol[1].reasons[FS_FEEC_MOVED], 2);
	EXPECT_TRUE(r->tot->energy_fj[1] == -(fs_fj_t)3600000000000ll);
	EXPECT_TRUE(r->verdicts[0].delta_fj == (fs_fj_t)3600000000000ll);
	EXPECT_EQ(r->verdicts[0].differ, 2);
	EXPECT_EQ_U64(r->tot->runtime_ns, 4000000);
	EXPECT_EQ_U64(r->tot->unresolved, 0);
	EXPECT_TRUE(!r->wall_time);
	fs_pipeline_free(p);
}

/*
 * The same task when the kernel follows the no-margin policy: it moves to
 * cpu0 and stays there (both policies then agree, Δ 0). Its first
 * placement ran 4 ms on cpu0 (twice the 2 ms on the big CPU, at half the
 * speed): r/β = 4 ms × 4 = 16 ms, −1.8 mJ. The verdict keeps its sign: the
 * margin costs +1.8 mJ, whichever policy the kernel follows.
 */
FS_TEST(answer_sign_does_not_follow_the_kernel)
{
	struct fs_pipeline *p = mk();
	ASSERT_TRUE(p);
	wake(p, 1000000, 0, 2, 0);
	wake(p, 17000000, 4000000, 0, 0);
	task_time(p, FS_REC_RUNTIME, 33000000, 8000000);
	const struct fs_report *r = finish(p);
	ASSERT_TRUE(r && r->nr_verdicts == 1);
	EXPECT_TRUE(r->verdicts[0].delta_fj == (fs_fj_t)1800000000000ll);
	EXPECT_EQ(r->verdicts[0].differ, 1);
	fs_pipeline_free(p);
}

/*
 * 1 ms of CPU, then 20 s asleep: r/β = 8 ms, plus one blocked-utilization
 * tail of 48 408 813 ns: 112 500 µW × 56 408 813 ns = 6 345 991 462 500 fJ
 * (the wall-time estimate charged 20 s: 2250 mJ).
 */
FS_TEST(answer_short_run_then_long_sleep)
{
	struct fs_pipeline *p = mk();
	ASSERT_TRUE(p);
	wake(p, 1000000, 0, 2, 2);
	wake(p, 20001000000ull, 1000000, 2, 2);
	task_time(p, FS_REC_RUNTIME, 20001000001ull, 1000000);
	const struct fs_report *r = finish(p);
	ASSERT_TRUE(r && r->nr_verdicts == 1);
	/* the second placement used no CPU: 0 × 8 + tail, capped by its 1 ns */
	EXPECT_TRUE(r->verdicts[0].delta_fj == (fs_fj_t)6345991462500ll + 112500);
	fs_pipeline_free(p);
}

/*
 * A task that exits 10 ms after its wake-up with 1 ms of CPU: r/β = 8 ms,
 * no tail: +0.9 mJ. Records after its exit add nothing to it, and a new
 * task by the same pid is another task.
 */
FS_TEST(answer_exited_task_costs_nothing_after_exit)
{
	struct fs_pipeline *p = mk();
	ASSERT_TRUE(p);
	wake(p, 1000000, 0, 2, 2);
	task_time(p, FS_REC_EXIT, 11000000, 1000000);
	task_time(p, FS_REC_RUNTIME, 500000000, 9000000); /* a reading after the exit: ignored */
	struct fs_overutil ou = { { FS_REC_OVERUTIL, 0, sizeof(ou), 900000000 }, 0, 0 };
	char err[256];
	EXPECT_EQ(fs_pipeline_feed(p, &ou.hdr, err, sizeof(err)), 0);
	const struct fs_report *r = finish(p);
	ASSERT_TRUE(r && r->nr_verdicts == 1);
	EXPECT_TRUE(r->verdicts[0].delta_fj == (fs_fj_t)900000000000ll);
	EXPECT_EQ(r->st->exits, 1);
	EXPECT_EQ_U64(r->tot->runtime_ns, 1000000);
	fs_pipeline_free(p);
}

/* Without a CPU-time reading at the end, the last placement is charged nothing and counted. */
FS_TEST(answer_nothing_past_the_last_cpu_time)
{
	struct fs_pipeline *p = mk();
	ASSERT_TRUE(p);
	wake(p, 1000000, 0, 2, 2);
	wake(p, 17000000, 2000000, 2, 2);
	struct fs_overutil ou = { { FS_REC_OVERUTIL, 0, sizeof(ou), 90000000000ull }, 0, 0 };
	char err[256];
	EXPECT_EQ(fs_pipeline_feed(p, &ou.hdr, err, sizeof(err)), 0);
	const struct fs_report *r = finish(p);
	ASSERT_TRUE(r && r->nr_verdicts == 1);
	EXPECT_TRUE(r->verdicts[0].delta_fj == (fs_fj_t)1800000000000ll);
	EXPECT_EQ_U64(r->tot->unresolved, 1);
	EXPECT_EQ_U64(r->tot->unresolved_ns, 90000000000ull - 17000000);
	fs_pipeline_free(p);
}

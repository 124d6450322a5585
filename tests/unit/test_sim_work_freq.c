// SPDX-License-Identifier: GPL-2.0
/*
 * The frequencies DEVICE work is derived at (user/sim/work_freq.c), worked
 * by hand on the 2-PD test EM (little: capacity 512, 500 and 1000 MHz): a
 * request held by schedutil's rate limit, and an idle CPU's blocked
 * utilization decayed by the enqueue before schedutil reads it. Each case
 * also runs without the rule, so the test fails where the rule is gone.
 */
#include "test.h"
#include "em_builders.h"
#include "sim/sim.h"

#define MS 1000000ull

static struct fs_em em;

/* pid's wake-up at ts on chosen (= prev), CPU time so far sum; every CPU idle, the task's util on prev. */
static void wake(struct fs_wakeup *w, __s32 pid, __u64 ts, __u64 sum, int cpu, unsigned int task_util)
{
	static const unsigned int idle[FS_MAX_CPUS];

	fs_test_wakeup(w, &em, idle, cpu, task_util);
	w->hdr.ts_ns = ts;
	w->pid = w->tgid = pid;
	w->sum_exec_ns = sum;
	w->chosen_cpu = cpu;
	w->uid = 1000;
}

static void feed(struct fs_sim_builder *b, const void *rec)
{
	char err[256];

	if (fs_sim_builder_feed(b, rec, err, sizeof(err)))
		fprintf(stderr, "    feed: %s\n", err);
}

static void reading(struct fs_sim_builder *b, __s32 pid, __u64 ts, __u64 sum)
{
	struct fs_task_time t = { { FS_REC_RUNTIME, 0, sizeof(t), ts }, pid, pid, sum, "test" };

	feed(b, &t);
}

/* pid's one activation's work (the workload's task of that pid). */
static __u64 work_of(const struct fs_sim_workload *wl, __s32 pid)
{
	for (int i = 0; i < wl->nr_tasks; i++)
		if (wl->tasks[i].pid == pid)
			return wl->acts[wl->tasks[i].first_act].work;
	return UINT64_MAX;
}

/*
 * Little at 500 MHz from 1 ms (task 10, util 40); task 11 (util 300: 1.25 x
 * 300 / 512 x 1000 = 732 MHz) takes it to 1000 MHz at 2 ms. Task 12 wakes
 * at 4 ms asking 500 MHz again: with a 10 ms limit that lands at 12 ms.
 * Task 12 runs 2 ms from 4 ms, task 13 (woken at 11 ms) 2 ms from 11 ms:
 *   limit 10 ms: 12: 2e6 x 512/1024 x 1000/1000                 = 1,000,000
 *                13: 1e6 x 512/1024 x 1000/1000 + 1e6 x .5 x .5 =   750,000
 *   no limit:    12 and 13: 2e6 x 512/1024 x 500/1000            =   500,000
 */
static void held_request(__u64 limit_ns, __u64 *w12, __u64 *w13)
{
	struct fs_sim_builder_opts bo = { .rate_limit_ns = { limit_ns, limit_ns } };
	char err[128];
	struct fs_sim_builder *b = fs_sim_builder_new_opts(&em, FS_SIM_DEVICE, &bo, err, sizeof(err));
	struct fs_sim_workload wl;
	struct fs_wakeup w;

	wake(&w, 10, 1 * MS, 0, 0, 40);
	feed(b, &w);
	wake(&w, 11, 2 * MS, 0, 1, 300);
	feed(b, &w);
	wake(&w, 12, 4 * MS, 0, 0, 40);
	feed(b, &w);
	wake(&w, 13, 11 * MS, 0, 0, 40);
	feed(b, &w);
	reading(b, 12, 20 * MS, 2 * MS);
	reading(b, 13, 20 * MS, 2 * MS);
	EXPECT_EQ(fs_sim_builder_finish(b, &wl, err, sizeof(err)), 0);
	*w12 = work_of(&wl, 12);
	*w13 = work_of(&wl, 13);
	fs_sim_workload_free(&wl);
}

FS_TEST(sim_work_freq_rate_limit_holds_a_request_by_hand)
{
	__u64 w12, w13;

	fs_test_em_2pd(&em);
	held_request(10 * MS, &w12, &w13);
	EXPECT_EQ_U64(w12, 1000000);
	EXPECT_EQ_U64(w13, 750000);
	held_request(0, &w12, &w13);
	EXPECT_EQ_U64(w12, 500000);
	EXPECT_EQ_U64(w13, 500000);
}

/*
 * Task 20 wakes at 100 ms on cpu1, idle since its PELT clock read 39 ms
 * (cpu0, updated at the wake-up, shows the clock 3 ms ahead of the
 * records'): 64 ms = 61 PELT periods of decay take its util_avg 400 to
 * 400 y^61 = 106, and 1.25 x 106 / 512 x 1000 = 259 MHz: 500 MHz, where
 * the landscape's 400 asks 977 MHz: 1000. Task 20 runs 2 ms:
 *   decayed:   2e6 x 512/1024 x 500/1000  =   500,000
 *   undecayed: 2e6 x 512/1024 x 1000/1000 = 1,000,000
 * With a task queued there (util_est 360) cpu1 is busy: no decay.
 */
static __u64 after_idle(unsigned int util_est)
{
	char err[128];
	struct fs_sim_builder *b = fs_sim_builder_new(&em, FS_SIM_DEVICE);
	struct fs_sim_workload wl;
	struct fs_wakeup w;

	wake(&w, 20, 100 * MS, 0, 1, 40);
	w.cpu[1].util_avg = 400;
	w.cpu[1].util_est = util_est;
	w.cpu[1].cfs_last_update_time = 39 * MS;
	w.cpu[0].cfs_last_update_time = 103 * MS;
	feed(b, &w);
	reading(b, 20, 110 * MS, 2 * MS);
	EXPECT_EQ(fs_sim_builder_finish(b, &wl, err, sizeof(err)), 0);
	const __u64 work = work_of(&wl, 20);

	fs_sim_workload_free(&wl);
	return work;
}

FS_TEST(sim_work_freq_enqueue_decays_an_idle_cpus_util_by_hand)
{
	fs_test_em_2pd(&em);
	EXPECT_EQ_U64(after_idle(0), 500000);
	EXPECT_EQ_U64(after_idle(360), 1000000);
}

/*
 * A suspend of 10 s between two wake-ups: BOOTTIME counts it, the rq clock
 * does not, so the records' clock runs 10 s ahead from then on. Task 20 wakes
 * at 10.1 s on cpu1, idle for 2 ms of the rq clock (1 PELT period: 400 y =
 * 391, 1.25 x 391 / 512 x 1000 = 955 MHz: 1000): 2e6 x 512/1024 = 1,000,000.
 * Taken with the offset from before the suspend, cpu1 would seem idle for
 * 10 s, its util gone, the PD at 500 MHz: 500,000.
 */
FS_TEST(sim_work_freq_clock_offset_restarts_after_a_suspend)
{
	char err[128];
	struct fs_sim_workload wl;
	struct fs_wakeup w;

	fs_test_em_2pd(&em);
	struct fs_sim_builder *b = fs_sim_builder_new(&em, FS_SIM_DEVICE);

	wake(&w, 21, 100 * MS, 0, 0, 40);
	w.cpu[0].cfs_last_update_time = 103 * MS;
	feed(b, &w);
	wake(&w, 20, 10100 * MS, 0, 1, 40);
	w.cpu[1].util_avg = 400;
	w.cpu[1].util_est = 0;
	w.cpu[1].cfs_last_update_time = 101 * MS;
	w.cpu[0].cfs_last_update_time = 103 * MS;
	feed(b, &w);
	reading(b, 20, 10110 * MS, 2 * MS);
	EXPECT_EQ(fs_sim_builder_finish(b, &wl, err, sizeof(err)), 0);
	EXPECT_EQ_U64(work_of(&wl, 20), 1000000);
	fs_sim_workload_free(&wl);
}

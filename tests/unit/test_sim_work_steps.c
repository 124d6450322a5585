// SPDX-License-Identifier: GPL-2.0
/*
 * DEVICE work at a recording's frequency steps (FS_REC_FREQ,
 * user/sim/work_steps.c), worked by hand on the 2-PD test EM (little: CPUs
 * 0-1, capacity 512, 500 and 1000 MHz; big: CPUs 2-3, capacity 1024, 500,
 * 1000 and 2000 MHz); the same recording without them keeps the estimate.
 */
#include <string.h>
#include "test.h"
#include "em_builders.h"
#include "sim/sim.h"
#include "sim/work_steps.h"

#define MS 1000000ull

static struct fs_em em;

static int feed(struct fs_sim_builder *b, const void *rec, char *err, size_t errlen)
{
	int rc = fs_sim_builder_feed(b, rec, err, errlen);

	if (rc)
		fprintf(stderr, "    feed: %s\n", err);
	return rc;
}

/* pid's wake-up at ts on cpu (prev and chosen), CPU time 0 so far; every CPU idle, the task's util on cpu. */
static void wake(struct fs_sim_builder *b, __s32 pid, __u64 ts, int cpu, unsigned int task_util)
{
	static const unsigned int idle[FS_MAX_CPUS];
	struct fs_wakeup w;
	char err[256];

	fs_test_wakeup(&w, &em, idle, cpu, task_util);
	w.hdr.ts_ns = ts;
	w.pid = w.tgid = pid;
	w.sum_exec_ns = 0;
	w.chosen_cpu = cpu;
	w.uid = 1000;
	feed(b, &w, err, sizeof(err));
}

static void reading(struct fs_sim_builder *b, __s32 pid, __u64 ts, __u64 sum)
{
	struct fs_task_time t = { { FS_REC_RUNTIME, 0, sizeof(t), ts }, pid, pid, sum, "test" };
	char err[256];

	feed(b, &t, err, sizeof(err));
}

static void step(struct fs_sim_builder *b, __u64 ts, int cpu, __u32 khz)
{
	struct fs_freq f = { { FS_REC_FREQ, 0, sizeof(f), ts }, cpu, khz };
	char err[256];

	feed(b, &f, err, sizeof(err));
}

/* CPU 0's busyfreq at ts: all its busy time at 500 MHz, cumulative. */
static void busyfreq(struct fs_sim_builder *b, __u64 ts, __u64 ns500)
{
	struct fs_busyfreq bf;
	char err[256];

	memset(&bf, 0, sizeof(bf));
	bf.hdr = (struct fs_rec_hdr){ FS_REC_BUSYFREQ, 0, sizeof(bf), ts };
	bf.nr = 2;
	bf.st[0] = (struct fs_freq_time){ .khz = 500000, .ns = ns500 };
	bf.st[1] = (struct fs_freq_time){ .khz = 1000000, .ns = 0 };
	feed(b, &bf, err, sizeof(err));
}

static __u64 work_of(const struct fs_sim_workload *wl, __s32 pid)
{
	for (int i = 0; i < wl->nr_tasks; i++)
		if (wl->tasks[i].pid == pid)
			return wl->acts[wl->tasks[i].first_act].work;
	return UINT64_MAX;
}

struct got {
	__u64 w[4]; /* tasks 10 - 13 */
	__u64 step_segs, bf_segs;
};

/*
 * Task 13 (util 40) wakes on CPU 0 at 0.2 ms, before the little PD's first
 * step, and runs 2 ms: the estimate's 500 MHz, 2e6 x 512/1024 x 500/1000 =
 * 500,000. Steps: the little PD at 1000 MHz from 0.5 ms (its record names
 * CPU 0), at 500 MHz from 2 ms (CPU 1: the same PD). Task 10 (util 40:
 * estimated 500 MHz) wakes on CPU 0 at 1 ms and runs 2 ms: 1 ms at 1000 and
 * 1 ms at 500, (1e6 + 0.5e6) x 512/1024 = 750,000 (estimated 500,000).
 * Task 11 (util 300: estimated 1.25 x 300 / 512 x 1000 = 732 MHz, so 1000)
 * wakes at 5 ms and runs 2 ms at 500: 2e6 x 0.5 x 0.5 = 500,000 (estimated
 * 1,000,000). Task 12 (util 40) on CPU 2, a PD without steps, keeps the
 * estimate: 2e6 x 1024/1024 x 500/2000 = 500,000. Busyfreq records around
 * them say CPU 0 ran 4 ms at 500 MHz: they correct the estimated stretches
 * only (task 13's).
 */
static void run(bool with_steps, enum fs_sim_physics ph, struct got *g)
{
	char err[128];
	struct fs_sim_builder *b = fs_sim_builder_new(&em, ph);
	struct fs_sim_workload wl;

	busyfreq(b, MS / 10, 0);
	wake(b, 13, MS / 5, 0, 40);
	if (with_steps)
		step(b, MS / 2, 0, 1000000);
	wake(b, 10, 1 * MS, 0, 40);
	wake(b, 12, 1 * MS, 2, 40);
	if (with_steps)
		step(b, 2 * MS, 1, 500000);
	wake(b, 11, 5 * MS, 0, 300);
	reading(b, 13, 10 * MS, 2 * MS);
	reading(b, 10, 10 * MS, 2 * MS);
	reading(b, 11, 10 * MS, 2 * MS);
	reading(b, 12, 10 * MS, 2 * MS);
	busyfreq(b, 20 * MS, 4 * MS);
	/* live's snapshot of the builder gives the same work as its finish */
	EXPECT_EQ(fs_sim_builder_snapshot(b, &wl, err, sizeof(err)), 0);
	__u64 snap10 = work_of(&wl, 10), snap11 = work_of(&wl, 11);

	fs_sim_workload_free(&wl);
	EXPECT_EQ(fs_sim_builder_finish(b, &wl, err, sizeof(err)), 0);
	EXPECT_EQ_U64(snap10, work_of(&wl, 10));
	EXPECT_EQ_U64(snap11, work_of(&wl, 11));
	for (int i = 0; i < 4; i++)
		g->w[i] = work_of(&wl, 10 + i);
	g->step_segs = wl.step_segs;
	g->bf_segs = wl.bf_segs;
	fs_sim_workload_free(&wl);
}

FS_TEST(sim_work_steps_take_each_stretch_at_its_frequency_by_hand)
{
	struct got g;

	fs_test_em_2pd(&em);
	run(true, FS_SIM_DEVICE, &g);
	EXPECT_EQ_U64(g.w[0], 750000);
	EXPECT_EQ_U64(g.w[1], 500000);
	EXPECT_EQ_U64(g.w[2], 500000);
	EXPECT_EQ_U64(g.step_segs, 2);
	/* task 13 alone was estimated on CPU 0: the busyfreq records' 500 MHz is its estimate's */
	EXPECT_EQ_U64(g.w[3], 500000);
	EXPECT_EQ_U64(g.bf_segs, 1);
}

FS_TEST(sim_work_steps_none_leaves_the_estimate)
{
	struct got g;

	fs_test_em_2pd(&em);
	run(false, FS_SIM_DEVICE, &g);
	EXPECT_EQ_U64(g.step_segs, 0);
	EXPECT_EQ_U64(g.bf_segs, 3);
	/* the estimate's 500, 1000 and 500 MHz on CPU 0, 2 ms each, scaled by busyfreq's 500 over their mean 666.7 */
	EXPECT_EQ_U64(g.w[0], 375000);
	EXPECT_EQ_U64(g.w[1], 750000);
	EXPECT_EQ_U64(g.w[3], 375000);
	EXPECT_EQ_U64(g.w[2], 500000);
	/* LAB work is CPU time: the steps leave it */
	run(true, FS_SIM_LAB, &g);
	EXPECT_EQ_U64(g.w[0], 2 * MS);
	EXPECT_EQ_U64(g.w[1], 2 * MS);
	EXPECT_EQ_U64(g.step_segs, 0);
}

/* A step naming a CPU outside the EM: one line naming the record and the field. */
FS_TEST(sim_work_steps_bad_cpu)
{
	char err[256];
	struct fs_sim_builder *b;
	struct fs_freq f = { { FS_REC_FREQ, 0, sizeof(f), 7 }, 4, 500000 };

	fs_test_em_2pd(&em);
	b = fs_sim_builder_new(&em, FS_SIM_DEVICE);
	EXPECT_EQ(fs_sim_builder_feed(b, &f.hdr, err, sizeof(err)), -1);
	EXPECT_STR(err, "workload: record 1 (freq at 7 ns): policy_cpu 4 at 500000 kHz: CPUs 0..3, a frequency above 0");
	fs_sim_builder_free(b);
}

/* A step at 0 kHz: the same line as a CPU outside the EM (the record checks refuse it first). */
FS_TEST(sim_work_steps_bad_khz)
{
	char err[256];
	struct fs_sim_builder *b;
	struct fs_freq f = { { FS_REC_FREQ, 0, sizeof(f), 7 }, 2, 0 };

	fs_test_em_2pd(&em);
	b = fs_sim_builder_new(&em, FS_SIM_DEVICE);
	EXPECT_EQ(fs_sim_builder_feed(b, &f.hdr, err, sizeof(err)), -1);
	EXPECT_STR(err, "workload: record 1 (freq at 7 ns): policy_cpu 2 at 0 kHz: CPUs 0..3, a frequency above 0");
	fs_sim_builder_free(b);
}

/*
 * A step older than the line's last (time going back) counts from the last
 * step on, so the line stays in time order: over [4, 12) ms, 6 ms at 500 MHz
 * and 2 ms at the late 2000, 7e12 kHz ns (kept where it came, at 5 ms, the
 * line would step back from 10 to 5 ms and the stretch would wrap).
 */
FS_TEST(sim_work_steps_late_step_counts_from_the_last)
{
	struct ws_line l = { 0 };
	unsigned __int128 khz_ns, scale_ns;

	ASSERT_TRUE(ws_add(&l, 0, 500000) == 0);
	ASSERT_TRUE(ws_add(&l, 10 * MS, 1000000) == 0);
	ASSERT_TRUE(ws_add(&l, 5 * MS, 2000000) == 0);
	ws_integrate(&l, 4 * MS, 8 * MS, 2000000, &khz_ns, &scale_ns);
	EXPECT_EQ_U64((__u64)khz_ns, 6 * MS * 500000 + 2 * MS * 2000000);
	EXPECT_TRUE(khz_ns >> 64 == 0);
	ws_integrate(&l, 6 * MS, 2 * MS, 2000000, &khz_ns, &scale_ns); /* the past is not rewritten */
	EXPECT_EQ_U64((__u64)khz_ns, 2 * MS * 500000);
	ws_free(&l);
}

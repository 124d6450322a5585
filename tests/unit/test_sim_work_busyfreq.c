// SPDX-License-Identifier: GPL-2.0
/*
 * DEVICE work against the busyfreq records (user/sim/work_busyfreq.c),
 * worked by hand on the 2-PD test EM (little: CPUs 0-1, capacity 512, 500
 * and 1000 MHz), and the same recording without busyfreq records unchanged.
 */
#include <string.h>
#include "test.h"
#include "em_builders.h"
#include "sim/sim.h"

#define MS 1000000ull

static struct fs_em em;

static void feed(struct fs_sim_builder *b, const void *rec)
{
	char err[256];

	if (fs_sim_builder_feed(b, rec, err, sizeof(err)))
		fprintf(stderr, "    feed: %s\n", err);
}

/* pid's wake-up at ts on cpu (prev and chosen), CPU time 0 so far; every CPU idle, the task's util on cpu. */
static void wake(struct fs_sim_builder *b, __s32 pid, __u64 ts, int cpu, unsigned int task_util)
{
	static const unsigned int idle[FS_MAX_CPUS];
	struct fs_wakeup w;

	fs_test_wakeup(&w, &em, idle, cpu, task_util);
	w.hdr.ts_ns = ts;
	w.pid = w.tgid = pid;
	w.sum_exec_ns = 0;
	w.chosen_cpu = cpu;
	w.uid = 1000;
	feed(b, &w);
}

static void reading(struct fs_sim_builder *b, __s32 pid, __u64 ts, __u64 sum)
{
	struct fs_task_time t = { { FS_REC_RUNTIME, 0, sizeof(t), ts }, pid, pid, sum, "test" };

	feed(b, &t);
}

/* CPU 0's busyfreq at ts: ns500 busy at 500 MHz, ns1000 at 1000 MHz, cumulative. */
static void busyfreq(struct fs_sim_builder *b, __u64 ts, __u64 ns500, __u64 ns1000)
{
	struct fs_busyfreq bf;

	memset(&bf, 0, sizeof(bf));
	bf.hdr = (struct fs_rec_hdr){ FS_REC_BUSYFREQ, 0, sizeof(bf), ts };
	bf.cpu = 0;
	bf.nr = 2;
	bf.st[0] = (struct fs_freq_time){ .khz = 500000, .ns = ns500 };
	bf.st[1] = (struct fs_freq_time){ .khz = 1000000, .ns = ns1000 };
	feed(b, &bf);
}

static __u64 work_of(const struct fs_sim_workload *wl, __s32 pid)
{
	for (int i = 0; i < wl->nr_tasks; i++)
		if (wl->tasks[i].pid == pid)
			return wl->acts[wl->tasks[i].first_act].work;
	return UINT64_MAX;
}

/*
 * On CPU 0, task 10 (util 40: 500 MHz) wakes at 1 ms and runs 2 ms; task 11
 * (util 300: 1.25 x 300 / 512 x 1000 = 732 MHz: 1000) wakes at 5 ms and
 * runs 2 ms; task 12 (util 40) wakes at 12 ms, after the last busyfreq
 * record, and runs 2 ms at 500 MHz. Estimated:
 *   10: 2e6 x 512/1024 x 500/1000  =   500,000
 *   11: 2e6 x 512/1024 x 1000/1000 = 1,000,000
 *   12: as 10                      =   500,000
 * Busyfreq at 0.5 ms (nothing yet) and 10 ms: 3 ms at 500 MHz, 1 ms at
 * 1000: measured mean (3 x 500 + 1 x 1000) / 4 = 625 MHz against the
 * estimate's (2 x 500 + 2 x 1000) / 4 = 750: each stretch x 5/6:
 *   10: 500,000 x 5/6 = 416,667;  11: 1,000,000 x 5/6 = 833,333
 * together (3 ms x 500/1000 + 1 ms x 1000/1000) x 512/1024 = 1,250,000,
 * the busyfreq busy time at its frequencies. 12 has no record after it.
 */
static void run(bool with_busyfreq, enum fs_sim_physics ph, __u64 *w10, __u64 *w11, __u64 *w12, __u64 *segs)
{
	char err[128];
	struct fs_sim_builder *b = fs_sim_builder_new(&em, ph);
	struct fs_sim_workload wl;

	if (with_busyfreq)
		busyfreq(b, MS / 2, 0, 0);
	wake(b, 10, 1 * MS, 0, 40);
	wake(b, 11, 5 * MS, 0, 300);
	if (with_busyfreq)
		busyfreq(b, 10 * MS, 3 * MS, 1 * MS);
	wake(b, 12, 12 * MS, 0, 40);
	reading(b, 10, 20 * MS, 2 * MS);
	reading(b, 11, 20 * MS, 2 * MS);
	reading(b, 12, 20 * MS, 2 * MS);
	/* live's snapshot of the builder gives the same work as its finish */
	EXPECT_EQ(fs_sim_builder_snapshot(b, &wl, err, sizeof(err)), 0);
	__u64 snap10 = work_of(&wl, 10), snap11 = work_of(&wl, 11);

	fs_sim_workload_free(&wl);
	EXPECT_EQ(fs_sim_builder_finish(b, &wl, err, sizeof(err)), 0);
	EXPECT_EQ_U64(snap10, work_of(&wl, 10));
	EXPECT_EQ_U64(snap11, work_of(&wl, 11));
	*w10 = work_of(&wl, 10);
	*w11 = work_of(&wl, 11);
	*w12 = work_of(&wl, 12);
	*segs = wl.bf_segs;
	fs_sim_workload_free(&wl);
}

FS_TEST(sim_work_busyfreq_scales_an_intervals_work_by_hand)
{
	__u64 w10, w11, w12, segs;

	fs_test_em_2pd(&em);
	run(true, FS_SIM_DEVICE, &w10, &w11, &w12, &segs);
	EXPECT_EQ_U64(w10, 416667);
	EXPECT_EQ_U64(w11, 833333);
	EXPECT_EQ_U64(w12, 500000);
	EXPECT_EQ_U64(segs, 2);
}

FS_TEST(sim_work_busyfreq_none_leaves_the_estimate)
{
	__u64 w10, w11, w12, segs;

	fs_test_em_2pd(&em);
	run(false, FS_SIM_DEVICE, &w10, &w11, &w12, &segs);
	EXPECT_EQ_U64(w10, 500000);
	EXPECT_EQ_U64(w11, 1000000);
	EXPECT_EQ_U64(w12, 500000);
	EXPECT_EQ_U64(segs, 0);
	/* LAB work is CPU time: busyfreq records leave it */
	run(true, FS_SIM_LAB, &w10, &w11, &w12, &segs);
	EXPECT_EQ_U64(w10, 2 * MS);
	EXPECT_EQ_U64(w11, 2 * MS);
	EXPECT_EQ_U64(segs, 0);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The simulation's workload from records (user/sim/workload.c): activations
 * and their work worked by hand on the 2-PD test EM, balance splits, fork,
 * exit, pid reuse, what the recording cannot tell, bad records; then the
 * invariants against the pipeline on a real recording.
 */
#include "test.h"
#include "em_builders.h"
#include "pipeline.h"
#include "em/em_io.h"
#include "engine/accounting.h"
#include "engine/pelt.h"
#include "sim/sim.h"
#include "records/recording.h"

#define MS 1000000ull

static struct fs_em em;

/* pid's wake-up at ts: CPU time sum, placed on chosen (-1 unknown) from prev; every CPU idle but util[]. */
static void wake(struct fs_wakeup *w, __s32 pid, __s32 tgid, __u64 ts, __u64 sum, int prev, int chosen,
		 const unsigned int *util, unsigned int task_util)
{
	static const unsigned int idle[FS_MAX_CPUS];

	fs_test_wakeup(w, &em, util ? util : idle, prev, task_util);
	w->hdr.ts_ns = ts;
	w->pid = pid;
	w->tgid = tgid;
	w->sum_exec_ns = sum;
	w->chosen_cpu = chosen;
	w->uid = 1000;
}

static struct fs_migrate balance(__s32 pid, __u64 ts, int from, int to, __u64 sum)
{
	return (struct fs_migrate){ { FS_REC_MIGRATE, 0, sizeof(struct fs_migrate), ts }, pid, from, to,
				    FS_MIG_BALANCE, sum };
}

static struct fs_task_time task_time(__u16 type, __s32 pid, __s32 tgid, __u64 ts, __u64 sum)
{
	struct fs_task_time t = { { type, 0, sizeof(struct fs_task_time), ts }, pid, tgid, sum, "test" };

	return t;
}

static int feed(struct fs_sim_builder *b, const void *rec)
{
	char err[256];
	int rc = fs_sim_builder_feed(b, rec, err, sizeof(err));

	if (rc)
		fprintf(stderr, "    feed: %s\n", err);
	return rc;
}

static void finish(struct fs_sim_builder *b, struct fs_sim_workload *wl)
{
	char err[256];

	if (fs_sim_builder_finish(b, wl, err, sizeof(err)))
		fprintf(stderr, "    finish: %s\n", err);
}

/*
 * Task 10 runs 2 ms on little cpu0 (capacity 512, 500 of 1000 MHz), then
 * 1 ms on big cpu2 (capacity 1024, 500 of 2000 MHz until task 11 wakes on
 * cpu3 beside a busy rq at 11.5 ms and takes the big PD to 2000 MHz):
 *   act 0: 2e6 x 512/1024 x 500/1000                       = 500,000
 *   act 1: 0.5e6 x 1024/1024 x 500/2000 + 0.5e6 x 2000/2000 = 625,000
 * Under LAB physics the work is the CPU time.
 */
static void two_activations(enum fs_sim_physics phys, struct fs_sim_workload *wl)
{
	unsigned int busy3[FS_MAX_CPUS] = { [3] = 900 };
	struct fs_wakeup w;
	struct fs_sim_builder *b = fs_sim_builder_new(&em, phys);

	wake(&w, 10, 10, 1 * MS, 5 * MS, 0, 0, NULL, 40);
	EXPECT_EQ(feed(b, &w), 0);
	wake(&w, 10, 10, 11 * MS, 7 * MS, 0, 2, NULL, 40);
	EXPECT_EQ(feed(b, &w), 0);
	wake(&w, 11, 11, 11 * MS + MS / 2, 0, 3, 3, busy3, 100);
	EXPECT_EQ(feed(b, &w), 0);
	struct fs_task_time end = task_time(FS_REC_RUNTIME, 10, 10, 20 * MS, 8 * MS);
	EXPECT_EQ(feed(b, &end), 0);
	finish(b, wl);
}

FS_TEST(sim_workload_activations_and_device_work_by_hand)
{
	struct fs_sim_workload wl;

	fs_test_em_2pd(&em);
	two_activations(FS_SIM_DEVICE, &wl);
	ASSERT_TRUE(wl.nr_tasks == 2 && wl.nr_acts == 3);
	const struct fs_sim_task *t = &wl.tasks[0];
	const struct fs_sim_act *a = &wl.acts[t->first_act];

	EXPECT_EQ(t->pid, 10);
	EXPECT_EQ(t->nr_act, 2);
	EXPECT_EQ_U64(wl.t0_ns, 1 * MS);
	EXPECT_EQ_U64(wl.end_ns, 19 * MS);
	EXPECT_EQ_U64(a[0].wake_ns, 0);
	EXPECT_EQ_U64(a[1].wake_ns, 10 * MS);
	EXPECT_EQ_U64(a[0].rec_cpu_ns, 2 * MS);
	EXPECT_EQ_U64(a[1].rec_cpu_ns, 1 * MS);
	EXPECT_EQ(a[0].rec_cpu, 0);
	EXPECT_EQ(a[1].rec_cpu, 2);
	EXPECT_EQ_U64(a[0].work, 500000);
	EXPECT_EQ_U64(a[1].work, 625000);
	EXPECT_EQ(a[0].flags, 0);
	EXPECT_EQ(t->exit_ns, FS_SIM_NEVER);
	/* task 11 has no reading after its wake-up: its time is unknown */
	EXPECT_EQ(wl.tasks[1].nr_act, 1);
	EXPECT_EQ(wl.acts[wl.tasks[1].first_act].flags, FS_SIM_ACT_UNKNOWN);
	EXPECT_EQ_U64(wl.acts_unknown_work, 1);
	EXPECT_EQ_U64(wl.observed.busy_ns[0], 2 * MS);
	EXPECT_EQ_U64(wl.observed.busy_ns[2], 1 * MS);
	EXPECT_EQ_U64(wl.observed.wakeups, 3);
	EXPECT_EQ_U64(wl.observed.migrations, 1); /* 0 -> 2 */
	EXPECT_EQ_U64(wl.rec_cpu_ns, 3 * MS);
	EXPECT_EQ_U64(wl.work, 1125000);
	fs_sim_workload_free(&wl);
}

FS_TEST(sim_workload_lab_work_is_cpu_time)
{
	struct fs_sim_workload wl;

	fs_test_em_2pd(&em);
	two_activations(FS_SIM_LAB, &wl);
	ASSERT_TRUE(wl.nr_acts == 3);
	EXPECT_EQ(wl.physics, FS_SIM_LAB);
	for (__u64 k = 0; k < wl.nr_acts; k++)
		EXPECT_EQ_U64(wl.acts[k].work, wl.acts[k].rec_cpu_ns);
	EXPECT_EQ_U64(wl.work, 3 * MS);
	fs_sim_workload_free(&wl);
}

/* 1.5 ms on little cpu0, then the balancer moves it to big cpu2 for 1 ms more: one activation, two CPUs. */
FS_TEST(sim_workload_balance_migration_splits_an_activation)
{
	struct fs_wakeup w;
	struct fs_sim_workload wl;

	fs_test_em_2pd(&em);
	struct fs_sim_builder *b = fs_sim_builder_new(&em, FS_SIM_DEVICE);
	wake(&w, 10, 10, 1 * MS, 0, 0, 0, NULL, 40);
	EXPECT_EQ(feed(b, &w), 0);
	struct fs_migrate m = balance(10, 3 * MS, 0, 2, 1500000);
	EXPECT_EQ(feed(b, &m), 0);
	struct fs_task_time end = task_time(FS_REC_RUNTIME, 10, 10, 10 * MS, 2500000);
	EXPECT_EQ(feed(b, &end), 0);
	finish(b, &wl);
	ASSERT_TRUE(wl.nr_acts == 1);
	EXPECT_EQ_U64(wl.acts[0].rec_cpu_ns, 2500000);
	/* 1.5e6 x 512/1024 x 500/1000 + 1e6 x 1024/1024 x 500/2000 */
	EXPECT_EQ_U64(wl.acts[0].work, 375000 + 250000);
	EXPECT_EQ(wl.acts[0].flags, FS_SIM_ACT_BALANCED);
	EXPECT_EQ(wl.acts[0].rec_cpu, 0);
	EXPECT_EQ_U64(wl.observed.busy_ns[0], 1500000);
	EXPECT_EQ_U64(wl.observed.busy_ns[2], 1000000);
	EXPECT_EQ_U64(wl.observed.balance_migrations, 1);
	EXPECT_EQ_U64(wl.observed.migrations, 1);
	fs_sim_workload_free(&wl);
}

/* A fork, its exit, and a new task by the same pid; what the first wake-up says of the task. */
FS_TEST(sim_workload_fork_exit_and_pid_reuse)
{
	struct fs_wakeup w;
	struct fs_sim_workload wl;

	fs_test_em_2pd(&em);
	struct fs_sim_builder *b = fs_sim_builder_new(&em, FS_SIM_LAB);
	wake(&w, 20, 10, 2 * MS, 0, 0, 1, NULL, 0);
	w.flags |= FS_WAKE_FORK | FS_WAKE_UCLAMP_USED;
	w.cpus_allowed = 0x3;
	w.task.uclamp_min = 128;
	w.task.uclamp_max = 512;
	w.task.util_avg = 300;
	w.task.util_sum = 300 * 47000;
	w.task.util_est_ewma = 250;
	w.task.last_update_time = 1 * MS;
	w.task.cfs_rq_last_update_time = 40 * MS; /* 39 ms blocked: the sync decays it */
	__u32 synced = fs_sync_entity_util_avg(&w.task);
	EXPECT_TRUE(synced < 300);
	EXPECT_EQ(feed(b, &w), 0);
	struct fs_task_time ex = task_time(FS_REC_EXIT, 20, 10, 5 * MS, 1 * MS);
	EXPECT_EQ(feed(b, &ex), 0);
	wake(&w, 20, 30, 6 * MS, 0, 2, 2, NULL, 40);
	EXPECT_EQ(feed(b, &w), 0);
	struct fs_task_time end = task_time(FS_REC_RUNTIME, 20, 30, 8 * MS, 2 * MS);
	EXPECT_EQ(feed(b, &end), 0);
	finish(b, &wl);
	ASSERT_TRUE(wl.nr_tasks == 2 && wl.nr_acts == 2);
	const struct fs_sim_task *t = &wl.tasks[0];

	EXPECT_EQ(t->tgid, 10);
	EXPECT_EQ(t->uid, 1000);
	EXPECT_EQ_U64(t->cpus_allowed, 0x3);
	EXPECT_EQ(t->uclamp_min, 128);
	EXPECT_EQ(t->uclamp_max, 512);
	EXPECT_EQ(t->init_util, synced);
	EXPECT_EQ(t->init_util_est, 250);
	EXPECT_TRUE(t->init_aged); /* 39 ms crosses a period */
	EXPECT_TRUE(!wl.tasks[1].init_aged); /* lut = the cfs_rq's: no time passed */
	EXPECT_EQ(t->init_cpu, 1); /* a fork starts where the kernel put it, not on its parent's CPU */
	EXPECT_EQ(wl.tasks[1].init_cpu, 2);
	EXPECT_EQ_U64(t->exit_ns, 3 * MS);
	EXPECT_EQ(wl.acts[t->first_act].flags, FS_SIM_ACT_FORK);
	EXPECT_EQ_U64(wl.acts[t->first_act].rec_cpu_ns, 1 * MS);
	EXPECT_EQ(wl.tasks[1].tgid, 30);
	EXPECT_EQ_U64(wl.tasks[1].exit_ns, FS_SIM_NEVER);
	EXPECT_EQ_U64(wl.acts[wl.tasks[1].first_act].rec_cpu_ns, 2 * MS);
	EXPECT_EQ_U64(wl.pid_reuses, 0); /* the exit was seen */
	/* a fork placed off its parent's CPU is no migration */
	EXPECT_EQ_U64(wl.observed.migrations, 0);
	EXPECT_EQ_U64(wl.observed.wakeups, 2);
	fs_sim_workload_free(&wl);
}

/* A placement not recorded, a task that ran but never woke, one whose CPU time grew before it woke. */
FS_TEST(sim_workload_what_the_recording_cannot_tell)
{
	struct fs_wakeup w;
	struct fs_sim_workload wl;

	fs_test_em_2pd(&em);
	struct fs_sim_builder *b = fs_sim_builder_new(&em, FS_SIM_DEVICE);
	struct fs_migrate m = balance(99, 1 * MS, 2, 3, 1 * MS);
	EXPECT_EQ(feed(b, &m), 0);
	struct fs_migrate m7 = balance(7, 2 * MS, 0, 1, 10 * MS);
	EXPECT_EQ(feed(b, &m7), 0);
	wake(&w, 7, 7, 3 * MS, 12 * MS, 1, -1, NULL, 40); /* placement unknown: prev cpu1 taken */
	EXPECT_EQ(feed(b, &w), 0);
	struct fs_task_time e7 = task_time(FS_REC_RUNTIME, 7, 7, 9 * MS, 14 * MS);
	EXPECT_EQ(feed(b, &e7), 0);
	struct fs_task_time e99 = task_time(FS_REC_RUNTIME, 99, 99, 9 * MS, 4 * MS);
	EXPECT_EQ(feed(b, &e99), 0);
	finish(b, &wl);
	ASSERT_TRUE(wl.nr_tasks == 1 && wl.nr_acts == 1);
	EXPECT_EQ_U64(wl.tasks_never_woke, 1);
	EXPECT_EQ_U64(wl.never_woke_ns, 3 * MS);
	EXPECT_EQ_U64(wl.pre_wake_ns, 2 * MS);
	EXPECT_EQ(wl.acts[0].rec_cpu, -1);
	EXPECT_EQ(wl.acts[0].flags, FS_SIM_ACT_CPU_GUESSED);
	EXPECT_EQ_U64(wl.acts_cpu_guessed, 1);
	EXPECT_EQ_U64(wl.acts[0].work, 2 * MS / 4); /* cpu1: 512/1024 x 500/1000 */
	EXPECT_EQ_U64(wl.observed.busy_ns[1], 2 * MS);
	EXPECT_EQ_U64(wl.observed.wakeups, 0);
	EXPECT_EQ_U64(wl.observed.balance_migrations, 2);
	fs_sim_workload_free(&wl);
}

/* Each bad record: -1 and one line naming the record and its field; nothing crashes. */
FS_TEST(sim_workload_bad_records)
{
	struct fs_wakeup w;
	char err[256];

	fs_test_em_2pd(&em);
	struct fs_sim_builder *b = fs_sim_builder_new(&em, FS_SIM_DEVICE);
	wake(&w, 10, 10, 1000, 0, 0, 4, NULL, 40);
	EXPECT_EQ(fs_sim_builder_feed(b, &w.hdr, err, sizeof(err)), -1);
	EXPECT_STR(err, "workload: record 1 (wakeup at 1000 ns): pid 10: chosen_cpu: CPU 4 out of range -1, 0..3");
	wake(&w, 10, 10, 1000, 0, 0, 0, NULL, 40);
	w.hdr.size -= 8;
	EXPECT_EQ(fs_sim_builder_feed(b, &w.hdr, err, sizeof(err)), -1);
	EXPECT_STR(err, "workload: record 2 (wakeup at 1000 ns): size: 432 bytes, a wake-up of 4 CPUs has 440");
	wake(&w, 10, 10, 1000, 5000, 0, 0, NULL, 40);
	EXPECT_EQ(fs_sim_builder_feed(b, &w.hdr, err, sizeof(err)), 0);
	struct fs_migrate m = balance(10, 2000, 0, 9, 6000);
	EXPECT_EQ(fs_sim_builder_feed(b, &m.hdr, err, sizeof(err)), -1);
	EXPECT_STR(err, "workload: record 4 (migrate at 2000 ns): pid 10: dest_cpu: CPU 9 out of range 0..3");
	m = balance(10, 2000, 0, 1, 4000);
	EXPECT_EQ(fs_sim_builder_feed(b, &m.hdr, err, sizeof(err)), -1);
	EXPECT_STR(err, "workload: record 5 (migrate at 2000 ns): pid 10: sum_exec_ns: 4000, below the task's "
		   "previous reading 5000");
	m.hdr.size = 24;
	EXPECT_EQ(fs_sim_builder_feed(b, &m.hdr, err, sizeof(err)), -1);
	EXPECT_STR(err, "workload: record 6 (migrate at 2000 ns): size: 24 bytes, want 40");
	struct fs_rec_hdr odd = { 42, 0, sizeof(odd), 3000 };
	EXPECT_EQ(fs_sim_builder_feed(b, &odd, err, sizeof(err)), -1);
	EXPECT_STR(err, "workload: record 7 (? at 3000 ns): type: 42 is no record type");
	/* after a lost record the pid may be another task's: its time is unknown, no error */
	struct fs_lost l = { { FS_REC_LOST, 0, sizeof(l), 3500 }, 2 };
	EXPECT_EQ(fs_sim_builder_feed(b, &l.hdr, err, sizeof(err)), 0);
	m = balance(10, 4000, 0, 1, 4000);
	EXPECT_EQ(fs_sim_builder_feed(b, &m.hdr, err, sizeof(err)), 0);
	struct fs_sim_workload wl;

	EXPECT_EQ(fs_sim_builder_finish(b, &wl, err, sizeof(err)), 0);
	EXPECT_EQ_U64(wl.nr_acts, 1);
	EXPECT_EQ_U64(wl.acts_unknown_work, 1);
	fs_sim_workload_free(&wl);
}

/*
 * tests/fixtures/view/live.fsr (an arm64 lab guest, 8 CPUs): the workload and
 * the pipeline read the same records, so the activations are its wake-ups,
 * their CPU time its task CPU time (summary: 9.897 s in 1418 placements, 24
 * unknown) and DEVICE work never exceeds the CPU time it came from.
 */
FS_TEST(sim_workload_recording_matches_the_pipeline)
{
	char err[256], why[256];
	struct fs_rec_meta meta;
	struct fs_rec_reader *r = fs_rec_reader_open(fs_fixture("view/live.fsr"), &meta, err, sizeof(err));

	ASSERT_TRUE(r);
	ASSERT_TRUE(fs_em_parse_text(meta.em_text, meta.em_len, "live.fsr", &em, why, sizeof(why)) == 0);
	const struct fs_policy_desc *kp = fs_policy_for_release(meta.kernel_release, why, sizeof(why));
	struct fs_sim_builder_opts bo = { .kernel_policy = kp, .emulate_eas = !meta.em_is_kernel };
	struct fs_sim_builder *dev = fs_sim_builder_new_opts(&em, FS_SIM_DEVICE, &bo, err, sizeof(err));
	struct fs_sim_builder *lab = fs_sim_builder_new_opts(&em, FS_SIM_LAB, &bo, err, sizeof(err));
	struct fs_pipeline_opts po = { .em = &em, .nr_policies = 1, .kernel_release = meta.kernel_release,
				       .emulate_eas = !meta.em_is_kernel };
	po.policies[0] = kp;
	struct fs_pipeline *p = fs_pipeline_new(&po, err, sizeof(err));
	const struct fs_rec_hdr *h;
	int rc;

	ASSERT_TRUE(dev && lab && p);
	while ((rc = fs_rec_reader_next(r, &h, err, sizeof(err))) == 1) {
		EXPECT_EQ(fs_pipeline_feed(p, h, err, sizeof(err)), 0);
		EXPECT_EQ(feed(dev, h), 0);
		EXPECT_EQ(feed(lab, h), 0);
	}
	EXPECT_EQ(rc, 0);
	EXPECT_EQ(fs_pipeline_finish(p, err, sizeof(err)), 0);
	const struct fs_report *rep = fs_pipeline_snapshot(p);
	struct fs_sim_workload wd, wlab;

	finish(dev, &wd);
	finish(lab, &wlab);
	EXPECT_EQ_U64(wd.nr_acts, rep->st->wakeups);
	EXPECT_EQ_U64(wd.nr_acts, 1418);
	EXPECT_EQ_U64(wd.rec_cpu_ns, rep->tot->runtime_ns);
	EXPECT_EQ_U64(wd.acts_unknown_work, rep->tot->unresolved);
	EXPECT_EQ_U64(wd.observed.balance_migrations, rep->st->migrations);
	EXPECT_EQ_U64(wd.observed.wakeups, rep->st->kernel_known);
	__u64 busy = 0, acts = 0, cpu_ns = 0, work = 0;

	for (int c = 0; c < FS_MAX_CPUS; c++)
		busy += wd.observed.busy_ns[c];
	EXPECT_EQ_U64(busy, wd.rec_cpu_ns);
	for (int i = 0; i < wd.nr_tasks; i++) {
		const struct fs_sim_task *t = &wd.tasks[i];

		EXPECT_TRUE(t->nr_act > 0);
		acts += t->nr_act;
		for (__u32 k = 0; k < t->nr_act; k++) {
			const struct fs_sim_act *a = &wd.acts[t->first_act + k];

			if (k)
				EXPECT_TRUE(a->wake_ns >= a[-1].wake_ns);
			EXPECT_TRUE(a->wake_ns <= wd.end_ns);
			EXPECT_TRUE(a->work <= a->rec_cpu_ns);
			cpu_ns += a->rec_cpu_ns;
			work += a->work;
		}
	}
	EXPECT_EQ_U64(acts, wd.nr_acts);
	EXPECT_EQ_U64(cpu_ns, wd.rec_cpu_ns);
	EXPECT_EQ_U64(work, wd.work);
	EXPECT_TRUE(wd.work > 0 && wd.work < wd.rec_cpu_ns);
	/* the same activations under LAB physics: work is their CPU time */
	EXPECT_EQ_U64(wlab.nr_acts, wd.nr_acts);
	EXPECT_EQ_U64(wlab.work, wd.rec_cpu_ns);
	EXPECT_EQ_U64(wlab.rec_cpu_ns, wd.rec_cpu_ns);
	fs_sim_workload_free(&wd);
	fs_sim_workload_free(&wlab);
	fs_pipeline_free(p);
	fs_rec_reader_close(r);
	fs_rec_meta_free(&meta);
}

static __u64 next_rand(__u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Random recordings on pixel4's EM (random landscapes, placements known and
 * not, balance migrations, exits and pids woken again, end-of-observation
 * readings for some tasks): the workload and the pipeline agree on the
 * wake-ups and the CPU time; work never exceeds its CPU time (DEVICE) and is
 * it (LAB); the build is deterministic.
 */
FS_TEST(sim_workload_random_recordings_match_the_pipeline)
{
	enum { PIDS = 12, RECORDS = 3000 };
	char err[256];

	fs_test_em_pixel4(&em, FS_POWER_UW);
	for (__u64 seed0 = 1; seed0 <= 6; seed0++) {
		__u64 s = seed0 * 0x9e3779b97f4a7c15ull, ts = 1 * MS, sum[PIDS] = { 0 };
		bool exited[PIDS] = { false };
		const struct fs_policy_desc *kp = fs_policy_find("v6.12.97");
		struct fs_sim_builder_opts bo = { .kernel_policy = kp };
		struct fs_sim_builder *b[3];
		struct fs_pipeline_opts po = { .em = &em, .nr_policies = 1, .kernel_release = "6.12.0" };

		po.policies[0] = kp;
		struct fs_pipeline *p = fs_pipeline_new(&po, err, sizeof(err));

		b[0] = fs_sim_builder_new_opts(&em, FS_SIM_DEVICE, &bo, err, sizeof(err));
		b[1] = fs_sim_builder_new_opts(&em, FS_SIM_DEVICE, &bo, err, sizeof(err));
		b[2] = fs_sim_builder_new_opts(&em, FS_SIM_LAB, &bo, err, sizeof(err));
		ASSERT_TRUE(p && b[0] && b[1] && b[2]);
		for (int r = 0; r <= RECORDS + PIDS; r++) {
			union {
				struct fs_rec_hdr h;
				struct fs_wakeup w;
				struct fs_migrate m;
				struct fs_task_time t;
				struct fs_overutil o;
			} u;
			int k = (int)(next_rand(&s) % PIDS), what = (int)(next_rand(&s) % 100);
			__s32 pid = 100 + k;

			ts += next_rand(&s) % (2 * MS);
			sum[k] += next_rand(&s) % (3 * MS);
			if (r >= RECORDS) { /* the end: half the tasks' CPU time read */
				k = r - RECORDS;
				if (k == PIDS || (k & 1) || exited[k])
					continue;
				u.t = task_time(FS_REC_RUNTIME, 100 + k, 10 + k, ts, sum[k]);
			} else if (what < 55) {
				bool fork = exited[k];

				/* the pid's new task: its CPU time from 0, or (half the time) above the old one's */
				if (fork && (what & 1))
					sum[k] = next_rand(&s) % MS;
				exited[k] &= !fork;
				fs_test_random_wakeup(&u.w, &em, &s);
				u.w.hdr.ts_ns = ts;
				u.w.pid = pid;
				u.w.tgid = 10 + k;
				u.w.sum_exec_ns = sum[k];
				u.w.chosen_cpu = (__s32)(next_rand(&s) % 10) - 1;
				if (u.w.chosen_cpu >= em.nr_cpus)
					u.w.chosen_cpu = -1;
				u.w.flags = (u.w.flags & ~FS_WAKE_FORK) | (fork ? FS_WAKE_FORK : 0);
			} else if (what < 80) {
				u.m = balance(pid, ts, (int)(next_rand(&s) % 8), (int)(next_rand(&s) % 8), sum[k]);
			} else if (what < 85) {
				u.t = task_time(FS_REC_EXIT, pid, 10 + k, ts, sum[k]);
				exited[k] = true;
			} else {
				u.o = (struct fs_overutil){ { FS_REC_OVERUTIL, 0, sizeof(u.o), ts }, what & 1, 0 };
			}
			EXPECT_EQ(fs_pipeline_feed(p, &u.h, err, sizeof(err)), 0);
			for (int i = 0; i < 3; i++)
				EXPECT_EQ(feed(b[i], &u.h), 0);
		}
		EXPECT_EQ(fs_pipeline_finish(p, err, sizeof(err)), 0);
		const struct fs_report *rep = fs_pipeline_snapshot(p);
		struct fs_sim_workload wl[3];

		for (int i = 0; i < 3; i++)
			finish(b[i], &wl[i]);
		EXPECT_EQ_U64(wl[0].nr_acts, rep->st->wakeups);
		EXPECT_EQ_U64(wl[0].nr_tasks, fs_acct_nr_tasks(rep->acct));
		EXPECT_EQ_U64(wl[0].rec_cpu_ns, rep->tot->runtime_ns);
		/* an activation a migration split and nothing closed is unknown here, known up to the move there */
		EXPECT_TRUE(wl[0].acts_unknown_work >= rep->tot->unresolved);
		EXPECT_EQ_U64(wl[0].observed.wakeups, rep->st->kernel_known);
		__u64 busy = 0;

		for (int c = 0; c < em.nr_cpus; c++)
			busy += wl[0].observed.busy_ns[c];
		EXPECT_EQ_U64(busy, wl[0].rec_cpu_ns);
		for (__u64 a = 0; a < wl[0].nr_acts; a++) {
			EXPECT_TRUE(wl[0].acts[a].work <= wl[0].acts[a].rec_cpu_ns);
			EXPECT_EQ_U64(wl[2].acts[a].work, wl[0].acts[a].rec_cpu_ns);
		}
		EXPECT_TRUE(wl[0].nr_acts == wl[1].nr_acts && wl[0].nr_tasks == wl[1].nr_tasks);
		EXPECT_TRUE(!memcmp(wl[0].acts, wl[1].acts, wl[0].nr_acts * sizeof(*wl[0].acts)));
		EXPECT_TRUE(!memcmp(wl[0].tasks, wl[1].tasks, (size_t)wl[0].nr_tasks * sizeof(*wl[0].tasks)));
		for (int i = 0; i < 3; i++)
			fs_sim_workload_free(&wl[i]);
		fs_pipeline_free(p);
	}
}

/*
 * Records of random bytes (their sizes right, now and then wrong): each is
 * taken or refused with one line naming it, nothing crashes (ASan/UBSan run
 * this too), and what was taken still makes a consistent workload.
 */
FS_TEST(sim_workload_random_bytes_never_crash)
{
	static union {
		struct fs_rec_hdr h;
		struct fs_wakeup w;
		struct fs_em_update e;
		unsigned char raw[sizeof(struct fs_em_update)];
	} u;
	char err[256];
	__u64 s = 0x5eed5eedull, ts = 0, refused = 0;

	fs_test_em_pixel4(&em, FS_POWER_UW);
	struct fs_sim_builder_opts bo = { .kernel_policy = fs_policy_find("v5.4") };
	struct fs_sim_builder *b = fs_sim_builder_new_opts(&em, FS_SIM_DEVICE, &bo, err, sizeof(err));

	ASSERT_TRUE(b);
	for (int r = 0; r < 4000; r++) {
		__u16 type = (__u16)(next_rand(&s) % 11);
		size_t n = type == FS_REC_WAKEUP ? fs_wakeup_size((unsigned)em.nr_cpus) : 64 + sizeof(struct fs_freqstat);

		for (size_t i = 0; i < n; i += 8) {
			__u64 v = next_rand(&s);

			memcpy(u.raw + i, &v, n - i < 8 ? n - i : 8);
		}
		u.h.type = type;
		u.h.ts_ns = ts += next_rand(&s) % MS;
		if (type == FS_REC_WAKEUP) {
			u.h.nr_cpus = (__u16)em.nr_cpus;
			u.h.size = (__u32)n;
			/* mostly CPUs in range, so some wake-ups get through to the landscape */
			u.w.prev_cpu = u.w.task_cpu = u.w.waker_cpu = (__s32)(next_rand(&s) % 9);
			u.w.chosen_cpu = (__s32)(next_rand(&s) % 10) - 1;
			u.w.pid = (__s32)(next_rand(&s) % 8);
		} else {
			u.h.nr_cpus = 0;
			u.h.size = type == FS_REC_MIGRATE ? sizeof(struct fs_migrate) :
				   type == FS_REC_EXIT || type == FS_REC_RUNTIME ? sizeof(struct fs_task_time) :
				   type == FS_REC_OVERUTIL ? sizeof(struct fs_overutil) : (__u32)(next_rand(&s) % 200);
		}
		if (next_rand(&s) % 20 == 0)
			u.h.size ^= 8;
		err[0] = '\0';
		int rc = fs_sim_builder_feed(b, &u.h, err, sizeof(err));

		if (rc) {
			refused++;
			EXPECT_EQ(rc, -1);
			EXPECT_CONTAINS(err, "workload: record ");
			EXPECT_TRUE(!strchr(err, '\n'));
		}
	}
	struct fs_sim_workload wl;

	EXPECT_EQ(fs_sim_builder_finish(b, &wl, err, sizeof(err)), 0);
	EXPECT_TRUE(refused > 0 && wl.nr_acts > 0);
	__u64 acts = 0;

	for (int i = 0; i < wl.nr_tasks; i++)
		acts += wl.tasks[i].nr_act;
	EXPECT_EQ_U64(acts, wl.nr_acts);
	fs_sim_workload_free(&wl);
}

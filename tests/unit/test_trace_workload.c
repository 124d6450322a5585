// SPDX-License-Identifier: GPL-2.0
/* Trace events -> workload (user/sim/trace_workload.c) on a hand-made trace computed by hand. */
#include <stdlib.h>
#include "test.h"
#include "em_builders.h"
#include "sim/trace_workload.h"
#include "source/trace_text.h"

/*
 * fs_test_em_2pd: cpu0-1 capacity 512 (top 1000 MHz), cpu2-3 capacity 1024
 * (top 2000 MHz). taskA (100) wakes on cpu2 (frequency unknown: assumed
 * 2000 MHz) and runs 1000 us, then cpu2 drops to 1000 MHz; after 2020 us it
 * is preempted by a kworker (never woke: 500 us), moved by a balance to cpu3
 * (no cpu_frequency: assumed) and runs there 1960 us until it exits. taskB
 * (200), woken by A, runs 2000 us on cpu0 at 500 MHz, sleeps, is woken by A
 * again with a wake-up migration to cpu1 (assumed 1000 MHz) and runs 1000 us.
 */
static const char hand_trace[] =
	"# tracer: nop\n#\n"
	"    <idle>-0   [000] d..2. 100.000000: cpu_frequency: state=500000 cpu_id=0\n"
	"    <idle>-0   [002] d..2. 100.000000: sched_waking: comm=taskA pid=100 prio=120 target_cpu=002\n"
	"    <idle>-0   [002] d..2. 100.000010: sched_wakeup: comm=taskA pid=100 prio=120 target_cpu=002\n"
	"    <idle>-0   [002] d..2. 100.000020: sched_switch: prev_comm=swapper/2 prev_pid=0 prev_prio=120 "
	"prev_state=R ==> next_comm=taskA next_pid=100 next_prio=120\n"
	"     taskA-100 [002] d..2. 100.001020: cpu_frequency: state=1000000 cpu_id=2\n"
	"     taskA-100 [002] d..2. 100.002020: sched_waking: comm=taskB pid=200 prio=120 target_cpu=000\n"
	"    <idle>-0   [000] d..2. 100.002030: sched_wakeup: comm=taskB pid=200 prio=120 target_cpu=000\n"
	"    <idle>-0   [000] d..2. 100.002040: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 "
	"prev_state=R ==> next_comm=taskB next_pid=200 next_prio=120\n"
	"     taskA-100 [002] d..2. 100.003040: sched_switch: prev_comm=taskA prev_pid=100 prev_prio=120 "
	"prev_state=R+ ==> next_comm=kworker/2:1 next_pid=300 next_prio=120\n"
	"    <idle>-0   [003] d..2. 100.003100: sched_migrate_task: comm=taskA pid=100 prio=120 orig_cpu=2 dest_cpu=3\n"
	"    <idle>-0   [003] d..2. 100.003110: sched_switch: prev_comm=swapper/3 prev_pid=0 prev_prio=120 "
	"prev_state=R ==> next_comm=taskA next_pid=100 next_prio=120\n"
	"kworker/2:1-300 [002] d..2. 100.003540: sched_switch: prev_comm=kworker/2:1 prev_pid=300 prev_prio=120 "
	"prev_state=I ==> next_comm=swapper/2 next_pid=0 next_prio=120\n"
	"     taskB-200 [000] d..2. 100.004040: sched_switch: prev_comm=taskB prev_pid=200 prev_prio=120 "
	"prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
	"     taskA-100 [003] d..2. 100.004540: sched_waking: comm=taskB pid=200 prio=120 target_cpu=000\n"
	"     taskA-100 [003] d..2. 100.004545: sched_migrate_task: comm=taskB pid=200 prio=120 orig_cpu=0 dest_cpu=1\n"
	"    <idle>-0   [001] d..2. 100.004550: sched_wakeup: comm=taskB pid=200 prio=120 target_cpu=001\n"
	"    <idle>-0   [001] d..2. 100.004560: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 "
	"prev_state=R ==> next_comm=taskB next_pid=200 next_prio=120\n"
	"     taskA-100 [003] ..... 100.005060: sched_process_exit: comm=taskA pid=100 prio=120 group_dead=1\n"
	"     taskA-100 [003] d..2. 100.005070: sched_switch: prev_comm=taskA prev_pid=100 prev_prio=120 "
	"prev_state=X ==> next_comm=swapper/3 next_pid=0 next_prio=120\n"
	"     taskB-200 [001] d..2. 100.005560: sched_switch: prev_comm=taskB prev_pid=200 prev_prio=120 "
	"prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n";

static int build(const char *text, enum fs_sim_physics ph, struct fs_sim_workload *wl, struct fs_trace_wl_info *info,
		 char *err, size_t errlen)
{
	static struct fs_em em;
	struct fs_trace_wl *b;

	fs_test_em_2pd(&em);
	b = fs_trace_wl_new(&em, ph);
	if (!b || fs_trace_text_parse(text, strlen(text), "hand.txt", fs_trace_wl_feed_fn, b, NULL, err, errlen)) {
		fs_trace_wl_free(b);
		return -1;
	}
	return fs_trace_wl_finish(b, wl, info, err, errlen);
}

static void expect_act(const struct fs_sim_act *a, __u64 wake, __u64 work, __u64 cpu_ns, int rec_cpu, int waker)
{
	EXPECT_EQ_U64(a->wake_ns, wake);
	EXPECT_EQ_U64(a->work, work);
	EXPECT_EQ_U64(a->rec_cpu_ns, cpu_ns);
	EXPECT_EQ(a->rec_cpu, rec_cpu);
	EXPECT_EQ(a->waker, waker);
}

FS_TEST(trace_workload_by_hand)
{
	struct fs_sim_workload wl;
	struct fs_trace_wl_info info;
	char err[256];

	ASSERT_TRUE(build(hand_trace, FS_SIM_DEVICE, &wl, &info, err, sizeof(err)) == 0);
	EXPECT_EQ_U64(wl.t0_ns, 100000000000ull);
	EXPECT_EQ_U64(wl.end_ns, 5560000);
	EXPECT_EQ(wl.nr_cpus, 4);
	ASSERT_TRUE(wl.nr_tasks == 2 && wl.nr_acts == 3);
	EXPECT_STR(wl.tasks[0].comm, "taskA");
	EXPECT_EQ(wl.tasks[0].pid, 100);
	EXPECT_EQ(wl.tasks[0].tgid, 100);
	EXPECT_EQ_U64(wl.tasks[0].exit_ns, 5060000);
	EXPECT_EQ_U64(wl.tasks[0].cpus_allowed, 0xf);
	EXPECT_EQ(wl.tasks[0].init_cpu, 2);
	EXPECT_EQ(wl.tasks[0].nr_act, 1);
	/* 1000 us at 2000/2000 MHz + 2020 us at 1000/2000 on capacity 1024, then 1960 us assumed 2000 */
	expect_act(&wl.acts[wl.tasks[0].first_act], 0, 1000000 + 1010000 + 1960000, 4980000, 2, FS_SIM_NO_TASK);
	EXPECT_STR(wl.tasks[1].comm, "taskB");
	EXPECT_EQ_U64(wl.tasks[1].exit_ns, FS_SIM_NEVER);
	EXPECT_EQ(wl.tasks[1].nr_act, 2);
	/* 2000 us at 500/1000 MHz on capacity 512; 1000 us assumed 1000/1000 on 512 */
	expect_act(&wl.acts[wl.tasks[1].first_act], 2020000, 500000, 2000000, 0, 0);
	expect_act(&wl.acts[wl.tasks[1].first_act + 1], 4540000, 500000, 1000000, 1, 0);
	EXPECT_EQ_U64(wl.observed.busy_ns[0], 2000000);
	EXPECT_EQ_U64(wl.observed.busy_ns[1], 1000000);
	EXPECT_EQ_U64(wl.observed.busy_ns[2], 3020000);
	EXPECT_EQ_U64(wl.observed.busy_ns[3], 1960000);
	EXPECT_EQ_U64(wl.observed.wakeups, 3);
	EXPECT_EQ_U64(wl.observed.migrations, 2);
	EXPECT_EQ_U64(wl.observed.balance_migrations, 1);
	EXPECT_EQ_U64(wl.tasks_never_woke, 1);
	EXPECT_EQ_U64(wl.never_woke_ns, 500000);
	EXPECT_EQ_U64(wl.acts_unknown_work, 0);
	EXPECT_EQ_U64(info.freq_assumed_cpus, 0xe);
	EXPECT_EQ_U64(info.freq_assumed_ns, 1000000 + 1960000 + 1000000);
	EXPECT_EQ_U64(info.freq_events, 2);
	EXPECT_EQ_U64(info.acts_open_at_end, 0);
	EXPECT_EQ_U64(info.untracked_ns, 0);
	EXPECT_EQ(info.tgid_assumed, 2);
	/* OPP residency where cpu_frequency told it: cpu0 2000 us at 500 MHz, cpu2 2020 us at 1000 */
	EXPECT_EQ_U64(wl.observed.opp_busy_ns[0][0], 2000000);
	EXPECT_EQ_U64(wl.observed.opp_busy_ns[0][1], 0);
	EXPECT_EQ_U64(wl.observed.opp_busy_ns[1][1], 2020000);
	EXPECT_EQ_U64(wl.observed.opp_busy_ns[1][2], 0);
	EXPECT_EQ_U64(info.switch_events, 9);
	EXPECT_EQ_U64(info.wake_events, 6);
	EXPECT_EQ_U64(info.migrate_events, 2);
	free(wl.tasks);
	free(wl.acts);
}

/* Wake-ups but no sched_switch: no CPU time to tell, refused. */
FS_TEST(trace_workload_no_switch)
{
	static const char text[] = "a-1 [000] 1.000000: sched_waking: comm=b pid=2 prio=120 target_cpu=000\n";
	struct fs_sim_workload wl;
	char err[256];

	EXPECT_EQ(build(text, FS_SIM_DEVICE, &wl, NULL, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "no sched_switch events");
}

/* LAB physics: work is the CPU time itself, whatever the capacity and frequency. */
FS_TEST(trace_workload_lab)
{
	struct fs_sim_workload wl;
	char err[256];

	ASSERT_TRUE(build(hand_trace, FS_SIM_LAB, &wl, NULL, err, sizeof(err)) == 0);
	ASSERT_TRUE(wl.nr_acts == 3);
	for (int i = 0; i < 3; i++)
		EXPECT_EQ_U64(wl.acts[i].work, wl.acts[i].rec_cpu_ns);
	EXPECT_EQ(wl.physics, FS_SIM_LAB);
	free(wl.tasks);
	free(wl.acts);
}

/* A thread (CLONE_THREAD) takes its parent's tgid; a process its own; wakeup_new marks the fork. */
FS_TEST(trace_workload_fork)
{
	static const char text[] =
		"p-10 [000] 1.000000: task_newtask: pid=11 comm=p clone_flags=3d0f00 oom_score_adj=0\n"
		"p-10 [000] 1.000001: sched_process_fork: comm=p pid=10 child_comm=p child_pid=11\n"
		"p-10 [000] 1.000002: task_newtask: pid=12 comm=p clone_flags=1200000 oom_score_adj=0\n"
		"p-10 [000] 1.000003: sched_wakeup_new: comm=p pid=11 prio=120 target_cpu=001\n"
		"p-10 [000] 1.000004: sched_wakeup_new: comm=p pid=12 prio=120 target_cpu=000\n"
		"<idle>-0 [001] 1.000005: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> "
		"next_comm=p next_pid=11 next_prio=120\n"
		"p-11 [001] 1.000006: task_rename: pid=11 oldcomm=p newcomm=worker oom_score_adj=0\n";
	struct fs_sim_workload wl;
	struct fs_trace_wl_info info;
	char err[256];

	ASSERT_TRUE(build(text, FS_SIM_DEVICE, &wl, &info, err, sizeof(err)) == 0);
	ASSERT_TRUE(wl.nr_tasks == 2);
	EXPECT_EQ(wl.tasks[0].pid, 11);
	EXPECT_EQ(wl.tasks[0].tgid, 10);
	EXPECT_STR(wl.tasks[0].comm, "worker");
	EXPECT_EQ(wl.tasks[1].pid, 12);
	EXPECT_EQ(wl.tasks[1].tgid, 12);
	EXPECT_EQ(wl.acts[0].flags, FS_SIM_ACT_FORK);
	EXPECT_EQ(wl.acts[0].rec_cpu, 1);
	EXPECT_EQ(wl.acts[0].waker, FS_SIM_NO_TASK); /* p (10) never woke: not simulated */
	EXPECT_EQ_U64(wl.acts_unknown_work, 1);       /* 12 never ran */
	EXPECT_EQ_U64(info.acts_open_at_end, 2);
	free(wl.tasks);
	free(wl.acts);
}

/*
 * A task woken while still on its CPU stays in its activation; a wake-up of a
 * preempted (runnable) task keeps its placement; a move after a waking that
 * found it running is a balance one.
 */
FS_TEST(trace_workload_runnable_wakeups)
{
	static const char text[] =
		"<idle>-0 [000] 1.000000: sched_waking: comm=a pid=5 prio=120 target_cpu=000\n"
		"<idle>-0 [000] 1.000001: sched_wakeup: comm=a pid=5 prio=120 target_cpu=000\n"
		"<idle>-0 [000] 1.000002: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> "
		"next_comm=a next_pid=5 next_prio=120\n"
		"b-6 [001] 1.000003: sched_waking: comm=a pid=5 prio=120 target_cpu=000\n"
		"a-5 [000] 1.000004: sched_switch: prev_comm=a prev_pid=5 prev_prio=120 prev_state=R+ ==> "
		"next_comm=c next_pid=7 next_prio=120\n"
		"b-6 [001] 1.000005: sched_wakeup: comm=a pid=5 prio=120 target_cpu=001\n"
		"<idle>-0 [002] 1.000006: sched_migrate_task: comm=a pid=5 prio=120 orig_cpu=0 dest_cpu=2\n"
		"<idle>-0 [002] 1.000007: sched_switch: prev_comm=swapper/2 prev_pid=0 prev_prio=120 prev_state=R ==> "
		"next_comm=a next_pid=5 next_prio=120\n"
		"a-5 [002] 1.000010: sched_switch: prev_comm=a prev_pid=5 prev_prio=120 prev_state=S ==> "
		"next_comm=swapper/2 next_pid=0 next_prio=120\n";
	struct fs_sim_workload wl;
	char err[256];

	ASSERT_TRUE(build(text, FS_SIM_LAB, &wl, NULL, err, sizeof(err)) == 0);
	ASSERT_TRUE(wl.nr_tasks == 1 && wl.nr_acts == 1);
	EXPECT_EQ(wl.acts[0].rec_cpu, 0);
	EXPECT_EQ(wl.acts[0].waker, FS_SIM_NO_TASK);
	EXPECT_EQ_U64(wl.acts[0].rec_cpu_ns, 2000 + 3000);
	EXPECT_EQ_U64(wl.observed.migrations, 1);
	EXPECT_EQ_U64(wl.observed.balance_migrations, 1);
	free(wl.tasks);
	free(wl.acts);
}

FS_TEST(trace_workload_bad_input)
{
	static const struct { const char *text, *err; } c[] = {
		{ "# tracer: nop\n<idle>-0 [000] 1.0: cpu_frequency: state=1000 cpu_id=0\n"
		  "x-1 [000] 1.0: sched_stat_runtime: comm=x pid=1 runtime=5 [ns]\n",
		  "no sched events (sched_switch, sched_waking, sched_wakeup): a workload needs them "
		  "(trace-cmd record -e sched)" },
		{ "a-1 [007] 1.0: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n",
		  "sched_waking at 1000000000 ns: CPU 7 is not a CPU of the EM (4 CPUs)" },
		{ "a-1 [000] 1.0: cpu_frequency: state=1000 cpu_id=9\n",
		  "cpu_frequency at 1000000000 ns: cpu_id 9 is not a CPU of the EM (4 CPUs)" },
		{ "a-1 [000] 2.0: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n"
		  "a-1 [001] 1.0: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n",
		  "sched_waking at 1000000000 ns: before the previous event (2000000000 ns): events out of time order" },
		{ "a-1 [000] 1.0: sched_waking: comm=a pid=2 prio=120\n",
		  "hand.txt:1: sched_waking: target_cpu: missing" },
	};
	struct fs_sim_workload wl;
	char err[256];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		EXPECT_EQ(build(c[i].text, FS_SIM_DEVICE, &wl, NULL, err, sizeof(err)), -1);
		EXPECT_STR(err, c[i].err);
	}
}

/*
 * LISA's cfs_rq events and a wake-up's sched_pelt_se: CPU 0's first root
 * sched_pelt_cfs (300) starts its rq, its task group's (900) and a later
 * root one (500) do not; CPU 2 has only util_est_cfs: no start. taskA's
 * sched_pelt_se between its wake-up and its first run (123) is its traced
 * util at that wake-up; the one while it runs (130) is not, and neither
 * gives its first activation a traced start (they came after it opened).
 */
FS_TEST(trace_workload_cfs_and_wake_util)
{
	static const char text[] =
		"  <idle>-0   [000] d..1. 100.000000: sched_pelt_cfs: cpu=0 path=/autogroup-3 load=1 runnable=1 util=900 "
		"update_time=1\n"
		"  <idle>-0   [000] d..1. 100.000000: sched_pelt_cfs: cpu=0 path=/ load=1 runnable=1 util=300 update_time=1\n"
		"  <idle>-0   [002] d..1. 100.000000: sched_util_est_cfs: cpu=2 path=/ enqueued=5 ewma=6 util=7\n"
		"  <idle>-0   [002] d..2. 100.000000: sched_waking: comm=taskA pid=100 prio=120 target_cpu=002\n"
		"  <idle>-0   [002] d..1. 100.000005: sched_pelt_se: cpu=2 path=(null) comm=taskA pid=100 load=1 runnable=1 "
		"util=123 update_time=1\n"
		"  <idle>-0   [002] d..2. 100.000010: sched_wakeup: comm=taskA pid=100 prio=120 target_cpu=002\n"
		"  <idle>-0   [002] d..2. 100.000020: sched_switch: prev_comm=swapper/2 prev_pid=0 prev_prio=120 "
		"prev_state=R ==> next_comm=taskA next_pid=100 next_prio=120\n"
		"   taskA-100 [002] d..1. 100.000500: sched_pelt_se: cpu=2 path=(null) comm=taskA pid=100 load=1 runnable=1 "
		"util=130 update_time=1\n"
		"  <idle>-0   [000] d..1. 100.000600: lisa__sched_pelt_cfs: cpu=0 path=/ load=1 util=500 update_time=1 "
		"runnable=1\n"
		"   taskA-100 [002] d..2. 100.001020: sched_switch: prev_comm=taskA prev_pid=100 prev_prio=120 "
		"prev_state=S ==> next_comm=swapper/2 next_pid=0 next_prio=120\n";
	struct fs_sim_workload wl;
	struct fs_trace_wl_info info;
	char err[256];

	ASSERT_TRUE(build(text, FS_SIM_DEVICE, &wl, &info, err, sizeof(err)) == 0);
	EXPECT_EQ_U64(info.cfs_events, 3);
	EXPECT_EQ_U64(info.cfs_group_events, 1);
	EXPECT_EQ_U64(info.rq_traced_cpus, 1);
	EXPECT_EQ_U64(wl.init_rq_traced, 1);
	EXPECT_EQ(wl.init_rq_util[0], 300);
	EXPECT_EQ(wl.init_rq_util[2], 0);
	EXPECT_EQ_U64(info.pelt_events, 2);
	EXPECT_EQ_U64(info.wake_utils, 1);
	EXPECT_EQ_U64(info.pelt_tasks, 0);
	ASSERT_TRUE(wl.nr_acts == 1);
	EXPECT_TRUE(wl.acts[0].flags & FS_SIM_ACT_UTIL_TRACED);
	EXPECT_EQ(wl.acts[0].traced_util, 123);
	EXPECT_EQ(wl.tasks[0].init_util, 0);
	fs_sim_workload_free(&wl);
}

/* A cfs_rq event of a CPU the EM lacks is refused, naming it. */
FS_TEST(trace_workload_cfs_bad_cpu)
{
	static const char text[] =
		"  <idle>-0   [000] d..1. 100.000000: sched_pelt_cfs: cpu=9 path=/ load=1 runnable=1 util=300 update_time=1\n";
	struct fs_sim_workload wl;
	char err[256];

	EXPECT_EQ(build(text, FS_SIM_DEVICE, &wl, NULL, err, sizeof(err)), -1);
	EXPECT_STR(err, "sched_pelt_cfs at 100000000000 ns: cpu 9 is not a CPU of the EM (4 CPUs)");
}

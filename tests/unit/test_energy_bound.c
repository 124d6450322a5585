// SPDX-License-Identifier: GPL-2.0
/*
 * Property: over random recordings (random landscapes, CPU times, sleeps,
 * exits, balance migrations, end-of-observation readings), every closed
 * placement and every task stays within the accounting's bound
 * (docs/accounting.md):
 *
 *     |ΔE| ≤ D × (r × max(1, cap / u) + tail)    tail = FS_PELT_TAIL_NS after a sleep, else 0
 *
 * D: the largest difference of fs_system_power_uw between any two CPUs for
 * that wake-up; r: the CPU time the task used in the placement; u: its
 * utilization (the power estimate's task_util_est), cap: the capacity of the
 * CPU it ran on, so D × cap / u is D scaled from the task's share of that CPU
 * to the CPU's whole time (a task that fills the CPU: D itself). Also: a
 * placement charges no more time than it lasted unless the task ran more than
 * its utilization said (then r/β: its CPU time at the rate per CPU ns), nothing
 * without a CPU time, nothing after an exit.
 */
#include "test.h"
#include "em_builders.h"
#include "pipeline.h"
#include "em/em_io.h"
#include "engine/pelt.h"
#include "engine/power_estimate.h"

#define NR_PIDS 12
#define NR_EVENTS 3000

struct captured {
	struct fs_wakeup w[NR_EVENTS + 1];  /* by seq */
	int bad;
	__u64 rows, charged;
	fs_fj_t task_abs[(NR_PIDS + 1) * 8];      /* per (pid, generation) */
	double task_bound[(NR_PIDS + 1) * 8];
	int gen[NR_PIDS + 1];
	__u64 exit_ts[(NR_PIDS + 1) * 8];         /* 0: alive */
};

static const struct fs_em *g_em;
static int g_nr_policies;

/* The task's utilization as fs_system_power_uw takes it: the synced util_avg or util_est, whichever is larger. */
static __u64 task_est(const struct fs_wakeup *w)
{
	__u64 util = fs_sync_entity_util_avg(&w->task);
	__u64 ue = w->task.util_est_ewma > w->task.util_est_enqueued ? w->task.util_est_ewma : w->task.util_est_enqueued;

	return util > ue ? util : ue;
}

static __u64 spread(const struct fs_wakeup *w)
{
	__u64 lo = UINT64_MAX, hi = 0;

	for (int c = 0; c < g_em->nr_cpus; c++) {
		__u64 p = fs_system_power_uw(g_em, w, c);

		lo = p < lo ? p : lo;
		hi = p > hi ? p : hi;
	}
	return hi - lo;
}

static int slot(const struct captured *c, __s32 pid)
{
	return pid * 8 + c->gen[pid];
}

static int on_interval(void *self, const struct fs_decision_row *row, char *err, size_t errlen)
{
	struct captured *c = self;
	const struct fs_wakeup *w = &c->w[row->seq];
	const struct fs_interval *iv = &row->iv;
	int k = (int)w->tgid; /* the generator stores the (pid, generation) slot in tgid */

	(void)err, (void)errlen;
	c->rows++;
	if (!iv->runtime_known && iv->window_ns) {
		fprintf(stderr, "    seq %llu: charged %llu ns without a CPU time\n", (unsigned long long)row->seq,
			(unsigned long long)iv->window_ns);
		c->bad++;
	}
	if (c->exit_ts[k] && row->ts_ns + iv->dt_ns > c->exit_ts[k]) {
		fprintf(stderr, "    seq %llu: placement of an exited task ends after its exit\n", (unsigned long long)row->seq);
		c->bad++;
	}
	int run_cpu = row->kernel_cpu >= 0 ? row->kernel_cpu : row->pol[0].acct_cpu;
	__u64 u = task_est(w), cap = g_em->capacity[run_cpu];
	double d = (double)spread(w);
	double tail = iv->end == FS_END_WAKEUP || iv->end == FS_END_OBSERVED ? (double)FS_PELT_TAIL_NS : 0;
	/* 1/β = cap·f / (u·fmax) <= cap / u, and never below 1 (a task cannot run more than all the time) */
	double inv_beta = u ? ((double)cap / (double)u > 1 ? (double)cap / (double)u : 1) : 0;
	double bound = d * ((double)iv->runtime_ns * inv_beta + tail);

	/* no longer than the placement lasted, unless the task ran more than its utilization said */
	double r_wall = (double)(iv->runtime_ns < iv->dt_ns ? iv->runtime_ns : iv->dt_ns);

	if ((double)iv->window_ns > (double)iv->dt_ns && (double)iv->window_ns > r_wall * inv_beta + 1) {
		fprintf(stderr, "    seq %llu: window %llu > dt %llu and > r/beta (r %llu)\n", (unsigned long long)row->seq,
			(unsigned long long)iv->window_ns, (unsigned long long)iv->dt_ns,
			(unsigned long long)iv->runtime_ns);
		c->bad++;
	}

	c->charged += iv->window_ns > 0;
	for (int i = 0; i < g_nr_policies; i++) {
		fs_fj_t e = iv->de_fj[i] < 0 ? -iv->de_fj[i] : iv->de_fj[i];

		if ((double)e > bound * (1 + 1e-12) + 1) {
			fprintf(stderr, "    seq %llu policy %d: |ΔE| %.0f fJ > bound %.0f (D %.0f µW, r %llu, u %llu, cap %llu)\n",
				(unsigned long long)row->seq, i, (double)e, bound, d,
				(unsigned long long)iv->runtime_ns, (unsigned long long)u, (unsigned long long)cap);
			c->bad++;
		}
	}
	fs_fj_t e1 = iv->de_fj[1];
	c->task_abs[k] += e1;
	c->task_bound[k] += bound;
	return 0;
}

static const struct fs_output_ops capture_ops = { .interval = on_interval };

static void run_random(const char *profile, __u64 seed)
{
	static struct fs_em em;
	static struct captured cap;
	char err[256];
	__u64 ts = 1000000, sum[NR_PIDS + 1] = { 0 };

	ASSERT_TRUE(fs_em_profile_build(profile, &em, err, sizeof(err)) == 0);
	memset(&cap, 0, sizeof(cap));
	g_em = &em;
	g_nr_policies = 2;
	struct fs_pipeline_opts o = { .em = &em, .nr_policies = 2, .nr_outputs = 1 };
	o.policies[0] = fs_policy_find("v6.12");
	o.policies[1] = fs_policy_find("v6.12+margin");
	o.outputs[0] = (struct fs_output){ &capture_ops, &cap };
	struct fs_pipeline *p = fs_pipeline_new(&o, err, sizeof(err));
	ASSERT_TRUE(p);
	__u64 seq = 0;

	for (int n = 0; n < NR_EVENTS; n++) {
		__s32 pid = 1 + (__s32)(seed % NR_PIDS);
		int what = (int)((seed >> 8) % 100);

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		ts += (seed >> 33) % 40000000;           /* up to 40 ms between events */
		sum[pid] += (seed >> 20) % 20000000;      /* up to 20 ms of CPU since the last event */
		if (what < 80) {
			struct fs_wakeup *w = &cap.w[++seq];

			fs_test_random_wakeup(w, &em, &seed);
			w->flags &= ~FS_WAKE_EAS_UNKNOWN; /* the pipeline then uses this landscape as is */
			w->hdr.ts_ns = ts;
			w->pid = pid;
			w->tgid = slot(&cap, pid);
			w->sum_exec_ns = (seed & 63) ? sum[pid] : FS_NO_RUNTIME;
			if (fs_pipeline_feed(p, &w->hdr, err, sizeof(err))) {
				FS_FAIL_AT("feed: %s", err);
				break;
			}
		} else if (what < 88) {
			struct fs_task_time t = { { FS_REC_EXIT, 0, sizeof(t), ts }, pid, slot(&cap, pid), sum[pid], "x" };

			fs_pipeline_feed(p, &t.hdr, err, sizeof(err));
			cap.exit_ts[slot(&cap, pid)] = ts;
			cap.gen[pid] = (cap.gen[pid] + 1) % 8; /* the pid is reused by a new task */
			cap.exit_ts[slot(&cap, pid)] = 0;
			sum[pid] = 0;
		} else if (what < 95) {
			struct fs_migrate m = { { FS_REC_MIGRATE, 0, sizeof(m), ts }, pid, 0, 1, FS_MIG_BALANCE, sum[pid] };

			fs_pipeline_feed(p, &m.hdr, err, sizeof(err));
		} else {
			struct fs_task_time t = { { FS_REC_RUNTIME, 0, sizeof(t), ts }, pid, slot(&cap, pid), sum[pid], "x" };

			fs_pipeline_feed(p, &t.hdr, err, sizeof(err));
		}
	}
	EXPECT_EQ(fs_pipeline_finish(p, err, sizeof(err)), 0);
	EXPECT_EQ(cap.bad, 0);
	/* the property must have been exercised: many placements charged, some with the margin differing */
	EXPECT_TRUE(cap.rows > NR_EVENTS / 2);
	EXPECT_TRUE(cap.charged > NR_EVENTS / 4);
	const struct fs_report *r = fs_pipeline_snapshot(p);
	EXPECT_TRUE(r->st->pol[1].differ > 10);
	for (int k = 0; k < (NR_PIDS + 1) * 8; k++) {
		double e = (double)(cap.task_abs[k] < 0 ? -cap.task_abs[k] : cap.task_abs[k]);

		if (e > cap.task_bound[k] * (1 + 1e-12) + 1)
			FS_FAIL_AT("task slot %d: |ΔE| %.0f fJ > its bound %.0f", k, e, cap.task_bound[k]);
	}
	fs_pipeline_free(p);
}

FS_TEST(energy_bound_holds_over_random_recordings_pixel4)
{
	run_random("pixel4", 0x1234567ull);
}

FS_TEST(energy_bound_holds_over_random_recordings_hikey960)
{
	run_random("hikey960", 0xfeecull);
}

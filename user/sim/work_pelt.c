// SPDX-License-Identifier: GPL-2.0
/*
 * The work of an activation from the task's PELT (work_pelt.h).
 *
 * While a task runs, its rq's PELT clock advances by the elapsed time x
 * capacity / 1024 x f / fmax (update_rq_clock_pelt(), kernel/sched/pelt.h,
 * v5.1 - v6.1 and on), and the task's util_sum grows by that clock
 * (___update_load_sum(), accumulate_sum(), kernel/sched/pelt.c, v6.1): a span
 * of PELT time run is a span of work in the simulation's units. A sleeping
 * task's average only decays, on the same clock. A wake-up record holds the
 * task's sched_avg as its last update left it: at the dequeue that ended the
 * previous activation (a fork's at its enqueue, post_init_entity_util_avg()
 * then attach, wake_up_new_task(), kernel/sched/core.c, v6.1). Two such
 * records of a task that stayed on one CPU give its util at both ends and
 * the PELT time T between (y^32 = 1/2, a period is 1024 us).
 *
 * util_sum grows only while the task runs (cfs_rq->curr == se), runnable_sum
 * while it is queued or running (se_runnable() = !!se->on_rq for a task,
 * __update_load_avg_se(), pelt.c, v6.1): from the enqueue at its wake-up to
 * the dequeue at its sleep, so its growth is the activation's PELT span R,
 * the last part of T. Within R the run of W periods can come anywhere, and
 * the util it leaves depends on where: running last leaves the most,
 *
 *   u_end = u_start y^T + 1024 (1 - y^W):  W_lo = -32 log2(1 - D),
 *
 * running first and waiting the rest of R the least,
 *
 *   u_end = u_start y^T + 1024 (1 - y^W) y^(R - W):  W_hi = R + 32 log2(D + y^R),
 *
 * with D = (u_end - u_start y^T) / 1024. So the growth bounds the work; it
 * tells it only where the bounds meet: an activation that waited little. A
 * task preempted over a long span (a kthread sharing its CPU for a second)
 * keeps in its util only its last ~100 ms of running, and W_lo reads a
 * fraction of its work. The workload keeps the frequency estimate inside the
 * bounds (docs/simulation.md, "Work from the task's PELT"). A util or a
 * runnable average near 1024 tells nothing more (the growth flattens): no
 * bound from it.
 */
#include <math.h>
#include "work_pelt.h"
#include "../engine/pelt.h"

#define WP_PERIOD_NS 1048576.0 /* a PELT period: 1024 units of 1024 ns (delta >> 10 in ___update_load_sum()) */
#define WP_UTIL_CEIL 1000.0    /* above it the growth is too flat to read */
/* Periods a reading may pass T by: the sums agree with the averages only to a period's growth */
#define WP_SLACK 1.0

/*
 * util_avg = util_sum / get_pelt_divider(), runnable_avg the same of
 * runnable_sum: LOAD_AVG_MAX - 1024 + contrib (___update_load_avg(),
 * kernel/sched/pelt.h and pelt.c, v6.1).
 */
static double avg_of(__u64 sum, __u32 contrib)
{
	return (double)sum / (double)(FS_LOAD_AVG_MAX - 1024 + (contrib < 1024 ? contrib : 1023));
}

/*
 * The record's util_sum must give its util_avg, within what one period adds
 * (1024 x 1024 / divider, about 22): util_avg follows util_sum only where an
 * update crosses a period (___update_load_sum() returns 0 before it,
 * kernel/sched/pelt.c, v6.1), so util_sum is the exact one. A kernel whose
 * sums are scaled another way is left to the frequency estimate.
 */
static bool sum_gives_avg(__u64 sum, __u32 contrib, __u64 avg)
{
	return fabs(avg_of(sum, contrib) - (double)avg) <= 24.0;
}

static bool sums_agree(const struct fs_task *t)
{
	return t->last_update_time && sum_gives_avg(t->util_sum, t->period_contrib, t->util_avg);
}

/*
 * The same for runnable_sum; a kernel before v5.7 has none (0), and a task's
 * runnable_sum is never below its util_sum (running is a subset of runnable,
 * ___update_load_sum(), pelt.c, v6.1).
 */
static bool runnable_agrees(const struct fs_task *t)
{
	return t->runnable_sum >= t->util_sum && sum_gives_avg(t->runnable_sum, t->period_contrib, t->runnable_avg);
}

void wp_start(const struct fs_wakeup *w, int run, struct wp_mark *m)
{
	const bool fork = w->flags & FS_WAKE_FORK;

	m->ok = false;
	/* a placement elsewhere moves the task to another rq's clock (migrate_task_rq_fair()) */
	if (w->chosen_cpu < 0 || run != w->chosen_cpu || (!fork && w->prev_cpu != run) || !sums_agree(&w->task))
		return;
	m->ok = true;
	m->cpu = run;
	m->lut = w->task.last_update_time;
	m->util_sum = w->task.util_sum;
	m->contrib = w->task.period_contrib;
	m->runnable_sum = w->task.runnable_sum;
	m->runnable_ok = runnable_agrees(&w->task);
}

__u64 wp_freq_scale(__u64 khz, __u64 fmax)
{
	return fmax ? (khz << 10) / fmax : 1024;
}

/* Periods of PELT time the task was queued or running: -1 where runnable_sum cannot tell it. */
static double runnable_periods(const struct wp_mark *m, const struct fs_task *t, double span)
{
	if (!m->runnable_ok || !runnable_agrees(t))
		return -1.0;
	double r0 = avg_of(m->runnable_sum, m->contrib) * exp2(-span / 32.0);
	double r1 = avg_of(t->runnable_sum, t->period_contrib);

	if (r1 <= r0 || r1 >= WP_UTIL_CEIL)
		return -1.0;
	double r = -32.0 * log2(1.0 - (r1 - r0) / 1024.0);

	/* a span is at most T: a fork's first activation is runnable all of it, read a hair over */
	return r <= span + WP_SLACK ? fmin(r, span) : -1.0;
}

/*
 * ns of work of a span of PELT periods: the PELT clock ran at the kernel's
 * rounded-down frequency scale, so the work is fie x that span; at most
 * most (compared in double first: a span of ~2^64 ns would not convert).
 */
static __u64 work_of(double periods, double fie, __u64 most)
{
	double ns = periods * WP_PERIOD_NS * (fie > 1.0 ? fie : 1.0);

	return ns < (double)most ? (__u64)(ns + 0.5) : most;
}

bool wp_bounds(const struct wp_mark *m, const struct fs_wakeup *next, __u64 cpu_ns, __u32 cap, double fie,
	       struct wp_range *out)
{
	const struct fs_task *t = &next->task;

	if (!m->ok || next->prev_cpu != m->cpu || (next->flags & FS_WAKE_FORK) || !sums_agree(t) ||
	    t->last_update_time <= m->lut)
		return false;
	double span = (double)(t->last_update_time - m->lut) / WP_PERIOD_NS;
	double u0 = avg_of(m->util_sum, m->contrib) * exp2(-span / 32.0);
	double u1 = avg_of(t->util_sum, t->period_contrib);

	if (u1 <= u0 || u1 >= WP_UTIL_CEIL)
		return false;
	double d = (u1 - u0) / 1024.0;
	double lo = -32.0 * log2(1.0 - d);

	if (lo > span + WP_SLACK)
		return false; /* more run than time: not one activation on one clock */
	lo = fmin(lo, span);
	__u64 most = (__u64)((unsigned __int128)cpu_ns * cap / 1024); /* its CPU time at fmax */
	double r = runnable_periods(m, t, span);

	out->hi = most;
	if (r >= 0.0) {
		/*
		 * A span read shorter than the run is one without a wait: runnable_sum
		 * starts above util_sum by the last activation's waits (r0 > u0), and
		 * those decayed over T take that much off R.
		 */
		out->hi = work_of(r > lo ? r + 32.0 * log2(d + exp2(-r / 32.0)) : lo, fie, most);
	}
	out->lo = work_of(lo, fie, out->hi);
	return true;
}

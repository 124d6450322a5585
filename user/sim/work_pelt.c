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
 * the PELT time between; taking the sleep first and the run last,
 *
 *   u_end = u_start y^T + 1024 (1 - y^W),  y^32 = 1/2 (a period is 1024 us),
 *
 * so W = -32 log2(1 - (u_end - u_start y^T) / 1024) periods: the least work
 * that growth can take, the run coming after any wait (a wake-up's latency
 * first). A preemption's wait after a stretch of running decays what it ran
 * and reads as a little less work; the time queued (runnable_sum) would place
 * the waits, but not in which order they came (docs/simulation.md, "Work from
 * the task's PELT", measures both readings). A util near 1024 tells nothing
 * more (the growth flattens).
 */
#include <math.h>
#include "work_pelt.h"
#include "../engine/pelt.h"

#define WP_PERIOD_NS 1048576.0 /* a PELT period: 1024 units of 1024 ns (delta >> 10 in ___update_load_sum()) */
#define WP_UTIL_CEIL 1000.0    /* above it the growth is too flat to read */

/* util_avg = util_sum / get_pelt_divider(): LOAD_AVG_MAX - 1024 + contrib (kernel/sched/pelt.h, v6.1). */
static double util_of(__u32 util_sum, __u32 contrib)
{
	return (double)util_sum / (double)(FS_LOAD_AVG_MAX - 1024 + (contrib < 1024 ? contrib : 1023));
}

/*
 * The record's util_sum must give its util_avg, within what one period adds
 * (1024 x 1024 / divider, about 22): util_avg follows util_sum only where an
 * update crosses a period (___update_load_sum() returns 0 before it,
 * kernel/sched/pelt.c, v6.1), so util_sum is the exact one. A kernel whose
 * sums are scaled another way is left to the frequency estimate.
 */
static bool sums_agree(const struct fs_task *t)
{
	double u = util_of(t->util_sum, t->period_contrib);

	return t->last_update_time && fabs(u - (double)t->util_avg) <= 24.0;
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
}

__u64 wp_freq_scale(__u64 khz, __u64 fmax)
{
	return fmax ? (khz << 10) / fmax : 1024;
}

__u64 wp_work(const struct wp_mark *m, const struct fs_wakeup *next, __u64 cpu_ns, __u32 cap, double fie)
{
	const struct fs_task *t = &next->task;

	if (!m->ok || next->prev_cpu != m->cpu || (next->flags & FS_WAKE_FORK) || !sums_agree(t) ||
	    t->last_update_time <= m->lut)
		return 0;
	double span = (double)(t->last_update_time - m->lut) / WP_PERIOD_NS;
	double u0 = util_of(m->util_sum, m->contrib) * exp2(-span / 32.0);
	double u1 = util_of(t->util_sum, t->period_contrib);

	if (u1 <= u0 || u1 >= WP_UTIL_CEIL)
		return 0;
	double periods = -32.0 * log2(1.0 - (u1 - u0) / 1024.0);

	if (periods > span)
		return 0; /* more run than time: not one activation on one clock */
	/* the PELT clock ran at the kernel's rounded-down frequency scale: the work is fie x that */
	__u64 w = (__u64)(periods * WP_PERIOD_NS * (fie > 1.0 ? fie : 1.0) + 0.5);
	__u64 most = (__u64)((unsigned __int128)cpu_ns * cap / 1024); /* its CPU time at fmax */

	return w < most ? w : most;
}

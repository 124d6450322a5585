// SPDX-License-Identifier: GPL-2.0
/*
 * The frequencies DEVICE work is derived at: each PD's state as schedutil
 * would have set it after each recorded wake-up, held by its rate limit,
 * from the landscape the enqueue leaves it (docs/simulation.md, "The
 * workload"). A recording without the kernel's frequency changes can only
 * rebuild them; where it errs the work does (a task's CPU time at 533 MHz
 * taken as at 999 MHz is 1.9 times its work).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "work_freq.h"
#include "../engine/pelt.h"

#define WF_CLOCK_STEP_NS 100000000ll /* 100 ms: far beyond a tick, far below a suspend */

static int append(struct wf_line *l, __u64 ts, int state)
{
	if (l->n && l->v[l->n - 1].state == state)
		return 0;
	if (l->n && ts < l->v[l->n - 1].since)
		ts = l->v[l->n - 1].since; /* a late record: never step back in time */
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct wf_sample *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	if (l->n) {
		l->changed = true;
		l->last_change = ts;
	}
	l->v[l->n++] = (struct wf_sample){ ts, state };
	return 0;
}

int wf_catch_up(struct wf_line *l, __u64 ts)
{
	if (!l->pending || l->due > ts)
		return 0;
	l->pending = false;
	return append(l, l->due, l->pend_state);
}

/*
 * sugov_should_update_freq() (kernel/sched/cpufreq_schedutil.c, v4.7 -
 * v7.1): no new frequency within rate_limit_us of the last change, whose
 * time (last_freq_update_time) moves only when the frequency does
 * (sugov_update_next_freq(), v5.13+; before, at each change too). The
 * kernel asks again at the next utilization update after the limit (the
 * tick at the latest while the PD is busy); here the last request held
 * lands when the limit ends.
 */
int wf_request(struct wf_line *l, __u64 ts, int state)
{
	if (wf_catch_up(l, ts))
		return -1;
	if (l->n && l->v[l->n - 1].state == state) {
		l->pending = false;
		return 0;
	}
	if (l->limit_ns && l->changed && ts >= l->last_change && ts - l->last_change < l->limit_ns) {
		l->pending = true;
		l->due = l->last_change + l->limit_ns;
		l->pend_state = state;
		return 0;
	}
	return append(l, ts, state);
}

/*
 * The records' ts_ns is CLOCK_BOOTTIME, a landscape's cfs_last_update_time
 * the rq's PELT clock (rq_clock_pelt(), from the rq's task clock). A PELT
 * clock never runs ahead of its task clock, and a CPU the wake-up updated
 * shows the task clock itself: the largest difference seen so far is the
 * offset (on the 6.1 lab: 3.435 ms, steady within 10 us over a recording).
 */
void wf_clock_see(struct wf_clock *c, const struct fs_wakeup *w)
{
	bool any = false;
	__s64 best = 0;

	for (int cpu = 0; cpu < w->hdr.nr_cpus && cpu < FS_MAX_CPUS; cpu++) {
		if (!w->cpu[cpu].cfs_last_update_time)
			continue;
		const __s64 d = (__s64)(w->cpu[cpu].cfs_last_update_time - w->hdr.ts_ns);

		if (!any || d > best)
			best = d, any = true;
	}
	/*
	 * A CPU busy at the wake-up was updated a tick ago at most, so a
	 * record's largest difference is mostly within a few ms of the offset; one
	 * WF_CLOCK_STEP_NS below it is the clocks parting (a suspend counts in
	 * BOOTTIME, not in the rq clock): the offset starts again from there.
	 */
	if (any && (!c->known || best > c->off || best < c->off - WF_CLOCK_STEP_NS)) {
		c->off = best;
		c->known = true;
	}
}

/*
 * enqueue_entity()'s update_load_avg() (kernel/sched/fair.c, v5.0 - v6.12)
 * brings the rq's cfs_rq to the present before cfs_rq_util_change() calls
 * schedutil; an idle CPU's was last updated when it went idle, and the
 * landscape, read at select_task_rq() before the enqueue, holds that
 * undecayed value (its blocked utilization). So for schedutil the run CPU's
 * util_avg decays by y^n over the PELT periods since (the clock of an idle
 * rq's PELT is its task clock, update_idle_rq_clock_pelt()). Idle here: no
 * queued task's util_est and, where recorded, nr_running 0; a busy CPU's
 * PELT clock lags its task clock by its invariance, so no decay is taken.
 */
const struct fs_wakeup *wf_enqueue_view(const struct wf_clock *c, const struct fs_wakeup *w, int run,
					struct fs_wakeup *scratch)
{
	if (!c->known || run < 0 || run >= w->hdr.nr_cpus || run >= FS_MAX_CPUS)
		return w;
	const struct fs_cpu *k = &w->cpu[run];

	if (!k->cfs_last_update_time || !k->util_avg || k->util_est ||
	    (!(k->flags & FS_CPU_NO_NR_RUNNING) && k->nr_running))
		return w;
	const __s64 el = (__s64)(w->hdr.ts_ns + (__u64)c->off - k->cfs_last_update_time);

	if (el < (1 << 20))
		return w; /* not a whole PELT period (1024 us) */
	memcpy(scratch, w, offsetof(struct fs_wakeup, cpu) + (size_t)w->hdr.nr_cpus * sizeof(w->cpu[0]));
	scratch->cpu[run].util_avg = (__u32)fs_decay_load(k->util_avg, (__u64)el >> 20);
	return scratch;
}

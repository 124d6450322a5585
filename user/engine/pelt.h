/* SPDX-License-Identifier: GPL-2.0 */
/* PELT decay of a blocked task, as feec's sync_entity_load_avg() does it (v5.0 - v7.1). */
#ifndef FEECSCOPE_ENGINE_PELT_H
#define FEECSCOPE_ENGINE_PELT_H

#include <stdbool.h>
#include <linux/types.h>
#include "../record.h"

#define FS_LOAD_AVG_PERIOD 32
#define FS_LOAD_AVG_MAX 47742 /* kernel/sched/sched-pelt.h, half-life 32 ms */

/* decay_load(): val * y^n with y^32 = 1/2, in the kernel's fixed point. */
__u64 fs_decay_load(__u64 val, __u64 n);

/* runnable_avg_yN_inv[n] for n < 32 (exposed for the table test). */
__u32 fs_pelt_yn_inv(unsigned int n);

/*
 * p->se.avg.util_avg after __update_load_avg_blocked_se(now, &p->se) with
 * now = cfs_rq_last_update_time.
 */
__u32 fs_sync_entity_util_avg(const struct fs_task *t);
/* p->se.avg.runnable_avg after the same sync (29922fdfc2a4's cpu_util() reads it). */
__u32 fs_sync_entity_runnable_avg(const struct fs_task *t);
/*
 * Whether that sync crosses a 1024 us period, i.e. recomputes the averages:
 * what an update at the enqueue does to util_est's UTIL_AVG_UNCHANGED flag.
 */
bool fs_sync_entity_crosses_period(const struct fs_task *t);

/*
 * A running entity's or a cfs_rq's struct sched_avg, for the simulated
 * machine (user/sim/): the fields ___update_load_sum() and
 * ___update_load_avg() touch, in the kernel's integer widths.
 */
struct fs_pelt_avg {
	__u64 last_update_time; /* ns of the PELT clock, a multiple of 1024 past the start */
	__u64 load_sum;
	__u64 runnable_sum;
	__u32 util_sum;
	__u32 period_contrib;
	__u64 load_avg;
	__u32 runnable_avg;
	__u32 util_avg;
};

/*
 * ___update_load_sum() then, when a period ended, ___update_load_avg()
 * (kernel/sched/pelt.c, v5.7 - v7.1: load, runnable and running inputs).
 * load is the weight (0: blocked), runnable the runnable count, running 0/1.
 * Returns whether the averages were recomputed.
 */
int fs_pelt_update(struct fs_pelt_avg *sa, __u64 now, __u64 load, __u64 runnable, int running);

/* get_pelt_divider(): LOAD_AVG_MAX - 1024 + period_contrib (v5.13+, open-coded before). */
static inline __u32 fs_pelt_divider(const struct fs_pelt_avg *sa)
{
	return FS_LOAD_AVG_MAX - 1024 + sa->period_contrib;
}

#endif

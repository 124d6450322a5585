/* SPDX-License-Identifier: GPL-2.0 */
/* PELT decay of a blocked task, as feec's sync_entity_load_avg() does it (v5.0 - v7.1). */
#ifndef FEECSCOPE_ENGINE_PELT_H
#define FEECSCOPE_ENGINE_PELT_H

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

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* fs_system_power_uw() for many destinations of one wake-up: PDs without the task computed once. */
#ifndef FEECSCOPE_ENGINE_POWER_ESTIMATE_H
#define FEECSCOPE_ENGINE_POWER_ESTIMATE_H

#include "em.h"

struct fs_power_ctx {
	const struct fs_em *em;
	const struct fs_wakeup *w;
	__u64 task_util, task_est; /* after the PELT sync */
	__u64 online;              /* online CPUs of the record */
	__u64 base_pd[FS_MAX_PDS]; /* each PD's power with the task nowhere */
	__u64 base_total;
};

void fs_power_ctx_init(struct fs_power_ctx *x, const struct fs_em *em, const struct fs_wakeup *w);
/* == fs_system_power_uw(em, w, dst_cpu) */
__u64 fs_power_ctx_at(const struct fs_power_ctx *x, int dst_cpu);

#endif

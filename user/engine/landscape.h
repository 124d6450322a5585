/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wake-up a policy sees: the recorded landscape as is when the EM is the
 * observed kernel's, or adapted to the EM (emulate_eas) when it is not —
 * capacities from the EM and the EAS gates decided from the landscape.
 */
#ifndef FEECSCOPE_LANDSCAPE_H
#define FEECSCOPE_LANDSCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include "em.h"

/* fits_capacity(): util needs 20% headroom, util*1280 < cap*1024 (v5.4+; v5.0-v5.3 open-coded the same) */
static inline bool fs_fits_capacity(__u64 util, __u64 cap)
{
	return util * 1280 < cap * 1024;
}

/*
 * cpu_util_cfs(cpu) for the recorded rq: max(util_avg, util_est) when
 * UTIL_EST is on, clamped to capacity_orig (v5.0+ cpu_util(); v5.19+ name).
 */
__u32 fs_cpu_util_cfs(const struct fs_cpu *c, bool util_est_on);

/*
 * The root domain's overutilized state from the landscape: some online CPU
 * with !fits_capacity(cpu_util_cfs, capacity_of) (v5.0 - 6.1.0
 * cpu_overutilized()). Emulated wake-ups carry it as FS_WAKE_OVERUTILIZED for
 * the counts, and FS_WAKE_OU_EMULATED: each policy's gate then applies its own
 * era's rule, uclamp included (fs_rd_overutilized(), rules.h).
 */
bool fs_landscape_overutilized(const struct fs_wakeup *w);

/*
 * Build the wake-up policies see. in: the record as fed; out: gets the wire
 * prefix (cpu[] entries beyond nr_cpus are left as they are: keep them zeroed).
 * emulate: adapt to em (see above). rd_overutilized: the last FS_REC_OVERUTIL
 * state, used when the collector could not read rd (FS_WAKE_EAS_UNKNOWN) and
 * we do not emulate. Returns -1 with err if the EM's CPU count differs.
 */
int fs_landscape_apply(const struct fs_em *em, const struct fs_wakeup *in, bool emulate,
		       bool rd_overutilized, struct fs_wakeup *out, char *err, size_t errlen);

#endif /* FEECSCOPE_LANDSCAPE_H */

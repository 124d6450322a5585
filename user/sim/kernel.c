// SPDX-License-Identifier: GPL-2.0
/* Which kernel the simulated machine follows: derived from the feec policy's era rules. */
#include "sim_internal.h"
#include "../engine/rules.h"

/*
 * The machine changes with the same kernels as the policy's feec: schedutil's
 * headroom form and inefficient OPPs come from fs_power_opts_for_policy()
 * (v5.14 map_util_perf(), v6.8 sugov_effective_cpu_perf(), v5.16
 * CPUFREQ_RELATION_E, v6.5 runnable boosting). util_est: the bit-0
 * UTIL_AVG_UNCHANGED flag until v5.12 (the rules' FS_UE_BIT0_OR: the v5.0
 * and v5.4 policies), the fast ramp-up of the ewma from v5.5 (b8c96361402a:
 * of the registry's policies, the same two lack it), one util_est word from
 * v6.8 (11137d384996). EEVDF replaced CFS's pick in v6.6 (147f3efaa241),
 * the release whose runnable boosting (v6.5) the 6.1.y policy lacks: the
 * rules' boost_max_util marks the v6.6+ policies.
 */
void sim_kernel_of(const struct fs_policy_desc *d, struct sim_kernel *k)
{
	const struct fs_feec_rules *r = d ? d->rules : NULL;
	struct fs_power_opts o = fs_power_opts_for_policy(d);

	k->dvfs = o.dvfs;
	k->skip_inefficient = o.skip_inefficient;
	k->runnable_boost = o.runnable_boost;
	k->ue_bit0 = r && r->ue_flag == FS_UE_BIT0_OR;
	k->ue_fastup = !k->ue_bit0;
	k->ue_single = r && r->eff >= FS_EFF_6_8;
	/* of the registry's policies, v5.15 is the first after v5.13, v6.12 after v6.7 */
	k->ue_cap_skip = !k->ue_bit0;
	k->ue_enqueued_moves = !k->ue_bit0;
	k->ue_runnable_skip = k->ue_single;
	k->eevdf = r && r->boost_max_util;
}

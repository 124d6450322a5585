// SPDX-License-Identifier: GPL-2.0
/*
 * feec of v5.0 - v5.2 (the original EAS wake-up path): every candidate is
 * scored by the energy of the whole root domain, and p moves only when that
 * saves more than prev_energy >> 4 (6.25 %).
 *
 * A deliberate per-version copy: this body follows its kernel range's
 * find_energy_efficient_cpu() line for line (the feec_v*.c files share
 * only what feec_common.c holds).
 */
#include "util.h"

/*
 * compute_energy(p, dst, head) of v5.0 - v5.2: sum of em_pd_energy() over all
 * PDs; per CPU schedutil_energy_util() = ENERGY_UTIL with max = the CPU's own
 * arch capacity, used for both the frequency (max) and busy time (sum).
 */
static __u64 compute_energy(const struct fs_feec_ctx *c, int dst)
{
	__u64 energy = 0;

	for (int i = c->em->nr_pd - 1; i >= 0; i--) {
		const struct fs_em_pd *pd = &c->em->pd[i];
		__u64 max_util = 0, sum_util = 0;
		int cpu;

		fs_for_each_cpu(cpu, pd->cpus & c->online, left) {
			__u64 u = fs_cpu_util_next(c, cpu, dst, false);
			u = fs_effective_cpu_util_old(c, cpu, u, fs_arch_cap(c, cpu), FS_ENERGY_UTIL, false);
			if (u > max_util)
				max_util = u;
			sum_util += u;
		}
		energy += fs_em_pd_energy_v5_0(&c->t->pd[i], max_util, sum_util);
	}
	return energy;
}

void fs_feec_v5_0(const struct fs_feec_ctx *c, struct fs_feec_result *out)
{
	const int prev = c->w->prev_cpu;
	__u64 prev_energy = UINT64_MAX, best_energy = UINT64_MAX;
	int best = prev;

	if (fs_feec_entry_exit(c, out))
		return;
	/* v5.0 - v5.12: _task_util_est() has bit 0 set, so this never fires
	 * with the kernel's own flag rule; kept for twins with other rules. */
	if (fs_feec_zero_util_exit(c, out, !c->task_util_est))
		return;

	/* rd->pd is built by prepending: PDs are visited highest first CPU first. */
	for (int i = c->em->nr_pd - 1; i >= 0; i--) {
		const struct fs_em_pd *pd = &c->em->pd[i];
		__u64 max_spare = 0;
		int ms = -1, cpu;

		fs_for_each_cpu(cpu, pd->cpus & c->cand_mask, left) {
			__u64 util = fs_cpu_util_next(c, cpu, cpu, false);
			__u64 cap = fs_capacity_of(c, cpu);
			/* v5.0 - v5.3: skip only when cap * 1024 < util * 1280. */
			if (!fs_fits_capacity_v5_0(util, cap))
				continue;
			if (cpu == prev) {
				/* prev always competes and never is the max-spare CPU. */
				prev_energy = compute_energy(c, prev);
				fs_feec_add_cand(out, prev, i, 1, prev_energy, 0, prev_energy);
				if (prev_energy < best_energy)
					best_energy = prev_energy;
				continue;
			}
			/* The fit test keeps util <= 0.8 * cap: no wrap here. */
			__u64 spare = cap - util;
			if (spare > max_spare) {
				max_spare = spare;
				ms = cpu;
			}
		}
		if (ms >= 0) {
			__u64 e = compute_energy(c, ms);
			fs_feec_add_cand(out, ms, i, 1, e, 0, e);
			if (e < best_energy) {
				best_energy = e;
				best = ms;
			}
		}
	}

	/*
	 * v5.0 - v5.3 compare whole energies: no base. Prev unfit or not
	 * allowed: the best, maybe prev_cpu itself, if any.
	 */
	fs_feec_conclude(c, out, 0, prev_energy, best_energy, (struct fs_feec_rule_in){
		.valid = true, .prev = prev, .best = best_energy == UINT64_MAX ? -1 : best,
	});
}

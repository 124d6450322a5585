// SPDX-License-Identifier: GPL-2.0
/*
 * The per-key state tables (energy.c's state_lut[], power_estimate.c's
 * fs_power_lut) are filled by bisection (state_lut.c): the search runs at a
 * few keys per state. Every entry must still be what the search from state 0 answers, for
 * every era and option set, on real and on random EMs: unsorted, skipped and
 * inefficient states, and frequencies whose products wrap in 64 bits.
 */
#include "test.h"
#include "em_builders.h"
#include "engine/energy.h"
#include "engine/policy.h"
#include "engine/power_estimate.h"

static __u64 next(__u64 *s)
{
	*s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
	return *s;
}

/* em (the 2-PD shape) with random states; kind 0 ascending, 1 huge kHz, 2 any order. */
static void random_em(struct fs_em *em, __u64 *seed, int kind)
{
	fs_test_em_2pd(em);
	for (int p = 0; p < em->nr_pd; p++) {
		struct fs_em_pd *pd = &em->pd[p];
		int n = 1 + (int)(next(seed) % FS_MAX_PS);
		__u64 f = 1 + next(seed) % 400000;

		pd->nr_ps = 0;
		pd->has_inefficient = next(seed) & 1;
		pd->flags = next(seed) & 1 ? FS_EM_PD_SKIP_INEFFICIENT : 0;
		for (int s = 0; s < n; s++) {
			struct fs_em_ps *ps = &pd->ps[pd->nr_ps];

			f += 1 + next(seed) % 300000;
			fs_test_add_state(pd, kind == 1 ? f << 40 : kind == 2 ? 1 + next(seed) % 3000000 : f,
					  1 + next(seed) % 2000000);
			ps->inefficient = pd->has_inefficient && (next(seed) & 3) == 0;
			ps->cost = 1 + next(seed) % 5000000;
			ps->performance = 1 + next(seed) % 1024;
		}
		for (int c = 0; c < FS_MAX_CPUS; c++)
			if (pd->cpus >> c & 1)
				em->capacity[c] = 1 + (__u32)(next(seed) % 1024);
	}
	em->cost_as_read = next(seed) & 1;
}

static struct fs_em *test_em(int i, __u64 *seed)
{
	static struct fs_em em;

	if (i == 0)
		fs_test_em_2pd(&em);
	else if (i == 1)
		fs_test_em_pixel4(&em, FS_POWER_MW);
	else if (i == 2)
		fs_test_em_pixel4(&em, FS_POWER_UW);
	else
		random_em(&em, seed, i % 3);
	return &em;
}

#define NR_EMS 300

FS_TEST(era_state_tables_equal_the_search_for_every_key)
{
	static struct fs_era_tables t;
	__u64 seed = 0x9e3779b97f4a7c15ull;
	long checked = 0, wrong = 0;
	char err[256];

	for (int e = 0; e < NR_EMS; e++) {
		const struct fs_em *em = test_em(e, &seed);

		for (int i = 0; i < fs_policy_count(); i++) {
			if (fs_energy_build_tables(em, fs_policy_at(i)->rules, &t, err, sizeof(err)))
				continue; /* an EM the era refuses (a state of performance 0) */
			for (int p = 0; p < t.nr_pd; p++)
				for (__u64 k = 0; k < FS_STATE_LUT; k++, checked++) {
					const struct fs_pd_table *pt = &t.pd[p];
					int want = fs_pd_table_search(pt, pt->energy, k);

					if (pt->state_lut[k] != want && !wrong++)
						FS_FAIL_AT("EM %d, %s, PD %d, key %llu: table %d, search %d", e,
							   fs_policy_at(i)->name, p, (unsigned long long)k,
							   pt->state_lut[k], want);
				}
		}
	}
	EXPECT_EQ(wrong, 0);
	EXPECT_TRUE(checked > 1000000); /* the EMs were not all refused */
}

FS_TEST(power_state_tables_equal_the_search_for_every_request)
{
	static const enum fs_power_dvfs dvfs[] = { FS_DVFS_5_0, FS_DVFS_5_14, FS_DVFS_6_8 };
	static struct fs_power_lut lut;
	__u64 seed = 0x2545f4914f6cdd1dull;
	long checked = 0, wrong = 0;

	for (int e = 0; e < NR_EMS; e++) {
		const struct fs_em *em = test_em(e, &seed);

		for (int d = 0; d < 3; d++)
			for (int skip = 0; skip < 2; skip++) {
				struct fs_power_opts o = fs_power_opts_mainline;

				o.dvfs = dvfs[d];
				o.skip_inefficient = skip;
				fs_power_lut_build_opts(&lut, em, &o);
				for (int p = 0; p < em->nr_pd; p++)
					for (__u64 m = 0; m < FS_POWER_LUT; m++, checked += 2) {
						int rs = fs_power_lut_search(&lut, p, false, m);
						int ws = fs_power_lut_search(&lut, p, true, m);

						if ((lut.state[p][m] != rs || lut.work[p][m] != ws) && !wrong++)
							FS_FAIL_AT("EM %d, dvfs %d, skip %d, PD %d, m %llu: table %d/%d, "
								   "search %d/%d", e, d, skip, p, (unsigned long long)m,
								   lut.state[p][m], lut.work[p][m], rs, ws);
					}
			}
	}
	EXPECT_EQ(wrong, 0);
	EXPECT_TRUE(checked > 1000000);
}

// SPDX-License-Identifier: GPL-2.0
/* fs_system_power_uw() (docs/power-estimate.md) against a hand-worked 2-PD landscape. */
#include "test.h"
#include "em_builders.h"
#include "engine/pelt.h"
#include "engine/power_estimate.h"

FS_TEST(energy_power_estimate_hand_worked)
{
	struct fs_em em;
	struct fs_wakeup w;
	unsigned int util[4] = { 100, 0, 200, 0 };

	fs_test_em_2pd(&em);
	fs_test_wakeup(&w, &em, util, 2, 100); /* task 100 on big cpu2 */
	/* dst = 2: little u = 100, 0; m = 100, want = 1e6 * 125 / 512 = 244140 -> 500 MHz (50 mW).
	 *   busy = min(100 * 1e6, 512 * 5e5) = 1e8; P = 50000 * 1e8 / (512 * 5e5) = 19531.
	 * big u = 300, 0; m = 300, want = 2e6 * 375 / 1024 = 732421 -> 1 GHz (400 mW).
	 *   busy = 300 * 2e6 = 6e8; P = 400000 * 6e8 / (1024 * 1e6) = 234375.
	 * total 253906. */
	EXPECT_EQ_U64(fs_system_power_uw(&em, &w, 2), 253906);
	/* dst = 0: little u = 200, 0: want = 1e6 * 250 / 512 = 488281 -> 500 MHz:
	 *   P = 50000 * 2e8 / 2.56e8 = 39062. big u = 200: want = 2e6 * 250 / 1024 = 488281 -> 500 MHz
	 *   (200 mW): busy = min(4e8, 1024 * 5e5 = 5.12e8) = 4e8; P = 200000 * 4e8 / 5.12e8 = 156250.
	 * total 195312. */
	EXPECT_EQ_U64(fs_system_power_uw(&em, &w, 0), 195312);
	/* dst = -1: little 100 -> 19531; big 200 -> 156250: 175781. */
	EXPECT_EQ_U64(fs_system_power_uw(&em, &w, -1), 175781);
}

/*
 * Recorded before fs_power_ctx_at() went incremental, from the full per-PD
 * recomputation: any change of the estimate's integers changes it.
 */
#define POWER_FINGERPRINT 0xa7997ce549e4a2faull

/* with_lut: the pipeline's state table (fs_power_lut_build) instead of the search. */
static __u64 power_fingerprint(bool with_lut)
{
	static struct fs_em em;
	static struct fs_wakeup w;
	static struct fs_power_lut lut;
	__u64 h = 0xcbf29ce484222325ull, seed = 0x853c49e6748fea9bull;

	for (int e = 0; e < 3; e++) {
		if (e == 0)
			fs_test_em_2pd(&em);
		else
			fs_test_em_pixel4(&em, e == 1 ? FS_POWER_MW : FS_POWER_UW);
		fs_power_lut_build(&lut, &em);
		for (int n = 0; n < 5000; n++) {
			struct fs_power_ctx x;

			fs_test_random_wakeup(&w, &em, &seed);
			fs_power_ctx_init_lut(&x, &em, &w, with_lut ? &lut : NULL);
			for (int d = -1; d < em.nr_cpus; d++) {
				__u64 v = fs_power_ctx_at(&x, d);

				for (int i = 0; i < 8; i++, v >>= 8)
					h = (h ^ (v & 0xff)) * 0x100000001b3ull;
			}
		}
	}
	return h;
}

FS_TEST(power_estimate_over_generated_wakeups_keeps_its_fingerprint)
{
	__u64 h = power_fingerprint(false);

	if (h != POWER_FINGERPRINT)
		fprintf(stderr, "    fingerprint 0x%016llxull\n", (unsigned long long)h);
	EXPECT_EQ_U64(h, POWER_FINGERPRINT);
	/* The state table gives the same integers as the search it was built from. */
	EXPECT_EQ_U64(power_fingerprint(true), POWER_FINGERPRINT);
}

/*
 * docs/power-estimate.md evaluated CPU by CPU with no shortcut: the reference
 * the incremental fs_power_ctx (one pass, busy time summed when no term clips,
 * one PD swapped per destination) must equal.
 */
static __u64 power_reference(const struct fs_em *em, const struct fs_wakeup *w, int dst)
{
	__u64 tu = fs_sync_entity_util_avg(&w->task), ue = w->task.util_est_ewma, total = 0;

	if (w->task.util_est_enqueued > ue)
		ue = w->task.util_est_enqueued;
	__u64 te = tu > ue ? tu : ue;
	for (int p = 0; p < em->nr_pd; p++) {
		const struct fs_em_pd *pd = &em->pd[p];
		int first = fs_em_pd_first_cpu(pd);
		__u64 u[FS_MAX_CPUS] = { 0 }, m = 0;
		bool any = false;

		if (pd->nr_ps <= 0 || first < 0 || !em->capacity[first])
			continue;
		__u64 cap = em->capacity[first], fmax = pd->ps[pd->nr_ps - 1].frequency;
		for (int i = 0; i < em->nr_cpus; i++) {
			if (!(pd->cpus & (1ull << i)) || !(w->cpu[i].flags & FS_CPU_ONLINE))
				continue;
			__u64 cfs = w->cpu[i].util_avg;
			if (i == w->task_cpu)
				cfs = cfs > tu ? cfs - tu : 0;
			if (i == dst)
				cfs += te;
			__u64 v = cfs + w->cpu[i].rt_util + w->cpu[i].dl_util + w->cpu[i].irq_util;
			u[i] = v < cap ? v : cap;
			m = u[i] > m ? u[i] : m;
			any = true;
		}
		if (!any)
			continue;
		int s = 0;
		while (s < pd->nr_ps - 1 && pd->ps[s].frequency < fmax * (m + m / 4) / cap)
			s++;
		__u64 f = pd->ps[s].frequency;
		unsigned __int128 busy = 0;
		for (int i = 0; i < em->nr_cpus; i++) {
			if (!(pd->cpus & (1ull << i)) || !(w->cpu[i].flags & FS_CPU_ONLINE))
				continue;
			unsigned __int128 b = (unsigned __int128)u[i] * fmax;
			busy += b < (unsigned __int128)cap * f ? b : (unsigned __int128)cap * f;
		}
		__u64 pw = em->unit == FS_POWER_MW ? pd->ps[s].power * 1000 : pd->ps[s].power;
		if (f)
			total += (__u64)((unsigned __int128)pw * busy / ((unsigned __int128)cap * f));
	}
	return total;
}

FS_TEST(power_estimate_equals_the_formula_cpu_by_cpu)
{
	static struct fs_em em;
	static struct fs_wakeup w;
	static struct fs_power_lut lut;
	__u64 seed = 0x2545f4914f6cdd1dull;
	int bad = 0, checked = 0;

	for (int e = 0; e < 3; e++) {
		fs_test_em_2pd(&em);
		if (e == 1) {
			/* kHz so coarse that the lowest state meeting the headroom can sit
			 * below u * fmax / cap: the busy terms clip at cap * f */
			static const __u64 f0[] = { 1, 2 }, f1[] = { 1, 2, 10 };
			for (int s = 0; s < 2; s++)
				em.pd[0].ps[s].frequency = f0[s];
			for (int s = 0; s < 3; s++)
				em.pd[1].ps[s].frequency = f1[s];
		} else if (e == 2) {
			fs_test_em_pixel4(&em, FS_POWER_UW);
		}
		fs_power_lut_build(&lut, &em);
		for (int n = 0; n < 3000; n++) {
			struct fs_power_ctx x;

			fs_test_random_wakeup(&w, &em, &seed);
			fs_power_ctx_init_lut(&x, &em, &w, n & 1 ? &lut : NULL);
			for (int d = -1; d < em.nr_cpus; d++, checked++) {
				__u64 want = power_reference(&em, &w, d), got = fs_power_ctx_at(&x, d);
				if (want != got && !bad++)
					fprintf(stderr, "    EM %d wake-up %d dst %d: %llu, formula %llu\n", e, n, d,
						(unsigned long long)got, (unsigned long long)want);
			}
		}
	}
	EXPECT_EQ_U64(bad, 0);
	EXPECT_TRUE(checked > 50000);
}

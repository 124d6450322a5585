// SPDX-License-Identifier: GPL-2.0
/* fs_system_power_uw() (docs/power-estimate.md) against a hand-worked 2-PD landscape. */
#include "test.h"
#include "em_builders.h"
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

// SPDX-License-Identifier: GPL-2.0
/* Monotone per-key state tables by bisection (state_lut.h). */
#include <string.h>
#include "state_lut.h"

/* out[lo..hi] given their ends' answers a = search(lo) <= b = search(hi). */
static void fill(__u8 *out, size_t lo, size_t hi, int a, int b, fs_state_search_fn search, const void *ctx)
{
	while (a != b && hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		int m = search(ctx, mid, a); /* the states below a fail lo, so they fail mid */

		fill(out, lo, mid, a, m, search, ctx);
		lo = mid;
		a = m;
	}
	if (a == b) {
		memset(out + lo, a, hi - lo + 1); /* never falling, equal at both ends: equal between */
	} else {
		out[lo] = (__u8)a;
		out[hi] = (__u8)b;
	}
}

void fs_state_lut_fill(__u8 *out, size_t n, fs_state_search_fn search, const void *ctx)
{
	int a = search(ctx, 0, 0);

	fill(out, 0, n - 1, a, n > 1 ? search(ctx, n - 1, a) : a, search, ctx);
}

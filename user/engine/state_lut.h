/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-key state tables (energy.c's state_lut[], power_estimate.c's
 * fs_power_lut) filled from a search whose answer never falls as the key
 * grows: the keys between two with the same answer all have it, so the
 * search runs at a few keys per state instead of at every key.
 */
#ifndef FEECSCOPE_ENGINE_STATE_LUT_H
#define FEECSCOPE_ENGINE_STATE_LUT_H

#include <stddef.h>
#include <linux/types.h>

/*
 * The state for key, searched from state `from`: every state below it already
 * fails the key (it failed a smaller one), so the answer is what a search
 * from state 0 gives.
 */
typedef int (*fs_state_search_fn)(const void *ctx, __u64 key, int from);

/* out[k] = search(ctx, k, ...) for every k < n (n > 0); answers must fit a byte. */
void fs_state_lut_fill(__u8 *out, size_t n, fs_state_search_fn search, const void *ctx);

#endif /* FEECSCOPE_ENGINE_STATE_LUT_H */

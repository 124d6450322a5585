// SPDX-License-Identifier: GPL-2.0
/* Time bins of the margin's cost, cut into blocks for the verdict's bootstrap (time_blocks.h). */
#include <stdlib.h>
#include <string.h>
#include "time_blocks.h"

int fs_blocks_init(struct fs_time_blocks *b, int nv)
{
	memset(b, 0, sizeof(*b));
	b->nv = nv;
	b->bin_ns = FS_BLOCK_BIN0_NS;
	if (!nv)
		return 0;
	/* not calloc: most runs use a few of the bins, zeroed as they come into use (fs_blocks_add) */
	b->bins = malloc((size_t)nv * FS_BLOCK_BINS * sizeof(*b->bins));
	return b->bins ? 0 : -1;
}

void fs_blocks_start(struct fs_time_blocks *b, __u64 t0)
{
	if (b->started)
		return;
	b->started = true;
	b->t0 = t0;
}

void fs_blocks_free(struct fs_time_blocks *b)
{
	free(b->bins);
	b->bins = NULL;
}

/* Bins [nbins, n) zeroed: they come into use (only bins below nbins hold sums). */
static void use_bins(struct fs_time_blocks *b, size_t n)
{
	for (int q = 0; q < b->nv; q++)
		memset(b->bins + (size_t)q * FS_BLOCK_BINS + b->nbins, 0, (n - b->nbins) * sizeof(*b->bins));
	b->nbins = n;
}

/* Twice as wide bins: adjacent pairs summed (an odd last bin with a zero). */
static void widen(struct fs_time_blocks *b)
{
	size_t half = (b->nbins + 1) / 2;

	if (b->nbins & 1)
		use_bins(b, b->nbins + 1);
	for (int q = 0; q < b->nv; q++) {
		fs_fj_t *s = b->bins + (size_t)q * FS_BLOCK_BINS;

		for (size_t i = 0; i < half; i++)
			s[i] = s[2 * i] + s[2 * i + 1];
	}
	b->bin_ns *= 2;
	b->nbins = half;
}

void fs_blocks_add(struct fs_time_blocks *b, __u64 ts, const fs_fj_t *delta)
{
	if (!b->nv)
		return;
	if (!b->started) {
		b->started = true;
		b->t0 = ts;
	}
	__u64 i = ts > b->t0 ? (ts - b->t0) / b->bin_ns : 0; /* a late record joins the first bin */

	while (i >= FS_BLOCK_BINS) {
		widen(b);
		i = (ts - b->t0) / b->bin_ns;
	}
	if (i + 1 > b->nbins)
		use_bins(b, i + 1);
	for (int q = 0; q < b->nv; q++)
		b->bins[(size_t)q * FS_BLOCK_BINS + i] += delta[q];
}

/*
 * Bins per block for bins of bin_ns over span: long traces the first
 * power-of-two block from 1 s; shorter ones (span under 10 s) the last one
 * not above span / 10, so there are at least FS_BLOCK_MIN_BLOCKS blocks
 * (docs/accounting.md, The interval).
 */
static size_t bins_per_block(__u64 bin_ns, __u64 span)
{
	__u64 want = span / FS_BLOCK_MIN_BLOCKS < FS_BLOCK_TARGET_NS ? span / FS_BLOCK_MIN_BLOCKS : FS_BLOCK_TARGET_NS;
	size_t per = 1;

	if (want == FS_BLOCK_TARGET_NS) {
		while (per * bin_ns < want && per < FS_BLOCK_BINS)
			per *= 2;
	} else {
		while (2 * per * bin_ns <= want && per < FS_BLOCK_BINS)
			per *= 2;
	}
	return per;
}

__u64 fs_blocks_width(__u64 span_ns)
{
	__u64 bin = FS_BLOCK_BIN0_NS;

	/* the width fs_blocks_add() has widened its bins to once a record at span_ns came */
	while (span_ns / bin >= FS_BLOCK_BINS)
		bin *= 2;
	return bin * bins_per_block(bin, span_ns);
}

size_t fs_blocks_cut(const struct fs_time_blocks *b, int q, __u64 end, fs_fj_t *out, size_t max, __u64 *block_ns)
{
	__u64 span = b->started && end > b->t0 ? end - b->t0 : 0;
	size_t per = bins_per_block(b->bin_ns, span); /* bins per block */

	*block_ns = per * b->bin_ns;
	if (!b->started || !max)
		return 0;
	/* every block up to the last bin in use (fs_blocks_add(end, zeros) first to reach the end) */
	size_t nbins = b->nbins, n = (nbins + per - 1) / per;

	if (n > max)
		n = max;
	const fs_fj_t *s = b->bins + (size_t)q * FS_BLOCK_BINS;

	for (size_t k = 0; k < n; k++) {
		out[k] = 0;
		for (size_t i = k * per; i < (k + 1) * per && i < nbins; i++)
			out[k] += s[i];
	}
	return n;
}

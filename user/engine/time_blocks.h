/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The margin's cost over time, for the verdict's interval: each closed
 * placement's Δ (per verdict) added to the time bin of its wake-up. Bins
 * start at 10 ms and double in width (adjacent pairs merged) whenever more
 * than FS_BLOCK_BINS would be needed, so memory stays bounded whatever the
 * trace's length. Blocks for the bootstrap are whole numbers of bins.
 */
#ifndef FEECSCOPE_TIME_BLOCKS_H
#define FEECSCOPE_TIME_BLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "fj.h"

#define FS_BLOCK_BINS 4096
#define FS_BLOCK_BIN0_NS 10000000ull       /* 10 ms: the first bin width */
#define FS_BLOCK_TARGET_NS 1000000000ull   /* blocks of about 1 s ... */
#define FS_BLOCK_MIN_BLOCKS 10             /* ... or shorter, for at least 10 blocks */

struct fs_time_blocks {
	int nv;              /* series (one per verdict) */
	bool started;
	__u64 t0;            /* the first wake-up's time */
	__u64 bin_ns;
	size_t nbins;        /* bins in use */
	fs_fj_t *bins;       /* nv × FS_BLOCK_BINS, series-major; bins from nbins on unset */
};

int fs_blocks_init(struct fs_time_blocks *b, int nv);   /* -1: out of memory */
/* Blocks count from t0 (the observation's first record); else from the first placement added. */
void fs_blocks_start(struct fs_time_blocks *b, __u64 t0);
void fs_blocks_free(struct fs_time_blocks *b);
/* A placement that started at ts closed with delta[q] for each series q. */
void fs_blocks_add(struct fs_time_blocks *b, __u64 ts, const fs_fj_t *delta);
/*
 * Series q cut into blocks over [t0, end]: about FS_BLOCK_TARGET_NS each, or
 * shorter (down to one bin) for at least FS_BLOCK_MIN_BLOCKS; every block
 * counts, the ones without a placement too (add zeros at end first, so the
 * bins reach it). Writes up to max sums to out; returns how many blocks,
 * their width in *block_ns.
 */
/*
 * The block width fs_blocks_cut() gives a trace of span_ns fed from its
 * start to its end: the closed-loop simulation cuts its timeline the same way.
 */
__u64 fs_blocks_width(__u64 span_ns);
size_t fs_blocks_cut(const struct fs_time_blocks *b, int q, __u64 end, fs_fj_t *out, size_t max, __u64 *block_ns);

#endif /* FEECSCOPE_TIME_BLOCKS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Merge of the collector's per-CPU ring buffers into one stream in timestamp
 * order. Each CPU writes its own ring (no cache line shared between producers),
 * so a wake-up's snapshot (waker CPU) and its placement (target CPU) arrive on
 * different rings; the pairing needs them in the order they happened.
 *
 * Records are queued per ring (each ring is in time order already) and
 * released in hdr.ts_ns order up to a watermark: a time before which every
 * record has been committed and read. A record that arrives after its time
 * was released (its program outlived the watermark's slack) goes out at once
 * and is counted as late. No libbpf here: unit-testable anywhere.
 */
#ifndef FEECSCOPE_RING_MERGE_H
#define FEECSCOPE_RING_MERGE_H

#include <stddef.h>
#include <linux/types.h>

/* Receives each record in merged order; a non-zero return is kept and returned by the caller. */
typedef int (*fs_merge_emit_fn)(void *ctx, const void *data, size_t size);

struct fs_ring_merge;

struct fs_ring_merge *fs_ring_merge_new(unsigned int nr_rings, fs_merge_emit_fn emit, void *ctx);
void fs_ring_merge_free(struct fs_ring_merge *m); /* accepts NULL */

/* Queue a copy of one record read from ring (records start with struct fs_rec_hdr). -ENOMEM, -EINVAL. */
int fs_ring_merge_push(struct fs_ring_merge *m, unsigned int ring, const void *data, size_t size);

/* Emit, in ts order, every queued record with ts_ns <= upto_ns. Returns the first non-zero emit result. */
int fs_ring_merge_release(struct fs_ring_merge *m, __u64 upto_ns);

/* Emit everything queued (end of run). */
int fs_ring_merge_flush(struct fs_ring_merge *m);

struct fs_ring_merge_stats {
	__u64 late;       /* records that arrived after their time was released */
	__u64 max_queued; /* most records held at once */
};
const struct fs_ring_merge_stats *fs_ring_merge_stats(const struct fs_ring_merge *m);

#endif /* FEECSCOPE_RING_MERGE_H */

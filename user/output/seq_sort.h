/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text chunks put back in sequence order with bounded memory. Placements
 * close out of wake-up order (a task that sleeps for a minute closes its row
 * a minute late), so an output that promises wake-up order holds rows until
 * every earlier one arrived: in memory up to a limit, then as sorted runs in
 * an unlinked file beside the output, merged at the end.
 *
 * While nothing has been spilled, chunks whose predecessors all arrived are
 * written at once; after a spill everything waits for fs_seq_sort_finish().
 */
#ifndef FEECSCOPE_SEQ_SORT_H
#define FEECSCOPE_SEQ_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "../record.h"

struct fs_seq_sort;

/*
 * Chunks go to out (written in order, seq from first_seq up without gaps:
 * every seq must come exactly once); spill files are made next to path.
 * mem_limit: bytes of held text before a spill. NULL: out of memory.
 */
struct fs_seq_sort *fs_seq_sort_new(FILE *out, const char *path, __u64 first_seq, size_t mem_limit);
/*
 * Chunks that are not the text itself (rows packed smaller while they are
 * held): emit writes each one's text to out when its turn comes, returning
 * 0, or -1 with errno set. Set it before the first add.
 */
typedef int (*fs_seq_sort_emit_fn)(void *ctx, const char *chunk, size_t len, FILE *out);
void fs_seq_sort_set_emit(struct fs_seq_sort *s, fs_seq_sort_emit_fn emit, void *ctx);
/*
 * True when seq's turn has come (every earlier chunk written, nothing held):
 * it counts as written and the caller writes it itself, skipping the hold
 * (and, for packed rows, the packing). False: add it.
 */
bool fs_seq_sort_take(struct fs_seq_sort *s, __u64 seq);
/*
 * Memory the caller lends for the first chunks held (before the first
 * add; it must outlive s): the arena is reserved only when they outgrow
 * half of it.
 */
void fs_seq_sort_set_scratch(struct fs_seq_sort *s, void *mem, size_t len);
/* Add chunk seq (len bytes of text). -1 with err on a write or memory error. */
int fs_seq_sort_add(struct fs_seq_sort *s, __u64 seq, const char *text, size_t len, char *err, size_t errlen);
/* Write everything still held, in order. -1 with err. */
int fs_seq_sort_finish(struct fs_seq_sort *s, char *err, size_t errlen);
/* Runs spilled so far (for tests and the bench). */
int fs_seq_sort_runs(const struct fs_seq_sort *s);
void fs_seq_sort_free(struct fs_seq_sort *s);

#endif /* FEECSCOPE_SEQ_SORT_H */

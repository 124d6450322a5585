/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A recording chunk's payload codec (docs/recording.md, "Chunks"): zstd from
 * format version 4, zlib for versions 1 to 3. Used by recording.c only.
 */
#ifndef FEECSCOPE_REC_CHUNK_H
#define FEECSCOPE_REC_CHUNK_H

#include <stdbool.h>
#include <stddef.h>

/* A writer's compression (compress) or a reader's decompression context, kept for every chunk. */
struct fs_rec_zctx;
struct fs_rec_zctx *fs_rec_zctx_new(bool compress);
void fs_rec_zctx_free(struct fs_rec_zctx *z); /* accepts NULL */

/* Largest payload raw bytes can take. */
size_t fs_rec_zip_bound(size_t raw_len);
/* Compress raw into dst (cap bytes, at least the bound) as the current version does; its length, 0 on failure. */
size_t fs_rec_zip(struct fs_rec_zctx *z, void *dst, size_t cap, const void *raw, size_t raw_len);

/*
 * Inflate a payload of a file of this format version into dst: 0 if it
 * decodes to exactly raw_len bytes, -1 otherwise (damage of any kind).
 */
int fs_rec_unzip(struct fs_rec_zctx *u, int version, void *dst, size_t raw_len, const void *src, size_t comp_len);

#endif /* FEECSCOPE_REC_CHUNK_H */

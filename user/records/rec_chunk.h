/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A recording chunk's payload codec (docs/recording.md, "Chunks"): zstd from
 * format version 4, zlib for versions 1 to 3. Used by recording.c only.
 */
#ifndef FEECSCOPE_REC_CHUNK_H
#define FEECSCOPE_REC_CHUNK_H

#include <stddef.h>

struct fs_rec_zip;   /* a writer's compression context, kept for every chunk */
struct fs_rec_unzip; /* a reader's decompression context */

struct fs_rec_zip *fs_rec_zip_new(void);
void fs_rec_zip_free(struct fs_rec_zip *z);
/* Largest payload raw bytes can take. */
size_t fs_rec_zip_bound(size_t raw_len);
/* Compress raw into dst (cap bytes, at least the bound) as the current version does; its length, 0 on failure. */
size_t fs_rec_zip(struct fs_rec_zip *z, void *dst, size_t cap, const void *raw, size_t raw_len);

struct fs_rec_unzip *fs_rec_unzip_new(void);
void fs_rec_unzip_free(struct fs_rec_unzip *u);
/*
 * Inflate a payload of a file of this format version into dst: 0 if it
 * decodes to exactly raw_len bytes, -1 otherwise (damage of any kind).
 */
int fs_rec_unzip(struct fs_rec_unzip *u, int version, void *dst, size_t raw_len, const void *src, size_t comp_len);

#endif /* FEECSCOPE_REC_CHUNK_H */

// SPDX-License-Identifier: GPL-2.0
/* A recording chunk's payload: zstd from format version 4, zlib before (docs/recording.md). */
#include <stdlib.h>
#include <zlib.h>
#include <zstd.h>
#include "rec_chunk.h"

/*
 * A negative ("fast") zstd level: the writer runs inside live's daemon for
 * every wake-up, so its CPU time counts more than a few bytes of file.
 * docs/recording.md gives the measured cost and size of each level tried.
 */
#define ZIP_LEVEL (-1)

/* The writer's or the reader's zstd context, kept for every chunk (one of the two is set). */
struct fs_rec_zctx {
	ZSTD_CCtx *cctx;
	ZSTD_DCtx *dctx;
};

struct fs_rec_zctx *fs_rec_zctx_new(bool compress)
{
	struct fs_rec_zctx *z = calloc(1, sizeof(*z));

	if (!z)
		return NULL;
	if (compress)
		z->cctx = ZSTD_createCCtx();
	else
		z->dctx = ZSTD_createDCtx();
	if (!z->cctx && !z->dctx) {
		free(z);
		return NULL;
	}
	return z;
}

void fs_rec_zctx_free(struct fs_rec_zctx *z)
{
	if (!z)
		return;
	ZSTD_freeCCtx(z->cctx);
	ZSTD_freeDCtx(z->dctx);
	free(z);
}

size_t fs_rec_zip_bound(size_t raw_len)
{
	return ZSTD_compressBound(raw_len);
}

size_t fs_rec_zip(struct fs_rec_zctx *z, void *dst, size_t cap, const void *raw, size_t raw_len)
{
	size_t n = ZSTD_compressCCtx(z->cctx, dst, cap, raw, raw_len, ZIP_LEVEL);

	return ZSTD_isError(n) ? 0 : n;
}

int fs_rec_unzip(struct fs_rec_zctx *u, int version, void *dst, size_t raw_len, const void *src, size_t comp_len)
{
	if (version < 4) {
		uLongf got = raw_len;

		return uncompress(dst, &got, src, comp_len) == Z_OK && got == raw_len ? 0 : -1;
	}
	/*
	 * One-shot into dst: zstd decodes straight into the caller's buffer and
	 * fails rather than write past raw_len, whatever window the frame claims.
	 */
	size_t got = ZSTD_decompressDCtx(u->dctx, dst, raw_len, src, comp_len);

	return !ZSTD_isError(got) && got == raw_len ? 0 : -1;
}

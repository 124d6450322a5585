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

struct fs_rec_zip {
	ZSTD_CCtx *cctx;
};

struct fs_rec_unzip {
	ZSTD_DCtx *dctx;
};

struct fs_rec_zip *fs_rec_zip_new(void)
{
	struct fs_rec_zip *z = calloc(1, sizeof(*z));

	if (z && !(z->cctx = ZSTD_createCCtx())) {
		free(z);
		return NULL;
	}
	return z;
}

void fs_rec_zip_free(struct fs_rec_zip *z)
{
	if (!z)
		return;
	ZSTD_freeCCtx(z->cctx);
	free(z);
}

size_t fs_rec_zip_bound(size_t raw_len)
{
	return ZSTD_compressBound(raw_len);
}

size_t fs_rec_zip(struct fs_rec_zip *z, void *dst, size_t cap, const void *raw, size_t raw_len)
{
	size_t n = ZSTD_compressCCtx(z->cctx, dst, cap, raw, raw_len, ZIP_LEVEL);

	return ZSTD_isError(n) ? 0 : n;
}

struct fs_rec_unzip *fs_rec_unzip_new(void)
{
	struct fs_rec_unzip *u = calloc(1, sizeof(*u));

	if (u && !(u->dctx = ZSTD_createDCtx())) {
		free(u);
		return NULL;
	}
	return u;
}

void fs_rec_unzip_free(struct fs_rec_unzip *u)
{
	if (!u)
		return;
	ZSTD_freeDCtx(u->dctx);
	free(u);
}

int fs_rec_unzip(struct fs_rec_unzip *u, int version, void *dst, size_t raw_len, const void *src, size_t comp_len)
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

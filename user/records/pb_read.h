/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small protocol-buffers wire decoder, the reading twin of
 * output/protobuf.c's encoder (which the source layer may not use): one
 * field at a time from a byte range, no schema. Callers name the field
 * numbers and check each field's wire type themselves. Inline because a
 * trace reader calls it a dozen times per event.
 */
#ifndef FEECSCOPE_PB_READ_H
#define FEECSCOPE_PB_READ_H

#include <stddef.h>
#include <stdint.h>

enum fs_pbr_wire {
	FS_PBR_VARINT = 0,
	FS_PBR_I64 = 1,
	FS_PBR_LEN = 2,
	FS_PBR_I32 = 5,
};

/* What went wrong with the field fs_pbr_next() was reading. */
enum fs_pbr_err {
	FS_PBR_OK = 0,
	FS_PBR_TRUNC_TAG = -1,     /* the tag's varint runs past the end */
	FS_PBR_TRUNC_VARINT = -2,  /* a varint value runs past the end (or over 10 bytes) */
	FS_PBR_TRUNC_LEN = -3,     /* a length or a fixed value runs past the end */
	FS_PBR_BAD_WIRE = -4,      /* wire type 3, 4 (groups), 6 or 7 */
	FS_PBR_BAD_FIELD = -5,     /* field number 0 */
};

struct fs_pbr {
	const uint8_t *p, *end;
};

struct fs_pbr_field {
	uint32_t num;          /* field number */
	uint32_t wire;         /* enum fs_pbr_wire */
	uint64_t v;            /* a varint's or fixed field's value */
	const uint8_t *data;   /* FS_PBR_LEN: the bytes */
	size_t len;
};

static inline void fs_pbr_init(struct fs_pbr *r, const void *buf, size_t len)
{
	r->p = buf;
	r->end = r->p + len;
}

/* A varint at *p (not past end): 0 and *p past it, or -1 (truncated, or over 10 bytes). */
static inline int fs_pbr_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	const uint8_t *q = *p;
	uint64_t x = 0;

	if (q < end && *q < 0x80) { /* the common one-byte case */
		*v = *q;
		*p = q + 1;
		return 0;
	}
	for (int shift = 0; shift < 70 && q < end; shift += 7) {
		uint8_t b = *q++;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (b < 0x80) {
			*v = x;
			*p = q;
			return 0;
		}
	}
	return -1;
}

/* The next field: 1 with *f, 0 at the end, or an enum fs_pbr_err (r then stays at the bad field). */
int fs_pbr_next(struct fs_pbr *r, struct fs_pbr_field *f);

/* "truncated varint" and the like, for an error line. */
const char *fs_pbr_strerror(int err);
/* "varint", "fixed64", "length-delimited", "fixed32", or "wire type N" (buf holds it). */
const char *fs_pbr_wire_name(uint32_t wire, char *buf, size_t len);

#endif /* FEECSCOPE_PB_READ_H */

// SPDX-License-Identifier: GPL-2.0
/* The protocol-buffers wire decoder (pb_read.h): tags, varints, lengths. */
#include <stdio.h>
#include <string.h>
#include "pb_read.h"

int fs_pbr_next(struct fs_pbr *r, struct fs_pbr_field *f)
{
	const uint8_t *p = r->p;
	uint64_t tag, n;

	f->data = NULL;
	f->len = 0;
	if (p >= r->end)
		return 0;
	if (fs_pbr_varint(&p, r->end, &tag))
		return FS_PBR_TRUNC_TAG;
	f->num = (uint32_t)(tag >> 3);
	f->wire = tag & 7;
	if (!f->num || tag >> 32)
		return FS_PBR_BAD_FIELD;
	switch (f->wire) {
	case FS_PBR_VARINT:
		if (fs_pbr_varint(&p, r->end, &f->v))
			return FS_PBR_TRUNC_VARINT;
		break;
	case FS_PBR_I64:
	case FS_PBR_I32:
		n = f->wire == FS_PBR_I64 ? 8 : 4;
		if ((size_t)(r->end - p) < n)
			return FS_PBR_TRUNC_LEN;
		f->v = 0;
		for (unsigned i = 0; i < n; i++) /* little-endian on the wire */
			f->v |= (uint64_t)p[i] << (8 * i);
		p += n;
		break;
	case FS_PBR_LEN:
		if (fs_pbr_varint(&p, r->end, &n))
			return FS_PBR_TRUNC_VARINT;
		if (n > (uint64_t)(r->end - p))
			return FS_PBR_TRUNC_LEN;
		f->data = p;
		f->len = (size_t)n;
		p += n;
		break;
	default:
		return FS_PBR_BAD_WIRE;
	}
	r->p = p;
	return 1;
}

const char *fs_pbr_strerror(int err)
{
	switch (err) {
	case FS_PBR_TRUNC_TAG: return "truncated tag";
	case FS_PBR_TRUNC_VARINT: return "truncated varint";
	case FS_PBR_TRUNC_LEN: return "length past the end of its message";
	case FS_PBR_BAD_WIRE: return "wire type not readable (groups, 6, 7)";
	case FS_PBR_BAD_FIELD: return "field number 0 or too large";
	}
	return "no error";
}

const char *fs_pbr_wire_name(uint32_t wire, char *buf, size_t len)
{
	static const char *const names[] = { "varint", "fixed64", "length-delimited", "group start",
					     "group end", "fixed32" };

	if (wire < sizeof(names) / sizeof(names[0]))
		return names[wire];
	snprintf(buf, len, "wire type %u", wire);
	return buf;
}

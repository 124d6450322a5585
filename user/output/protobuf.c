// SPDX-License-Identifier: GPL-2.0
/* The protobuf wire format (protobuf.h): tags are (field << 3) | wire type, integers are base-128 varints. */
#include <stdlib.h>
#include <string.h>
#include "protobuf.h"

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2 };

void fs_pb_free(struct fs_pb *pb)
{
	free(pb->buf);
	memset(pb, 0, sizeof(*pb));
}

static bool reserve(struct fs_pb *pb, size_t more)
{
	if (pb->failed)
		return false;
	if (pb->len + more <= pb->cap)
		return true;
	size_t cap = pb->cap ? pb->cap : 4096;
	while (cap < pb->len + more)
		cap *= 2;
	unsigned char *b = realloc(pb->buf, cap);
	if (!b) {
		pb->failed = true;
		return false;
	}
	pb->buf = b;
	pb->cap = cap;
	return true;
}

int fs_pb_varint_len(uint64_t v)
{
	int n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static void put_varint(struct fs_pb *pb, uint64_t v)
{
	if (!reserve(pb, 10))
		return;
	while (v >= 0x80) {
		pb->buf[pb->len++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	pb->buf[pb->len++] = (unsigned char)v;
}

static void put_tag(struct fs_pb *pb, uint32_t field, int wt)
{
	put_varint(pb, (uint64_t)field << 3 | (uint64_t)wt);
}

void fs_pb_varint(struct fs_pb *pb, uint32_t field, uint64_t v)
{
	put_tag(pb, field, WT_VARINT);
	put_varint(pb, v);
}

void fs_pb_double(struct fs_pb *pb, uint32_t field, double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	put_tag(pb, field, WT_I64);
	if (!reserve(pb, 8))
		return;
	for (int i = 0; i < 8; i++) /* little-endian whatever the host */
		pb->buf[pb->len++] = (unsigned char)(bits >> (8 * i));
}

void fs_pb_bytes(struct fs_pb *pb, uint32_t field, const void *data, size_t len)
{
	put_tag(pb, field, WT_LEN);
	put_varint(pb, len);
	if (!reserve(pb, len))
		return;
	memcpy(pb->buf + pb->len, data, len);
	pb->len += len;
}

void fs_pb_string(struct fs_pb *pb, uint32_t field, const char *s)
{
	fs_pb_bytes(pb, field, s, strlen(s));
}

void fs_pb_string_n(struct fs_pb *pb, uint32_t field, const char *s, size_t max)
{
	fs_pb_bytes(pb, field, s, strnlen(s, max));
}

void fs_pb_begin(struct fs_pb *pb, uint32_t field)
{
	if (pb->depth == FS_PB_MAX_DEPTH) {
		pb->failed = true;
		return;
	}
	put_tag(pb, field, WT_LEN);
	if (!reserve(pb, 1))
		return;
	pb->open[pb->depth++] = pb->len++; /* one length byte; more are made room for at the end */
}

void fs_pb_end(struct fs_pb *pb)
{
	if (pb->failed || !pb->depth)
		return;
	size_t at = pb->open[--pb->depth];
	size_t body = pb->len - at - 1;
	int n = fs_pb_varint_len(body);

	if (n > 1) {
		if (!reserve(pb, (size_t)n - 1))
			return;
		memmove(pb->buf + at + n, pb->buf + at + 1, body);
		pb->len += (size_t)n - 1;
	}
	for (int i = 0; i < n; i++) {
		pb->buf[at + i] = (unsigned char)((body >> (7 * i)) & 0x7f) | (i < n - 1 ? 0x80 : 0);
	}
}

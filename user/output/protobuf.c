// SPDX-License-Identifier: GPL-2.0
/* The protobuf wire format (protobuf.h): tags are (field << 3) | wire type, integers are base-128 varints. */
#include <stdlib.h>
#include <string.h>
#include "protobuf.h"

void fs_pb_free(struct fs_pb *pb)
{
	free(pb->buf);
	memset(pb, 0, sizeof(*pb));
}

bool fs_pb_grow(struct fs_pb *pb, size_t more)
{
	if (pb->failed)
		return false;
	more += FS_PB_SLACK;
	if (pb->cap - pb->len >= more)
		return true;
	size_t cap = pb->cap ? pb->cap : 4096;
	while (cap - pb->len < more)
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

void fs_pb_bytes(struct fs_pb *pb, uint32_t field, const void *data, size_t len)
{
	if (!fs_pb_room(pb, len))
		return;
	fs_pb_put_varint(pb, (uint64_t)field << 3 | FS_PB_WT_LEN);
	fs_pb_put_varint(pb, len);
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

void fs_pb_end_long(struct fs_pb *pb, size_t at, size_t body)
{
	int n = fs_pb_varint_len(body);

	if (!fs_pb_room(pb, (size_t)n - 1))
		return;
	memmove(pb->buf + at + n, pb->buf + at + 1, body);
	pb->len += (size_t)n - 1;
	for (int i = 0; i < n; i++)
		pb->buf[at + i] = (unsigned char)((body >> (7 * i)) & 0x7f) | (i < n - 1 ? 0x80 : 0);
}

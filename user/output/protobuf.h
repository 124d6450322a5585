/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small protocol-buffers wire encoder (proto2/proto3 wire format): varint,
 * fixed 64-bit and length-delimited fields into a growable buffer. Nested
 * messages are written in place and their length inserted when they end, so
 * every length is its shortest varint. No schema: callers name field numbers.
 *
 * The field writers are inline: a trace writes a dozen fields per event, and
 * as calls each paid a room check and a loop of its own; here the room check
 * is one comparison while FS_PB_SLACK bytes are free.
 */
#ifndef FEECSCOPE_PROTOBUF_H
#define FEECSCOPE_PROTOBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FS_PB_MAX_DEPTH 8
#define FS_PB_SLACK 32 /* the most a tag and a varint or a double take, with room to spare */

struct fs_pb {
	unsigned char *buf;
	size_t len, cap;
	int depth;
	size_t open[FS_PB_MAX_DEPTH]; /* where each open message's length byte sits */
	bool failed;                  /* out of memory or nesting too deep: the buffer is unusable */
};

void fs_pb_free(struct fs_pb *pb);
/* Forget the content (keeps the memory). */
static inline void fs_pb_clear(struct fs_pb *pb)
{
	pb->len = 0;
	pb->depth = 0;
}

/* Room for more bytes, growing the buffer; false when it failed (out of memory, or failed before). */
bool fs_pb_grow(struct fs_pb *pb, size_t more);
static inline bool fs_pb_room(struct fs_pb *pb, size_t more)
{
	return pb->cap - pb->len >= more + FS_PB_SLACK && !pb->failed ? true : fs_pb_grow(pb, more);
}

/* Bytes a varint of v takes (1..10). */
static inline int fs_pb_varint_len(uint64_t v)
{
	int n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* A varint at the end, room already made. */
static inline void fs_pb_put_varint(struct fs_pb *pb, uint64_t v)
{
	unsigned char *p = pb->buf + pb->len;

	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	pb->len = (size_t)(p - pb->buf);
}

enum { FS_PB_WT_VARINT = 0, FS_PB_WT_I64 = 1, FS_PB_WT_LEN = 2 };

/* Wire type 0: uint32/64, int32/64 (negative: 10 bytes), bool, enum. */
static inline void fs_pb_varint(struct fs_pb *pb, uint32_t field, uint64_t v)
{
	if (!fs_pb_room(pb, 0))
		return;
	fs_pb_put_varint(pb, (uint64_t)field << 3 | FS_PB_WT_VARINT);
	fs_pb_put_varint(pb, v);
}

/* int32/int64 fields: two's complement as protobuf defines it. */
static inline void fs_pb_int(struct fs_pb *pb, uint32_t field, int64_t v)
{
	fs_pb_varint(pb, field, (uint64_t)v);
}

/* Wire type 1: double. */
static inline void fs_pb_double(struct fs_pb *pb, uint32_t field, double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	if (!fs_pb_room(pb, 0))
		return;
	fs_pb_put_varint(pb, (uint64_t)field << 3 | FS_PB_WT_I64);
	for (int i = 0; i < 8; i++) /* little-endian whatever the host */
		pb->buf[pb->len++] = (unsigned char)(bits >> (8 * i));
}

/* Wire type 2: bytes and strings. */
void fs_pb_bytes(struct fs_pb *pb, uint32_t field, const void *data, size_t len);
void fs_pb_string(struct fs_pb *pb, uint32_t field, const char *s);
/* A string of at most max bytes (stops at a NUL). */
void fs_pb_string_n(struct fs_pb *pb, uint32_t field, const char *s, size_t max);

/* An embedded message: fields written between begin and end belong to it. */
static inline void fs_pb_begin(struct fs_pb *pb, uint32_t field)
{
	if (pb->depth == FS_PB_MAX_DEPTH) {
		pb->failed = true;
		return;
	}
	if (!fs_pb_room(pb, 0))
		return;
	fs_pb_put_varint(pb, (uint64_t)field << 3 | FS_PB_WT_LEN);
	pb->open[pb->depth++] = pb->len++; /* one length byte; more are made room for at the end */
}

/* A body of 128 bytes or more: its length takes more than the one byte left for it. */
void fs_pb_end_long(struct fs_pb *pb, size_t at, size_t body);

static inline void fs_pb_end(struct fs_pb *pb)
{
	if (pb->failed || !pb->depth)
		return;
	size_t at = pb->open[--pb->depth];
	size_t body = pb->len - at - 1;

	if (body < 0x80)
		pb->buf[at] = (unsigned char)body;
	else
		fs_pb_end_long(pb, at, body);
}

#endif /* FEECSCOPE_PROTOBUF_H */

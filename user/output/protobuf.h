/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small protocol-buffers wire encoder (proto2/proto3 wire format): varint,
 * fixed 64-bit and length-delimited fields into a growable buffer. Nested
 * messages are written in place and their length inserted when they end, so
 * every length is its shortest varint. No schema: callers name field numbers.
 */
#ifndef FEECSCOPE_PROTOBUF_H
#define FEECSCOPE_PROTOBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FS_PB_MAX_DEPTH 8

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

/* Bytes a varint of v takes (1..10). */
int fs_pb_varint_len(uint64_t v);

/* Wire type 0: uint32/64, int32/64 (negative: 10 bytes), bool, enum. */
void fs_pb_varint(struct fs_pb *pb, uint32_t field, uint64_t v);
/* int32/int64 fields: two's complement as protobuf defines it. */
static inline void fs_pb_int(struct fs_pb *pb, uint32_t field, int64_t v)
{
	fs_pb_varint(pb, field, (uint64_t)v);
}
/* Wire type 1: double. */
void fs_pb_double(struct fs_pb *pb, uint32_t field, double v);
/* Wire type 2: bytes and strings. */
void fs_pb_bytes(struct fs_pb *pb, uint32_t field, const void *data, size_t len);
void fs_pb_string(struct fs_pb *pb, uint32_t field, const char *s);
/* A string of at most max bytes (stops at a NUL). */
void fs_pb_string_n(struct fs_pb *pb, uint32_t field, const char *s, size_t max);

/* An embedded message: fields written between begin and end belong to it. */
void fs_pb_begin(struct fs_pb *pb, uint32_t field);
void fs_pb_end(struct fs_pb *pb);

#endif /* FEECSCOPE_PROTOBUF_H */

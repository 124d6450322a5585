// SPDX-License-Identifier: GPL-2.0
/* The per-CPU ring merge: timestamp order across rings, watermark, late records. */
#include <errno.h>
#include "test.h"
#include "record.h"
#include "source/ring_merge.h"

struct rec {
	struct fs_rec_hdr hdr;
	__u32 ring, seq;
	unsigned char pad[200];
};

struct sink {
	int n;
	__u64 ts[20000];
	__u32 ring[20000], seq[20000];
	size_t size[20000];
	int fail_at; /* emit returns 7 on this call (1-based), 0 = never */
};

static int collect(void *ctx, const void *data, size_t size)
{
	struct sink *s = ctx;
	const struct rec *r = data;

	if (s->n < 20000) {
		s->ts[s->n] = r->hdr.ts_ns;
		s->ring[s->n] = r->ring;
		s->seq[s->n] = r->seq;
		s->size[s->n] = size;
	}
	s->n++;
	return s->fail_at && s->n == s->fail_at ? 7 : 0;
}

static int push(struct fs_ring_merge *m, __u32 ring, __u64 ts, __u32 seq, size_t size)
{
	struct rec r = { .hdr = { .type = FS_REC_MIGRATE, .size = (__u16)size, .ts_ns = ts }, .ring = ring, .seq = seq };

	return fs_ring_merge_push(m, ring, &r, size);
}

FS_TEST(ring_merge_releases_in_timestamp_order_up_to_the_watermark)
{
	static struct sink s;
	struct fs_ring_merge *m = fs_ring_merge_new(2, collect, &s);

	ASSERT_TRUE(m != NULL);
	push(m, 0, 10, 0, 32);
	push(m, 0, 30, 1, 32);
	push(m, 0, 50, 2, 32);
	push(m, 1, 20, 0, 32);
	push(m, 1, 40, 1, 32);
	EXPECT_EQ(fs_ring_merge_release(m, 35), 0);
	ASSERT_TRUE(s.n == 3);
	EXPECT_EQ_U64(s.ts[0], 10);
	EXPECT_EQ_U64(s.ts[1], 20);
	EXPECT_EQ_U64(s.ts[2], 30);
	EXPECT_EQ(s.ring[1], 1);
	EXPECT_EQ(fs_ring_merge_release(m, 100), 0);
	ASSERT_TRUE(s.n == 5);
	EXPECT_EQ_U64(s.ts[3], 40);
	EXPECT_EQ_U64(s.ts[4], 50);
	EXPECT_EQ(s.size[4], 32);
	EXPECT_EQ_U64(fs_ring_merge_stats(m)->late, 0);
	EXPECT_EQ_U64(fs_ring_merge_stats(m)->max_queued, 5);
	fs_ring_merge_free(m);
}

FS_TEST(ring_merge_sends_a_record_older_than_the_watermark_at_once_and_counts_it)
{
	static struct sink s;
	struct fs_ring_merge *m = fs_ring_merge_new(2, collect, &s);

	ASSERT_TRUE(m != NULL);
	push(m, 0, 100, 0, 32);
	fs_ring_merge_release(m, 50); /* nothing due, but 50 is now closed */
	EXPECT_EQ(s.n, 0);
	push(m, 1, 40, 0, 32); /* its program outlived the slack */
	EXPECT_EQ(s.n, 1);
	EXPECT_EQ_U64(s.ts[0], 40);
	push(m, 1, 50, 1, 32); /* at the watermark: also closed */
	EXPECT_EQ(s.n, 2);
	push(m, 1, 51, 2, 32); /* after it: queued */
	EXPECT_EQ(s.n, 2);
	EXPECT_EQ_U64(fs_ring_merge_stats(m)->late, 2);
	fs_ring_merge_flush(m);
	ASSERT_TRUE(s.n == 4);
	EXPECT_EQ_U64(s.ts[2], 51);
	EXPECT_EQ_U64(s.ts[3], 100);
	fs_ring_merge_free(m);
}

FS_TEST(ring_merge_breaks_timestamp_ties_by_ring_then_arrival)
{
	static struct sink s;
	struct fs_ring_merge *m = fs_ring_merge_new(3, collect, &s);

	ASSERT_TRUE(m != NULL);
	push(m, 2, 10, 0, 24);
	push(m, 1, 10, 0, 24);
	push(m, 1, 10, 1, 24);
	push(m, 0, 11, 0, 24);
	fs_ring_merge_flush(m);
	ASSERT_TRUE(s.n == 4);
	EXPECT_EQ(s.ring[0], 1);
	EXPECT_EQ(s.seq[0], 0);
	EXPECT_EQ(s.ring[1], 1);
	EXPECT_EQ(s.seq[1], 1);
	EXPECT_EQ(s.ring[2], 2);
	EXPECT_EQ(s.ring[3], 0);
	fs_ring_merge_free(m);
}

/* Many records of varied size over four rings, released in uneven steps: one sorted stream. */
FS_TEST(ring_merge_keeps_every_record_in_order_across_buffer_growth)
{
	static struct sink s;
	struct fs_ring_merge *m = fs_ring_merge_new(4, collect, &s);
	__u64 next_ts[4] = { 5, 7, 11, 13 };
	__u32 seq[4] = { 0 };
	unsigned int x = 12345;
	int pushed = 0;

	ASSERT_TRUE(m != NULL);
	for (int step = 0; step < 100; step++) {
		for (int k = 0; k < 150; k++) {
			x = x * 1103515245u + 12345u;
			unsigned int r = (x >> 16) % 4;

			next_ts[r] += 1 + (x >> 8) % 50;
			ASSERT_TRUE(push(m, r, next_ts[r], seq[r]++, sizeof(struct fs_rec_hdr) + 8 + (x >> 4) % 200) == 0);
			pushed++;
		}
		/* the watermark trails the slowest ring, as the live reader's clock does */
		__u64 lo = next_ts[0];

		for (int r = 1; r < 4; r++)
			if (next_ts[r] < lo)
				lo = next_ts[r];
		ASSERT_TRUE(fs_ring_merge_release(m, lo) == 0);
	}
	fs_ring_merge_flush(m);
	ASSERT_TRUE(s.n == pushed);
	int sorted = 1;

	for (int i = 1; i < s.n; i++)
		if (s.ts[i] < s.ts[i - 1])
			sorted = 0;
	EXPECT_TRUE(sorted);
	EXPECT_EQ_U64(fs_ring_merge_stats(m)->late, 0);
	fs_ring_merge_free(m);
}

FS_TEST(ring_merge_returns_the_first_emit_error_and_rejects_bad_input)
{
	static struct sink s = { .fail_at = 2 };
	struct fs_ring_merge *m = fs_ring_merge_new(1, collect, &s);
	struct fs_rec_hdr tiny = { 0 };

	ASSERT_TRUE(m != NULL);
	push(m, 0, 1, 0, 32);
	push(m, 0, 2, 1, 32);
	push(m, 0, 3, 2, 32);
	EXPECT_EQ(fs_ring_merge_flush(m), 7);
	EXPECT_EQ(s.n, 2); /* no emit after the error, but the queue is emptied */
	EXPECT_EQ(fs_ring_merge_flush(m), 0);
	EXPECT_EQ(s.n, 2);
	EXPECT_EQ(fs_ring_merge_push(m, 1, &tiny, sizeof(tiny)), -EINVAL);
	EXPECT_EQ(fs_ring_merge_push(m, 0, &tiny, 4), -EINVAL);
	EXPECT_TRUE(fs_ring_merge_new(0, collect, &s) == NULL);
	fs_ring_merge_free(m);
	fs_ring_merge_free(NULL);
}

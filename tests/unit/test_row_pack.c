// SPDX-License-Identifier: GPL-2.0
/* row_pack: every field a row's text is made from comes back bit for bit; damaged bytes are refused. */
#include <limits.h>
#include "test.h"
#include "output/row_pack.h"

static uint64_t x = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	x ^= x << 13, x ^= x >> 7, x ^= x << 17;
	return x >> (x % 64); /* every length of number */
}

/* Random rows, every third one at the fields' extremes. */
static void make_row(struct fs_decision_row *r, int n, int nr)
{
	bool edge = n % 3 == 0;

	memset(r, 0, sizeof(*r));
	r->seq = edge ? UINT64_MAX : rnd();
	r->ts_ns = edge ? UINT64_MAX - 1 : rnd();
	r->pid = edge ? INT_MIN : (__s32)rnd();
	r->tgid = edge ? INT_MAX : (__s32)rnd();
	r->uid = edge ? FS_NO_UID : (__u32)rnd();
	for (int i = 0; i < FS_COMM_LEN - (n % 5); i++) /* lengths 12..16, bytes of any value */
		r->comm[i] = (char)(1 + rnd() % 255);
	r->prev_cpu = edge ? -1 : (__s32)(rnd() % 64);
	r->kernel_cpu = edge ? INT_MIN : (__s32)rnd();
	r->task_util = edge ? UINT32_MAX : (__u32)rnd();
	r->flags = edge ? UINT32_MAX : (__u32)rnd();
	r->iv.end = (enum fs_interval_end)(rnd() % 5);
	r->iv.dt_ns = edge ? UINT64_MAX : rnd();
	r->iv.runtime_known = rnd() & 1;
	r->iv.runtime_ns = edge ? UINT64_MAX : rnd();
	r->iv.window_ns = rnd();
	for (int i = 0; i < nr; i++) {
		struct fs_decision_pol *p = &r->pol[i];

		p->cpu = edge ? -1 : (__s32)rnd();
		p->acct_cpu = (__s32)rnd();
		p->reason = (enum fs_feec_reason)(rnd() % 14);
		p->has_threshold = rnd() & 1;
		p->prev_delta = edge ? UINT64_MAX : rnd();
		p->best_delta = edge ? UINT64_MAX - 1 : rnd();
		p->threshold = edge ? 0 : rnd();
		p->power_uw = edge ? UINT64_MAX : rnd();
		p->dpower_uw = edge ? INT64_MIN : (__s64)rnd() * (i & 1 ? -1 : 1);
		fs_fj_t big = (fs_fj_t)1 << 126;
		r->iv.de_fj[i] = edge ? (i & 1 ? -big : big - 1 + big) : (fs_fj_t)(__s64)rnd() * (fs_fj_t)rnd();
	}
}

FS_TEST(row_pack_round_trip_is_exact)
{
	static struct fs_decision_row r, back;
	char buf[FS_ROW_PACK_MAX(FS_MAX_POLICIES)];
	int bad = 0, rows = 0;
	size_t total = 0;

	for (int n = 0; n < 3000; n++) {
		int nr = 1 + n % FS_MAX_POLICIES;

		make_row(&r, n, nr);
		size_t len = fs_row_pack(buf, &r, nr);
		total += len;
		EXPECT_TRUE(len <= FS_ROW_PACK_MAX(nr));
		memset(&back, 0, sizeof(back));
		ASSERT_TRUE(!fs_row_unpack(buf, len, &back, nr));
		/* both start zeroed, so the whole struct compares: a field dropped or mangled shows */
		bad += memcmp(&r, &back, sizeof(r)) != 0;
		rows++;
	}
	EXPECT_EQ(bad, 0);
	EXPECT_EQ(rows, 3000);
	EXPECT_TRUE(total > 0);
}

FS_TEST(row_pack_refuses_damaged_bytes)
{
	static struct fs_decision_row r, back;
	char buf[FS_ROW_PACK_MAX(2) + 1];

	make_row(&r, 1, 2);
	size_t len = fs_row_pack(buf, &r, 2);
	EXPECT_TRUE(!fs_row_unpack(buf, len, &back, 2));
	EXPECT_EQ(fs_row_unpack(buf, len - 1, &back, 2), -1); /* cut short */
	buf[len] = 0;
	EXPECT_EQ(fs_row_unpack(buf, len + 1, &back, 2), -1); /* a byte too many */
	EXPECT_EQ(fs_row_unpack(buf, len, &back, 3), -1);     /* not the policies it holds */
}

FS_TEST(row_pack_typical_row_is_small)
{
	static struct fs_decision_row r;
	char buf[FS_ROW_PACK_MAX(2)];

	memset(&r, 0, sizeof(r));
	r.seq = 123456;
	r.ts_ns = 71936265008ull;
	r.pid = r.tgid = 514;
	r.uid = 0;
	memcpy(r.comm, "rt-app", 7);
	r.prev_cpu = 6, r.kernel_cpu = 6, r.task_util = 428, r.flags = 0x20;
	r.iv.dt_ns = 7333728, r.iv.runtime_known = true, r.iv.runtime_ns = 1557920, r.iv.window_ns = 7333728;
	for (int i = 0; i < 2; i++) {
		r.pol[i] = (struct fs_decision_pol){ .cpu = 6, .acct_cpu = 6, .reason = 10, .prev_delta = 2736330,
						     .best_delta = 2736330, .threshold = UINT64_MAX, .power_uw = 1164417 };
		r.iv.de_fj[i] = 0;
	}
	size_t len = fs_row_pack(buf, &r, 2);
	/* its two rows of text take 277 bytes (docs/csv.md); packed it must stay well under a third */
	EXPECT_TRUE(len < 90);
}

// SPDX-License-Identifier: GPL-2.0
/* text_put.h: every number as printf or fs_fmt_fj() writes it, over edge values and a random sweep. */
#include <limits.h>
#include "test.h"
#include "output/text_put.h"

/* Values around every power of ten (and of two) in 64 bits, the extremes, and a seeded random sweep. */
static int edge_values(unsigned long long *v, int max)
{
	int n = 0;
	unsigned long long p = 1, x = 0x2545f4914f6cdd1dull;

	for (int i = 0; i < 20 && n + 3 <= max; i++, p *= 10) {
		v[n++] = p - 1;
		v[n++] = p;
		v[n++] = p + 1;
	}
	for (int i = 0; i < 64 && n + 2 <= max; i++) {
		v[n++] = (1ull << i) - 1;
		v[n++] = 1ull << i;
	}
	v[n++] = ULLONG_MAX;
	v[n++] = ULLONG_MAX - 1;
	v[n++] = (unsigned long long)LLONG_MAX;
	v[n++] = (unsigned long long)LLONG_MAX + 1;
	while (n < max) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v[n++] = x >> (x % 64); /* every length of number */
	}
	return n;
}

FS_TEST(text_put_integers_match_printf)
{
	unsigned long long v[400];
	int n = edge_values(v, 400), bad = 0;

	for (int i = 0; i < n; i++) {
		char want[64], got[64];
		struct text t = { got };

		snprintf(want, sizeof(want), "%llu", v[i]);
		put_u(&t, v[i]);
		*t.p = 0;
		bad += strcmp(want, got) != 0;
		if (i < 3 || strcmp(want, got))
			EXPECT_STR(got, want);

		long long s = (long long)v[i];
		t.p = got;
		snprintf(want, sizeof(want), "%lld", s);
		put_i(&t, s);
		*t.p = 0;
		bad += strcmp(want, got) != 0;
		if (strcmp(want, got))
			EXPECT_STR(got, want);
	}
	EXPECT_EQ(bad, 0);
	EXPECT_TRUE(n == 400);
}

FS_TEST(text_put_nj_matches_fs_fmt_fj)
{
	unsigned long long v[400];
	int n = edge_values(v, 400), bad = 0, checked = 0;

	for (int i = 0; i < n; i++)
		for (int form = 0; form < 4; form++) {
			fs_fj_t fj = (fs_fj_t)v[i];

			if (form == 1)
				fj = -fj;
			else if (form == 2) /* beyond 64 bits: the integer part still fits fs_fmt_fj's */
				fj = fj * 1000 + 7;
			else if (form == 3)
				fj = -(fj * 1000 + 999999);
			char want[80], got[80];
			struct text t = { got };

			fs_fmt_fj(want, sizeof(want), fj, 6, 6);
			put_fj_nj6(&t, fj);
			*t.p = 0;
			checked++;
			bad += strcmp(want, got) != 0;
			if (strcmp(want, got))
				EXPECT_STR(got, want);
		}
	EXPECT_EQ(bad, 0);
	EXPECT_EQ(checked, 1600);
}

FS_TEST(text_put_nj_small_and_huge)
{
	static const struct {
		fs_fj_t fj;
		const char *text;
	} cases[] = {
		{ 0, "0.000000" },
		{ 1, "0.000001" },
		{ -1, "-0.000001" },
		{ 999999, "0.999999" },
		{ 1000000, "1.000000" },
		{ -1000001, "-1.000001" },
		{ (fs_fj_t)1 << 100, "1267650600228229401496703.205376" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char got[80];
		struct text t = { got };

		put_fj_nj6(&t, cases[i].fj);
		*t.p = 0;
		EXPECT_STR(got, cases[i].text);
	}
}

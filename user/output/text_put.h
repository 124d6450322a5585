/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Append-only text building without printf, for writers that format every
 * wake-up (the decision CSV): the caller guarantees the room. Each number
 * comes out as printf's "%llu", "%lld" or fs_fmt_fj() would write it
 * (tests/unit/test_text_put.c compares them over edge values), at a
 * fraction of the cost: two digits per step from a table, no format parsing.
 */
#ifndef FEECSCOPE_TEXT_PUT_H
#define FEECSCOPE_TEXT_PUT_H

#include <stdint.h>
#include <string.h>
#include "engine/fj.h"

struct text {
	char *p; /* where the next byte goes */
};

static inline void put_c(struct text *t, char c)
{
	*t->p++ = c;
}

static inline void put_s(struct text *t, const char *s)
{
	size_t n = strlen(s);

	memcpy(t->p, s, n);
	t->p += n;
}

static const char fs_digit_pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
					"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
					"8081828384858687888990919293949596979899";

/* Decimal digits of v (1..20). */
static inline int fs_digits(unsigned long long v)
{
	static const unsigned long long pow10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull, 100000000ull,
		1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull, 10000000000000ull,
		100000000000000ull, 1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
		1000000000000000000ull, 10000000000000000000ull,
	};
	/* bits to digits: log10(2) ~ 1233/4096, then one comparison corrects it */
	int n = ((64 - __builtin_clzll(v | 1)) * 1233) >> 12;

	return n + ((v | 1) >= pow10[n]); /* v | 1: zero is one digit */
}

/* v's n digits ending at end, two a step in 32-bit arithmetic (v < 2^32). */
static inline void put_digits32(char *end, uint32_t v)
{
	while (v >= 100) {
		uint32_t r = v % 100;

		v /= 100;
		end -= 2;
		memcpy(end, fs_digit_pairs + 2 * r, 2);
	}
	if (v >= 10)
		memcpy(end - 2, fs_digit_pairs + 2 * v, 2);
	else
		end[-1] = (char)('0' + v);
}

/* exactly eight digits ending at end, zero-padded: v < 10^8 */
static inline void put_digits8(char *end, uint32_t v)
{
	for (int i = 0; i < 4; i++) {
		end -= 2;
		memcpy(end, fs_digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
}

/*
 * "%llu": the length first, then the digits written backwards in place.
 * Past 32 bits (a timestamp) the low eight digits are split off with one
 * 64-bit division, the rest in 32-bit steps, which cost half as much.
 */
static inline void put_u(struct text *t, unsigned long long v)
{
	int n = fs_digits(v);
	char *end = t->p + n;

	t->p = end;
	while (v > UINT32_MAX) {
		put_digits8(end, (uint32_t)(v % 100000000));
		v /= 100000000;
		end -= 8;
	}
	put_digits32(end, (uint32_t)v);
}

/* "%lld" */
static inline void put_i(struct text *t, long long v)
{
	if (v < 0) {
		*t->p++ = '-';
		put_u(t, 0ull - (unsigned long long)v);
	} else {
		put_u(t, (unsigned long long)v);
	}
}

/* exactly `width` digits, zero-padded: v < 10^width */
static inline void put_u_width(struct text *t, unsigned long long v, int width)
{
	for (int i = width - 1; i >= 0; i--) {
		t->p[i] = (char)('0' + v % 10);
		v /= 10;
	}
	t->p += width;
}

/* exactly six digits, zero-padded: v < 10^6 */
static inline void put_u6(struct text *t, unsigned v)
{
	memcpy(t->p, fs_digit_pairs + 2 * (v / 10000), 2);
	memcpy(t->p + 2, fs_digit_pairs + 2 * (v / 100 % 100), 2);
	memcpy(t->p + 4, fs_digit_pairs + 2 * (v % 100), 2);
	t->p += 6;
}

/* fs_fmt_fj(buf, len, fj, 6, 6): femtojoules as nJ with six decimals ("-1.000001"), exact */
static inline void put_fj_nj6(struct text *t, fs_fj_t fj)
{
	unsigned __int128 mag = fj < 0 ? -(unsigned __int128)fj : (unsigned __int128)fj;

	if (fj < 0)
		put_c(t, '-');
	if (mag <= (unsigned __int128)UINT64_MAX) { /* every real row: 64-bit division */
		unsigned long long m = (unsigned long long)mag;

		put_u(t, m / 1000000);
		put_c(t, '.');
		put_u6(t, (unsigned)(m % 1000000));
		return;
	}
	unsigned __int128 ip = mag / 1000000;
	unsigned long long fp = (unsigned long long)(mag % 1000000);
	char d[40];
	int n = sizeof(d);

	do
		d[--n] = (char)('0' + (int)(ip % 10));
	while ((ip /= 10));
	memcpy(t->p, d + n, sizeof(d) - (size_t)n);
	t->p += sizeof(d) - (size_t)n;
	put_c(t, '.');
	put_u_width(t, fp, 6);
}

#endif /* FEECSCOPE_TEXT_PUT_H */

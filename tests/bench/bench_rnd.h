/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generated inputs' random numbers for the benches: xorshift64 from a
 * fixed seed, so every run generates the same input. One stream a program.
 */
#ifndef FEECSCOPE_BENCH_RND_H
#define FEECSCOPE_BENCH_RND_H

#include <linux/types.h>

static __u64 bench_rng = 0x9e3779b97f4a7c15ull;

/* A number in 0..n-1. */
static inline __u32 rnd(__u32 n)
{
	bench_rng ^= bench_rng << 13;
	bench_rng ^= bench_rng >> 7;
	bench_rng ^= bench_rng << 17;
	return (__u32)(bench_rng % n);
}

#endif /* FEECSCOPE_BENCH_RND_H */

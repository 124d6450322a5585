/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two largest per-CPU values of a PD and the CPU of the largest: a PD's
 * maximum with one CPU's value swapped (p placed on dst) is then dst's new
 * value against the others' maximum, without another pass over the PD.
 */
#ifndef FEECSCOPE_ENGINE_TOP2_H
#define FEECSCOPE_ENGINE_TOP2_H

#include <linux/types.h>

struct fs_top2 {
	__u64 v[2]; /* largest, second largest (0 when fewer values) */
	int cpu;    /* the CPU of v[0], -1 when empty */
};

static inline void fs_top2_init(struct fs_top2 *t)
{
	t->v[0] = t->v[1] = 0;
	t->cpu = -1;
}

static inline void fs_top2_add(struct fs_top2 *t, int cpu, __u64 v)
{
	if (v > t->v[0]) {
		t->v[1] = t->v[0];
		t->v[0] = v;
		t->cpu = cpu;
	} else if (v > t->v[1]) {
		t->v[1] = v;
	}
}

/* The largest value of every CPU but cpu. */
static inline __u64 fs_top2_without(const struct fs_top2 *t, int cpu)
{
	return t->cpu == cpu ? t->v[1] : t->v[0];
}

#endif

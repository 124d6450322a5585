/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benches' generated inputs: random numbers by xorshift64 from a fixed
 * seed, so every run generates the same input (one stream a program), and
 * plausible wake-ups drawn from them.
 */
#ifndef FEECSCOPE_BENCH_GEN_H
#define FEECSCOPE_BENCH_GEN_H

#include <stdio.h>
#include <string.h>
#include <linux/types.h>
#include "record.h"
#include "engine/em.h"

static __u64 bench_rng = 0x9e3779b97f4a7c15ull;

/* A number in 0..n-1. */
static inline __u32 rnd(__u32 n)
{
	bench_rng ^= bench_rng << 13;
	bench_rng ^= bench_rng >> 7;
	bench_rng ^= bench_rng << 17;
	return (__u32)(bench_rng % n);
}

/*
 * A wake-up of one of 256 tasks on a light-to-moderate landscape, so most
 * reach feec's energy comparison; no timestamp (the bench sets it).
 */
static inline void bench_wakeup(struct fs_wakeup *w, const struct fs_em *em)
{
	memset(w, 0, sizeof(*w));
	w->hdr.type = FS_REC_WAKEUP;
	w->hdr.nr_cpus = (__u16)em->nr_cpus;
	w->hdr.size = (__u32)fs_wakeup_size(em->nr_cpus);
	w->pid = 1000 + (__s32)rnd(256);
	snprintf(w->comm, sizeof(w->comm), "task%d", w->pid % 100);
	w->prev_cpu = w->task_cpu = w->waker_cpu = (__s32)rnd(em->nr_cpus);
	w->chosen_cpu = (__s32)rnd(em->nr_cpus);
	w->cpus_allowed = (1ull << em->nr_cpus) - 1;
	w->nr_cpus_allowed = (__u32)em->nr_cpus;
	w->task.util_avg = 5 + rnd(200);
	w->task.util_est_enqueued = w->task.util_est_ewma = w->task.util_avg;
	w->task.uclamp_max = 1024;
	for (int c = 0; c < em->nr_cpus; c++) {
		struct fs_cpu *cpu = &w->cpu[c];
		cpu->util_avg = rnd(em->capacity[c] / 2);
		cpu->util_est = cpu->util_avg;
		cpu->capacity = cpu->capacity_orig = em->capacity[c];
		cpu->uclamp_max = 1024;
		cpu->flags = FS_CPU_ONLINE | FS_CPU_IN_SD;
	}
	w->cpu[w->prev_cpu].util_avg += w->task.util_avg;
}

#endif /* FEECSCOPE_BENCH_GEN_H */

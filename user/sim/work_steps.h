/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The frequency steps a recording holds (FS_REC_FREQ, bpf/busyfreq.bpf.c):
 * each PD's frequency as the kernel traced it, for DEVICE work at the
 * frequency that held (workload.c; docs/simulation.md, "Work at the
 * recorded frequencies"), where work_freq.c can only estimate it.
 */
#ifndef FEECSCOPE_SIM_WORK_STEPS_H
#define FEECSCOPE_SIM_WORK_STEPS_H

#include <stdbool.h>
#include <stddef.h>
#include "record.h"

/* The PD runs at khz from since on. */
struct ws_step {
	__u64 since;
	__u32 khz;
};

/* One PD's steps, in time order, kept only where the frequency changes. */
struct ws_line {
	struct ws_step *v;
	size_t n, cap;
};

/* The PD runs at khz from ts on (a record older than the last step counts from it). 0, -1 out of memory. */
int ws_add(struct ws_line *l, __u64 ts, __u32 khz);
/* The line tells the frequency at ts: it has a step at or before ts. */
bool ws_covers(const struct ws_line *l, __u64 ts);
/*
 * The stretch [ts, ts + ns) at the line's steps (ws_covers(l, ts) true):
 * *khz_ns the sum of ns x kHz, *scale_ns the sum of ns x the kernel's
 * frequency scale (wp_freq_scale(), fmax the PD's top).
 */
void ws_integrate(const struct ws_line *l, __u64 ts, __u64 ns, __u64 fmax, unsigned __int128 *khz_ns,
		  unsigned __int128 *scale_ns);
/* A deep copy of src into dst; 0, -1 out of memory (dst then empty). */
int ws_dup(struct ws_line *dst, const struct ws_line *src);
void ws_free(struct ws_line *l);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DEVICE work corrected by the recording's busyfreq records (workload.c;
 * docs/simulation.md, "Work against the busyfreq records"): per CPU and per
 * interval between two of its records, the frequency the builder estimated
 * for the CPU time it assigned there is scaled to the interval's measured
 * busy-time-weighted mean frequency.
 */
#ifndef FEECSCOPE_SIM_WORK_BUSYFREQ_H
#define FEECSCOPE_SIM_WORK_BUSYFREQ_H

#include <stddef.h>
#include "sim.h"

/* A stretch of an activation's CPU time on one CPU, and the work derived for it. */
struct wb_seg {
	__u64 ts, ns;  /* recording time it started at, its CPU time */
	__u64 work;    /* as work_freq.c's estimate gave it */
	__u64 khz;     /* that estimate's mean frequency over the stretch */
	__u32 act;     /* the builder's activation index */
	__s32 cpu;
};

/* A busyfreq record, cumulative over the EM's states of its CPU's PD. */
struct wb_point {
	__u64 ts;
	__u64 busy_ns;             /* busy ns at the EM's frequencies */
	unsigned __int128 khz_ns;  /* sum of ns x kHz over them */
};

struct wb_line {
	struct wb_point *v;
	size_t n, cap;
};

struct wb_log {
	struct wb_seg *seg;
	size_t n, cap;
	struct wb_line cpu[FS_MAX_CPUS];
};

/* What the correction did, for the self-check's report. */
struct wb_stats {
	__u64 segs;       /* stretches corrected */
	__u64 work_est;   /* their work as estimated */
	__u64 work_meas;  /* and as corrected */
};

/* 0, or -1 out of memory. */
int wb_seg_add(struct wb_log *l, const struct wb_seg *s);
int wb_point_add(struct wb_log *l, int cpu, const struct wb_point *p);
/*
 * Each stretch on a CPU with busyfreq records before and after it gets its
 * work scaled by the interval's measured mean frequency over the estimated
 * one; acts[seg.act].work moves by the difference. 0, or -1 out of memory.
 */
int wb_correct(const struct wb_log *l, struct fs_sim_act *acts, size_t nr_acts, struct wb_stats *st);
/* A deep copy of src into dst; 0, -1 out of memory (dst then empty). */
int wb_dup(struct wb_log *dst, const struct wb_log *src);
void wb_free(struct wb_log *l);

#endif

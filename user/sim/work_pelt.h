/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DEVICE work measured by the task's own PELT (workload.c; docs/simulation.md,
 * "Work from the task's PELT"): the kernel's util_avg of a task grows while it
 * runs by an amount that depends only on the work it did, whatever the CPU and
 * the OPP, so two wake-up records of a task that slept between them tell the
 * work of the activation between them.
 */
#ifndef FEECSCOPE_SIM_WORK_PELT_H
#define FEECSCOPE_SIM_WORK_PELT_H

#include <stdbool.h>
#include "record.h"

/* Where an activation's PELT starts: the task's sched_avg at its wake-up, on its CPU's clock. */
struct wp_mark {
	bool ok;
	__s32 cpu;
	__u64 lut;        /* p->se.avg.last_update_time (the rq's PELT clock, ns) */
	__u32 util_sum, contrib;
};

/* The mark of the activation w opens on CPU run (ok false where its PELT cannot be followed). */
void wp_start(const struct fs_wakeup *w, int run, struct wp_mark *m);
/*
 * The work (ns of a 1024-capacity CPU at its highest OPP) between m and the
 * task's next wake-up record next, at most cpu_ns x cap / 1024; 0 where the
 * two cannot tell it (another CPU's clock, util at the ceiling, no growth).
 * fie: the work of a span of the PELT clock there (wp_freq_scale()), 1.0 at
 * an OPP whose scale the kernel holds exactly.
 */
__u64 wp_work(const struct wp_mark *m, const struct fs_wakeup *next, __u64 cpu_ns, __u32 cap, double fie);
/*
 * The kernel's frequency-invariance scale at khz of a PD whose top is fmax:
 * (khz << 10) / fmax rounded down (topology_set_freq_scale(),
 * drivers/base/arch_topology.c, v6.1), what the PELT clock runs at there. So
 * at 533 of 1844 MHz PELT counts 295/1024 of the time where the work is
 * 295.98/1024: the work of a span of PELT time is that span x khz x 1024 /
 * (fmax x scale), the fie wp_work() takes.
 */
__u64 wp_freq_scale(__u64 khz, __u64 fmax);

#endif

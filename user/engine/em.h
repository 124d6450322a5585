/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Energy Model as feecscope holds it: what the kernel exposes in
 * /sys/kernel/debug/energy_model plus the CPUs' capacities. Plain data, no I/O:
 * readers (user/em/) fill it, the engine (user/engine/) derives each policy's
 * own cost table from it.
 */
#ifndef FEECSCOPE_EM_H
#define FEECSCOPE_EM_H

#include <stdbool.h>
#include "../record.h"

#define FS_MAX_PDS 8
#define FS_MAX_PS 64
#define FS_SCHED_CAPACITY_SCALE 1024

/* Power unit of fs_em_ps.power, as the source stated it. */
enum fs_power_unit {
	FS_POWER_UW = 0,   /* microwatts: v6.0+ (EM_PERF_DOMAIN_MICROWATTS, flags bit 0) */
	FS_POWER_MW = 1,   /* milliwatts: v5.0 - v5.19 ("units" = milliWatts) */
	FS_POWER_BOGO = 2, /* abstract scale ("bogoWatts"): comparable within the EM only */
};

/* fs_em_pd.flags: the kernel's EM_PERF_DOMAIN_* bits as of v6.0+ */
#define FS_EM_PD_MICROWATTS       (1u << 0)
#define FS_EM_PD_SKIP_INEFFICIENT (1u << 1) /* v5.16+ */
#define FS_EM_PD_ARTIFICIAL       (1u << 2) /* v5.19+ */

struct fs_em_ps {
	__u64 frequency;   /* kHz */
	__u64 power;       /* in fs_em.unit */
	__u64 cost;        /* as the source gave it; 0 = not given (recomputed per policy) */
	__u64 performance; /* v6.9+ debugfs; 0 = not given */
	__u32 inefficient; /* EM_PERF_STATE_INEFFICIENT as the source gave it (0 if absent) */
};

struct fs_em_pd {
	char name[32];     /* debugfs directory name (cpu0, pd0) or profile cluster name */
	__u64 cpus;        /* CPU mask */
	__u32 flags;       /* FS_EM_PD_* (converted from units/skip-inefficiencies on older kernels) */
	bool has_inefficient; /* the source had per-state inefficient flags */
	int nr_ps;         /* ascending frequency */
	struct fs_em_ps ps[FS_MAX_PS];
};

struct fs_em {
	int nr_cpus;                      /* highest CPU in any PD + 1 */
	int nr_pd;                        /* ascending by first CPU */
	struct fs_em_pd pd[FS_MAX_PDS];
	__u32 capacity[FS_MAX_CPUS];      /* arch_scale_cpu_capacity (cpu_capacity in sysfs) */
	__s8 cpu_pd[FS_MAX_CPUS];         /* index into pd[], -1 if the CPU has no PD */
	enum fs_power_unit unit;
	char source[256];                 /* "debugfs /sys/kernel/debug/energy_model", "profile hikey960", ... */
	char kernel[64];                  /* kernel release that wrote it, if known */
	/*
	 * The observed kernel's own table (live, or a recording of it): a policy
	 * whose era holds cost in the same form takes cost, inefficient and
	 * performance as read instead of recomputing them, so an ARTIFICIAL or
	 * runtime-modified EM (v6.9+ em_dev_update_perf_domain()) is what feec
	 * used. Set by the pipeline, never by a reader.
	 */
	bool cost_as_read;
};

/*
 * Check the invariants the engine relies on (ascending frequencies, non-zero
 * power, one PD per CPU, capacities present, <= FS_MAX_* sizes) and fill
 * cpu_pd[]/nr_cpus. On error writes "<what>: <problem>" to err and returns -1.
 */
int fs_em_finalize(struct fs_em *em, char *err, size_t errlen);

/* First CPU of a PD (the kernel reads capacity and pressure there). */
static inline int fs_em_pd_first_cpu(const struct fs_em_pd *pd)
{
	return pd->cpus ? __builtin_ctzll(pd->cpus) : -1;
}

#endif /* FEECSCOPE_EM_H */

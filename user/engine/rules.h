/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Era parameters of a feec policy: which variant of each helper a kernel
 * version range uses. One const struct per policy (fs_policy_desc.rules), so a
 * new stable range is data plus, at most, a small branch in a feec_*.c body.
 */
#ifndef FEECSCOPE_ENGINE_RULES_H
#define FEECSCOPE_ENGINE_RULES_H

#include <stdbool.h>

/* How the final comparison treats the saving. */
enum fs_margin {
	FS_MARGIN_NONE = 0,        /* v6.0+: best_delta < prev_delta */
	FS_MARGIN_PREV_ENERGY,     /* v5.0-v5.3: prev_E - best_E > prev_E >> shift */
	FS_MARGIN_PREV_DELTA_BASE, /* v5.4-v5.19: prev_d - best_d > (prev_d + base) >> shift */
};

/* UTIL_AVG_UNCHANGED handling in _task_util_est(). */
enum fs_ue_flag {
	FS_UE_BIT0_OR = 0, /* v4.17-v5.12: flag in bit 0, OR-ed into the result (never 0) */
	FS_UE_MASKED,      /* v5.13+: flag in the MSB, masked off */
};

/* effective_cpu_util() and its predecessors. */
enum fs_eff_util {
	FS_EFF_5_0 = 0, /* schedutil_freq_util(): rt shortcut always, no uclamp */
	FS_EFF_5_3,     /* schedutil_cpu_util(): uclamp_util_with, rt shortcut only without uclamp */
	FS_EFF_5_14,    /* uclamp_rq_util_with() honours UCLAMP_FLAG_IDLE (kept through v6.7; late 5.10.y too) */
	FS_EFF_6_8,     /* effective_cpu_util(cpu, util, *min, *max) + sugov_effective_cpu_perf() */
};

/* How the EM's cost column is derived from frequency and power. */
enum fs_cost {
	FS_COST_MW = 0,     /* v5.0-v5.14: fmax * P_mW / f */
	FS_COST_MW_X1000,   /* v5.15-v5.19: fmax * (P_mW * 1000) / f (64-bit em_scale_power) */
	FS_COST_UW,         /* v6.0-v6.8: fmax * P_uW / f */
	FS_COST_UW_PERF,    /* v6.9+: 10 * P_uW / performance */
};

/* Which em_*_energy() the era calls. */
enum fs_energy_fn {
	FS_EM_PD_ENERGY_5_0 = 0, /* v5.0-v5.13: (f + f/4) * max / cap state search, cost * sum / cap */
	FS_EM_CPU_ENERGY_5_14,   /* v5.14-v6.7: f * (u + u/4) / cap, clamp to allowed cap */
	FS_EM_CPU_ENERGY_6_9,    /* v6.9+: state by performance, cost * sum (no division) */
};

/* How the v5.4-family body scans a PD and builds the base (feec_v5_4.c). */
enum fs_pd_scan {
	FS_SCAN_ALL_PD_BASE = 0, /* v5.4 - v5.13: base of every PD, prev competes for max spare, deltas wrap */
	FS_SCAN_CANDIDATE_BASE,  /* v5.14 - v5.19: base of PDs with a candidate only, prev excluded, e < base -> prev */
};

/* The fit test of the v5.4-family candidate scan. */
enum fs_fit {
	FS_FIT_PLAIN = 0,     /* v5.4 - v5.5: fits_capacity(util, capacity_of) */
	FS_FIT_UCLAMP_UTIL,   /* v5.6 - v5.19 mainline: fits_capacity(uclamp_rq_util_with(util, p), capacity_of) */
	FS_FIT_STABLE_UCLAMP, /* late 5.10.y / 5.15.y: bool util_fits_cpu() of the 6.2 series with capacity
			       * inversion, on the unclamped util, clamps max-aggregated over the PD so far */
};

/*
 * cpu_overutilized(cpu), which sets rd->overutilized (the gate before feec).
 * The engine applies it only where it emulates the gates (FS_WAKE_OU_EMULATED):
 * otherwise the recorded flag is the kernel's own.
 */
enum fs_ou_rule {
	FS_OU_FITS = 0,    /* v5.0 - 6.1.0: !fits_capacity(cpu_util_cfs, capacity_of) */
	FS_OU_BOOL_UCLAMP, /* 6.2 - 6.3, late 5.10.y/5.15.y (c56ab1b3506b backported): bool
			    * util_fits_cpu(cpu_util_cfs, rq uclamp_min, rq uclamp_max): a
			    * boost beyond the thermally capped capacity overutilizes */
	FS_OU_LEVELS,      /* 6.4 - 7.0, 6.1.y (e5ed0550c04c): the -1/0/1 form; -1 (only
			    * uclamp_min unmet) does not overutilize */
	FS_OU_NO_MIN,      /* 7.1+ (9264758066061): util_fits_cpu(cpu_util_cfs, 0, rq
			    * uclamp_max): the rq's uclamp_min is no longer passed */
};

/*
 * Engine-internal wake-up flag (never in a record): the landscape was adapted
 * to an EM that is not the kernel's, so each policy decides rd->overutilized
 * from it with its own cpu_overutilized() (fs_rd_overutilized()).
 */
#define FS_WAKE_OU_EMULATED (1u << 31)

struct fs_feec_rules {
	enum fs_margin margin;
	unsigned int margin_shift;  /* 4 = 6.25 % */
	enum fs_ue_flag ue_flag;
	bool ue_remove_queued;      /* v5.19+: cpu_util_next drops p's util_est when p is queued/current */
	bool fits_keeps_equal;      /* v5.0-v5.3: open-coded cap*1024 < util*1280 skip */
	enum fs_eff_util eff;
	enum fs_cost cost;
	enum fs_energy_fn energy;
	bool mark_inefficient;      /* v5.16+: em_compute_costs flags states with cost >= a faster one's */
	bool unit_uw;               /* v6.0+: power in microwatts */
	bool boost_max_util;        /* v6.5+: cpu_util(..., boost=1) in eenv_pd_max_util (not 6.1.y) */
	bool fits_levels;           /* v6.4+ and 6.1.y: util_fits_cpu() -1/0/1 levels, fits-aware final rule */
	bool hw_cpufreq_pressure;   /* v6.10+: get_actual_cpu_capacity(); before, thermal_pressure */
	bool boost_task_runnable;   /* 29922fdfc2a4 (6.12.97+, v7.2): boosted cpu_util() moves p's runnable_avg too */
	/* v5.4-family body (feec_v5_4.c); all-zero is v5.4.0. */
	enum fs_pd_scan scan;
	enum fs_fit fit;
	bool spare_lsub;            /* v5.10+: spare = cap lsub util; v5.4 - v5.9 wrap (cap - util) */
	bool util_running;          /* v5.12+: busy time on dst = cpu_util_next(cpu, p, -1) + task_util_est(p) */
	bool energy_thermal_cap;    /* v5.14 - v5.19: compute_energy clamps per CPU at arch cap - thermal pressure */
	bool zero_exit_uclamp_min;  /* 6.2 series (d81304bc6193, in late 5.10.y/5.15.y): zero exit only if p's uclamp_min is 0 */
	enum fs_ou_rule ou;         /* cpu_overutilized() of the era (emulated gates only) */
};

#endif /* FEECSCOPE_ENGINE_RULES_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpufreq_get_pressure(cpu) (v6.10+) rebuilt from sysfs: the per-CPU
 * variable has no BPF-visible home without kallsyms, but its inputs are
 * policy->max (scaling_max_freq) and the reference frequency.
 */
#ifndef FEECSCOPE_CPUFREQ_PRESSURE_H
#define FEECSCOPE_CPUFREQ_PRESSURE_H

#include <linux/types.h>

/*
 * Fill pressure[0..nr_cpus) from root (NULL: /sys/devices/system/cpu) with
 * cpufreq_update_pressure()'s arithmetic, per policy:
 *   ref = cpuinfo_max_freq (arch_scale_freq_ref on DT arm64), max = scaling_max_freq,
 *   cap = arch_scale_cpu_capacity(first related CPU) = cap[first];
 *   pressure = ref <= max ? 0 : cap - mult_frac(cap, max, ref)
 * for every CPU of related_cpus. CPUs without a readable policy get 0.
 * Returns the number of policies read.
 */
int fs_cpufreq_pressure(const char *root, const __u32 *cap, int nr_cpus, __u32 *pressure);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The settings the closed-loop simulation needs that the kernel tells only
 * through sysfs and its config (docs/simulation.md, "Settings the recording
 * does not tell"): each cpufreq policy's governor and schedutil's
 * rate_limit_us, and CONFIG_HZ. live reads them once into the recording.
 */
#ifndef FEECSCOPE_CPUFREQ_TUNABLES_H
#define FEECSCOPE_CPUFREQ_TUNABLES_H

#include "../records/recording.h"

/*
 * Every policy under root (NULL: /sys/devices/system/cpu) into out[0..max):
 * related_cpus, scaling_governor, and with schedutil its rate_limit_us, from
 * the policy's own schedutil/ directory, else cpufreq/schedutil/ (the one
 * set every policy shares when the driver has no governor_per_policy).
 * Returns how many policies were read (0: no cpufreq).
 */
int fs_cpufreq_tunables(const char *root, struct fs_rec_cpufreq *out, int max);

/*
 * CONFIG_HZ from the kernel's config: config_gz (NULL: /proc/config.gz),
 * else config (the plain file, e.g. /boot/config-<release>; NULL: none).
 * 0 where neither says: nothing is guessed.
 */
unsigned int fs_kernel_hz(const char *config_gz, const char *config);

#endif

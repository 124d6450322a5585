/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What live reads from /proc and sysfs besides the BPF records, as records
 * of its own so a recording replays to the same numbers: every CPU's busy
 * time, cpufreq's time at each frequency, and the CPU time of the tasks
 * still alive when observation ends.
 */
#ifndef FEECSCOPE_PROC_STATS_H
#define FEECSCOPE_PROC_STATS_H

#include "../record.h"

/* Busy time of CPUs 0..nr_cpus-1 from /proc/schedstat (ns), else /proc/stat (ticks). -1: neither. */
int fs_proc_cpustat(struct fs_cpustat *cs, int nr_cpus, __u64 ts_ns);
/* cpufreq stats/time_in_state of every policy, at most max; returns how many (0: none). */
int fs_proc_freqstats(struct fs_freqstat *out, int max, __u64 ts_ns);
/*
 * Task pid of process tgid: its CPU time (/proc/<tgid>/task/<pid>/schedstat)
 * and comm. -1 if it is gone (or not tgid's).
 */
int fs_proc_task_time(__s32 pid, __s32 tgid, __u64 ts_ns, struct fs_task_time *out);

#endif /* FEECSCOPE_PROC_STATS_H */

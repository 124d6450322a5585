/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU lists as the kernel prints them, to and from a mask of CPUs 0..63.
 * Two forms reach us: a cpumask printed with %*pbl (cpumap_print_to_pagebuf():
 * "0-3,5", in sysfs's online file and the EM's debugfs cpus) and cpufreq's
 * related_cpus (cpufreq_show_cpus(): "0 1 2 3 ", each CPU then a blank). One
 * grammar takes both: CPU numbers and ranges, separated by one comma or by
 * blanks, with blanks around the list and at most one newline after it.
 */
#ifndef FEECSCOPE_CPU_LIST_H
#define FEECSCOPE_CPU_LIST_H

#include <stddef.h>
#include <linux/types.h>

struct fs_cpu_list {
	__u64 mask;   /* the CPUs below 64 */
	long highest; /* the highest CPU named, also past 63; -1 for an empty list */
};

/* 0 with *out set, or -1 (out untouched) when text is not a whole CPU list. */
int fs_cpu_list_parse(const char *text, struct fs_cpu_list *out);

/* mask in the %*pbl form ("0-3,6"); "" for no CPU. */
void fs_cpu_list_format(__u64 mask, char *buf, size_t len);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which CPUs are online now, from sysfs's CPU list
 * (/sys/devices/system/cpu/online: "0-3,5"), for the busy-time collector to
 * arm an offline CPU idle (live_busyfreq.c).
 */
#ifndef FEECSCOPE_CPU_ONLINE_H
#define FEECSCOPE_CPU_ONLINE_H

#include <stddef.h>
#include <linux/types.h>

#define FS_CPU_ONLINE_PATH "/sys/devices/system/cpu/online"

/*
 * The online file's text ("0-3,5,7", engine/cpu_list.h) into *mask; CPUs at or
 * past 64 are left out; an empty list is an error. 0, or -1 with the problem in
 * err (what names the source).
 */
int fs_cpu_online_parse(const char *text, const char *what, __u64 *mask, char *err, size_t errlen);

/*
 * The online CPUs from path (NULL: FS_CPU_ONLINE_PATH). A missing file means
 * every CPU is online (no sysfs, as under some containers): all bits set.
 * 0, or -1 with one line in err naming the file and the problem.
 */
int fs_cpu_online_read(const char *path, __u64 *mask, char *err, size_t errlen);

#endif /* FEECSCOPE_CPU_ONLINE_H */

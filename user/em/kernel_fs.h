/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the kernel's debugfs and tracefs are in this process's mount
 * namespace. Their usual places (/sys/kernel/debug, /sys/kernel/tracing,
 * tracefs also under debugfs/tracing) are only conventions: Android and
 * containers mount them elsewhere, and /proc/self/mounts is the truth.
 * When neither is mounted and we are root, the file system is mounted on
 * its usual place (and left mounted, as `mount` would); the process
 * remembers that so the commands can say it.
 */
#ifndef FEECSCOPE_KERNEL_FS_H
#define FEECSCOPE_KERNEL_FS_H

#include <stdbool.h>
#include <stddef.h>

#define FS_PROC_MOUNTS  "/proc/self/mounts"
#define FS_DEBUGFS_HOME "/sys/kernel/debug"
#define FS_TRACEFS_HOME "/sys/kernel/tracing"

enum fs_kfs { FS_KFS_DEBUGFS, FS_KFS_TRACEFS };

/*
 * The mount point of a `fstype` mount listed in mounts_file (the format of
 * /proc/self/mounts, octal escapes decoded): `preferred` when it is one of
 * them, else the first listed. 0 with dir; 1 when none is listed; -1 when
 * the file cannot be read or a line is malformed (err names it).
 */
int fs_mounts_find(const char *mounts_file, const char *fstype, const char *preferred, char *dir,
		   size_t len, char *err, size_t errlen);

/*
 * Find kind the way fs_kernel_fs_dir() does, with the mount table read from
 * mounts_file and, when may_mount is false, no mount attempted (the unit
 * tests: a fake table, nothing mounted). tracefs is also taken from a
 * debugfs mount's tracing/ directory (the kernel automounts it there) when
 * it holds tracefs's events/. 0 with dir; -1 with err saying what was tried.
 */
int fs_kernel_fs_find(enum fs_kfs kind, const char *mounts_file, bool may_mount, char *dir, size_t len,
		      char *err, size_t errlen);

/* fs_kernel_fs_find() on /proc/self/mounts, mounting when missing. */
int fs_kernel_fs_dir(enum fs_kfs kind, char *dir, size_t len, char *err, size_t errlen);

/* What this process mounted ("debugfs on /sys/kernel/debug"), or NULL when nothing. */
const char *fs_kernel_fs_mounted(void);

#endif /* FEECSCOPE_KERNEL_FS_H */

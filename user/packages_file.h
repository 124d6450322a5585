/* SPDX-License-Identifier: GPL-2.0 */
/* packages.list read from a file (--packages, or the device's own on Android): docs/apps.md. */
#ifndef FEECSCOPE_PACKAGES_FILE_H
#define FEECSCOPE_PACKAGES_FILE_H

#include <stdbool.h>
#include "engine/apps.h"

/* Where Android's PackageManager keeps it. */
#define FS_PACKAGES_LIST "/data/system/packages.list"

/*
 * Read path into out. 0, or FS_EXIT_FAIL after one line on stderr naming
 * the file ("feecscope CMD: --packages PATH: ..."). quiet: a file that is
 * absent or unreadable is no apps and no message (live on a device that
 * may not let it be read), a damaged one a warning and no apps.
 */
int fs_packages_load(const char *cmd, const char *path, bool quiet, struct fs_apps *out);

#endif /* FEECSCOPE_PACKAGES_FILE_H */

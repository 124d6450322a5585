/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Android apps: uid -> package, from the text of /data/system/packages.list
 * (docs/apps.md). Pure: the caller reads the file, this parses its bytes.
 */
#ifndef FEECSCOPE_APPS_H
#define FEECSCOPE_APPS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/* Android's per-user uid range: uid = user * FS_PER_USER_RANGE + app id (UserHandle.PER_USER_RANGE). */
#define FS_PER_USER_RANGE 100000u

struct fs_package {
	__u32 app_id;          /* the uid column: the app's uid for user 0 */
	const char *name;      /* into fs_apps.text */
};

#define FS_APPS_FROM 320

struct fs_apps {
	char *text;            /* the names, NUL-terminated, one allocation */
	struct fs_package *pkgs; /* sorted by app_id, then name */
	size_t nr;
	char *list;            /* the bytes parsed, NUL-terminated: what a recording keeps */
	size_t list_len;
	char from[FS_APPS_FROM]; /* where the list came from, as the outputs say it; the caller's to set */
};

/*
 * Parse packages.list's bytes (path only names it in errors). 0, or -1 with
 * err as one line "PATH: line N: FIELD: problem". An empty file is no app.
 */
int fs_apps_parse(struct fs_apps *a, const char *buf, size_t len, const char *path, char *err, size_t errlen);
void fs_apps_free(struct fs_apps *a);

/* The packages on uid's app id: index of the first in a->pkgs, how many in *n (0: not an app). */
size_t fs_apps_find(const struct fs_apps *a, __u32 uid, size_t *n);

/*
 * uid's app as one label of at most len - 1 bytes: "com.a", "com.a (user
 * 10)" for another user, "shared:uid 10123 (com.a, com.b, +2)" for a uid
 * several packages share. false (buf "") when uid is no app's.
 */
bool fs_apps_label(const struct fs_apps *a, __u32 uid, char *buf, size_t len);

#endif /* FEECSCOPE_APPS_H */

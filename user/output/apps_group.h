/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report by app (--packages, docs/apps.md): processes whose uid is an
 * app's gathered under it, the others on their own, in the summary's
 * order (|margin cost|, largest first).
 */
#ifndef FEECSCOPE_APPS_GROUP_H
#define FEECSCOPE_APPS_GROUP_H

#include <stdio.h>
#include "output.h"

struct fs_app_group {
	bool is_app;          /* false: one process whose uid is no app's */
	__u32 uid;            /* the processes' uid (an app: every one's) */
	size_t nr_procs;
	size_t *procs;        /* indices into the report's procs, in its order */
	struct fs_process sum; /* threads, wake-ups, CPU time and energies summed */
};

/* r's processes by app (r->apps set). 0, or -1 out of memory. */
int fs_app_groups(const struct fs_report *r, struct fs_app_group **out, size_t *nr);
void fs_app_groups_free(struct fs_app_group *g, size_t nr);

/* The summary's top list by app: at most max groups, each app's processes under it. */
void fs_print_apps(FILE *out, const struct fs_report *r, size_t max);

/* The live view's orders (view_frame.h's sort keys): the report's |margin cost|, wake-ups, CPU time. */
enum fs_app_order { FS_APP_BY_MARGIN, FS_APP_BY_WAKEUPS, FS_APP_BY_CPU };

#define FS_APP_ROW 160 /* bytes of one row of fs_app_rows() */

/*
 * The live view's process list by app (r->apps set): at most max rows of
 * the summary's layout, each app's row followed by its first processes in
 * the same order and a count of the rest. Rows used, or -1 out of memory.
 */
int fs_app_rows(const struct fs_report *r, enum fs_app_order by, char (*line)[FS_APP_ROW], int max);

#endif /* FEECSCOPE_APPS_GROUP_H */

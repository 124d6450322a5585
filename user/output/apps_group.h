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

#endif /* FEECSCOPE_APPS_GROUP_H */

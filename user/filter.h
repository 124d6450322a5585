/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --pid and --comm: the tasks a run looks at. Each option may be repeated
 * and takes comma lists; a wake-up is kept when it matches any item (a pid
 * matches the thread or its whole process). Each item counts the wake-ups
 * it kept, so a run can say which item matched nothing.
 */
#ifndef FEECSCOPE_FILTER_H
#define FEECSCOPE_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include "record.h"

#define FS_MAX_FILTER 32 /* items per option */

struct fs_filter {
	int nr_pids, nr_comms;
	__s32 pid[FS_MAX_FILTER];
	char comm[FS_MAX_FILTER][FS_COMM_LEN];
	__u64 pid_hits[FS_MAX_FILTER], comm_hits[FS_MAX_FILTER];
};

/* Add "N[,N...]" / "NAME[,NAME...]"; -1 with why (the value, what is wrong). */
int fs_filter_add_pids(struct fs_filter *f, const char *list, char *why, size_t whylen);
int fs_filter_add_comms(struct fs_filter *f, const char *list, char *why, size_t whylen);

static inline bool fs_filter_active(const struct fs_filter *f)
{
	return f->nr_pids || f->nr_comms;
}

/* Whether a wake-up of (pid, tgid, comm) is kept; counts it for every item it matches. */
bool fs_filter_keep(struct fs_filter *f, __s32 pid, __s32 tgid, const char *comm);

/* "--pid 1,2 --comm a" (what the summary says it filtered by); "" when inactive. */
void fs_filter_describe(const struct fs_filter *f, char *buf, size_t len);

/* The items that kept no wake-up, as "--pid 7, --comm foo"; returns how many. */
int fs_filter_unmatched(const struct fs_filter *f, char *buf, size_t len);

#endif /* FEECSCOPE_FILTER_H */

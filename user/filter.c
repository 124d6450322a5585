// SPDX-License-Identifier: GPL-2.0
/* --pid / --comm selection (filter.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "filter.h"

/* Each comma-separated item of list through add(); an empty item is an error. */
static int each_item(struct fs_filter *f, const char *list, const char *opt, int *nr,
		     int (*add)(struct fs_filter *, const char *, size_t, char *, size_t), char *why, size_t whylen)
{
	const char *p = list;

	for (;;) {
		size_t n = strcspn(p, ",");

		if (!n) {
			snprintf(why, whylen, "%s '%s': an empty item", opt, list);
			return -1;
		}
		if (*nr == FS_MAX_FILTER) {
			snprintf(why, whylen, "%s: at most %d items", opt, FS_MAX_FILTER);
			return -1;
		}
		if (add(f, p, n, why, whylen))
			return -1;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

static int add_pid(struct fs_filter *f, const char *s, size_t n, char *why, size_t whylen)
{
	char buf[24], *end;
	long v;

	snprintf(buf, sizeof(buf), "%.*s", (int)(n < sizeof(buf) - 1 ? n : sizeof(buf) - 1), s);
	errno = 0;
	v = strtol(buf, &end, 10);
	if (n >= sizeof(buf) || errno || end == buf || *end || v <= 0 || v > INT_MAX) {
		snprintf(why, whylen, "--pid '%.*s': expected a positive pid", (int)n, s);
		return -1;
	}
	f->pid[f->nr_pids++] = (__s32)v;
	return 0;
}

static int add_comm(struct fs_filter *f, const char *s, size_t n, char *why, size_t whylen)
{
	if (n >= FS_COMM_LEN) {
		snprintf(why, whylen, "--comm '%.*s': longer than a task's comm (%d characters)", (int)n, s,
			 FS_COMM_LEN - 1);
		return -1;
	}
	snprintf(f->comm[f->nr_comms++], FS_COMM_LEN, "%.*s", (int)n, s);
	return 0;
}

int fs_filter_add_pids(struct fs_filter *f, const char *list, char *why, size_t whylen)
{
	return each_item(f, list, "--pid", &f->nr_pids, add_pid, why, whylen);
}

int fs_filter_add_comms(struct fs_filter *f, const char *list, char *why, size_t whylen)
{
	return each_item(f, list, "--comm", &f->nr_comms, add_comm, why, whylen);
}

bool fs_filter_keep(struct fs_filter *f, __s32 pid, __s32 tgid, const char *comm)
{
	bool keep = !fs_filter_active(f);

	for (int i = 0; i < f->nr_pids; i++)
		if (f->pid[i] == pid || (tgid > 0 && f->pid[i] == tgid)) {
			f->pid_hits[i]++;
			keep = true;
		}
	for (int i = 0; i < f->nr_comms; i++)
		if (!strncmp(comm, f->comm[i], FS_COMM_LEN - 1)) {
			f->comm_hits[i]++;
			keep = true;
		}
	return keep;
}

void fs_filter_describe(const struct fs_filter *f, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < f->nr_pids && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%d", i ? "," : "--pid ", f->pid[i]);
	for (int i = 0; i < f->nr_comms && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? "," : n ? " --comm " : "--comm ", f->comm[i]);
}

int fs_filter_unmatched(const struct fs_filter *f, char *buf, size_t len)
{
	size_t n = 0;
	int k = 0;

	buf[0] = 0;
	for (int i = 0; i < f->nr_pids; i++)
		if (!f->pid_hits[i] && n < len)
			n += snprintf(buf + n, len - n, "%s--pid %d", k++ ? ", " : "", f->pid[i]);
	for (int i = 0; i < f->nr_comms; i++)
		if (!f->comm_hits[i] && n < len)
			n += snprintf(buf + n, len - n, "%s--comm %s", k++ ? ", " : "", f->comm[i]);
	return k;
}

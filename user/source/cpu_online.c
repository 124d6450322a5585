// SPDX-License-Identifier: GPL-2.0
/* cpu_online.h: the online CPUs from sysfs's CPU list. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "../engine/cpu_list.h"
#include "cpu_online.h"

int fs_cpu_online_parse(const char *text, const char *what, __u64 *mask, char *err, size_t errlen)
{
	struct fs_cpu_list l;

	/* the collector covers CPUs 0..63: one past them is left out, not an error */
	if (!fs_cpu_list_parse(text, &l) && l.highest >= 0) {
		*mask = l.mask;
		return 0;
	}
	snprintf(err, errlen, "%s: '%.*s' is not a CPU list (like 0-3,5)", what, (int)strcspn(text, "\n"),
		 text);
	return -1;
}

int fs_cpu_online_read(const char *path, __u64 *mask, char *err, size_t errlen)
{
	char buf[4096];
	size_t n;
	FILE *f;

	path = path ? path : FS_CPU_ONLINE_PATH;
	f = fopen(path, "r");
	if (!f && errno == ENOENT) {
		*mask = ~0ull;
		return 0;
	}
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	if (ferror(f) || n == sizeof(buf) - 1) {
		snprintf(err, errlen, "%s: %s", path, ferror(f) ? strerror(errno) : "longer than a CPU list");
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {
		snprintf(err, errlen, "%s: not text", path);
		return -1;
	}
	return fs_cpu_online_parse(buf, path, mask, err, errlen);
}

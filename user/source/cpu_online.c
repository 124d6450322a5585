// SPDX-License-Identifier: GPL-2.0
/* cpu_online.h: the online CPUs from sysfs's CPU list. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cpu_online.h"

/* One CPU number at *s (digits only), advancing *s; -1 when there is none or it is absurd. */
static long cpu_number(const char **s)
{
	long v = 0;

	if (!isdigit((unsigned char)**s))
		return -1;
	while (isdigit((unsigned char)**s)) {
		v = v * 10 + (**s - '0');
		if (v > 1L << 20) /* NR_CPUS is at most 8192 (arch Kconfigs) */
			return -1;
		(*s)++;
	}
	return v;
}

int fs_cpu_list_parse(const char *text, const char *what, __u64 *mask, char *err, size_t errlen)
{
	const char *s = text;
	__u64 m = 0;

	for (;;) {
		long lo = cpu_number(&s), hi = lo;

		if (lo >= 0 && *s == '-') {
			s++;
			hi = cpu_number(&s);
		}
		if (lo < 0 || hi < lo)
			goto bad;
		for (long c = lo; c <= hi && c < 64; c++)
			m |= 1ull << c;
		if (*s != ',')
			break;
		s++;
	}
	if (*s == '\n')
		s++;
	if (*s)
		goto bad;
	*mask = m;
	return 0;
bad:
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
	return fs_cpu_list_parse(buf, path, mask, err, errlen);
}

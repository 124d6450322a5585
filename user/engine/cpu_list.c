// SPDX-License-Identifier: GPL-2.0
/* cpu_list.h: the kernel's CPU lists, parsed and printed. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include "cpu_list.h"

/* NR_CPUS is at most 8192 in any arch's Kconfig: a larger number is not a CPU. */
#define FS_CPU_NUMBER_MAX (1L << 20)

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* One CPU number at *s (decimal digits only), advancing *s; -1 if there is none. */
static long cpu_number(const char **s)
{
	long v = 0;

	if (!isdigit((unsigned char)**s))
		return -1;
	while (isdigit((unsigned char)**s)) {
		v = v * 10 + (**s - '0');
		if (v > FS_CPU_NUMBER_MAX)
			return -1;
		(*s)++;
	}
	return v;
}

/* One item, "N" or "N-M", at *s into l; -1 if malformed. */
static int cpu_item(const char **s, struct fs_cpu_list *l)
{
	long lo = cpu_number(s), hi = lo;

	if (lo >= 0 && **s == '-') {
		(*s)++;
		hi = cpu_number(s);
	}
	if (lo < 0 || hi < lo)
		return -1;
	for (long c = lo; c <= hi && c < 64; c++)
		l->mask |= 1ull << c;
	if (hi > l->highest)
		l->highest = hi;
	return 0;
}

int fs_cpu_list_parse(const char *text, struct fs_cpu_list *out)
{
	struct fs_cpu_list l = { .mask = 0, .highest = -1 };
	const char *s = text;

	while (is_blank(*s))
		s++;
	while (isdigit((unsigned char)*s)) {
		if (cpu_item(&s, &l))
			return -1;
		if (*s == ',') {
			s++;
			if (!isdigit((unsigned char)*s)) /* "0,", "0,,1", "0, 1" */
				return -1;
			continue;
		}
		while (is_blank(*s))
			s++;
	}
	if (*s == '\n')
		s++;
	if (*s)
		return -1;
	*out = l;
	return 0;
}

void fs_cpu_list_format(__u64 mask, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int c = 0; c < 64 && off < len; c++) {
		int e = c;

		if (!(mask & (1ull << c)))
			continue;
		while (e + 1 < 64 && (mask & (1ull << (e + 1))))
			e++;
		off += snprintf(buf + off, len - off, "%s%d", off ? "," : "", c);
		if (e > c && off < len)
			off += snprintf(buf + off, len - off, "-%d", e);
		c = e;
	}
}

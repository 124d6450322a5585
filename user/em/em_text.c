// SPDX-License-Identifier: GPL-2.0
/* Text helpers shared by the EM readers: cpulists, strict numbers, error strings. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "em_internal.h"

void fs_em_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

void fs_snprintf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

bool fs_em_bad_name(const char *name)
{
	if (!*name)
		return true;
	for (; *name; name++)
		if (!isgraph((unsigned char)*name))
			return true;
	return false;
}

int fs_parse_u64(const char *s, __u64 *v)
{
	char *end;
	unsigned long long x;

	while (isspace((unsigned char)*s))
		s++;
	/* strtoull accepts a sign; a negative power or frequency is garbage, not a huge number. */
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -1;
	*v = x;
	return 0;
}

/* The EM's CPU lists name at least one CPU, all below FS_MAX_CPUS. */
int fs_cpulist_parse(const char *s, __u64 *mask)
{
	struct fs_cpu_list l;

	if (fs_cpu_list_parse(s, &l) || l.highest < 0 || l.highest >= FS_MAX_CPUS)
		return -1;
	*mask = l.mask;
	return 0;
}

void fs_strlcpy(char *dst, const char *src, size_t len)
{
	size_t i = 0;

	if (!len)
		return;
	for (; i + 1 < len && src[i]; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

int fs_path_join(char *dst, size_t len, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la + 1 + lb + 1 > len)
		return -1;
	memcpy(dst, a, la);
	dst[la] = '/';
	memcpy(dst + la + 1, b, lb + 1);
	return 0;
}

int fs_read_all(const char *path, size_t max, char **text, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0, cap = 0;
	int e;

	*text = NULL;
	*len = 0;
	if (!f)
		return errno == ENOENT ? 1 : (fs_em_errf(err, errlen, "%s: cannot open: %s", path, strerror(errno)), -1);
	/* Read until EOF, not up to st_size: a pipe or a /proc file has no size. */
	for (;;) {
		if (n == cap) {
			char *nb = n > max ? NULL : realloc(buf, (cap ? 2 * cap : 4096) + 1);
			if (!nb) {
				free(buf);
				fclose(f);
				if (n > max)
					return fs_em_errf(err, errlen, "%s: larger than %zu bytes", path, max), -1;
				return fs_em_errf(err, errlen, "%s: out of memory", path), -1;
			}
			buf = nb;
			cap = cap ? 2 * cap : 4096;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (!got)
			break;
	}
	e = ferror(f) ? errno : 0;
	fclose(f);
	if (e) {
		free(buf);
		return fs_em_errf(err, errlen, "%s: cannot read: %s", path, strerror(e)), -1;
	}
	if (n > max) {
		free(buf);
		return fs_em_errf(err, errlen, "%s: larger than %zu bytes", path, max), -1;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

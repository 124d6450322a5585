// SPDX-License-Identifier: GPL-2.0
/*
 * packages.list, as PackageManager writes it (frameworks/base,
 * services/core/java/com/android/server/pm/Settings.java,
 * writePackageListLPrInternal()): one line per package, fields separated
 * by one space: name, uid (the app id), debuggable flag (0/1), data
 * directory, seinfo, supplementary gids, then fields later releases added
 * (profileable from shell, version code, profileable, installer, ...).
 * Only the name and the uid are used; the debug flag and the data
 * directory are checked so that another file given by mistake is refused
 * rather than read as apps. Several packages may share a uid
 * (android:sharedUserId): all are kept.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "apps.h"

/* A Java package name: letters, digits, '_' and '.' (PackageParser's validateName, roughly). */
static bool valid_name(const char *s, size_t n)
{
	if (!n || n > 255)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
		      c == '.'))
			return false;
	}
	return true;
}

static bool parse_u32(const char *s, size_t n, __u32 *v)
{
	unsigned long long x = 0;

	if (!n || n > 10)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		x = x * 10 + (unsigned)(s[i] - '0');
	}
	if (x >= FS_PER_USER_RANGE) /* the list holds app ids (user 0's uids) */
		return false;
	*v = (__u32)x;
	return true;
}

/* The i-th space-separated field of line[0..n): its start and length; false if absent. */
static bool field(const char *line, size_t n, int i, const char **f, size_t *fl)
{
	size_t at = 0;

	for (int k = 0; k < i; k++) {
		const char *sp = memchr(line + at, ' ', n - at);
		if (!sp)
			return false;
		at = (size_t)(sp - line) + 1;
	}
	const char *sp = memchr(line + at, ' ', n - at);
	*f = line + at;
	*fl = (sp ? (size_t)(sp - line) : n) - at;
	return true;
}

static int cmp_pkg(const void *x, const void *y)
{
	const struct fs_package *a = x, *b = y;

	if (a->app_id != b->app_id)
		return a->app_id < b->app_id ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* One line: its name copied to *text, its entry in *p. 0, or -1 with *what and *why set. */
static int parse_line(const char *line, size_t n, struct fs_package *p, char **text, const char **what,
		      const char **why)
{
	const char *f;
	size_t fl;

	if (!field(line, n, 0, &f, &fl) || !valid_name(f, fl)) {
		*what = "name", *why = "not a package name";
		return -1;
	}
	memcpy(*text, f, fl);
	(*text)[fl] = 0;
	p->name = *text;
	*text += fl + 1;
	if (!field(line, n, 1, &f, &fl)) {
		*what = "uid", *why = "missing";
		return -1;
	}
	if (!parse_u32(f, fl, &p->app_id)) {
		*what = "uid", *why = "not an app id (0 .. 99999)";
		return -1;
	}
	if (!field(line, n, 2, &f, &fl) || fl != 1 || (*f != '0' && *f != '1')) {
		*what = "debug flag", *why = "not 0 or 1";
		return -1;
	}
	if (!field(line, n, 3, &f, &fl) || !fl || *f != '/') {
		*what = "data directory", *why = "not a path";
		return -1;
	}
	return 0;
}

int fs_apps_parse(struct fs_apps *a, const char *buf, size_t len, const char *path, char *err, size_t errlen)
{
	size_t lines = 1;

	memset(a, 0, sizeof(*a));
	for (size_t i = 0; i < len; i++)
		lines += buf[i] == '\n';
	a->text = malloc(len + 1);
	a->pkgs = calloc(lines, sizeof(*a->pkgs));
	a->list = malloc(len + 1);
	if (!a->text || !a->pkgs || !a->list) {
		fs_apps_free(a);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	char *text = a->text;
	size_t at = 0, no = 0;
	while (at < len) {
		const char *nl = memchr(buf + at, '\n', len - at);
		size_t n = (nl ? (size_t)(nl - buf) : len) - at;
		const char *what, *why;

		no++;
		if (n && parse_line(buf + at, n, &a->pkgs[a->nr], &text, &what, &why)) {
			snprintf(err, errlen, "%s: line %zu: %s: %s", path, no, what, why);
			fs_apps_free(a);
			return -1;
		}
		a->nr += n != 0;
		at += n + 1;
	}
	qsort(a->pkgs, a->nr, sizeof(*a->pkgs), cmp_pkg);
	memcpy(a->list, buf, len);
	a->list[len] = 0;
	a->list_len = len;
	return 0;
}

void fs_apps_free(struct fs_apps *a)
{
	free(a->text);
	free(a->pkgs);
	free(a->list);
	memset(a, 0, sizeof(*a));
}

size_t fs_apps_find(const struct fs_apps *a, __u32 uid, size_t *n)
{
	__u32 id = uid % FS_PER_USER_RANGE;
	size_t lo = 0, hi = a ? a->nr : 0;

	*n = 0;
	if (!a || uid == ~0u)
		return 0;
	while (lo < hi) { /* first entry with app_id >= id */
		size_t mid = lo + (hi - lo) / 2;
		if (a->pkgs[mid].app_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo + *n < a->nr && a->pkgs[lo + *n].app_id == id)
		(*n)++;
	return lo;
}

bool fs_apps_label(const struct fs_apps *a, __u32 uid, char *buf, size_t len)
{
	size_t n, i = fs_apps_find(a, uid, &n), at;
	char user[32] = "";

	if (!len)
		return false;
	buf[0] = 0;
	if (!n)
		return false;
	if (uid >= FS_PER_USER_RANGE)
		snprintf(user, sizeof(user), " (user %u)", uid / FS_PER_USER_RANGE);
	if (n == 1) {
		snprintf(buf, len, "%s%s", a->pkgs[i].name, user);
		return true;
	}
	at = (size_t)snprintf(buf, len, "shared:uid %u (", uid);
	for (size_t k = 0; k < n && at < len; k++) {
		char more[24];
		const char *name = a->pkgs[i + k].name;
		int m = snprintf(more, sizeof(more), ", +%zu)", n - k);

		/* this name, and room for the "+N)" of the rest when it is not the last */
		size_t need = strlen(name) + (k ? 2 : 0) + (k + 1 < n ? (size_t)m : 1);
		if (at + need >= len) {
			snprintf(buf + at, len - at, "%s+%zu)", k ? ", " : "", n - k);
			break;
		}
		at += (size_t)snprintf(buf + at, len - at, "%s%s", k ? ", " : "", name);
		if (k + 1 == n)
			snprintf(buf + at, len - at, ")");
	}
	if (user[0] && strlen(buf) + strlen(user) < len)
		strcat(buf, user);
	return true;
}

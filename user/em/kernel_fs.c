// SPDX-License-Identifier: GPL-2.0
/* Finding (or mounting) debugfs and tracefs (kernel_fs.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "kernel_fs.h"
#include "em_internal.h"

static char g_mounted[160]; /* what this process mounted, for the commands to say */

/* A field of a mounts line with its \ooo escapes (space, tab, newline, backslash) decoded, in place. */
static char *next_field(char **p)
{
	char *s = *p, *out, *f;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '\n')
		return NULL;
	f = out = s;
	while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' &&
		    s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	if (*s)
		s++;
	*out = '\0';
	*p = s;
	return f;
}

int fs_mounts_find(const char *mounts_file, const char *fstype, const char *preferred, char *dir,
		   size_t len, char *err, size_t errlen)
{
	char line[4096], first[4096] = "";
	bool found = false, chosen = false;
	int lineno = 0;
	FILE *f = fopen(mounts_file, "r");

	if (!f) {
		fs_em_errf(err, errlen, "%s: cannot open: %s", mounts_file, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *dev, *mnt, *type;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			fclose(f);
			fs_em_errf(err, errlen, "%s: line %d: longer than %zu bytes", mounts_file, lineno,
				   sizeof(line) - 1);
			return -1;
		}
		dev = next_field(&p);
		mnt = dev ? next_field(&p) : NULL;
		type = mnt ? next_field(&p) : NULL;
		if (!dev)
			continue; /* a blank line */
		if (!type || mnt[0] != '/') {
			fclose(f);
			fs_em_errf(err, errlen, "%s: line %d: want 'DEVICE /MOUNT-POINT TYPE ...'", mounts_file,
				   lineno);
			return -1;
		}
		if (strcmp(type, fstype))
			continue;
		if (!found)
			fs_strlcpy(first, mnt, sizeof(first));
		found = true;
		if (preferred && !strcmp(mnt, preferred))
			chosen = true;
	}
	fclose(f);
	if (!found)
		return 1;
	if (snprintf(dir, len, "%s", chosen ? preferred : first) >= (int)len) {
		fs_em_errf(err, errlen, "%s: the %s mount point is longer than %zu bytes", mounts_file, fstype,
			   len - 1);
		return -1;
	}
	return 0;
}

/* Mount fstype on home when we may; the reason it did not happen in why. */
static int try_mount(const char *fstype, const char *home, bool may_mount, char *why, size_t whylen)
{
	struct stat st;

	if (!may_mount) {
		fs_em_errf(why, whylen, "not mounting it here");
		return -1;
	}
	if (geteuid() != 0) {
		fs_em_errf(why, whylen, "mounting it on %s needs root", home);
		return -1;
	}
	if (stat(home, &st) || !S_ISDIR(st.st_mode)) {
		fs_em_errf(why, whylen, "no directory %s to mount it on (a kernel without %s, or a /sys "
			   "that hides it)", home,
			   !strcmp(fstype, "debugfs") ? "CONFIG_DEBUG_FS" : "CONFIG_TRACING");
		return -1;
	}
	if (mount("none", home, fstype, 0, NULL)) {
		fs_em_errf(why, whylen, "mounting it on %s failed: %s", home, strerror(errno));
		return -1;
	}
	size_t used = strlen(g_mounted);

	snprintf(g_mounted + used, sizeof(g_mounted) - used, "%s%s on %s", used ? ", " : "", fstype, home);
	return 0;
}

/* tracefs's own directory: the kernel automounts it at debugfs/tracing on first access. */
static bool tracefs_under(const char *debugfs, char *dir, size_t len)
{
	char events[4200];
	struct stat st;

	if (snprintf(dir, len, "%s/tracing", debugfs) >= (int)len)
		return false;
	snprintf(events, sizeof(events), "%s/events", dir);
	return !stat(events, &st) && S_ISDIR(st.st_mode);
}

int fs_kernel_fs_find(enum fs_kfs kind, const char *mounts_file, bool may_mount, char *dir, size_t len,
		      char *err, size_t errlen)
{
	const char *type = kind == FS_KFS_TRACEFS ? "tracefs" : "debugfs";
	const char *home = kind == FS_KFS_TRACEFS ? FS_TRACEFS_HOME : FS_DEBUGFS_HOME;
	char debugfs[4096], why[200];
	int rc = fs_mounts_find(mounts_file, type, home, dir, len, err, errlen);

	if (rc <= 0)
		return rc;
	if (kind == FS_KFS_TRACEFS) {
		rc = fs_mounts_find(mounts_file, "debugfs", FS_DEBUGFS_HOME, debugfs, sizeof(debugfs), err, errlen);
		if (rc < 0)
			return rc;
		if (!rc && tracefs_under(debugfs, dir, len))
			return 0;
	}
	if (!try_mount(type, home, may_mount, why, sizeof(why)) && snprintf(dir, len, "%s", home) < (int)len)
		return 0;
	if (kind == FS_KFS_TRACEFS)
		fs_em_errf(err, errlen, "tracefs: %s lists no tracefs mount, %s, and %s", mounts_file,
			   rc ? "nor a debugfs one" : "the debugfs mount has no tracing/events", why);
	else
		fs_em_errf(err, errlen, "debugfs: %s lists no debugfs mount, and %s", mounts_file, why);
	return -1;
}

int fs_kernel_fs_dir(enum fs_kfs kind, char *dir, size_t len, char *err, size_t errlen)
{
	return fs_kernel_fs_find(kind, FS_PROC_MOUNTS, true, dir, len, err, errlen);
}

const char *fs_kernel_fs_mounted(void)
{
	return g_mounted[0] ? g_mounted : NULL;
}

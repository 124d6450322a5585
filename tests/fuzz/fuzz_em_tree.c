// SPDX-License-Identifier: GPL-2.0
/*
 * The debugfs EM tree reader (fs_em_read_debugfs_kernel). Each input
 * describes a tree, one entry a line, materialised in a tmpfs directory:
 *
 *   d PATH            a directory
 *   f PATH CONTENT    a file; in CONTENT \n is a newline, \0 a NUL byte, \\ a backslash
 *   l PATH TARGET     a symbolic link (TARGET as given: loops and dangling links welcome)
 *   r RELEASE         pass RELEASE as --kernel
 *   c PATH            pass the tree's PATH as --cpu-capacity-dir
 *
 * PATHs are relative, without "." or ".." parts; parents are made as needed.
 * Other lines are ignored. A tree that reads must survive the EM file round trip.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fuzz.h"
#include "em/em_io.h"

#define MAX_ENTRIES 256

/* PATH inside root, or -1 if it would leave it. */
static int inside(const char *root, const char *rel, size_t len, char *out, size_t outlen)
{
	const char *p = rel, *end = rel + len;

	if (!len || len > 200 || rel[0] == '/' || memchr(rel, '\0', len))
		return -1;
	while (p < end) {
		const char *slash = memchr(p, '/', (size_t)(end - p));
		size_t n = (size_t)((slash ? slash : end) - p);

		if (!n || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return -1;
		p += n + (slash ? 1 : 0);
	}
	if (snprintf(out, outlen, "%s/%.*s", root, (int)len, rel) >= (int)outlen)
		return -1;
	return 0;
}

/*
 * Directories known to exist in this input's tree: the first len bytes of
 * path (an earlier entry's) and each of its prefixes that ends before a '/'.
 */
struct known_dirs {
	char path[PATH_MAX];
	size_t len;
};

/*
 * mkdir every parent of path below the root. A parent that an earlier entry's
 * mkdir made or found (0 or EEXIST) is not asked again: nothing in an input
 * removes an entry, so mkdir would only say EEXIST (entries come sorted, so
 * most parents are shared with the entry before). A parent that failed
 * otherwise (ENOENT through a dangling link, ENOTDIR) is asked again by the
 * next entry that needs it: an entry in between may have made it possible.
 */
static void make_parents(char *path, size_t rootlen, struct known_dirs *k)
{
	size_t upto = 0;
	bool failed = false;

	for (char *s = strchr(path + rootlen + 1, '/'); s; s = strchr(s + 1, '/')) {
		size_t n = (size_t)(s - path);

		if (!failed && n <= k->len && !memcmp(path, k->path, n) && (n == k->len || k->path[n] == '/')) {
			upto = n;
			continue;
		}
		*s = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			failed = true;
		else if (!failed)
			upto = n;
		*s = '/';
	}
	memcpy(k->path, path, upto);
	k->len = upto;
}

static void write_file(const char *path, const char *text, size_t len)
{
	char buf[4096];
	size_t n = 0;
	int fd;

	for (size_t i = 0; i < len && n < sizeof(buf); i++) {
		if (text[i] == '\\' && i + 1 < len) {
			char c = text[++i];
			buf[n++] = c == 'n' ? '\n' : c == '0' ? '\0' : c;
		} else {
			buf[n++] = text[i];
		}
	}
	/* open/write, not fopen: its buffer was a malloc (and a fill) per file */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return; /* a directory of that name already: the tree is as odd as asked */
	if (write(fd, buf, n) < 0)
		FUZZ_CHECK(0, "%s: %s", path, strerror(errno));
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fs_em em;
	const char *root = fuzz_scratch_dir(), *p = (const char *)data, *end = p + size;
	char release[128] = "", cpu_dir[PATH_MAX] = "", err[2048];
	size_t rootlen = strlen(root);
	struct known_dirs known = { .len = 0 };
	int entries = 0;

	while (p < end && entries < MAX_ENTRIES) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *eol = nl ? nl : end;
		const char *arg = p + 2, *sp;
		char path[PATH_MAX];

		if (eol - p < 3 || p[1] != ' ')
			goto next;
		entries++;
		sp = memchr(arg, ' ', (size_t)(eol - arg));
		switch (p[0]) {
		case 'r':
			snprintf(release, sizeof(release), "%.*s", (int)(eol - arg), arg);
			break;
		case 'c':
			if (!inside(root, arg, (size_t)(eol - arg), path, sizeof(path)))
				snprintf(cpu_dir, sizeof(cpu_dir), "%s", path);
			break;
		case 'd':
			if (!inside(root, arg, (size_t)(eol - arg), path, sizeof(path))) {
				make_parents(path, rootlen, &known);
				if (!mkdir(path, 0755) || errno == EEXIST) { /* it exists, so do its parents */
					known.len = strlen(path);
					memcpy(known.path, path, known.len);
				}
			}
			break;
		case 'f':
		case 'l':
			if (!sp || inside(root, arg, (size_t)(sp - arg), path, sizeof(path)))
				break;
			make_parents(path, rootlen, &known);
			if (p[0] == 'f') {
				write_file(path, sp + 1, (size_t)(eol - sp - 1));
			} else {
				char target[512];
				snprintf(target, sizeof(target), "%.*s", (int)(eol - sp - 1), sp + 1);
				if (!memchr(sp + 1, '\0', (size_t)(eol - sp - 1)) && target[0] != '/' &&
				    !strstr(target, ".."))
					(void)symlink(target, path);
			}
			break;
		}
next:
		p = nl ? nl + 1 : end;
	}
	if (!fs_em_read_debugfs_kernel(root, cpu_dir[0] ? cpu_dir : NULL, release[0] ? release : NULL, &em,
				       err, sizeof(err))) {
		fuzz_em_round_trip(&em, "EM tree");
	} else {
		FUZZ_CHECK(err[0] && strlen(err) < sizeof(err) - 1, "empty or unterminated error");
	}
	return 0;
}

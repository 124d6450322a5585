// SPDX-License-Identifier: GPL-2.0
/* report's inputs (many_files.h): files named and directories scanned. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "many_files.h"
#include "cli.h"
#include "source/probe.h"

static int add(struct fs_file_list *l, const char *s)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		char **v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	return (l->v[l->n++] = strdup(s)) ? 0 : -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool named_fsr(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && !strcmp(name + n - 4, ".fsr");
}

/*
 * A directory's recordings: its regular files that start with the recording
 * magic, by name. A *.fsr that does not is said and counted in *skipped.
 * Kernel traces (by content) only with traces (report --em): without an EM
 * none can be read, and a directory of outputs holds feecscope's own
 * Perfetto traces; those passed over are said in one line.
 */
static int add_dir(struct fs_file_list *l, const char *dir, bool traces, int *skipped)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t first = l->n;
	int passed_over = 0;

	if (!d) {
		fprintf(stderr, "feecscope report: %s: cannot open: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		char path[4096], err[256];
		struct stat st;
		const struct fs_input_probe *p;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		/* recordings and kernel traces, by content; not CSVs (any text would be one) */
		if (fs_input_probe_file(path, &p, err, sizeof(err)) || !p ||
		    (p->fmt != FS_IN_RECORDING && !p->read)) {
			if (named_fsr(e->d_name)) {
				fprintf(stderr, "feecscope report: %s: skipped: %s\n", path,
					st.st_size ? "not a recording (bad magic)" : "is empty");
				(*skipped)++;
			}
			continue;
		}
		if (p->fmt != FS_IN_RECORDING && !traces) {
			passed_over++;
			continue;
		}
		if (add(l, path)) {
			closedir(d);
			return -1;
		}
	}
	closedir(d);
	if (passed_over)
		fprintf(stderr, "feecscope report: %s: %d kernel trace%s passed over (give --em to include them)\n", dir,
			passed_over, passed_over == 1 ? "" : "s");
	qsort(l->v + first, l->n - first, sizeof(*l->v), cmp_str);
	return 0;
}

int fs_many_files(char *const *names, int n, bool traces, struct fs_file_list *l, int *skipped)
{
	for (int i = 0; i < n; i++) {
		char err[512];
		struct stat st;

		if (!stat(names[i], &st) && S_ISDIR(st.st_mode)) {
			if (add_dir(l, names[i], traces, skipped))
				return -1;
			continue;
		}
		/* a named file that cannot be read: said before any work, in replay's words */
		if (fs_cli_input_file(names[i], err, sizeof(err))) {
			fprintf(stderr, "feecscope report: %s\n", err);
			return -1;
		}
		if (add(l, names[i]))
			return -1;
	}
	return 0;
}

void fs_file_list_free(struct fs_file_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

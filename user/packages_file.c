// SPDX-License-Identifier: GPL-2.0
/* packages.list from a file into engine/apps.c's parser. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "packages_file.h"

/* A device lists a few thousand packages in about 500 KiB; more is not a packages.list. */
#define MAX_BYTES (64u << 20)

int fs_packages_load(const char *cmd, const char *path, bool quiet, struct fs_apps *out)
{
	struct stat sb;
	char err[768];
	FILE *f;

	memset(out, 0, sizeof(*out));
	if (!(f = fopen(path, "rb"))) {
		if (!quiet)
			fs_cli_error(cmd, "--packages %s: cannot open: %s", path, strerror(errno));
		return quiet ? 0 : FS_EXIT_FAIL;
	}
	if (fstat(fileno(f), &sb) || !S_ISREG(sb.st_mode) || sb.st_size > (off_t)MAX_BYTES) {
		fclose(f);
		if (quiet)
			return 0;
		fs_cli_error(cmd, "--packages %s: %s", path, S_ISDIR(sb.st_mode) ? "is a directory" :
			     !S_ISREG(sb.st_mode) ? "not a regular file" : "larger than 64 MiB: not a packages.list");
		return FS_EXIT_FAIL;
	}
	char *buf = malloc((size_t)sb.st_size + 1);
	size_t n = buf ? fread(buf, 1, (size_t)sb.st_size, f) : 0;
	bool bad = !buf || ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		fs_cli_error(cmd, "--packages %s: cannot read: %s", path, buf ? strerror(EIO) : "out of memory");
		return FS_EXIT_FAIL;
	}
	int rc = fs_apps_parse(out, buf, n, path, err, sizeof(err));
	free(buf);
	if (rc && quiet) { /* the device's own, not asked for: run on without apps, but say why */
		fprintf(stderr, "feecscope %s: warning: %s (not grouping by app)\n", cmd, err);
		return 0;
	}
	if (rc) {
		fs_cli_error(cmd, "--packages %s", err);
		return FS_EXIT_FAIL;
	}
	snprintf(out->from, sizeof(out->from), "%s%s", quiet ? "" : "--packages ", path);
	return 0;
}

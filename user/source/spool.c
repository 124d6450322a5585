// SPDX-License-Identifier: GPL-2.0
/* Copy a read-once input (pipe, FIFO, terminal) into a memfd so it can be read by name, twice. */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "spool.h"

const char *fs_spool_if_stream(const char *path, char *buf, size_t buflen, char *err, size_t errlen)
{
	char chunk[65536];
	struct stat st;
	int in, out;
	ssize_t n;

	bool std_in = !strcmp(path, "-");

	if (!std_in && (stat(path, &st) || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
		return path;
	in = std_in ? dup(0) : open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return NULL;
	}
	out = memfd_create("feecscope-input", MFD_CLOEXEC);
	if (out < 0) {
		snprintf(err, errlen, "%s: cannot read: no memory file: %s", path, strerror(errno));
		close(in);
		return NULL;
	}
	while ((n = read(in, chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || write(out, chunk, (size_t)n) != n) {
			snprintf(err, errlen, "%s: cannot read: %s", path, strerror(n < 0 ? errno : ENOSPC));
			close(in);
			close(out);
			return NULL;
		}
	}
	close(in);
	snprintf(buf, buflen, "/proc/self/fd/%d", out);
	return buf;
}

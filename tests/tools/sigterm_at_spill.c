// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD shim for tests/cli/out_safety.sh: the process sends itself
 * SIGTERM as it unlinks a seq_sort spill file (NAME.sort-XXXXXX), the one
 * moment such a file has a name. Where seq_sort holds signals from the
 * file's creation to its unlink (out_cleanup.h) the signal lands after it;
 * where it does not, the process dies with the file still there.
 *   cc -shared -fPIC -o sigterm_at_spill.so sigterm_at_spill.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

int unlink(const char *path)
{
	static int (*real)(const char *);

	if (!real)
		real = (int (*)(const char *))dlsym(RTLD_NEXT, "unlink");
	if (strstr(path, ".sort-"))
		kill(getpid(), SIGTERM);
	return real(path);
}

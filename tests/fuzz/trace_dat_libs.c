// SPDX-License-Identifier: GPL-2.0
/*
 * The trace_dat harness's guard (trace_dat_libs.h). Debian's libtraceevent
 * and libtracecmd crash on some malformed files (tests/fuzz/trace_dat/
 * library-crashes); an input they crash on is theirs and is passed over.
 * The libraries' calls alone run in a plain helper program, started once
 * (tests/fuzz/helpers/trace_dat_libs_server.c, built beside the fuzzer as
 * trace_dat_libs), which forks a child per input: whatever ends that child
 * abnormally is theirs, and our decoder runs only in the fuzzer's process,
 * in view of the sanitizers. The helper has no ASan: a fork of the fuzzer
 * ran them under ASan for ~25 ms of CPU an input, three quarters of the
 * target's time (docs/fuzzing.md); what only ASan sees in the libraries
 * (an interceptor's report, such as strdup past an unterminated string)
 * is then seen in process, and passed over there (fuzz_trace_dat.c).
 */
#include "trace_dat_libs.h"
#include "fuzz.h"

#ifndef FS_HAVE_TRACECMD
enum fuzz_dat_libs fuzz_trace_dat_libs(const char *path)
{
	(void)path;
	return FUZZ_DAT_LIBS_READ;
}
#else
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

/*
 * The helper's path: FS_FUZZ_DAT_LIBS, else trace_dat_libs beside this
 * binary (build/fuzz/), else in ../fuzz/ (the replay binary's build/tests/).
 */
static void helper_path(char *out, size_t size)
{
	const char *env = getenv("FS_FUZZ_DAT_LIBS");
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (env && *env) {
		snprintf(out, size, "%s", env);
		return;
	}
	FUZZ_CHECK(n > 0, "readlink /proc/self/exe: %s", strerror(errno));
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	FUZZ_CHECK(slash, "no directory in '%s'", exe);
	*slash = '\0';
	snprintf(out, size, "%s/trace_dat_libs", exe);
	if (access(out, X_OK))
		snprintf(out, size, "%s/../fuzz/trace_dat_libs", exe);
	FUZZ_CHECK(!access(out, X_OK), "%s: %s (make %s)", out, strerror(errno), out);
}

/* Starts the helper with req's read end as its stdin, ans's write end as its stdout. */
static void start_helper(int *req, int *ans)
{
	char path[PATH_MAX + 32];
	char *argv[] = { path, NULL };
	posix_spawn_file_actions_t fa;
	int a[2], b[2];
	pid_t pid;
	int rc;

	helper_path(path, sizeof(path));
	FUZZ_CHECK(!pipe2(a, O_CLOEXEC) && !pipe2(b, O_CLOEXEC), "pipe2: %s", strerror(errno));
	FUZZ_CHECK(!posix_spawn_file_actions_init(&fa), "posix_spawn_file_actions_init");
	posix_spawn_file_actions_adddup2(&fa, a[0], 0);
	posix_spawn_file_actions_adddup2(&fa, b[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	rc = posix_spawn(&pid, path, &fa, NULL, argv, environ);
	FUZZ_CHECK(!rc, "%s: %s", path, strerror(rc));
	posix_spawn_file_actions_destroy(&fa);
	close(a[0]), close(b[1]);
	*req = a[1], *ans = b[0];
}

enum fuzz_dat_libs fuzz_trace_dat_libs(const char *path)
{
	static int req = -1, ans = -1;
	char own[64];
	const char *p = path;
	size_t len;
	ssize_t n;
	char r;

	/* the memfd's /proc/self/fd/N is the fuzzer's, not the helper's */
	if (!strncmp(path, "/proc/self/", 11)) {
		snprintf(own, sizeof(own), "/proc/%d/%s", (int)getpid(), path + 11);
		p = own;
	}
	len = strlen(p);
	FUZZ_CHECK(len < 256, "path '%s' too long", p);
	if (req < 0)
		start_helper(&req, &ans);
	/* libFuzzer's SIGALRM (its -timeout watch, every timeout/2 s) interrupts a read */
	while ((n = write(req, p, len)) < 0 && errno == EINTR)
		;
	FUZZ_CHECK(n == (ssize_t)len, "to the trace_dat_libs helper: %s", strerror(errno));
	while ((n = read(ans, &r, 1)) < 0 && errno == EINTR)
		;
	FUZZ_CHECK(n == 1, "from the trace_dat_libs helper: %s", n ? strerror(errno) : "it ended");
	FUZZ_CHECK(r >= FUZZ_DAT_LIBS_READ && r <= FUZZ_DAT_LIBS_NO_DATA, "the trace_dat_libs helper answered %d", r);
	return (enum fuzz_dat_libs)r;
}
#endif /* FS_HAVE_TRACECMD */

// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat read in a child process (trace_dat.h). libtraceevent's format
 * parser and libtracecmd crash on some malformed files (tests/fuzz/trace_dat/
 * library-crashes: a NULL strcmp, a division by zero, wild pointers, all in
 * tep_parse_event() under tracecmd_open_head()); we cannot mend Debian's
 * libraries, so the child (trace_dat_child.c) takes the crash and the parent
 * says so in one line. The events come through a shared ring in batches
 * (trace_dat_guard.h), so the parent's work on them (the simulation's
 * workload) runs beside the reading.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "trace_dat_guard.h"

extern char **environ;

static _Atomic unsigned int batch_set;

void fs_trace_dat_guard_set_batch(unsigned int batch)
{
	batch_set = batch <= GUARD_BATCH ? batch : GUARD_BATCH;
}

static unsigned int batch_now(void)
{
	unsigned int b = batch_set;

	return b ? b : GUARD_BATCH;
}

struct guard {
	pid_t pid;
	int ring_fd, sock[2];
	struct fs_tev *ring;
};

/*
 * The child's environment: ours, and glibc's malloc asked to back the heap
 * with transparent huge pages (the glibc.malloc.hugetlb tunable, 2.35+; it
 * madvises, so THP's "madvise" mode is enough). Reading a trace.dat is mostly
 * libtracecmd's allocations (event formats, kallsyms, a buffer per chunk):
 * as 4 KiB pages, each first touch a fault (docs/traces.md, Import speed).
 */
static char **child_env(void)
{
	static const char tun[] = "glibc.malloc.hugetlb=1";
	size_t n = 0, k = 0;
	const char *old = getenv("GLIBC_TUNABLES");
	char **env, *t;

	while (environ && environ[n])
		n++;
	env = malloc((n + 3) * sizeof(*env));
	if (!env || asprintf(&t, "GLIBC_TUNABLES=%s%s%s", old ? old : "", old ? ":" : "", tun) < 0) {
		free(env);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "GLIBC_TUNABLES=", 15))
			env[k++] = environ[i];
	env[k++] = GUARD_CHILD_ENV "=1";
	env[k++] = t;
	env[k] = NULL;
	return env;
}

static void env_free(char **env)
{
	size_t k = 0;

	if (!env)
		return;
	while (env[k + 1])
		k++;
	free(env[k]); /* ours, the last */
	free(env);
}

/*
 * Our own binary again as the reader (trace_dat_child.c's hidden entry):
 * its fds moved to GUARD_FD_*, every other closed. -1 if it cannot start
 * (no /proc, say): then the caller forks.
 */
static int spawn(struct guard *g, const char *path)
{
	char batch[16], *argv[] = { "feecscope-trace-dat", GUARD_CHILD_ARG, (char *)path, batch, GUARD_FILE_PATH, NULL };
	/* the file opened here: a name like /proc/self/fd/N (a spooled pipe) is ours, not the child's */
	int file = open(path, O_RDONLY | O_CLOEXEC), src[3] = { g->ring_fd, g->sock[1], file };
	int dst[3] = { GUARD_FD_RING, GUARD_FD_SOCK, GUARD_FD_FILE }, hi[3] = { -1, -1, -1 };
	posix_spawn_file_actions_t fa;
	char **env = child_env();
	int rc = -1;

	snprintf(batch, sizeof(batch), "%u", batch_now());
	if (!GUARD_SPAWN || file < 0 || getenv(GUARD_CHILD_ENV) || !env || posix_spawn_file_actions_init(&fa)) {
		env_free(env);
		if (file >= 0)
			close(file);
		return -1; /* a file we cannot open: the fork says why, in the reader's words */
	}
	for (int i = 0; i < 3; i++) /* above the targets first, so no dup2 lands on a source */
		if ((hi[i] = fcntl(src[i], F_DUPFD_CLOEXEC, GUARD_FD_FILE + 1)) < 0)
			goto out;
	for (int i = 0; i < 3; i++)
		if (posix_spawn_file_actions_adddup2(&fa, hi[i], dst[i]))
			goto out;
	if (posix_spawn_file_actions_addclosefrom_np(&fa, GUARD_FD_FILE + 1))
		goto out;
	rc = posix_spawn(&g->pid, "/proc/self/exe", &fa, NULL, argv, env) ? -1 : 0;
out:
	close(file);
	for (int i = 0; i < 3; i++)
		if (hi[i] >= 0)
			close(hi[i]);
	posix_spawn_file_actions_destroy(&fa);
	env_free(env);
	return rc;
}

static void guard_close(struct guard *g)
{
	int *fds[] = { &g->ring_fd, &g->sock[0], &g->sock[1] };

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (*fds[i] >= 0)
			close(*fds[i]), *fds[i] = -1;
	if (g->ring && g->ring != MAP_FAILED)
		munmap(g->ring, GUARD_RING_BYTES);
	g->ring = NULL;
}

/* The ring and the socket pair, then the child; the parent keeps its end. */
static int start(struct guard *g, const char *path)
{
	g->ring_fd = memfd_create("feecscope-trace-dat", MFD_CLOEXEC);
	if (g->ring_fd < 0 || ftruncate(g->ring_fd, (off_t)GUARD_RING_BYTES) ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, g->sock))
		return -1;
	g->ring = mmap(NULL, GUARD_RING_BYTES, PROT_READ, MAP_SHARED | MAP_POPULATE, g->ring_fd, 0);
	if (g->ring == MAP_FAILED)
		return -1;
	fflush(NULL); /* nothing buffered twice if it is a fork */
	if (spawn(g, path)) {
		g->pid = fork();
		if (g->pid == 0) { /* the parent's end closed, or its death would not end our socket */
			close(g->sock[0]);
			fs_trace_dat_child(path, path, g->ring_fd, g->sock[1], batch_now());
		}
		if (g->pid < 0)
			return -1;
	}
	close(g->ring_fd), g->ring_fd = -1;
	close(g->sock[1]), g->sock[1] = -1;
	return 0;
}

static int read_all(int fd, void *p, size_t len)
{
	char *c = p;

	while (len) {
		ssize_t r = read(fd, c, len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		c += r;
		len -= (size_t)r;
	}
	return 0;
}

/*
 * How the child ended, when it sent no answer, as the one line of err:
 * "opening it" while the libraries parsed the headers and formats, "reading
 * its records" after.
 */
static void child_failed(const char *path, int status, bool opened, char *err, size_t errlen)
{
	int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	const char *when = opened ? "reading its records" : "opening it";

	if (sig == SIGSEGV || sig == SIGFPE || sig == SIGBUS || sig == SIGILL || sig == SIGABRT)
		snprintf(err, errlen,
			 "%s: trace.dat: libtraceevent/libtracecmd crashed %s (%s): the file is malformed",
			 path, when, strsignal(sig));
	else if (sig) /* SIGKILL: most likely the OOM killer */
		snprintf(err, errlen, "%s: trace.dat: its reader was killed %s (%s)", path, when, strsignal(sig));
	else
		snprintf(err, errlen, "%s: trace.dat: its reader ended without an answer %s (exit %d)", path, when,
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/*
 * The parent: each batch's events to fn (counted), the slot given back,
 * until the child's answer. 1 if it came, 0 if not (the child ended, or sent
 * what it never sends), -1 if fn stopped.
 */
static int relay(struct guard *g, fs_tev_fn fn, void *ctx, struct guard_end *end, char *err, size_t errlen,
		 __u64 *delivered, bool *opened_p)
{
	struct guard_msg m;
	char b = 0;

	while (!read_all(g->sock[0], &m, sizeof(m))) {
		if (m.kind == GUARD_MSG_END)
			return !read_all(g->sock[0], end, sizeof(*end));
		if (m.kind == GUARD_MSG_OPENED) {
			*opened_p = true;
			continue;
		}
		if (m.kind != GUARD_MSG_BATCH || m.slot >= GUARD_SLOTS || m.n > GUARD_BATCH)
			return 0;
		for (const struct fs_tev *ev = g->ring + (size_t)m.slot * GUARD_BATCH, *e = ev + m.n; ev < e; ev++) {
			++*delivered;
			if (fn(ctx, ev, err, errlen))
				return -1;
		}
		/* the slot back; if the child has ended, its answer (or its end) is still there to read */
		(void)!send(g->sock[0], &b, 1, MSG_NOSIGNAL);
	}
	return 0;
}

int fs_trace_dat_read_file(const char *path, fs_tev_fn fn, void *ctx, struct fs_trace_stats *st,
			   char *err, size_t errlen)
{
	struct guard g = { .pid = -1, .ring_fd = -1, .sock = { -1, -1 } };
	struct guard_end end = { 0 };
	__u64 delivered = 0;
	bool was_opened = false;
	int status, got;

	if (!fs_trace_dat_supported())
		return fs_trace_dat_read_here(path, fn, ctx, st, err, errlen);
	if (st)
		memset(st, 0, sizeof(*st));
	if (start(&g, path)) {
		snprintf(err, errlen, "%s: trace.dat: cannot start its reader: %s", path, strerror(errno));
		guard_close(&g);
		return -1;
	}
	got = relay(&g, fn, ctx, &end, err, errlen, &delivered, &was_opened);
	if (got <= 0)
		kill(g.pid, SIGKILL); /* fn stopped, or the child broke its protocol: the rest is not wanted */
	guard_close(&g);
	while (waitpid(g.pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got < 0) {
		if (st)
			st->events = delivered;
		return -1;
	}
	if (!got) {
		child_failed(path, status, was_opened, err, errlen);
		return -1;
	}
	if (st)
		*st = end.st;
	if (end.rc)
		snprintf(err, errlen, "%s", end.err);
	return end.rc ? -1 : 0;
}

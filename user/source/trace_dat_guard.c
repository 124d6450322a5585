// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat read in a child process (trace_dat.h). libtraceevent's format
 * parser and libtracecmd crash on some malformed files (tests/fuzz/trace_dat/
 * library-crashes: a NULL strcmp, a division by zero, wild pointers, all in
 * tep_parse_event() under tracecmd_open_head()); we cannot mend Debian's
 * libraries, so the child takes the crash and the parent says so in one line.
 * The child streams its events through a pipe as they are decoded, so the
 * parent's work on them (the simulation's workload) runs beside the reading.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "trace_dat.h"

#define GUARD_END FS_TEV_NR_TYPES         /* a type no event has: the child's answer follows */
#define GUARD_OPENED (FS_TEV_NR_TYPES + 1) /* nor this: the libraries opened the file */
/*
 * Few large writes into a large pipe: each write may wake the parent, and a
 * wake-up (a cross-CPU interrupt, in a VM an exit) costs more than copying
 * the bytes (docs/traces.md, Import speed).
 */
#define GUARD_BATCH 4096                /* events a write: 384 KiB */
#define GUARD_PIPE_BYTES (1 << 20)      /* pipe-max-size's default (pipe(7)); else what the kernel gives */

struct guard_end {
	int rc;
	struct fs_trace_stats st;
	char err[1024];
};

struct guard_child {
	int fd;
	size_t n;
	struct fs_tev buf[GUARD_BATCH];
};

static int write_all(int fd, const void *p, size_t len)
{
	const char *c = p;

	while (len) {
		ssize_t w = write(fd, c, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		len -= (size_t)w;
	}
	return 0;
}

static int flush_child(struct guard_child *g)
{
	int rc = write_all(g->fd, g->buf, g->n * sizeof(g->buf[0]));

	g->n = 0;
	return rc;
}

static int to_pipe(void *ctx, const struct fs_tev *ev, char *err, size_t errlen)
{
	struct guard_child *g = ctx;

	g->buf[g->n++] = *ev;
	if (g->n == GUARD_BATCH && flush_child(g)) {
		snprintf(err, errlen, "the reader's pipe closed");
		return -1;
	}
	return 0;
}

/* In the child: the libraries opened the file and parsed its formats (a crash after is in the records). */
static void opened(void *ctx)
{
	struct guard_child *g = ctx;

	memset(&g->buf[g->n], 0, sizeof(g->buf[0]));
	g->buf[g->n++].type = GUARD_OPENED;
	flush_child(g); /* now, so the parent knows it even if the next record crashes */
}

/* The child: read, send every event, then the answer; never returns. */
static void run_child(const char *path, int fd)
{
	static struct guard_child g;
	static struct guard_end end;
	/*
	 * The parent's handlers (out_cleanup.c) are the parent's business;
	 * ignored signals stay ignored. The faults too go back to the default, so
	 * a library's crash ends the child by its signal even where a sanitizer
	 * or the fuzzer had taken them (our own memory errors are still the
	 * sanitizer's: it finds them by instrumentation, not by signal).
	 */
	static const int sigs[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE, SIGSEGV, SIGFPE, SIGBUS, SIGILL };

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa;

		if (!sigaction(sigs[i], NULL, &sa) && sa.sa_handler != SIG_IGN)
			signal(sigs[i], SIG_DFL);
	}
	g.fd = fd;
	fs_trace_dat_set_open_hook(opened, &g);
	end.rc = fs_trace_dat_read_here(path, to_pipe, &g, &end.st, end.err, sizeof(end.err));
	memset(&g.buf[g.n], 0, sizeof(g.buf[0]));
	g.buf[g.n++].type = GUARD_END;
	if (flush_child(&g) || write_all(fd, &end, sizeof(end)))
		_exit(1);
	_exit(0); /* not exit(): the parent's stdio buffers and atexit work are not the child's */
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

/* The parent: each event to fn (counted) until the child's answer. 1 if it came, 0 if not, -1 if fn stopped. */
static int relay(FILE *in, fs_tev_fn fn, void *ctx, struct guard_end *end, char *err, size_t errlen,
		 __u64 *delivered, bool *opened_p)
{
	struct fs_tev ev;

	while (fread(&ev, sizeof(ev), 1, in) == 1) {
		if (ev.type == GUARD_END)
			return fread(end, sizeof(*end), 1, in) == 1;
		if (ev.type == GUARD_OPENED) {
			*opened_p = true;
			continue;
		}
		++*delivered;
		if (fn(ctx, &ev, err, errlen))
			return -1;
	}
	return 0;
}

int fs_trace_dat_read_file(const char *path, fs_tev_fn fn, void *ctx, struct fs_trace_stats *st,
			   char *err, size_t errlen)
{
	struct guard_end end = { 0 };
	__u64 delivered = 0;
	bool was_opened = false;
	int fds[2], status, got;
	char *inbuf;
	pid_t pid;
	FILE *in;

	if (!fs_trace_dat_supported())
		return fs_trace_dat_read_here(path, fn, ctx, st, err, errlen);
	if (st)
		memset(st, 0, sizeof(*st));
	if (pipe(fds)) {
		snprintf(err, errlen, "%s: trace.dat: cannot start its reader: %s", path, strerror(errno));
		return -1;
	}
	fcntl(fds[0], F_SETPIPE_SZ, GUARD_PIPE_BYTES); /* if refused, a smaller pipe only costs wake-ups */
	fflush(NULL); /* nothing buffered twice */
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		run_child(path, fds[1]);
	}
	close(fds[1]);
	in = pid < 0 ? NULL : fdopen(fds[0], "r");
	if (!in) {
		snprintf(err, errlen, "%s: trace.dat: cannot start its reader: %s", path, strerror(errno));
		close(fds[0]);
		if (pid > 0)
			kill(pid, SIGKILL), waitpid(pid, NULL, 0);
		return -1;
	}
	/* a pipe's worth a read, not stdio's 4 KiB; if no memory, stdio's own */
	inbuf = malloc(GUARD_PIPE_BYTES);
	if (inbuf)
		setvbuf(in, inbuf, _IOFBF, GUARD_PIPE_BYTES);
	got = relay(in, fn, ctx, &end, err, errlen, &delivered, &was_opened);
	if (got < 0)
		kill(pid, SIGKILL); /* fn stopped: the rest is not wanted */
	fclose(in);
	free(inbuf);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
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

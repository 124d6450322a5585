// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat guard's reader process (trace_dat_guard.h): libtracecmd
 * reads the file here, each decoded event goes into the shared ring, and a
 * crash of the libraries ends only this process. It is started as a new
 * program (our own binary, the hidden entry below) rather than a fork of a
 * possibly large parent, so its heap is its own from the start and can be
 * given huge pages (docs/traces.md, Import speed).
 */
#include <errno.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include "trace_dat_guard.h"

struct child {
	struct fs_tev *ring;
	int sock;
	unsigned int slot, n, busy; /* the slot being filled, its events, slots sent and not yet taken */
	unsigned int batch;         /* events a message */
};

static int send_all(int fd, const void *p, size_t len)
{
	const char *c = p;

	while (len) {
		ssize_t w = send(fd, c, len, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		len -= (size_t)w;
	}
	return 0;
}

static int send_msg(struct child *c, __u32 kind, __u32 slot, __u32 n)
{
	struct guard_msg m = { kind, slot, n };

	return send_all(c->sock, &m, sizeof(m));
}

/* The filled slot to the parent; then wait, if every slot is out, until it gives one back. */
static int flush(struct child *c)
{
	char b;

	if (!c->n)
		return 0;
	if (send_msg(c, GUARD_MSG_BATCH, c->slot, c->n))
		return -1;
	c->slot = (c->slot + 1) % GUARD_SLOTS;
	c->n = 0;
	if (++c->busy < GUARD_SLOTS)
		return 0;
	for (;;) {
		ssize_t r = recv(c->sock, &b, 1, 0);

		if (r == 1)
			break;
		if (r < 0 && errno == EINTR)
			continue;
		return -1; /* the parent is gone */
	}
	c->busy--;
	return 0;
}

static int to_ring(void *ctx, const struct fs_tev *ev, char *err, size_t errlen)
{
	struct child *c = ctx;

	c->ring[(size_t)c->slot * GUARD_BATCH + c->n++] = *ev;
	if (c->n == c->batch && flush(c)) {
		snprintf(err, errlen, "the reader's pipe closed");
		return -1;
	}
	return 0;
}

/* The libraries opened the file and parsed its formats: said now, so a crash in the next record is told apart. */
static void opened(void *ctx)
{
	struct child *c = ctx;

	flush(c);
	send_msg(c, GUARD_MSG_OPENED, 0, 0);
}

/*
 * The parent's handlers are the parent's business (a fork inherits them);
 * ignored signals stay ignored. The faults too go back to the default, so a
 * library's crash ends this process by its signal even where a sanitizer or
 * the fuzzer had taken them (our own memory errors are still the
 * sanitizer's: it finds them by instrumentation, not by signal).
 */
static void default_signals(void)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE, SIGSEGV, SIGFPE, SIGBUS, SIGILL };

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa;

		if (!sigaction(sigs[i], NULL, &sa) && sa.sa_handler != SIG_IGN)
			signal(sigs[i], SIG_DFL);
	}
}

/*
 * The parent's end (killed, say, by a SIGTERM it does not catch) ends this
 * process at once, not at the next batch it would wait for. If the parent
 * ended before that was asked, its end of the socket is already closed.
 */
static void end_with_parent(int sock)
{
	struct pollfd p = { .fd = sock, .events = POLLRDHUP };

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || (poll(&p, 1, 0) == 1 && (p.revents & (POLLRDHUP | POLLHUP))))
		_exit(1);
}

/* An error that names open names path instead (the reader's errors start with the file's name). */
static void name_path(char *err, size_t errlen, const char *open, const char *path)
{
	size_t n = strlen(open);
	char rest[sizeof(((struct guard_end *)0)->err)];

	if (open == path || strncmp(err, open, n))
		return;
	snprintf(rest, sizeof(rest), "%s", err + n);
	snprintf(err, errlen, "%s%s", path, rest);
}

_Noreturn void fs_trace_dat_child(const char *path, const char *open, int ring_fd, int sock, unsigned int batch)
{
	static struct child c;
	static struct guard_end end;

	default_signals();
	end_with_parent(sock);
	if (batch < 1 || batch > GUARD_BATCH)
		_exit(2);
	c.batch = batch;
	/*
	 * libtracecmd decompresses each chunk into a fresh malloc() and frees it
	 * (lib/trace-cmd/trace-input.c, read_zpage(), 1.3.1): kept in the heap
	 * rather than mapped and unmapped each time, or the top trimmed, those
	 * pages are faulted in once. This process ends after one read.
	 */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	c.ring = mmap(NULL, GUARD_RING_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring_fd, 0);
	if (c.ring == MAP_FAILED)
		_exit(1);
	close(ring_fd);
	c.sock = sock;
	fs_trace_dat_set_open_hook(opened, &c);
	end.rc = fs_trace_dat_read_here(open, to_ring, &c, &end.st, end.err, sizeof(end.err));
	name_path(end.err, sizeof(end.err), open, path);
	if (flush(&c) || send_msg(&c, GUARD_MSG_END, 0, 0) || send_all(sock, &end, sizeof(end)))
		_exit(1);
	_exit(0); /* not exit(): a fork's copy of the parent's stdio buffers and atexit work are not ours */
}

#if GUARD_SPAWN
/*
 * The hidden entry: the guard starts /proc/self/exe with argv { name,
 * GUARD_CHILD_ARG, path, batch, the path to open } and the fds of trace_dat_guard.h. A constructor,
 * so every program that links the guard (feecscope, the tests, the benches,
 * the fuzzers) is its own reader; glibc hands init functions argc and argv.
 * It never returns when it is the reader, so main() does not run.
 */
__attribute__((constructor)) static void child_entry(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], GUARD_CHILD_ARG))
		fs_trace_dat_child(argv[2], argv[4], GUARD_FD_RING, GUARD_FD_SOCK, (unsigned int)strtoul(argv[3], NULL, 10));
}
#endif

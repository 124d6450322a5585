// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat guard (user/source/trace_dat_guard.c, trace_dat_child.c):
 * the events that come through the child's ring are those the reader gives
 * in process, whether the child is our binary started again or a fork, with
 * batches small enough that the fixtures go round the ring many times; and
 * no fd or child is left behind, whatever the read's end.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "test.h"
#include "source/trace_dat_guard.h"

struct evs {
	struct fs_tev *ev;
	size_t nr, cap;
	char child_argv1[64]; /* the reading child's argv[1], seen at the first event */
};

/* argv[1] of this process's only child, "" if /proc does not say (no CONFIG_PROC_CHILDREN). */
static void child_argv1(char *out, size_t len)
{
	char path[64], buf[256];
	FILE *f;
	int pid = 0;
	size_t n;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)gettid());
	f = fopen(path, "r");
	if (!f)
		return;
	if (fscanf(f, "%d", &pid) != 1)
		pid = 0;
	fclose(f);
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	if (!pid || !(f = fopen(path, "r")))
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (strlen(buf) + 1 < n)
		snprintf(out, len, "%s", buf + strlen(buf) + 1);
}

static int collect(void *ctx, const struct fs_tev *ev, char *err, size_t errlen)
{
	struct evs *e = ctx;

	(void)err;
	(void)errlen;
	if (!e->nr)
		child_argv1(e->child_argv1, sizeof(e->child_argv1));
	if (e->nr == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 256;
		e->ev = realloc(e->ev, e->cap * sizeof(*e->ev));
		if (!e->ev)
			abort();
	}
	e->ev[e->nr++] = *ev;
	return 0;
}

static int stop_at_3(void *ctx, const struct fs_tev *ev, char *err, size_t errlen)
{
	(void)ev;
	if (++*(int *)ctx < 3)
		return 0;
	snprintf(err, errlen, "stopped");
	return -1;
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* The file through the guard (batch events a message) equals the reading in process. */
static void same_as_here(const char *path, unsigned int batch, const char *how)
{
	struct evs here = { 0 }, guarded = { 0 };
	struct fs_trace_stats st_here, st;
	char err[512];

	ASSERT_TRUE(fs_trace_dat_read_here(path, collect, &here, &st_here, err, sizeof(err)) == 0);
	fs_trace_dat_guard_set_batch(batch);
	if (fs_trace_dat_read_file(path, collect, &guarded, &st, err, sizeof(err)))
		FS_FAIL_AT("%s, batch %u: %s", how, batch, err);
	fs_trace_dat_guard_set_batch(0);
	EXPECT_TRUE(here.nr > 4 * (size_t)batch); /* round the ring of 4 slots at least once */
	EXPECT_EQ_U64(guarded.nr, here.nr);
	EXPECT_EQ_U64(st.events, st_here.events);
	EXPECT_EQ_U64(st.lost_events, st_here.lost_events);
	EXPECT_TRUE(guarded.nr == here.nr && !memcmp(guarded.ev, here.ev, here.nr * sizeof(*here.ev)));
	if (strcmp(how, "spawned")) /* a fork's argv is ours */
		EXPECT_TRUE(strcmp(guarded.child_argv1, GUARD_CHILD_ARG));
	else if (guarded.child_argv1[0]) /* unknown without /proc's list of children */
		EXPECT_STR(guarded.child_argv1, GUARD_CHILD_ARG);
	free(here.ev);
	free(guarded.ev);
}

FS_TEST(trace_dat_guard_ring_gives_every_event)
{
	static const char *const files[] = { "trace/trace-v7.dat", "trace/lost-v7.dat" };
	static const unsigned int batches[] = { 1, 7 };

	if (!fs_trace_dat_supported())
		return;
	for (int fork_only = 0; fork_only < 2; fork_only++) {
		/* the variable a reader has: then no reader is spawned, the guard forks */
		if (fork_only)
			setenv(GUARD_CHILD_ENV, "1", 1);
		for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++)
			for (size_t b = 0; b < sizeof(batches) / sizeof(batches[0]); b++)
				same_as_here(fs_fixture(files[f]), batches[b], fork_only ? "forked" : "spawned");
		unsetenv(GUARD_CHILD_ENV);
	}
}

/* After a read that ends well, one the libraries crash in, and one the caller stops: no fd, no child. */
FS_TEST(trace_dat_guard_leaves_nothing)
{
	char err[512], crash[512];
	struct evs e = { 0 };
	int before, n = 0, status;

	if (!fs_trace_dat_supported())
		return;
	snprintf(crash, sizeof(crash), "%s/../fuzz/trace_dat/library-crashes/libtraceevent-segv-0x8", fs_fixture(""));
	for (int fork_only = 0; fork_only < 2; fork_only++) {
		if (fork_only)
			setenv(GUARD_CHILD_ENV, "1", 1);
		before = open_fds();
		EXPECT_EQ(fs_trace_dat_read_file(fs_fixture("trace/trace-v7.dat"), collect, &e, NULL, err, sizeof(err)), 0);
		EXPECT_EQ(fs_trace_dat_read_file(crash, collect, &e, NULL, err, sizeof(err)), -1);
		EXPECT_CONTAINS(err, "libtraceevent/libtracecmd crashed opening it (");
		n = 0;
		EXPECT_EQ(fs_trace_dat_read_file(fs_fixture("trace/trace-v7.dat"), stop_at_3, &n, NULL, err, sizeof(err)),
			  -1);
		EXPECT_STR(err, "stopped");
		EXPECT_EQ(open_fds(), before);
		errno = 0;
		EXPECT_EQ(waitpid(-1, &status, WNOHANG), -1);
		EXPECT_EQ(errno, ECHILD);
		unsetenv(GUARD_CHILD_ENV);
	}
	free(e.ev);
}

/*
 * A name that means a file of the caller's own (/proc/self/fd/N: replay's
 * spooled pipe, the fuzzer's memfd) reads that file, and errors name it.
 */
FS_TEST(trace_dat_guard_reads_the_callers_fd)
{
	char path[64], crash[512], err[512];
	struct evs e = { 0 };
	int fd;

	if (!fs_trace_dat_supported())
		return;
	fd = open(fs_fixture("trace/trace-v7.dat"), O_RDONLY | O_CLOEXEC);
	ASSERT_TRUE(fd >= 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	same_as_here(path, 7, "spawned");
	close(fd);
	snprintf(crash, sizeof(crash), "%s/../fuzz/trace_dat/library-crashes/libtraceevent-segv-0x8", fs_fixture(""));
	fd = open(crash, O_RDONLY | O_CLOEXEC);
	ASSERT_TRUE(fd >= 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	EXPECT_EQ(fs_trace_dat_read_file(path, collect, &e, NULL, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, path);
	EXPECT_CONTAINS(err, ": trace.dat: libtraceevent/libtracecmd crashed opening it (");
	close(fd);
	fd = open(fs_fixture("trace/tracefs.txt"), O_RDONLY | O_CLOEXEC); /* not a trace.dat: the reader's own error */
	ASSERT_TRUE(fd >= 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	EXPECT_EQ(fs_trace_dat_read_file(path, collect, &e, NULL, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, path);
	EXPECT_TRUE(!strstr(err, GUARD_FILE_PATH) || !strcmp(path, GUARD_FILE_PATH));
	close(fd);
	free(e.ev);
}

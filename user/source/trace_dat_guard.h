/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the trace.dat guard's two processes share (trace_dat_guard.c the
 * parent, trace_dat_child.c the reader). The child writes decoded events
 * into a ring of batches in a shared memfd; a socket pair carries a short
 * message per full batch (and the answer at the end) one way and a byte per
 * batch the parent has taken the other. The event bytes never pass through
 * the kernel, and a crash of the child reads as the end of its socket
 * (docs/traces.md, Import speed). A socket rather than pipes: a send to a
 * process that has ended fails with EPIPE instead of raising SIGPIPE.
 */
#ifndef FEECSCOPE_TRACE_DAT_GUARD_H
#define FEECSCOPE_TRACE_DAT_GUARD_H

#include "trace_dat.h"

#define GUARD_BATCH 2048 /* events a batch: 192 KiB */
#define GUARD_SLOTS 4    /* batches in the ring: the child fills one while the parent reads others */
#define GUARD_RING_BYTES ((size_t)GUARD_BATCH * GUARD_SLOTS * sizeof(struct fs_tev))

/*
 * The reader started as a new program (our own, /proc/self/exe): its
 * argv[1], the variable its environment has (a reader never starts
 * another), and its fds. Only where trace_dat_child.c's hidden entry is
 * built (glibc); elsewhere the reader is a fork.
 */
#ifdef __GLIBC__
#define GUARD_SPAWN 1
#else
#define GUARD_SPAWN 0
#endif
#define GUARD_CHILD_ARG "--feecscope-trace-dat-reader"
#define GUARD_CHILD_ENV "FEECSCOPE_TRACE_DAT_READER"
#define GUARD_FD_RING 3 /* the memfd */
#define GUARD_FD_SOCK 4 /* the child's end of the socket pair */
#define GUARD_FD_FILE 5 /* the trace.dat, opened by the parent: its name may mean a file of the parent's */
#define GUARD_FILE_PATH "/proc/self/fd/5"

enum guard_kind {
	GUARD_MSG_BATCH = 1, /* slot holds n events */
	GUARD_MSG_OPENED,    /* the libraries opened the file: a crash after is in the records */
	GUARD_MSG_END,       /* a struct guard_end follows */
};

struct guard_msg {
	__u32 kind, slot, n;
};

struct guard_end {
	int rc;
	struct fs_trace_stats st;
	char err[1024];
};

/*
 * The child's whole life: read the file at open (its errors naming path),
 * send its events in batches of batch (1..GUARD_BATCH; a slot is
 * GUARD_BATCH long whatever it holds) and the answer; never returns.
 */
_Noreturn void fs_trace_dat_child(const char *path, const char *open, int ring_fd, int sock, unsigned int batch);
/* For the tests: the batch the next readers send (0: GUARD_BATCH), so a small trace goes round the ring. */
void fs_trace_dat_guard_set_batch(unsigned int batch);

#endif /* FEECSCOPE_TRACE_DAT_GUARD_H */

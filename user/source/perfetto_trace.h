/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Perfetto's protobuf traces (docs/traces.md): `.perfetto-trace` or
 * `.pftrace`, gzip'd or not, with deflated `compressed_packets` inside.
 * Read: the ftrace event bundles (the ordinary events and the compact sched
 * encoding Android's configs produce), the process tree, the clock
 * snapshots and the measured power rails (android.power). Events come out as the text and trace.dat readers give them
 * (records/trace_event.h): in time order over all CPUs, on the trace's one
 * clock (the snapshots' primary clock, BOOTTIME unless they say otherwise).
 * Pure bytes in, events out (fuzzed by tests/fuzz/fuzz_perfetto_trace.c);
 * only fs_perfetto_trace_read_file() touches a file.
 */
#ifndef FEECSCOPE_PERFETTO_TRACE_H
#define FEECSCOPE_PERFETTO_TRACE_H

#include <stdbool.h>
#include "../records/trace_event.h"
#include "../records/power_rails.h"

/* A process or thread of the trace's process tree (ProcessTree packets). */
struct fs_perfetto_task {
	__s32 pid;              /* the thread's tid, or the process's pid */
	__s32 tgid;             /* its process; a process's own pid */
	__s32 ppid;             /* -1 unless the process entry gave it */
	__s32 uid;              /* -1 unless the process entry gave it */
	char comm[FS_COMM_LEN]; /* thread name, or the last part of cmdline[0] */
};

struct fs_perfetto_tree {
	struct fs_perfetto_task *tasks; /* malloc'd, by pid; the caller frees */
	size_t nr;
};

/*
 * True if buf (a file's first bytes) starts like a Perfetto trace: a Trace
 * message's first packet, plain or gzip'd.
 */
bool fs_perfetto_trace_probe(const void *buf, size_t len);

/*
 * A whole trace, len bytes: each event to fn in time order. st (may be
 * NULL) gets the counts, tree (may be NULL) the process tree, rails (may
 * be NULL; free with fs_power_rails_free) the power rails, their samples
 * on the events' clock. The rails are checked either way. 0, or -1 with
 * err "<name>: packet <n> (offset <o>): <field path>: <problem>" (offsets
 * count in the gunzipped bytes), or fn's. A trace with no sched_switch,
 * sched_waking or sched_wakeup is an error.
 */
int fs_perfetto_trace_parse(const void *buf, size_t len, const char *name, fs_tev_fn fn, void *ctx,
			    struct fs_trace_stats *st, struct fs_perfetto_tree *tree, struct fs_power_rails *rails,
			    char *err, size_t errlen);
/* The same for the file at path, with fs_trace_text_read_file()'s shape. */
int fs_perfetto_trace_read_file(const char *path, fs_tev_fn fn, void *ctx, struct fs_trace_stats *st,
				char *err, size_t errlen);
/* fs_perfetto_trace_read_file() that also gives the rails (probe.h's read_rails). */
int fs_perfetto_trace_read_rails(const char *path, fs_tev_fn fn, void *ctx, struct fs_trace_stats *st,
				 struct fs_power_rails *rails, char *err, size_t errlen);

#endif /* FEECSCOPE_PERFETTO_TRACE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What an input file is, told by its content, never its name: a feecscope
 * recording, a kernel trace (trace-cmd's trace.dat, a Perfetto trace, the
 * ftrace text of tracefs or `trace-cmd report`) or a records CSV. One table
 * of probes (probe.c) so each reader adds its own entry.
 */
#ifndef FEECSCOPE_PROBE_H
#define FEECSCOPE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include "../records/trace_event.h"
#include "../records/power_rails.h"

#define FS_PROBE_HEAD 4096 /* bytes of the file's start the probes see */

enum fs_input_fmt {
	FS_IN_UNKNOWN = 0,  /* binary that no probe took */
	FS_IN_RECORDING,
	FS_IN_TRACE_DAT,
	FS_IN_PERFETTO,
	FS_IN_TRACE_TEXT,
	FS_IN_RECORDS_CSV,  /* any other text: the CSV reader says what is wrong with it */
	FS_IN_GZIP,         /* gzip'd and no probe took it */
};

/* A kernel trace's reader: every event to fn in time order (trace_event.h). */
typedef int (*fs_trace_read_fn)(const char *path, fs_tev_fn fn, void *ctx, struct fs_trace_stats *st,
				char *err, size_t errlen);

/* The same, also handing out the trace's measured power rails (power_rails.h). */
typedef int (*fs_trace_read_rails_fn)(const char *path, fs_tev_fn fn, void *ctx, struct fs_trace_stats *st,
				      struct fs_power_rails *rails, char *err, size_t errlen);

struct fs_input_probe {
	enum fs_input_fmt fmt;
	const char *name;                         /* "trace.dat", for messages */
	bool (*probe)(const void *head, size_t n); /* n <= FS_PROBE_HEAD; NULL: not in this build */
	fs_trace_read_fn read;                    /* a trace's reader; NULL for recordings and CSVs */
	fs_trace_read_rails_fn read_rails;        /* a format that can carry power rails; else NULL */
};

/* The entry whose probe takes head (the file's first n bytes); NULL for FS_IN_UNKNOWN. */
const struct fs_input_probe *fs_input_probe(const void *head, size_t n);
/* The same for the file at path: 0, or -1 with err (cannot be read). */
int fs_input_probe_file(const char *path, const struct fs_input_probe **out, char *err, size_t errlen);

#endif /* FEECSCOPE_PROBE_H */

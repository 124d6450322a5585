/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ftrace text format (docs/traces.md): /sys/kernel/tracing/trace and
 * `trace-cmd report` output, with or without the irq-flags column, with the
 * kernel's own print formats or libtraceevent's sched plugin's. Pure
 * string in, events out (fuzzed by tests/fuzz/fuzz_trace_text.c); only
 * fs_trace_text_read_file() touches a file.
 */
#ifndef FEECSCOPE_TRACE_TEXT_H
#define FEECSCOPE_TRACE_TEXT_H

#include <stdbool.h>
#include "../records/trace_event.h"

struct fs_trace_text;

/* A parser for the input called name (in every error). NULL if out of memory. */
struct fs_trace_text *fs_trace_text_new(const char *name);
/*
 * One line, len bytes, without its newline (a final CR goes). Returns 1 with
 * *ev filled, 0 for a line that holds no event we take (a header, a blank,
 * an event of another kind: counted), -1 with err
 * "<name>:<line>: <event>: <field>: <problem>".
 */
int fs_trace_text_line(struct fs_trace_text *t, const char *line, size_t len, struct fs_tev *ev,
		       char *err, size_t errlen);
const struct fs_trace_stats *fs_trace_text_stats(const struct fs_trace_text *t);
void fs_trace_text_free(struct fs_trace_text *t);

/*
 * A whole text, len bytes: each event to fn in the order of the text. st
 * (may be NULL) gets the counts. 0, or -1 with err (the parser's, or fn's).
 */
int fs_trace_text_parse(const char *buf, size_t len, const char *name, fs_tev_fn fn, void *ctx,
			struct fs_trace_stats *st, char *err, size_t errlen);
/* The same for the file at path. */
int fs_trace_text_read_file(const char *path, fs_tev_fn fn, void *ctx, struct fs_trace_stats *st,
			    char *err, size_t errlen);
/* True if buf's first non-blank line looks like ftrace text (a header or an event line). */
bool fs_trace_text_probe(const char *buf, size_t len);

#endif /* FEECSCOPE_TRACE_TEXT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace-cmd's trace.dat (versions 6 and 7) through libtracecmd and
 * libtraceevent (docs/traces.md): the same events as the text parser.
 * Built where pkg-config finds them (FS_HAVE_TRACECMD); otherwise reading
 * fails with one line saying so (Debian has no static libtracecmd, so the
 * static arm64 build goes without).
 */
#ifndef FEECSCOPE_TRACE_DAT_H
#define FEECSCOPE_TRACE_DAT_H

#include <stdbool.h>
#include "../records/trace_event.h"

/* True if this build reads trace.dat. */
bool fs_trace_dat_supported(void);
/* True if buf starts with trace.dat's magic (any version). */
bool fs_trace_dat_probe(const void *buf, size_t len);
/*
 * Every event of the top buffer to fn in time order; lost events as
 * FS_TEV_LOST. st (may be NULL) gets the counts. 0, or -1 with err naming
 * path and, for a record, the event, its time and field.
 */
int fs_trace_dat_read_file(const char *path, fs_tev_fn fn, void *ctx, struct fs_trace_stats *st,
			   char *err, size_t errlen);
/*
 * fs_trace_dat_read_file() reads in a child process (trace_dat_guard.c):
 * libtraceevent and libtracecmd crash on some malformed files, and a crash
 * there must become one line naming the file, not the end of feecscope.
 * This is the reading itself, in this process, without that guard: for the
 * fuzzer, which must see our own decoder's faults.
 */
/*
 * For the guard's child only (single-threaded there): called once the
 * libraries have opened the file and parsed its formats, before any record.
 */
void fs_trace_dat_set_open_hook(void (*hook)(void *ctx), void *ctx);
#define FS_TRACE_DAT_GUARDED 1 /* fs_trace_dat_read_here() exists (benches built against older trees test it) */
int fs_trace_dat_read_here(const char *path, fs_tev_fn fn, void *ctx, struct fs_trace_stats *st,
			   char *err, size_t errlen);

#endif /* FEECSCOPE_TRACE_DAT_H */

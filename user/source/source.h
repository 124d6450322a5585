/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a run's records come from: a recording, a records CSV, the live
 * collector, or a kernel trace (trace_source.c: a workload for the
 * simulation rather than records). fs_run() (user/run.h) reads any of them
 * the same way and feeds what it reads to the pipeline.
 */
#ifndef FEECSCOPE_SOURCE_H
#define FEECSCOPE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include "../record.h"
#include "../records/recording.h"
#include "../sim/trace_check.h"

/* next()'s returns besides a record (1), the end (0) and an error (-1). */
#define FS_SOURCE_TICK 2 /* no record: an interval is due (live), the run calls its interval hook */

struct fs_source_ops {
	/*
	 * The next record, of any enum fs_rec_type: 1 and *rec (valid until
	 * the next call), 0 at the end, FS_SOURCE_TICK, or -1 with err.
	 */
	int (*next)(void *self, const struct fs_rec_hdr **rec, char *err, size_t errlen);
	void (*close)(void *self); /* accepts what a failed open left */
	/*
	 * A kernel trace is no records but the simulation's workload, built
	 * for the run's EM (prepare: the whole trace read; 0, or -1 with
	 * err) and handed to the pipeline by fs_run() (take: 0 once, with
	 * the workload, which the caller frees, and what the trace held).
	 * NULL for record sources.
	 */
	int (*prepare)(void *self, const struct fs_em *em, enum fs_sim_physics ph, char *err, size_t errlen);
	int (*take)(void *self, struct fs_sim_workload *wl, struct fs_sim_trace_inputs *in);
};

struct fs_source {
	const struct fs_source_ops *ops;
	void *self;
	const char *name;          /* as the user named the input: feed errors start with it; NULL none */
	struct fs_rec_meta meta;   /* kernel release, CPU count, the EM's text (NULL if none) */
	const char *format;        /* what the content was: "feecscope recording", "trace.dat", ... */
};

/* True if s is a kernel trace: it needs an EM from outside and fs_source_prepare(). */
static inline bool fs_source_is_trace(const struct fs_source *s)
{
	return s->ops && s->ops->prepare;
}

/* A trace's workload for em (see prepare above); 0 for any other source. */
static inline int fs_source_prepare(struct fs_source *s, const struct fs_em *em, enum fs_sim_physics ph,
				    char *err, size_t errlen)
{
	return fs_source_is_trace(s) ? s->ops->prepare(s->self, em, ph, err, errlen) : 0;
}

static inline int fs_source_next(struct fs_source *s, const struct fs_rec_hdr **rec, char *err, size_t errlen)
{
	return s->ops->next(s->self, rec, err, errlen);
}

/* Close and free the meta; a zeroed or failed source too. */
void fs_source_close(struct fs_source *s);

/*
 * A stored file, told by its content (probe.h): a recording, a kernel
 * trace (then fs_source_prepare() before the run), or else a records CSV.
 * name is how the messages call it (NULL: path). 0, or -1 with err (s is
 * then closed).
 */
int fs_source_open_file(struct fs_source *s, const char *path, const char *name, char *err, size_t errlen);

#endif /* FEECSCOPE_SOURCE_H */

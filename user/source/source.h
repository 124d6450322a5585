/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a run's records come from: a recording, a records CSV, the live
 * collector (and the trace readers to come). fs_run() (user/run.h) reads
 * any of them the same way and feeds what it reads to the pipeline.
 */
#ifndef FEECSCOPE_SOURCE_H
#define FEECSCOPE_SOURCE_H

#include <stddef.h>
#include "../record.h"
#include "../records/recording.h"

/* next()'s returns besides a record (1), the end (0) and an error (-1). */
#define FS_SOURCE_TICK 2 /* no record: an interval is due (live), the run calls its interval hook */

struct fs_source_ops {
	/*
	 * The next record, of any enum fs_rec_type: 1 and *rec (valid until
	 * the next call), 0 at the end, FS_SOURCE_TICK, or -1 with err.
	 */
	int (*next)(void *self, const struct fs_rec_hdr **rec, char *err, size_t errlen);
	void (*close)(void *self); /* accepts what a failed open left */
};

struct fs_source {
	const struct fs_source_ops *ops;
	void *self;
	const char *name;          /* as the user named the input: feed errors start with it; NULL none */
	struct fs_rec_meta meta;   /* kernel release, CPU count, the EM's text (NULL if none) */
};

static inline int fs_source_next(struct fs_source *s, const struct fs_rec_hdr **rec, char *err, size_t errlen)
{
	return s->ops->next(s->self, rec, err, errlen);
}

/* Close and free the meta; a zeroed or failed source too. */
void fs_source_close(struct fs_source *s);

/*
 * A stored file: a recording, or else a records CSV (told from its first
 * bytes). name is how the messages call it (NULL: path). 0, or -1 with err
 * (s is then closed).
 */
int fs_source_open_file(struct fs_source *s, const char *path, const char *name, char *err, size_t errlen);

#endif /* FEECSCOPE_SOURCE_H */

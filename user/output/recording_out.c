// SPDX-License-Identifier: GPL-2.0
/* The binary recording as an output: every record the pipeline is fed, before filters. */
#include <stdlib.h>
#include "output.h"
#include "out_file.h"
#include "../records/recording.h"

struct rec_out {
	struct fs_rec_writer *w; /* NULL once finished */
	struct fs_out_file out;  /* under its name from the start: a crash leaves what was flushed */
};

static int rec_record(void *self, const struct fs_rec_hdr *rec, char *err, size_t errlen)
{
	return fs_rec_writer_add(((struct rec_out *)self)->w, rec, err, errlen);
}

static int rec_flush(void *self, char *err, size_t errlen)
{
	return fs_rec_writer_flush(((struct rec_out *)self)->w, err, errlen);
}

/* The end marker makes the file complete; without it (an error path) it replays to its last chunk. */
static int rec_finish(void *self, const struct fs_report *rep, char *err, size_t errlen)
{
	struct rec_out *r = self;
	int rc = fs_rec_writer_close(r->w, err, errlen);

	(void)rep;
	r->w = NULL;
	if (rc) {
		fs_out_abort(&r->out);
		return rc;
	}
	return fs_out_commit(&r->out, err, errlen);
}

/* An error path: the file stays, without the end marker (it replays to its last chunk). */
static void rec_free(void *self)
{
	struct rec_out *r = self;

	fs_rec_writer_close(r->w, NULL, 0);
	fs_out_abort(&r->out);
	free(r);
}

static const struct fs_output_ops rec_ops = {
	.record = rec_record, .flush = rec_flush, .finish = rec_finish, .free = rec_free,
};

int fs_output_recording(struct fs_output *o, const char *path, const struct fs_rec_meta *meta,
			char *err, size_t errlen)
{
	struct rec_out *r = calloc(1, sizeof(*r));

	if (!r) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	if (fs_out_open_as(&r->out, path, FS_OUT_PLAIN | FS_OUT_NOW, err, errlen)) {
		free(r);
		return -1;
	}
	r->w = fs_rec_writer_open_stream(r->out.f, r->out.path, meta, err, errlen);
	if (!r->w) {
		fs_out_abort(&r->out);
		free(r);
		return -1;
	}
	o->ops = &rec_ops;
	o->self = r;
	return 0;
}

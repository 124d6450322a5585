// SPDX-License-Identifier: GPL-2.0
/*
 * report's outputs behind output.h (its many hook): the text page on a
 * stream, JSON and CSV into files (many_report.h).
 */
#include <stdlib.h>
#include "many_report.h"
#include "out_file.h"
#include "output.h"

struct many_out {
	void (*print)(FILE *o, const struct fs_many *m);
	FILE *stream;     /* the text on stdout; NULL: into path */
	const char *path;
};

/*
 * A file is opened only once the report is complete, so one that cannot be
 * opened costs nothing of the replay and the other outputs are still written.
 */
static int many_write(void *self, const struct fs_many *m, char *err, size_t errlen)
{
	struct many_out *o = self;
	struct fs_out_file of;

	if (o->stream) {
		o->print(o->stream, m);
		return 0;
	}
	if (fs_out_open(&of, o->path, err, errlen))
		return -1;
	o->print(of.f, m);
	return fs_out_commit(&of, err, errlen);
}

static void many_free(void *self)
{
	free(self);
}

static const struct fs_output_ops many_ops = { .many = many_write, .free = many_free };

int fs_output_many(struct fs_output *o, enum fs_many_format fmt, FILE *stream, const char *path, char *err,
		   size_t errlen)
{
	static void (*const print[])(FILE *, const struct fs_many *) = {
		[FS_MANY_TEXT] = fs_many_print_text,
		[FS_MANY_JSON] = fs_many_print_json,
		[FS_MANY_CSV] = fs_many_print_csv,
	};
	struct many_out *m = calloc(1, sizeof(*m));

	if (!m) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	m->print = print[fmt];
	m->stream = stream;
	m->path = path;
	*o = (struct fs_output){ .ops = &many_ops, .self = m };
	return 0;
}

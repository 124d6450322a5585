// SPDX-License-Identifier: GPL-2.0
/* The stored sources (source.h): a recording or a records CSV, told apart by their first bytes. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "source.h"
#include "../records/csv_records.h"

static int rec_next(void *self, const struct fs_rec_hdr **rec, char *err, size_t errlen)
{
	return fs_rec_reader_next(self, rec, err, errlen);
}

static void rec_close(void *self)
{
	fs_rec_reader_close(self);
}

static int csv_next(void *self, const struct fs_rec_hdr **rec, char *err, size_t errlen)
{
	return fs_csv_reader_next(self, rec, err, errlen);
}

static void csv_close(void *self)
{
	fs_csv_reader_close(self);
}

static const struct fs_source_ops rec_ops = { .next = rec_next, .close = rec_close };
static const struct fs_source_ops csv_ops = { .next = csv_next, .close = csv_close };

void fs_source_close(struct fs_source *s)
{
	if (s->ops)
		s->ops->close(s->self);
	fs_rec_meta_free(&s->meta);
	memset(s, 0, sizeof(*s));
}

int fs_source_open_file(struct fs_source *s, const char *path, const char *name, char *err, size_t errlen)
{
	bool is_rec, binary;

	memset(s, 0, sizeof(*s));
	s->name = name ? name : path;
	if (fs_rec_sniff(path, &is_rec, &binary, err, errlen))
		return -1;
	if (binary && !is_rec) {
		snprintf(err, errlen, "%s: bad magic: not a feecscope recording (nor a text CSV)", path);
		return -1;
	}
	s->ops = is_rec ? &rec_ops : &csv_ops;
	s->self = is_rec ? (void *)fs_rec_reader_open(path, &s->meta, err, errlen) :
			   (void *)fs_csv_reader_open(path, &s->meta, err, errlen);
	if (s->self)
		return 0;
	fs_source_close(s);
	return -1;
}

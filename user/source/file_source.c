// SPDX-License-Identifier: GPL-2.0
/* The stored sources (source.h): a recording, a kernel trace or a records CSV, told by content (probe.h). */
#include <stdio.h>
#include <string.h>
#include "source.h"
#include "../records/csv_records.h"
#include "trace_source.h"

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

/* A file no reader takes: one line saying what it is not. */
static int refuse(const char *path, const struct fs_input_probe *p, char *err, size_t errlen)
{
	if (p && p->fmt == FS_IN_GZIP)
		snprintf(err, errlen, "%s: gzip'd, and not a trace read gzip'd: gunzip it first", path);
	else if (p)
		snprintf(err, errlen, "%s: a %s, which this build does not read", path, p->name);
	else
		snprintf(err, errlen, "%s: bad magic: not a feecscope recording, trace.dat or Perfetto trace "
			 "(nor text: a trace or a records CSV)", path);
	return -1;
}

int fs_source_open_file(struct fs_source *s, const char *path, const char *name, char *err, size_t errlen)
{
	const struct fs_input_probe *p;

	memset(s, 0, sizeof(*s));
	s->name = name ? name : path;
	if (fs_input_probe_file(path, &p, err, errlen))
		return -1;
	if (p && p->read) {
		if (fs_trace_source_open(s, path, p, err, errlen))
			return -1;
		s->name = name ? name : path;
		return 0;
	}
	if (!p || (p->fmt != FS_IN_RECORDING && p->fmt != FS_IN_RECORDS_CSV))
		return refuse(path, p, err, errlen);
	bool is_rec = p->fmt == FS_IN_RECORDING;

	s->format = p->name;
	s->ops = is_rec ? &rec_ops : &csv_ops;
	s->self = is_rec ? (void *)fs_rec_reader_open(path, &s->meta, err, errlen) :
			   (void *)fs_csv_reader_open(path, &s->meta, err, errlen);
	if (s->self)
		return 0;
	fs_source_close(s);
	return -1;
}

// SPDX-License-Identifier: GPL-2.0
/* Inputs told by their content (probe.h): one table, tried in order. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "perfetto_trace.h"
#include "probe.h"
#include "trace_dat.h"
#include "trace_text.h"
#include "../records/recording.h"

static bool probe_recording(const void *head, size_t n)
{
	return n >= FS_REC_MAGIC_LEN && !memcmp(head, FS_REC_MAGIC, FS_REC_MAGIC_LEN);
}

static bool probe_text(const void *head, size_t n)
{
	return !memchr(head, 0, n) && fs_trace_text_probe(head, n);
}

/* Text: no NUL, and not a PNG-like 0x89 start (as fs_rec_sniff() tells text from binary). */
static bool probe_csv(const void *head, size_t n)
{
	const unsigned char *b = head;

	return !n || (b[0] != 0x89 && !memchr(head, 0, n));
}

static bool probe_gzip(const void *head, size_t n)
{
	const unsigned char *b = head;

	return n >= 2 && b[0] == 0x1f && b[1] == 0x8b;
}

/*
 * In order: the magics first, then text. Perfetto's probe
 * (user/source/perfetto_trace.c) takes a gzip'd or plain trace whose first
 * bytes are a Trace's field 1 (packet), length-delimited, and no text; a
 * gzip'd file it does not take falls to the gzip entry.
 */
static const struct fs_input_probe probes[] = {
	{ FS_IN_RECORDING, "feecscope recording", probe_recording, NULL, NULL },
	{ FS_IN_TRACE_DAT, "trace.dat", fs_trace_dat_probe, fs_trace_dat_read_file, NULL },
	{ FS_IN_PERFETTO, "Perfetto trace", fs_perfetto_trace_probe, fs_perfetto_trace_read_file,
	  fs_perfetto_trace_read_rails },
	{ FS_IN_GZIP, "gzip", probe_gzip, NULL, NULL },
	{ FS_IN_TRACE_TEXT, "ftrace text", probe_text, fs_trace_text_read_file, NULL },
	{ FS_IN_RECORDS_CSV, "records CSV", probe_csv, NULL, NULL },
};

const struct fs_input_probe *fs_input_probe(const void *head, size_t n)
{
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
		if (probes[i].probe && probes[i].probe(head, n))
			return &probes[i];
	return NULL;
}

int fs_input_probe_file(const char *path, const struct fs_input_probe **out, char *err, size_t errlen)
{
	unsigned char head[FS_PROBE_HEAD];
	FILE *f = fopen(path, "rb");

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	size_t n = fread(head, 1, sizeof(head), f);
	int bad = ferror(f);

	fclose(f);
	if (bad) {
		snprintf(err, errlen, "%s: read: %s", path, strerror(EIO));
		return -1;
	}
	*out = fs_input_probe(head, n);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat through libtracecmd (trace_dat.h): the file opened, its records
 * in time order over all CPUs, each decoded by trace_dat_decode.c into the
 * same struct fs_tev as the text parser gives for `trace-cmd report -N`.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "trace_dat.h"

static const unsigned char dat_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

bool fs_trace_dat_probe(const void *buf, size_t len)
{
	return len >= sizeof(dat_magic) && !memcmp(buf, dat_magic, sizeof(dat_magic));
}

#ifndef FS_HAVE_TRACECMD
bool fs_trace_dat_supported(void)
{
	return false;
}

void fs_trace_dat_set_open_hook(void (*hook)(void *ctx), void *ctx)
{
	(void)hook;
	(void)ctx;
}

int fs_trace_dat_read_here(const char *path, fs_tev_fn fn, void *ctx, struct fs_trace_stats *st,
			   char *err, size_t errlen)
{
	(void)fn;
	(void)ctx;
	if (st)
		memset(st, 0, sizeof(*st));
	snprintf(err, errlen, "%s: trace.dat not supported in this build (built without libtracecmd)", path);
	return -1;
}
#else
#include <event-parse.h>
#include <trace-cmd.h>
#include "trace_dat_decode.h"

bool fs_trace_dat_supported(void)
{
	return true;
}

static void (*open_hook)(void *ctx);
static void *open_hook_ctx;

void fs_trace_dat_set_open_hook(void (*hook)(void *ctx), void *ctx)
{
	open_hook = hook;
	open_hook_ctx = ctx;
}

/*
 * libtracecmd 1.3.1 cannot close a handle whose tracecmd_init_data() failed
 * (a version 6 file cut short in its data): tracecmd_close() crashes on what
 * the failure freed, and tracecmd_open() calls it so. Such handles are kept
 * here unclosed (reachable, so no leak report), the first few; later ones leak.
 */
static void keep_unclosable(struct tracecmd_input *h)
{
	static struct tracecmd_input *unclosable[16];

	for (size_t i = 0; i < sizeof(unclosable) / sizeof(unclosable[0]); i++)
		if (!unclosable[i]) {
			unclosable[i] = h;
			return;
		}
}

/* libtracecmd's records, in time order over the CPUs, to the decoder. */
static int on_record(struct tracecmd_input *h, struct tep_record *r, int cpu, void *data)
{
	(void)h;
	return fs_dat_dec_record(data, r, cpu);
}

int fs_trace_dat_read_here(const char *path, fs_tev_fn fn, void *ctx, struct fs_trace_stats *st,
			   char *err, size_t errlen)
{
	struct tracecmd_input *h;
	struct fs_dat_dec *d;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	/* the headers, then the data (see keep_unclosable()) */
	h = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!h) {
		snprintf(err, errlen, "%s: libtracecmd cannot open it as a trace.dat (versions 6 and 7)", path);
		return -1;
	}
	if (tracecmd_init_data(h) < 0) {
		snprintf(err, errlen, "%s: trace.dat: its data cannot be read (truncated?)", path);
		keep_unclosable(h);
		return -1;
	}
	if (open_hook)
		open_hook(open_hook_ctx);
	d = fs_dat_dec_new(tracecmd_get_tep(h), path, fn, ctx, err, errlen);
	if (!d) {
		tracecmd_close(h);
		return -1;
	}
	tracecmd_iterate_events(h, NULL, 0, on_record, d);
	/*
	 * `trace-cmd extract -B NAME` (and record -B without the top buffer)
	 * leaves the top buffer empty and the events in an instance: then the
	 * first instance is read, with the same event formats.
	 */
	if (fs_dat_dec_untouched(d) && tracecmd_buffer_instances(h) > 0) {
		struct tracecmd_input *b = tracecmd_buffer_instance_handle(h, 0);

		if (b) {
			tracecmd_iterate_events(b, NULL, 0, on_record, d);
			tracecmd_close(b);
		}
	}
	tracecmd_close(h);
	return fs_dat_dec_free(d, st);
}
#endif /* FS_HAVE_TRACECMD */
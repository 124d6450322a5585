// SPDX-License-Identifier: GPL-2.0
/*
 * The ftrace text parser (user/source/trace_text.c) and, on what it reads,
 * the trace workload builder (user/sim/trace_workload.c) on a 4-CPU EM.
 * Checks: an error names the input and its line; the whole text and the
 * same lines one by one give the same events; a workload that builds is
 * consistent (trace_checks.h).
 */
#include <string.h>
#include "fuzz.h"
#include "trace_checks.h"
#include "sim/trace_workload.h"
#include "source/trace_text.h"

/* The same text a line at a time: the same number of events, at the same times. */
static void line_by_line(const char *s, size_t size, const struct fuzz_trace_feed *whole, int whole_rc)
{
	struct fs_trace_text *t = fs_trace_text_new("fuzz.txt");
	__u64 nr = 0, sum = 0;
	size_t off = 0;
	int rc = 0;
	char err[512];

	while (off < size && rc >= 0) {
		const char *nl = memchr(s + off, '\n', size - off);
		size_t n = nl ? (size_t)(nl - s - off) : size - off;
		struct fs_tev ev;

		rc = fs_trace_text_line(t, s + off, n, &ev, err, sizeof(err));
		if (rc > 0) {
			nr++;
			sum += ev.ts_ns;
		}
		off += n + 1;
	}
	FUZZ_CHECK(fs_trace_text_stats(t)->events == nr, "stats %llu, events %llu",
		   (unsigned long long)fs_trace_text_stats(t)->events, (unsigned long long)nr);
	if (whole_rc == 0)
		FUZZ_CHECK(rc >= 0 && nr == whole->nr && sum == whole->sum_ts, "line by line differs");
	fs_trace_text_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fs_trace_stats st;
	struct fuzz_trace_feed f = { .b = fuzz_trace_wl_new(size) };
	char err[1024] = "";
	int rc;

	rc = fs_trace_text_parse((const char *)data, size, "fuzz.txt", fuzz_trace_feed, &f, &st, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || err[0], "failed without an error");
	FUZZ_CHECK(st.events == f.nr || rc, "stats %llu, fed %llu", (unsigned long long)st.events,
		   (unsigned long long)f.nr);
	if (rc) {
		FUZZ_CHECK(!strncmp(err, "fuzz.txt:", 9) || strstr(err, " ns"), "error names no line: '%s'", err);
		fs_trace_wl_free(f.b);
	} else {
		fuzz_trace_wl_finish(f.b);
	}
	line_by_line((const char *)data, size, &f, rc);
	fs_trace_text_probe((const char *)data, size);
	return 0;
}

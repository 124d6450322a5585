// SPDX-License-Identifier: GPL-2.0
/*
 * The live view's last screen for a recording, as `live` drew it when the
 * recording was made: the records are fed to the pipeline as live fed them
 * and the view samples the run every interval of the records' own clock.
 * For the screens in README.md and docs/live.md (tests/tools/docs.sh).
 *
 *   view_shot REC COLSxROWS [STATUS_FILE [SECONDS]]
 *
 * STATUS_FILE holds the header's status lines live showed (one a line; "-"
 * for none: the header then names the recording). SECONDS: the screen after
 * that many seconds of the recording (default: the last). The collector's
 * counters are not in a recording, so the screen leaves them out. A
 * recording that keeps its packages list (version 5) lists apps, as live did.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pipeline.h"
#include "run_opts.h"
#include "em/em_io.h"
#include "engine/apps.h"
#include "output/view_frame.h"
#include "records/recording.h"

#define INTERVAL_NS 1000000000ull

static int die(const char *what)
{
	fprintf(stderr, "view_shot: %s\n", what);
	return 1;
}

int main(int argc, char **argv)
{
	static struct fs_view_info vi;
	static struct fs_frame frame;
	static struct fs_em em;
	struct fs_pipeline_opts po = { 0 };
	struct fs_run_opts ro = { 0 };
	struct fs_view_rates rates = { 0 };
	struct fs_view_state vs = { 0 };
	struct fs_view_sample s;
	struct fs_rec_meta meta;
	const struct fs_rec_hdr *h;
	char err[1024], head[700];
	int cols, rows, rc, at = argc > 4 ? atoi(argv[4]) : 0;

	if (argc < 3 || argc > 5 || sscanf(argv[2], "%dx%d", &cols, &rows) != 2 || at < 0)
		return die("usage: view_shot REC COLSxROWS [STATUS_FILE [SECONDS]]");
	struct fs_rec_reader *rd = fs_rec_reader_open(argv[1], &meta, err, sizeof(err));

	if (!rd)
		return die(err);
	if (!meta.em_text || fs_em_parse_text(meta.em_text, meta.em_len, argv[1], &em, err, sizeof(err)))
		return die(meta.em_text ? err : "the recording has no EM");
	po.em = &em;
	po.emulate_eas = !meta.em_is_kernel;
	/* a recording's packages list (version 5) groups the list by app, as it did live */
	static struct fs_apps apps;
	if (meta.packages_text && fs_apps_parse(&apps, meta.packages_text, meta.packages_len, argv[1], err, sizeof(err)))
		return die(err);
	po.apps = apps.nr ? &apps : NULL;
	po.kernel_release = meta.kernel_release;
	fs_run_apply(&ro, meta.kernel_release, &po, head, sizeof(head));
	struct fs_pipeline *p = fs_pipeline_new(&po, err, sizeof(err));

	if (!p)
		return die(err);
	vi.kernel_release = meta.kernel_release;
	vi.interval_s = INTERVAL_NS / 1e9;
	if (argc > 3 && strcmp(argv[3], "-")) {
		FILE *f = fopen(argv[3], "r");

		if (!f)
			return die("cannot open the status file");
		while (vi.nr_status < FS_VIEW_MAX_STATUS && fgets(vi.status[vi.nr_status], FS_VIEW_STATUS_LEN, f)) {
			vi.status[vi.nr_status][strcspn(vi.status[vi.nr_status], "\n")] = 0;
			vi.nr_status++;
		}
		fclose(f);
	} else {
		snprintf(vi.status[vi.nr_status++], FS_VIEW_STATUS_LEN, "EM: %s", em.source);
		snprintf(vi.status[vi.nr_status++], FS_VIEW_STATUS_LEN, "recording: %s", argv[1]);
	}

	__u64 t0 = 0, next = 0;
	bool drawn = false;

	while ((rc = fs_rec_reader_next(rd, &h, err, sizeof(err))) == 1) {
		if (!t0) {
			t0 = h->ts_ns;
			next = t0 + INTERVAL_NS;
		}
		while (h->ts_ns >= next && (!at || next <= t0 + at * INTERVAL_NS)) {
			/* an interval ended before this record: live refreshed here */
			memset(&s, 0, sizeof(s));
			s.elapsed_s = (double)(next - t0) / 1e9;
			s.st = fs_pipeline_stats(p);
			s.rep = fs_pipeline_snapshot(p);
			fs_view_rates_update(&rates, &s);
			fs_view_frame(&frame, cols, rows, &vi, &s, &vs);
			drawn = true;
			next += INTERVAL_NS;
		}
		if (fs_pipeline_feed(p, h, err, sizeof(err)))
			return die(err);
	}
	if (rc < 0)
		return die(err);
	if (!drawn)
		return die("the recording is shorter than one interval");
	for (int i = 0; i < frame.n; i++)
		printf("%s\n", frame.line[i]);
	fs_pipeline_free(p);
	fs_rec_reader_close(rd);
	fs_rec_meta_free(&meta);
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one run loop: every record a source gives goes to the pipeline, then
 * the pipeline finishes (the report to every output). live, replay and
 * report all run through fs_run(); they differ in the source and the
 * outputs they attach.
 */
#ifndef FEECSCOPE_RUN_H
#define FEECSCOPE_RUN_H

#include "pipeline.h"
#include "source/source.h"

struct fs_run_hooks {
	/*
	 * At each FS_SOURCE_TICK (live's interval: flush, the view, an EM
	 * change): 0, or -1 with err, which ends the run as a failed feed does.
	 */
	int (*interval)(void *ctx, struct fs_pipeline *p, char *err, size_t errlen);
	void *ctx;
	/*
	 * After a failed read, feed or interval, leave the outputs unfinished
	 * (live: no summary, no file put in place); else (replay, report) the
	 * report of what was read is finished all the same.
	 */
	bool no_finish_on_error;
};

/* How a run ended: both parts may have failed. */
struct fs_run_status {
	int read_rc;           /* -1: the source or a feed failed (read_err); what came before still finished */
	char read_err[1024];
	int finish_rc;         /* -1: completing the outputs failed (finish_err) */
	char finish_err[512];
};

/*
 * Feed src to p until its end, then fs_pipeline_finish(). 0, or -1 with st
 * saying what failed. hooks may be NULL.
 */
int fs_run(struct fs_pipeline *p, struct fs_source *src, const struct fs_run_hooks *hooks,
	   struct fs_run_status *st);

#endif /* FEECSCOPE_RUN_H */

// SPDX-License-Identifier: GPL-2.0
/* The one run loop (run.h): a source to the pipeline and its outputs. */
#include <stdio.h>
#include <string.h>
#include "run.h"

/* 0 at the source's end, -1 with st->read_err. */
static int feed_all(struct fs_pipeline *p, struct fs_source *src, const struct fs_run_hooks *h,
		    struct fs_run_status *st)
{
	const struct fs_rec_hdr *rec;
	char ferr[512];
	int rc;

	while ((rc = fs_source_next(src, &rec, st->read_err, sizeof(st->read_err))) > 0) {
		if (rc == FS_SOURCE_TICK) {
			if (h && h->interval && h->interval(h->ctx, p, st->read_err, sizeof(st->read_err)))
				return -1;
			continue;
		}
		if (fs_pipeline_feed(p, rec, ferr, sizeof(ferr))) {
			if (src->name)
				snprintf(st->read_err, sizeof(st->read_err), "%s: %s", src->name, ferr);
			else
				snprintf(st->read_err, sizeof(st->read_err), "%s", ferr);
			return -1;
		}
	}
	return rc;
}

int fs_run(struct fs_pipeline *p, struct fs_source *src, const struct fs_run_hooks *hooks,
	   struct fs_run_status *st)
{
	struct fs_sim_workload wl;
	struct fs_sim_trace_inputs in;

	memset(st, 0, sizeof(*st));
	/* a kernel trace, prepared by the caller: its workload goes to the simulation */
	if (src->ops->take && !src->ops->take(src->self, &wl, &in))
		fs_pipeline_set_workload(p, &wl, &in);
	st->read_rc = feed_all(p, src, hooks, st) < 0 ? -1 : 0;
	if (st->read_rc && hooks && hooks->no_finish_on_error)
		return -1;
	/* A damaged input still gets the report of what was read; the caller then says where it broke. */
	st->finish_rc = fs_pipeline_finish(p, st->finish_err, sizeof(st->finish_err)) ? -1 : 0;
	return st->read_rc || st->finish_rc ? -1 : 0;
}

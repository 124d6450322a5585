// SPDX-License-Identifier: GPL-2.0
/* A kernel trace as a source (trace_source.h): read whole into the simulation's workload. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace_source.h"
#include "../sim/trace_workload.h"

struct trace_src {
	char *path;
	const struct fs_input_probe *probe;
	struct fs_sim_workload wl;
	struct fs_sim_trace_inputs in;
	bool ready;        /* prepared and not taken yet */
};

/* The builder's errors name the event and its time; the reader's already name the file. */
struct feed_ctx {
	struct fs_trace_wl *b;
	const char *path;
};

static int feed(void *ctx, const struct fs_tev *ev, char *err, size_t errlen)
{
	struct feed_ctx *f = ctx;
	char why[400];

	if (!fs_trace_wl_feed(f->b, ev, why, sizeof(why)))
		return 0;
	snprintf(err, errlen, "%s: %s", f->path, why);
	return -1;
}

static void fill_inputs(struct trace_src *t, const struct fs_trace_stats *st, const struct fs_trace_wl_info *wi)
{
	struct fs_sim_trace_inputs *in = &t->in;

	memset(in, 0, sizeof(*in));
	snprintf(in->format, sizeof(in->format), "%s", t->probe->name);
	in->events = st->events;
	in->unknown_events = st->unknown_events;
	snprintf(in->first_unknown, sizeof(in->first_unknown), "%s", st->first_unknown);
	in->lost_events = wi->lost_events;
	in->switch_events = wi->switch_events;
	in->wake_events = wi->wake_events;
	in->freq_events = wi->freq_events;
	in->migrate_events = wi->migrate_events;
	in->freq_assumed_cpus = wi->freq_assumed_cpus;
	in->freq_assumed_ns = wi->freq_assumed_ns;
	in->tgid_assumed = wi->tgid_assumed;
	in->pelt_events = wi->pelt_events;
	in->pelt_tasks = wi->pelt_tasks;
	in->wake_utils = wi->wake_utils;
	in->cfs_events = wi->cfs_events;
	in->rq_traced_cpus = wi->rq_traced_cpus;
}

/* The trace read into the builder, with its power rails where the format has them. */
static int read_trace(struct trace_src *t, struct feed_ctx *f, struct fs_trace_stats *st,
		      struct fs_power_rails *rails, char *err, size_t errlen)
{
	if (t->probe->read_rails)
		return t->probe->read_rails(t->path, feed, f, st, rails, err, errlen);
	return t->probe->read(t->path, feed, f, st, err, errlen);
}

static int trace_prepare(void *self, const struct fs_em *em, enum fs_sim_physics ph, char *err, size_t errlen)
{
	struct trace_src *t = self;
	struct fs_trace_stats st = { 0 };
	struct fs_trace_wl_info wi;
	struct fs_power_rails rails = { 0 };
	struct feed_ctx f = { .b = fs_trace_wl_new(em, ph), .path = t->path };
	char why[400];

	if (!f.b) {
		snprintf(err, errlen, "%s: out of memory", t->path);
		return -1;
	}
	if (read_trace(t, &f, &st, &rails, err, errlen)) {
		fs_trace_wl_free(f.b);
		return -1;
	}
	if (fs_trace_wl_finish(f.b, &t->wl, &wi, why, sizeof(why))) { /* frees the builder */
		snprintf(err, errlen, "%s: %s", t->path, why);
		fs_power_rails_free(&rails);
		return -1;
	}
	fill_inputs(t, &st, &wi);
	/* the rails over the window the simulated workload covers: its first to its last event */
	t->in.has_rails = rails.nr > 0 || rails.nr_undescribed > 0;
	if (t->in.has_rails)
		fs_sim_rails_measure(em, &rails, t->wl.t0_ns, t->wl.end_ns, &t->in.rails);
	fs_power_rails_free(&rails);
	t->ready = true;
	return 0;
}

static int trace_take(void *self, struct fs_sim_workload *wl, struct fs_sim_trace_inputs *in)
{
	struct trace_src *t = self;

	if (!t->ready)
		return -1;
	*wl = t->wl;
	*in = t->in;
	memset(&t->wl, 0, sizeof(t->wl));
	t->ready = false;
	return 0;
}

/* No records: the trace's answer is the simulation's (fs_run() hands the workload over). */
static int trace_next(void *self, const struct fs_rec_hdr **rec, char *err, size_t errlen)
{
	(void)self, (void)rec, (void)err, (void)errlen;
	return 0;
}

static void trace_close(void *self)
{
	struct trace_src *t = self;

	if (!t)
		return;
	if (t->ready)
		fs_sim_workload_free(&t->wl);
	free(t->path);
	free(t);
}

static const struct fs_source_ops trace_ops = {
	.next = trace_next, .close = trace_close, .prepare = trace_prepare, .take = trace_take,
};

int fs_trace_source_open(struct fs_source *s, const char *path, const struct fs_input_probe *p, char *err,
			 size_t errlen)
{
	struct trace_src *t = calloc(1, sizeof(*t));

	if (!t || !(t->path = strdup(path))) {
		free(t);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	t->probe = p;
	s->ops = &trace_ops;
	s->self = t;
	s->format = p->name;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Live's closed loop at each interval (closed_loop.h, fs_sim_live_*): a
 * builder kept between intervals takes only the records that came since
 * the last, its workload snapshot is compared with the last interval's
 * (wl_change.c), and each policy's simulation resumes from its kept state
 * before the first difference (resume.c). Pure C: no I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "closed_loop.h"

struct fs_sim_live {
	struct fs_sim_builder *b;
	char why[160];                       /* the record the builder refused: no answer from there on */
	struct fs_sim_workload prev;         /* the last interval's workload */
	bool have_prev;
	struct fs_sim_resumer *z[FS_MAX_POLICIES + 1]; /* by slot (fs_sim_run_fn) */
	/*
	 * Where the workload first differs from the one the slot last ran: the
	 * least over the intervals since (a slot that did not run, as when the
	 * self-check's is not needed, still resumes right); 0 for a new slot.
	 */
	__u64 pend[FS_MAX_POLICIES + 1];
};

struct fs_sim_live *fs_sim_live_new(const struct fs_em *em, enum fs_sim_physics physics,
				    const struct fs_sim_builder_opts *bo, char *err, size_t errlen)
{
	struct fs_sim_live *l = calloc(1, sizeof(*l));

	if (!l) {
		snprintf(err, errlen, "simulation: out of memory");
		return NULL;
	}
	for (int i = 0; i <= FS_MAX_POLICIES; i++)
		l->pend[i] = 0;
	l->b = fs_sim_builder_new_opts(em, physics, bo, err, errlen);
	if (!l->b) {
		free(l);
		return NULL;
	}
	return l;
}

void fs_sim_live_free(struct fs_sim_live *l)
{
	if (!l)
		return;
	fs_sim_builder_free(l->b);
	if (l->have_prev)
		fs_sim_workload_free(&l->prev);
	for (int i = 0; i <= FS_MAX_POLICIES; i++)
		fs_sim_resumer_free(l->z[i]);
	free(l);
}

void fs_sim_live_stats(const struct fs_sim_live *l, struct fs_sim_resume_stats *st)
{
	memset(st, 0, sizeof(*st));
	for (int i = 0; i <= FS_MAX_POLICIES; i++) {
		if (!l->z[i])
			continue;
		const struct fs_sim_resume_stats *s = fs_sim_resumer_stats(l->z[i]);

		st->runs += s->runs;
		st->from_start += s->from_start;
		st->sim_ns += s->sim_ns;
		st->whole_ns += s->whole_ns;
		st->kept += s->kept;
	}
}

/* fs_sim_run_fn: the slot's policy resumed. */
static int run_resumed(void *ctx, int slot, const struct fs_sim_workload *wl, const struct fs_sim_params *p,
		       struct fs_sim_result *r, char *err, size_t errlen)
{
	struct fs_sim_live *l = ctx;

	if (!l->z[slot] && !(l->z[slot] = fs_sim_resumer_new(0))) {
		snprintf(err, errlen, "simulation: out of memory");
		return -1;
	}
	if (fs_sim_resumer_run(l->z[slot], wl, l->pend[slot], p, r, err, errlen))
		return -1;
	l->pend[slot] = FS_SIM_NEVER;
	return 0;
}

/* Feed the log to the builder; a refused record ends the answers with its line. */
static void feed(struct fs_sim_live *l, const unsigned char *log, size_t len)
{
	for (size_t at = 0; at < len && !l->why[0];) {
		const struct fs_rec_hdr *h = (const void *)(log + at);

		if (fs_sim_builder_feed(l->b, h, l->why, sizeof(l->why)) && !l->why[0])
			snprintf(l->why, sizeof(l->why), "workload: a record refused");
		at += (h->size + 7) & ~7u; /* each record at an 8-byte offset */
	}
}

int fs_sim_live_answer(struct fs_sim_live *l, const unsigned char *log, size_t len, const struct fs_sim_run_in *in,
		       struct fs_sim_report *rep, char *err, size_t errlen)
{
	struct fs_sim_workload wl;

	memset(rep, 0, sizeof(*rep));
	feed(l, log, len);
	if (l->why[0]) {
		snprintf(rep->why, sizeof(rep->why), "%s", l->why);
		return 0;
	}
	if (fs_sim_builder_snapshot(l->b, &wl, err, errlen))
		return -1;
	const __u64 changed = l->have_prev ? fs_sim_wl_changed(&l->prev, &wl) : 0;

	for (int i = 0; i <= FS_MAX_POLICIES; i++)
		l->pend[i] = changed < l->pend[i] ? changed : l->pend[i];
	int ret = fs_sim_closed_loop_with(&wl, in, run_resumed, l, rep, err, errlen);

	if (l->have_prev)
		fs_sim_workload_free(&l->prev);
	l->prev = wl;
	l->have_prev = true;
	return ret;
}

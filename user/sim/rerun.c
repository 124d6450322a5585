// SPDX-License-Identifier: GPL-2.0
/*
 * The closed-loop answer of the records so far (closed_loop.h): live keeps
 * the records the simulation took and hands a copy here at an interval,
 * on a thread of its own, so the verdict follows the run while the
 * collector goes on (docs/simulation.md, "Live"). Pure C: no I/O.
 */
#include <stdio.h>
#include <string.h>
#include "closed_loop.h"

int fs_sim_closed_loop_records(const unsigned char *log, size_t len, const struct fs_sim_builder_opts *bo,
			       const struct fs_sim_run_in *in, struct fs_sim_report *rep, char *err, size_t errlen)
{
	struct fs_sim_builder *b = fs_sim_builder_new_opts(in->em, in->physics, bo, err, errlen);
	struct fs_sim_workload wl;
	char why[160];

	memset(rep, 0, sizeof(*rep));
	if (!b)
		return -1;
	for (size_t at = 0; at < len;) {
		const struct fs_rec_hdr *h = (const void *)(log + at);

		if (fs_sim_builder_feed(b, h, why, sizeof(why))) {
			fs_sim_builder_free(b);
			snprintf(rep->why, sizeof(rep->why), "%s", why);
			return 0;
		}
		at += (h->size + 7) & ~7u; /* each record at an 8-byte offset */
	}
	if (fs_sim_builder_finish(b, &wl, why, sizeof(why))) {
		snprintf(rep->why, sizeof(rep->why), "%s", why);
		return 0;
	}
	int ret = fs_sim_closed_loop(&wl, in, rep, err, errlen);

	fs_sim_workload_free(&wl);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a table the kernel may be rewriting (em_io.h). v6.9+ changes EMs
 * at run time (em_dev_update_perf_domain()), and debugfs serves a table file
 * by file, so a read that spans an update can mix the old and the new table
 * (seen in the lab: an em record with one state's old power before the right
 * one). A table counts once the next read returns the same.
 */
#include <stdlib.h>
#include "em_io.h"
#include "em_internal.h"

bool fs_em_tables_differ(const struct fs_em *a, const struct fs_em *b)
{
	if (a->nr_pd != b->nr_pd)
		return true;
	for (int i = 0; i < a->nr_pd; i++) {
		const struct fs_em_pd *x = &a->pd[i], *y = &b->pd[i];

		if (x->nr_ps != y->nr_ps || x->flags != y->flags)
			return true;
		for (int s = 0; s < x->nr_ps; s++)
			if (x->ps[s].frequency != y->ps[s].frequency || x->ps[s].power != y->ps[s].power ||
			    x->ps[s].cost != y->ps[s].cost || x->ps[s].performance != y->ps[s].performance ||
			    x->ps[s].inefficient != y->ps[s].inefficient)
				return true;
	}
	return false;
}

int fs_em_read_spec(void *spec, struct fs_em *em, char *err, size_t errlen)
{
	return fs_em_load(spec, em, err, errlen);
}

int fs_em_settle(fs_em_reader read, void *ctx, struct fs_em *em, int rereads, char *err, size_t errlen)
{
	struct fs_em *again = malloc(sizeof(*again));
	int rc = 1;

	if (!again) {
		fs_em_errf(err, errlen, "out of memory reading the Energy Model again");
		return -1;
	}
	for (int i = 0; i < rereads; i++) {
		rc = read(ctx, again, err, errlen);
		if (rc)
			break;
		if (!fs_em_tables_differ(em, again)) {
			rc = 0;
			break;
		}
		*em = *again;
		rc = 1;
	}
	free(again);
	return rc;
}

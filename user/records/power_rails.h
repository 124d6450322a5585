/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A trace's measured power rails (docs/traces.md, "Power rails"), as the
 * Perfetto reader hands them out (PowerRails packets of the android.power
 * data source) and the simulation's comparison takes them
 * (sim/rails.h). Plain data: no I/O here.
 */
#ifndef FEECSCOPE_POWER_RAILS_H
#define FEECSCOPE_POWER_RAILS_H

#include <stddef.h>
#include "../record.h"

#define FS_RAIL_NAME_LEN 64

/* One reading of a rail's energy counter. */
struct fs_rail_sample {
	__u64 ts_ns; /* on the trace's clock, as its events */
	__u64 uws;   /* energy since boot, uW x s: cumulative, it never goes back */
};

struct fs_power_rail {
	char name[FS_RAIL_NAME_LEN];   /* rail_name, e.g. "S4M_VDD_CPUCL0" */
	char subsys[FS_RAIL_NAME_LEN]; /* subsys_name, e.g. "CPU(LITTLE)"; "" if none */
	__u64 session;                 /* the data source's session_uuid (0 if none): indices are its own */
	__u32 index;
	__u32 sampling_hz;             /* the hardware's sampling rate as described; 0 if not given */
	size_t nr;
	struct fs_rail_sample *s;      /* malloc'd, by time */
};

struct fs_power_rails {
	size_t nr;
	struct fs_power_rail *rail;    /* malloc'd, in the order first described */
	/* rails with samples but no descriptor, left out: a ring buffer that wrapped lost it */
	size_t nr_undescribed;
};

/* Frees every rail's samples and the rails; r may be NULL or empty. */
void fs_power_rails_free(struct fs_power_rails *r);

#endif /* FEECSCOPE_POWER_RAILS_H */

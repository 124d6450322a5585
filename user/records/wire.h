/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The checks every reader of wire records makes, whatever carried them (the
 * ring buffer, a recording, a records CSV): a record's size for its type and
 * the values it must hold. Defined in recording.c and rec_values.c.
 */
#ifndef FEECSCOPE_WIRE_H
#define FEECSCOPE_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include "../record.h"

/*
 * Wire size a record of this type must have (wake-ups: for hdr.nr_cpus; an em
 * record: its own hdr.size when that lies in its bounds); 0 = unknown type.
 */
size_t fs_rec_wire_size(const struct fs_rec_hdr *h);
/* A record type's name as the records CSV writes it (record.h's enum); NULL if unknown. */
const char *fs_rec_type_name(unsigned int type);
/*
 * Check one wire record against the recording's CPU count; on error write
 * "<problem>" (no file prefix) to err and return -1.
 */
int fs_rec_check(const struct fs_rec_hdr *h, size_t avail, int nr_cpus, char *err, size_t errlen);
/*
 * The values every reader requires (rec_values.c): CPU numbers in range,
 * flags 0/1, known CPU times where a record is one. -1 with "<type>: <field>: <problem>" in why.
 */
int fs_rec_check_values(const struct fs_rec_hdr *h, int nr_cpus, char *why, size_t len);
/*
 * Records come in time order but for late ones: the live collector merges
 * its per-CPU rings by time and lets out a record that came after its turn
 * as it comes (source/ring_merge.c), so a step back of milliseconds is
 * normal. A record this far before an earlier one is not late but a broken
 * clock or a damaged file: its time would turn the recording's span, and
 * with it the simulation's window, into nonsense (docs/recording.md).
 */
#define FS_REC_MAX_BACK_NS (60 * 1000000000ull)
/* The latest time of the records a reader accepted, as fs_rec_check_time() keeps it. */
struct fs_rec_clock {
	bool any;
	__u64 latest_ns;
};
/*
 * A record's time against the records before it: -1 with
 * "<type>: ts_ns: <problem>" in why if it lies more than FS_REC_MAX_BACK_NS
 * before the latest of them; else 0, and c takes it. A step forward of any
 * length is a recording's gap (a device suspended: CLOCK_BOOTTIME counts it).
 */
int fs_rec_check_time(struct fs_rec_clock *c, const struct fs_rec_hdr *h, char *why, size_t len);
/*
 * A meta text value both readers keep as written (kernel_release,
 * feecscope_version): no control character and no trailing blank, which
 * the records CSV's lines cannot carry. 0, or -1 with why.
 */
int fs_rec_check_meta_value(const char *v, char *why, size_t len);

#endif /* FEECSCOPE_WIRE_H */

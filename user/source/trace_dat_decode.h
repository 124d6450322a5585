/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.dat's records to our events (trace_dat_decode.c), apart from the
 * file: given the event formats libtraceevent parsed (a tep_handle), each
 * record of the events we take becomes a struct fs_tev for fn, as the
 * text parser gives them. trace_dat.c feeds it libtracecmd's records of a
 * file in time order; the trace_dat_records fuzz target records it builds
 * against formats parsed once (docs/fuzzing.md). Built only with
 * libtracecmd (FS_HAVE_TRACECMD).
 */
#ifndef FEECSCOPE_TRACE_DAT_DECODE_H
#define FEECSCOPE_TRACE_DAT_DECODE_H

#include <stdbool.h>
#include "../records/trace_event.h"

struct tep_handle;
struct tep_record;
struct fs_dat_dec;

/*
 * A decoder for the events of tep (which must outlive it), errors naming
 * path; NULL, with err saying so, if out of memory.
 */
struct fs_dat_dec *fs_dat_dec_new(struct tep_handle *tep, const char *path, fs_tev_fn fn, void *ctx, char *err,
				  size_t errlen);
/*
 * One record of CPU cpu: its missed events as FS_TEV_LOST first, then the
 * record as its event, or counted as unknown. 0 to go on; -1 to stop, err
 * naming path and, for a record, the event, its time and field (or fn's).
 */
int fs_dat_dec_record(struct fs_dat_dec *d, struct tep_record *r, int cpu);
/* True while no record gave an event, known or not, and none failed. */
bool fs_dat_dec_untouched(const struct fs_dat_dec *d);
/* Frees d; st (may be NULL) gets the counts. 0, or -1 if a record failed. */
int fs_dat_dec_free(struct fs_dat_dec *d, struct fs_trace_stats *st);

#endif /* FEECSCOPE_TRACE_DAT_DECODE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace_dat_records target's event formats (trace_dat_sets.c), each
 * set parsed once into a libtraceevent handle as libtracecmd parses a
 * file's: the fixtures' (tests/fuzz/trace_dat_formats.h) and hand-made
 * variants of them. Only with libtracecmd (FS_HAVE_TRACECMD).
 */
#ifndef FEECSCOPE_FUZZ_TRACE_DAT_SETS_H
#define FEECSCOPE_FUZZ_TRACE_DAT_SETS_H

#include <stdbool.h>

struct tep_handle;

#define FUZZ_DAT_SETS 3
#define FUZZ_DAT_SET_MAX 24 /* events in a set */

struct fuzz_dat_format {
	const char *sys, *text;
};

struct fuzz_dat_set {
	struct tep_handle *tep;
	int nr;
	int id[FUZZ_DAT_SET_MAX]; /* each event's id; common_type is the first 2 bytes of every format */
};

/*
 * Set k (0 <= k < FUZZ_DAT_SETS), its file in big-endian byte order or
 * not: parsed on the first call, the same handle ever after. Aborts if a
 * format does not parse (the harness's fault, not an input's).
 */
const struct fuzz_dat_set *fuzz_dat_set(int k, bool big_endian);

#endif /* FEECSCOPE_FUZZ_TRACE_DAT_SETS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* The trace_dat harness's guard: Debian's trace.dat libraries alone on an input, in a fork (trace_dat_libs.c). */
#ifndef FEECSCOPE_FUZZ_TRACE_DAT_LIBS_H
#define FEECSCOPE_FUZZ_TRACE_DAT_LIBS_H

#include <stdbool.h>

enum fuzz_dat_libs {
	FUZZ_DAT_LIBS_READ,    /* read, or refused at the open */
	FUZZ_DAT_LIBS_CRASH,   /* crashed, or over their time or CPU count */
	FUZZ_DAT_LIBS_NO_DATA, /* opened, but tracecmd_init_data() refused the data */
};

/*
 * What libtracecmd and libtraceevent do reading path in a forked child the
 * way user/source/trace_dat.c calls them but with none of our code on what
 * they return. FUZZ_DAT_LIBS_READ without libtracecmd.
 */
enum fuzz_dat_libs fuzz_trace_dat_libs(const char *path);

#endif /* FEECSCOPE_FUZZ_TRACE_DAT_LIBS_H */

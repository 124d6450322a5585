/* SPDX-License-Identifier: GPL-2.0 */
/* The trace_dat harness's guard: Debian's trace.dat libraries alone on an input, in a fork (trace_dat_libs.c). */
#ifndef FEECSCOPE_FUZZ_TRACE_DAT_LIBS_H
#define FEECSCOPE_FUZZ_TRACE_DAT_LIBS_H

#include <stdbool.h>

/*
 * True if libtracecmd and libtraceevent, reading path in a forked child
 * the way user/source/trace_dat.c calls them but with none of our code on
 * what they return, crash, fault under the sanitizer, or take longer than
 * a few seconds. False without libtracecmd.
 */
bool fuzz_trace_dat_libs_crash(const char *path);

#endif /* FEECSCOPE_FUZZ_TRACE_DAT_LIBS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel trace as a run's source (source.h, docs/traces.md): read whole
 * by its reader (trace_text.c, trace_dat.c, the Perfetto reader) into the
 * simulation's workload (sim/trace_workload.c) once the EM is known. It
 * hands out no records: the run's answer is the closed-loop simulation's.
 */
#ifndef FEECSCOPE_TRACE_SOURCE_H
#define FEECSCOPE_TRACE_SOURCE_H

#include "source.h"
#include "probe.h"

/* s for the trace at path, read by p->read. 0, or -1 with err. */
int fs_trace_source_open(struct fs_source *s, const char *path, const struct fs_input_probe *p, char *err,
			 size_t errlen);

#endif /* FEECSCOPE_TRACE_SOURCE_H */

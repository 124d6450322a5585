/* SPDX-License-Identifier: GPL-2.0 */
/* What the trace readers' harnesses check of a workload they built (trace_checks.c). */
#ifndef FEECSCOPE_FUZZ_TRACE_CHECKS_H
#define FEECSCOPE_FUZZ_TRACE_CHECKS_H

#include "sim/sim.h"

/*
 * A workload the trace builder (user/sim/trace_workload.c) finished is
 * consistent, whichever reader fed it: acts grouped by task in wake order
 * up to the end, wakers and CPUs in range, busy time = the activations'
 * CPU time.
 */
void fuzz_check_trace_workload(const struct fs_sim_workload *wl, int nr_cpus);

#endif /* FEECSCOPE_FUZZ_TRACE_CHECKS_H */

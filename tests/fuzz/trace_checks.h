/* SPDX-License-Identifier: GPL-2.0 */
/* What the trace readers' harnesses check of the events and workload (trace_checks.c). */
#ifndef FEECSCOPE_FUZZ_TRACE_CHECKS_H
#define FEECSCOPE_FUZZ_TRACE_CHECKS_H

#include "sim/sim.h"
#include "sim/trace_workload.h"

/*
 * A workload builder for one input, on a 4-CPU EM (made once): lab physics
 * for odd sizes, a device's for even ones, so both are fuzzed.
 */
struct fs_trace_wl *fuzz_trace_wl_new(size_t size);
/* Finish b, which is freed: a workload that builds is checked, one that does not says why. */
void fuzz_trace_wl_finish(struct fs_trace_wl *b);

/*
 * A workload the trace builder (user/sim/trace_workload.c) finished is
 * consistent, whichever reader fed it: acts grouped by task in wake order
 * up to the end, wakers and CPUs in range, busy time = the activations'
 * CPU time.
 */
void fuzz_check_trace_workload(const struct fs_sim_workload *wl, int nr_cpus);

/* What a reader handed a harness's feed: the events counted, their times summed. */
struct fuzz_trace_feed {
	struct fs_trace_wl *b; /* fed every event, if not NULL */
	__u64 nr, sum_ts;
};

/*
 * The readers' event callback (ctx: a struct fuzz_trace_feed): every event
 * is of a known type with its comms terminated, whichever reader made it;
 * then it is counted and fed to the builder.
 */
int fuzz_trace_feed(void *ctx, const struct fs_tev *ev, char *err, size_t errlen);

#endif /* FEECSCOPE_FUZZ_TRACE_CHECKS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The frequencies DEVICE work is derived at (workload.c): each PD's state
 * from the recorded wake-ups' landscapes as schedutil would have set it
 * (docs/simulation.md, "The workload").
 */
#ifndef FEECSCOPE_SIM_WORK_FREQ_H
#define FEECSCOPE_SIM_WORK_FREQ_H

#include <stdbool.h>
#include "sim.h"

/* A PD's state from `since` on. */
struct wf_sample {
	__u64 since;
	int state; /* -1: the PD draws nothing */
};

/* One PD's states over the recording, kept only where they change. */
struct wf_line {
	struct wf_sample *v;
	size_t n, cap;
	__u64 limit_ns;    /* schedutil's rate limit (0: every request lands) */
	__u64 last_change; /* when the state last changed (sugov's last_freq_update_time) */
	bool changed;      /* it changed since the first sample */
	bool pending;      /* a request the rate limit held, applied at `due` */
	__u64 due;
	int pend_state;
};

/*
 * A wake-up asks for state at ts. Within the rate limit of the last change
 * it waits until the limit ends (a later request replaces it; one for the
 * present state cancels it). Returns 0, -1 out of memory.
 */
int wf_request(struct wf_line *l, __u64 ts, int state);
/* A held request whose time came by ts is applied. 0, -1 out of memory. */
int wf_catch_up(struct wf_line *l, __u64 ts);

/* The offset of the rq's PELT clock from the records' clock (wf_clock_see()). */
struct wf_clock {
	__s64 off;
	bool known;
};

/* A wake-up's landscape updates the offset estimate. */
void wf_clock_see(struct wf_clock *c, const struct fs_wakeup *w);
/*
 * The landscape schedutil reads once the waking task is enqueued on run:
 * w itself, or (in scratch) w with run's blocked utilization decayed to the
 * wake-up where run was idle.
 */
const struct fs_wakeup *wf_enqueue_view(const struct wf_clock *c, const struct fs_wakeup *w, int run,
					struct fs_wakeup *scratch);

#endif

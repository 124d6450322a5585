// SPDX-License-Identifier: GPL-2.0
/* A trace's events and workload checked (trace_checks.h), for the readers' harnesses. */
#include <string.h>
#include "fuzz.h"
#include "trace_checks.h"
#include "em/em_io.h"

static struct fs_em em;
static bool have_em;

struct fs_trace_wl *fuzz_trace_wl_new(size_t size)
{
	char err[512];
	struct fs_trace_wl *b;

	if (!have_em) {
		FUZZ_CHECK(!fs_em_profile_for_cpus(4, &em, err, sizeof(err)), "no 4-CPU EM: %s", err);
		have_em = true;
	}
	b = fs_trace_wl_new(&em, size & 1 ? FS_SIM_LAB : FS_SIM_DEVICE);
	FUZZ_CHECK(b, "out of memory");
	return b;
}

void fuzz_trace_wl_finish(struct fs_trace_wl *b)
{
	struct fs_sim_workload wl;
	char err[1024] = "";

	if (fs_trace_wl_finish(b, &wl, NULL, err, sizeof(err))) {
		FUZZ_CHECK(err[0], "finish failed without an error");
		return;
	}
	fuzz_check_trace_workload(&wl, em.nr_cpus);
	free(wl.tasks);
	free(wl.acts);
}

void fuzz_check_trace_workload(const struct fs_sim_workload *wl, int nr_cpus)
{
	__u64 acts = 0, cpu_ns = 0, busy = 0;

	for (int i = 0; i < wl->nr_tasks; i++) {
		const struct fs_sim_task *t = &wl->tasks[i];
		FUZZ_CHECK(t->first_act == acts && t->nr_act > 0, "task %d: acts %u+%u", i, t->first_act, t->nr_act);
		for (__u32 k = t->first_act; k < t->first_act + t->nr_act; k++) {
			const struct fs_sim_act *a = &wl->acts[k];
			FUZZ_CHECK(a->waker >= FS_SIM_NO_TASK && a->waker < wl->nr_tasks, "waker %d", a->waker);
			FUZZ_CHECK(a->rec_cpu >= -1 && a->rec_cpu < nr_cpus, "rec_cpu %d", a->rec_cpu);
			FUZZ_CHECK(a->wake_ns <= wl->end_ns, "wake after the end");
			FUZZ_CHECK(k == t->first_act || a->wake_ns >= a[-1].wake_ns, "acts out of wake order");
			cpu_ns += a->rec_cpu_ns;
		}
		acts += t->nr_act;
	}
	FUZZ_CHECK(acts == wl->nr_acts, "tasks hold %llu acts of %llu", (unsigned long long)acts,
		   (unsigned long long)wl->nr_acts);
	for (int c = 0; c < FS_MAX_CPUS; c++)
		busy += wl->observed.busy_ns[c];
	FUZZ_CHECK(busy == cpu_ns, "busy %llu, activations' CPU time %llu", (unsigned long long)busy,
		   (unsigned long long)cpu_ns);
}

int fuzz_trace_feed(void *ctx, const struct fs_tev *ev, char *err, size_t errlen)
{
	struct fuzz_trace_feed *f = ctx;

	f->nr++;
	f->sum_ts += ev->ts_ns;
	FUZZ_CHECK(ev->type >= FS_TEV_SWITCH && ev->type < FS_TEV_NR_TYPES, "type %u", ev->type);
	FUZZ_CHECK(memchr(ev->common_comm, '\0', FS_COMM_LEN), "comm not terminated");
	if (ev->type == FS_TEV_SWITCH)
		FUZZ_CHECK(memchr(ev->sw.prev.comm, '\0', FS_COMM_LEN) && memchr(ev->sw.next.comm, '\0', FS_COMM_LEN),
			   "switch comm not terminated");
	if (ev->type == FS_TEV_PELT_SE || ev->type == FS_TEV_UTIL_EST_SE) /* LISA's events */
		FUZZ_CHECK(memchr(ev->pelt.t.comm, '\0', FS_COMM_LEN) && ev->pelt.t.pid >= -1 && ev->pelt.cpu >= 0,
			   "LISA event: comm not terminated or pid/cpu out of range");
	return f->b ? fs_trace_wl_feed(f->b, ev, err, errlen) : 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The workload CSV (--workload-csv, docs/csv.md): one row per task of the
 * workload the closed loop simulated, what the input gave it to run. The
 * same columns whether it came from a recording or a kernel trace, so the
 * two of one run can be compared task by task (tests/tools/trace_agree.py).
 */
#include <stdlib.h>
#include "output.h"
#include "out_file.h"
#include "../records/csv_cells.h"
#include "../sim/sim.h"

#define WORKLOAD_CSV_HEADER \
	"pid,tgid,comm,activations,forks,work,cpu_ns,first_wake_ns,last_wake_ns,exit_ns,open\n"

struct workload_csv {
	struct fs_out_file out;
	const char *path; /* as given, for messages */
};

/* One task's sums over its activations. */
struct task_sums {
	__u64 work, cpu_ns, forks, open;
};

static struct task_sums sum_task(const struct fs_sim_workload *wl, const struct fs_sim_task *t)
{
	struct task_sums s = { 0 };

	for (__u32 i = 0; i < t->nr_act; i++) {
		const struct fs_sim_act *a = &wl->acts[t->first_act + i];

		s.work += a->work;
		s.cpu_ns += a->rec_cpu_ns;
		s.forks += !!(a->flags & FS_SIM_ACT_FORK);
		s.open += !!(a->flags & FS_SIM_ACT_UNKNOWN);
	}
	return s;
}

static void write_task(FILE *f, const struct fs_sim_workload *wl, const struct fs_sim_task *t)
{
	char comm[FS_CSV_COMM_MAX];
	struct task_sums s = sum_task(wl, t);

	fs_csv_comm(comm, t->comm);
	fprintf(f, "%d,%d,%s,%u,%llu,%llu,%llu,", t->pid, t->tgid, comm, t->nr_act, (unsigned long long)s.forks,
		(unsigned long long)s.work, (unsigned long long)s.cpu_ns);
	/* times on the input's clock (the records' ts_ns, the trace's timestamps), not since t0 */
	if (t->nr_act)
		fprintf(f, "%llu,%llu,", (unsigned long long)(wl->t0_ns + wl->acts[t->first_act].wake_ns),
			(unsigned long long)(wl->t0_ns + wl->acts[t->first_act + t->nr_act - 1].wake_ns));
	else
		fputs(",,", f);
	if (t->exit_ns != FS_SIM_NEVER)
		fprintf(f, "%llu", (unsigned long long)(wl->t0_ns + t->exit_ns));
	fprintf(f, ",%llu\n", (unsigned long long)s.open);
}

static int workload_finish(void *self, const struct fs_report *rep, char *err, size_t errlen)
{
	struct workload_csv *c = self;
	const struct fs_sim_workload *wl = rep->workload;

	if (!wl) {
		snprintf(err, errlen, "%s: no workload to write: %s", c->path,
			 rep->sim && rep->sim->why[0] ? rep->sim->why : "the closed loop did not run");
		return -1;
	}
	fputs(WORKLOAD_CSV_HEADER, c->out.f);
	for (int i = 0; i < wl->nr_tasks; i++)
		write_task(c->out.f, wl, &wl->tasks[i]);
	return fs_out_commit(&c->out, err, errlen);
}

static void workload_free(void *self)
{
	struct workload_csv *c = self;

	fs_out_abort(&c->out);
	free(c);
}

static const struct fs_output_ops workload_ops = { .finish = workload_finish, .free = workload_free };

int fs_output_workload_csv(struct fs_output *o, const char *path, char *err, size_t errlen)
{
	struct workload_csv *c = calloc(1, sizeof(*c));

	if (!c) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	if (fs_out_open(&c->out, path, err, errlen)) {
		free(c);
		return -1;
	}
	c->path = path;
	o->ops = &workload_ops;
	o->self = c;
	return 0;
}

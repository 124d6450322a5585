// SPDX-License-Identifier: GPL-2.0
/* Hand-built EMs and workloads for the simulated machine's tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "em_builders.h"
#include "sim_builders.h"

void fs_test_em_1p1(struct fs_em *em, __u64 little_mw, __u64 big_mw)
{
	char err[256];

	memset(em, 0, sizeof(*em));
	em->unit = FS_POWER_MW;
	snprintf(em->source, sizeof(em->source), "test 1+1");
	em->nr_pd = 2;
	strcpy(em->pd[0].name, "little");
	em->pd[0].cpus = 0x1;
	fs_test_add_state(&em->pd[0], 1000000, little_mw);
	strcpy(em->pd[1].name, "big");
	em->pd[1].cpus = 0x2;
	fs_test_add_state(&em->pd[1], 2000000, big_mw);
	em->capacity[0] = 512;
	em->capacity[1] = 1024;
	if (fs_em_finalize(em, err, sizeof(err))) {
		fprintf(stderr, "    1+1 EM: %s\n", err);
		exit(1);
	}
}

void fs_test_wl_init(struct fs_sim_workload *wl, int nr_cpus, int nr_tasks, __u64 max_acts, __u64 end_ns)
{
	memset(wl, 0, sizeof(*wl));
	wl->nr_cpus = nr_cpus;
	wl->end_ns = end_ns;
	wl->nr_tasks = nr_tasks;
	wl->tasks = calloc((size_t)nr_tasks, sizeof(*wl->tasks));
	wl->acts = calloc(max_acts ? max_acts : 1, sizeof(*wl->acts));
	for (int i = 0; i < nr_tasks; i++) {
		struct fs_sim_task *t = &wl->tasks[i];

		t->pid = t->tgid = 100 + i;
		t->uid = FS_NO_UID;
		snprintf(t->comm, sizeof(t->comm), "task%d", i);
		t->exit_ns = FS_SIM_NEVER;
		t->init_cpu = 0;
	}
}

void fs_test_wl_act(struct fs_sim_workload *wl, int ti, __u64 wake_ns, __u64 work)
{
	struct fs_sim_task *t = &wl->tasks[ti];
	struct fs_sim_act *a;

	if (!t->nr_act)
		t->first_act = (__u32)wl->nr_acts;
	a = &wl->acts[wl->nr_acts++];
	memset(a, 0, sizeof(*a));
	a->wake_ns = wake_ns;
	a->work = work;
	a->rec_cpu = -1;
	a->waker = FS_SIM_NO_TASK;
	t->nr_act++;
}

void fs_test_wl_periodic(struct fs_sim_workload *wl, int ti, __u64 start_ns, __u64 period_ns, __u64 work,
			 int nr)
{
	for (int i = 0; i < nr; i++)
		fs_test_wl_act(wl, ti, start_ns + (__u64)i * period_ns, work);
}

void fs_test_wl_free(struct fs_sim_workload *wl)
{
	free(wl->tasks);
	free(wl->acts);
	memset(wl, 0, sizeof(*wl));
}

void fs_test_sim(const struct fs_sim_workload *wl, const struct fs_em *em, const char *policy,
		 enum fs_sim_physics physics, struct fs_sim_result *r)
{
	struct fs_sim_params p = { .em = em, .policy = fs_policy_find(policy), .physics = physics };
	char err[256];

	if (fs_sim_run(wl, &p, r, err, sizeof(err))) {
		fprintf(stderr, "    simulation under %s: %s\n", policy, err);
		exit(1);
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The simulation resumed between workloads that extend each other
 * (sim/resume.h) gives what a run from t0 gives, to the bit: random
 * workloads cut at random interval points, each cut as the workload
 * builder would leave it (the open activations' work not known yet, the
 * exits not come yet, the tasks not seen yet), under both physics and
 * several policies.
 */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "em_builders.h"
#include "sim_builders.h"
#include "sim/resume.h"
#include "engine/time_blocks.h"

#define MS 1000000ull

static __u64 rnd(__u64 *s, __u64 n)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return n ? *s % n : 0;
}

/*
 * Up to 10 tasks in order of their first wake-up over `len`, some forks,
 * some pinned, some exiting; gaps up to 80 ms, work up to 20 ms (a few
 * bursts), so the cuts fall inside runs and idle stretches alike.
 */
static void full_workload(struct fs_sim_workload *wl, const struct fs_em *em, __u64 len, __u64 *s)
{
	const int nt = 2 + (int)rnd(s, 9), n = em->nr_cpus;
	const __u64 all = (1ull << n) - 1;
	__u64 first = 0;

	fs_test_wl_init(wl, n, nt, (__u64)nt * 200, len);
	for (int ti = 0; ti < nt; ti++) {
		struct fs_sim_task *t = &wl->tasks[ti];

		first += rnd(s, len / (__u64)nt);
		t->init_cpu = (int)rnd(s, (__u64)n);
		t->init_util = (__u32)rnd(s, 600);
		t->init_util_est = (__u32)rnd(s, 600);
		t->cpus_allowed = rnd(s, 4) ? 0 : (rnd(s, all) | (1ull << rnd(s, (__u64)n))) & all;
		t->exit_ns = rnd(s, 5) ? FS_SIM_NEVER : first + rnd(s, len);
		for (__u64 at = first; at < len && t->nr_act < 200; at += 1 + rnd(s, rnd(s, 4) ? 20 * MS : 80 * MS))
			fs_test_wl_act(wl, ti, at, rnd(s, 10) ? rnd(s, 4 * MS) : rnd(s, 20 * MS));
		if (t->nr_act && !rnd(s, 3))
			wl->acts[t->first_act].flags |= FS_SIM_ACT_FORK;
	}
}

/*
 * wl as the builder has it at `cut`: the tasks woken by then, their
 * activations woken by then, the last one open (only part of its work
 * known, FS_SIM_ACT_UNKNOWN) unless the task exited; exits after the cut
 * not known.
 */
static void cut_workload(const struct fs_sim_workload *wl, __u64 cut, struct fs_sim_workload *out, __u64 *s)
{
	int nt = 0;

	while (nt < wl->nr_tasks && wl->tasks[nt].nr_act && wl->acts[wl->tasks[nt].first_act].wake_ns < cut)
		nt++;
	fs_test_wl_init(out, wl->nr_cpus, nt, wl->nr_acts, cut);
	for (int ti = 0; ti < nt; ti++) {
		const struct fs_sim_task *t = &wl->tasks[ti];
		struct fs_sim_task *o = &out->tasks[ti];

		*o = *t;
		o->nr_act = 0;
		o->first_act = (__u32)out->nr_acts;
		o->exit_ns = t->exit_ns < cut ? t->exit_ns : FS_SIM_NEVER;
		for (__u32 k = 0; k < t->nr_act && wl->acts[t->first_act + k].wake_ns < cut; k++) {
			out->acts[out->nr_acts++] = wl->acts[t->first_act + k];
			o->nr_act++;
		}
		struct fs_sim_act *last = &out->acts[o->first_act + o->nr_act - 1];
		const bool closed = o->nr_act < t->nr_act && wl->acts[t->first_act + o->nr_act].wake_ns < cut;

		if (!closed && o->exit_ns == FS_SIM_NEVER && cut < wl->end_ns) {
			last->work = rnd(s, 2) ? 0 : rnd(s, last->work + 1);
			last->flags |= FS_SIM_ACT_UNKNOWN;
		}
	}
}

static bool same_result(const struct fs_sim_result *a, const struct fs_sim_result *b, __u64 nr_acts)
{
	bool same = a->energy_x == b->energy_x && a->energy == b->energy && a->nr_tasks == b->nr_tasks &&
		    a->nr_blocks == b->nr_blocks && a->block_ns == b->block_ns &&
		    !memcmp(a->busy_ns, b->busy_ns, sizeof(a->busy_ns)) &&
		    !memcmp(a->opp_busy_ns, b->opp_busy_ns, sizeof(a->opp_busy_ns)) &&
		    a->wakeups == b->wakeups && a->feec_eligible == b->feec_eligible &&
		    a->overutilized_wakeups == b->overutilized_wakeups && a->overutilized_ns == b->overutilized_ns &&
		    !memcmp(a->wakeups_cpu, b->wakeups_cpu, sizeof(a->wakeups_cpu)) &&
		    !memcmp(a->ou_wakeups_cpu, b->ou_wakeups_cpu, sizeof(a->ou_wakeups_cpu)) &&
		    !memcmp(a->busy_via_pd, b->busy_via_pd, sizeof(a->busy_via_pd)) &&
		    a->migrations_wakeup == b->migrations_wakeup && a->migrations_misfit == b->migrations_misfit &&
		    a->migrations_newidle == b->migrations_newidle && a->work_given == b->work_given &&
		    a->work_done == b->work_done && a->work_left == b->work_left &&
		    !memcmp(a->lat_hist, b->lat_hist, sizeof(a->lat_hist)) &&
		    !memcmp(a->wait_hist, b->wait_hist, sizeof(a->wait_hist));

	for (int i = 0; same && i < a->nr_tasks; i++) {
		const struct fs_sim_task_result *x = &a->task[i], *y = &b->task[i];

		same = x->energy_x == y->energy_x && x->energy == y->energy && x->run_ns == y->run_ns &&
		       x->wait_ns == y->wait_ns && x->acts_done == y->acts_done && x->work_left == y->work_left &&
		       !memcmp(x->run_pd_ns, y->run_pd_ns, sizeof(x->run_pd_ns));
	}
	for (size_t i = 0; same && i < a->nr_blocks; i++)
		same = a->block_energy[i] == b->block_energy[i];
	same = same && !memcmp(a->act_cpu, b->act_cpu, nr_acts * sizeof(*a->act_cpu)) &&
	       !memcmp(a->act_how, b->act_how, nr_acts) && !memcmp(a->act_util, b->act_util, nr_acts * sizeof(*a->act_util));
	for (__u64 i = 0; same && a->act_dec && i < nr_acts; i++)
		same = a->act_dec[i].cpu == b->act_dec[i].cpu && a->act_dec[i].wake_ns == b->act_dec[i].wake_ns &&
		       a->act_dec[i].feec_cpu == b->act_dec[i].feec_cpu && a->act_dec[i].reason == b->act_dec[i].reason;
	return same;
}

/* One random workload, cut at random points, resumed from cut to cut and run from t0 at each. */
static void resume_round(__u64 *seed, const struct fs_em *em, const char *policy, enum fs_sim_physics ph,
			 int *resumed, int *differ)
{
	struct fs_sim_workload full, prev = { 0 };
	struct fs_sim_resumer *z = fs_sim_resumer_new(5 * MS + rnd(seed, 40 * MS));
	const __u64 len = (200 + rnd(seed, 600)) * MS;
	char err[256];
	bool have_prev = false;

	full_workload(&full, em, len, seed);
	for (__u64 cut = 1 + rnd(seed, 60 * MS);; cut += 1 + rnd(seed, 60 * MS)) {
		struct fs_sim_workload wl;
		struct fs_sim_result a, b;
		struct fs_sim_params p = { .em = em, .policy = fs_policy_find(policy), .physics = ph,
					   .keep_decisions = rnd(seed, 4) == 0 };

		cut = cut < len ? cut : len;
		cut_workload(&full, cut, &wl, seed);
		p.block_ns = fs_blocks_width(wl.end_ns);
		const __u64 changed = have_prev ? fs_sim_wl_changed(&prev, &wl) : 0;

		if (fs_sim_resumer_run(z, &wl, changed, &p, &a, err, sizeof(err)) ||
		    fs_sim_run(&wl, &p, &b, err, sizeof(err))) {
			fprintf(stderr, "    %s\n", err);
			exit(1);
		}
		*differ += !same_result(&a, &b, wl.nr_acts);
		fs_sim_result_free(&a);
		fs_sim_result_free(&b);
		if (have_prev)
			fs_test_wl_free(&prev);
		prev = wl;
		have_prev = true;
		if (cut == len)
			break;
	}
	const struct fs_sim_resume_stats *st = fs_sim_resumer_stats(z);

	*resumed += st->runs > st->from_start;
	fs_test_wl_free(&prev);
	fs_test_wl_free(&full);
	fs_sim_resumer_free(z);
}

FS_TEST(sim_resume_equals_a_run_from_t0_over_random_cuts)
{
	static const char *const pols[] = { "v5.4", "v5.4-nomargin", "v6.1", "v6.1+margin", "v6.12.97" };
	__u64 seed = 0x5eed7e51;
	int differ = 0, resumed = 0, rounds = 0;

	for (int round = 0; round < 48; round++) {
		struct fs_em em;

		switch (rnd(&seed, 3)) {
		case 0:
			fs_test_em_2pd(&em);
			break;
		case 1:
			fs_test_em_pixel4(&em, FS_POWER_UW);
			break;
		default:
			fs_test_em_1p1(&em, 100, 400);
		}
		resume_round(&seed, &em, pols[round % 5], round & 1 ? FS_SIM_LAB : FS_SIM_DEVICE, &resumed, &differ);
		rounds++;
	}
	EXPECT_EQ(differ, 0);
	/* the test is of resuming: most rounds resumed at least once */
	EXPECT_TRUE(resumed * 2 > rounds);
}

/* What the machine reads first differs where the workload changed; an extension changes nothing. */
FS_TEST(sim_resume_change_is_the_earliest_difference)
{
	struct fs_sim_workload a, b;

	fs_test_wl_init(&a, 2, 2, 8, 100 * MS);
	fs_test_wl_act(&a, 0, 10 * MS, 1 * MS);
	fs_test_wl_act(&a, 0, 30 * MS, 0);
	fs_test_wl_act(&a, 1, 20 * MS, 2 * MS);
	fs_test_wl_init(&b, 2, 2, 8, 150 * MS);
	fs_test_wl_act(&b, 0, 10 * MS, 1 * MS);
	fs_test_wl_act(&b, 0, 30 * MS, 0);
	fs_test_wl_act(&b, 1, 20 * MS, 2 * MS);
	EXPECT_EQ_U64(fs_sim_wl_changed(&a, &b), FS_SIM_NEVER);
	b.acts[1].work = 3 * MS; /* the open activation's work came */
	EXPECT_EQ_U64(fs_sim_wl_changed(&a, &b), 30 * MS);
	b.tasks[1].exit_ns = 120 * MS;
	EXPECT_EQ_U64(fs_sim_wl_changed(&a, &b), 30 * MS);
	b.tasks[1].exit_ns = 25 * MS;
	EXPECT_EQ_U64(fs_sim_wl_changed(&a, &b), 25 * MS);
	b.tasks[1].init_util = 7; /* read at set-up */
	EXPECT_EQ_U64(fs_sim_wl_changed(&a, &b), 0);
	fs_test_wl_free(&a);
	fs_test_wl_free(&b);
}

/* A new EM (the kernel changed its table mid-run): every kept state dropped, the run from t0 under the new one. */
FS_TEST(sim_resume_new_em_runs_from_t0)
{
	struct fs_sim_workload full, a, b;
	struct fs_em em1, em2;
	struct fs_sim_result x, y;
	struct fs_sim_resumer *z = fs_sim_resumer_new(0);
	__u64 seed = 0x5eed0e11;
	char err[256];

	fs_test_em_pixel4(&em1, FS_POWER_UW);
	em2 = em1;
	em2.pd[2].ps[0].power *= 2;
	full_workload(&full, &em1, 600 * MS, &seed);
	cut_workload(&full, 300 * MS, &a, &seed);
	cut_workload(&full, 450 * MS, &b, &seed);
	struct fs_sim_params p = { .em = &em1, .policy = fs_policy_find("v6.1"), .physics = FS_SIM_DEVICE,
				   .block_ns = fs_blocks_width(a.end_ns) };

	ASSERT_TRUE(fs_sim_resumer_run(z, &a, 0, &p, &x, err, sizeof(err)) == 0);
	fs_sim_result_free(&x);
	p.em = &em2;
	p.block_ns = fs_blocks_width(b.end_ns);
	ASSERT_TRUE(fs_sim_resumer_run(z, &b, fs_sim_wl_changed(&a, &b), &p, &x, err, sizeof(err)) == 0);
	ASSERT_TRUE(fs_sim_run(&b, &p, &y, err, sizeof(err)) == 0);
	EXPECT_TRUE(same_result(&x, &y, b.nr_acts));
	EXPECT_EQ_U64(fs_sim_resumer_stats(z)->from_start, 2);
	fs_sim_result_free(&x);
	fs_sim_result_free(&y);
	fs_test_wl_free(&a);
	fs_test_wl_free(&b);
	fs_test_wl_free(&full);
	fs_sim_resumer_free(z);
}

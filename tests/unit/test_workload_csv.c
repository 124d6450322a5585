// SPDX-License-Identifier: GPL-2.0
/*
 * The workload CSV (--workload-csv) through the pipeline (also run under
 * ASan/UBSan): a row per task in the order tasks first woke, activations
 * and CPU time from the wake-ups' sum_exec_ns readings, a comm the CSV must
 * quote; without the simulation the finish fails and nothing is written.
 */
#include <unistd.h>
#include "test.h"
#include "em_builders.h"
#include "pipeline.h"
#include "outputs_open.h"

#define MS 1000000ull

static struct fs_em em;

static void wake(struct fs_wakeup *w, __s32 pid, __u64 ts, __u64 sum_exec)
{
	const unsigned int util[4] = { 30, 30, 30, 30 };

	fs_test_wakeup(w, &em, util, pid % em.nr_cpus, 40);
	w->hdr.ts_ns = ts;
	w->pid = w->tgid = pid;
	w->sum_exec_ns = sum_exec;
	w->chosen_cpu = pid % em.nr_cpus;
	snprintf(w->comm, sizeof(w->comm), pid == 3 ? "a,b" : "t%d", pid);
}

/* pids 1..3 wake three times each, 10 ms apart; pid p runs p ms an activation. 0 or -1. */
static int run(const char *csv, bool no_sim, char *err, size_t errlen)
{
	struct fs_pipeline_opts o = { .em = &em, .nr_policies = 1, .kernel_release = "6.1.0",
				      .no_sim = no_sim, .sim_physics = FS_SIM_LAB };
	struct fs_output_paths paths = { .workload_csv = csv };
	struct fs_wakeup w;
	int rc;

	o.policies[0] = fs_policy_find("v6.1");
	if (fs_outputs_open(&o, &paths, err, errlen))
		return -1;
	struct fs_pipeline *p = fs_pipeline_new(&o, err, errlen);
	if (!p)
		return -1;
	for (int k = 0; k < 3; k++)
		for (int pid = 1; pid <= 3; pid++) {
			wake(&w, pid, 100 * MS + k * 10 * MS + (__u64)pid * 1000, (__u64)(k * pid) * MS);
			if (fs_pipeline_feed(p, &w.hdr, err, errlen))
				return fs_pipeline_free(p), -1;
		}
	rc = fs_pipeline_finish(p, err, errlen);
	fs_pipeline_free(p);
	return rc;
}

FS_TEST(workload_csv_rows_per_task)
{
	char path[] = "/tmp/fs_wl_XXXXXX", err[256], line[256];
	int fd = mkstemp(path);

	ASSERT_TRUE(fd >= 0);
	close(fd);
	fs_test_em_2pd(&em);
	ASSERT_TRUE(run(path, false, err, sizeof(err)) == 0);
	FILE *f = fopen(path, "r");
	ASSERT_TRUE(f);
	ASSERT_TRUE(fgets(line, sizeof(line), f) != NULL);
	EXPECT_STR(line, "pid,tgid,comm,activations,forks,work,cpu_ns,first_wake_ns,last_wake_ns,exit_ns,open\n");
	for (int pid = 1; pid <= 3; pid++) {
		int p, tg, acts, forks, open;
		unsigned long long work, cpu, first, last;
		char comm[32];

		ASSERT_TRUE(fgets(line, sizeof(line), f) != NULL);
		/* the comm "a,b" is quoted: read the cells after it from its end */
		const char *after = pid == 3 ? strstr(line, "\"a,b\",") : NULL;
		if (pid == 3) {
			ASSERT_TRUE(after != NULL);
			EXPECT_EQ(sscanf(line, "%d,%d,", &p, &tg), 2);
			EXPECT_EQ(sscanf(after + 6, "%d,%d,%llu,%llu,%llu,%llu,,%d", &acts, &forks, &work, &cpu, &first,
					 &last, &open), 7);
		} else {
			EXPECT_EQ(sscanf(line, "%d,%d,%31[^,],%d,%d,%llu,%llu,%llu,%llu,,%d", &p, &tg, comm, &acts, &forks,
					 &work, &cpu, &first, &last, &open), 10);
		}
		EXPECT_EQ(p, pid);
		EXPECT_EQ(tg, pid);
		EXPECT_EQ(acts, 3);
		EXPECT_EQ(forks, 0);
		/* two activations closed by the next wake-up's reading, pid ms each; lab physics: work = CPU ns */
		EXPECT_EQ(cpu, 2 * (unsigned long long)pid * MS);
		EXPECT_EQ(work, cpu);
		EXPECT_EQ(first, 100 * MS + (unsigned long long)pid * 1000);
		EXPECT_EQ(last, 120 * MS + (unsigned long long)pid * 1000);
		EXPECT_EQ(open, 1); /* the last: no reading after it */
	}
	EXPECT_TRUE(fgets(line, sizeof(line), f) == NULL);
	fclose(f);
	unlink(path);
}

FS_TEST(workload_csv_needs_the_simulation)
{
	char path[] = "/tmp/fs_wl_XXXXXX", err[256];
	int fd = mkstemp(path);

	ASSERT_TRUE(fd >= 0);
	close(fd);
	unlink(path);
	fs_test_em_2pd(&em);
	EXPECT_EQ(run(path, true, err, sizeof(err)), -1);
	EXPECT_TRUE(strstr(err, "no workload to write") != NULL);
	EXPECT_TRUE(access(path, F_OK) != 0); /* nothing under the final name */
}

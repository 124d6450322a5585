// SPDX-License-Identifier: GPL-2.0
/* /proc and sysfs readings live turns into records (proc_stats.h). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "proc_stats.h"

#define CPUFREQ_DIR "/sys/devices/system/cpu/cpufreq"

static __u64 ns_per_tick(void)
{
	long hz = sysconf(_SC_CLK_TCK); /* USER_HZ: the unit of /proc/stat and time_in_state */

	return hz > 0 ? 1000000000ull / (__u64)hz : 10000000ull;
}

/* /proc/schedstat "cpuN ..." field 7: rq_cpu_time, ns the CPU ran tasks (not idle). */
static int read_schedstat(struct fs_cpustat *cs, int nr_cpus)
{
	FILE *f = fopen("/proc/schedstat", "r");
	char line[512];
	int seen = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[9];
		int cpu;

		if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1], &v[2],
			   &v[3], &v[4], &v[5], &v[6], &v[7], &v[8]) == 10 && cpu >= 0 && cpu < nr_cpus) {
			cs->busy_ns[cpu] = v[6];
			seen++;
		}
	}
	fclose(f);
	return seen ? 0 : -1; /* schedstats may be compiled in but all-zero lines still parse */
}

/* /proc/stat "cpuN user nice system idle iowait irq softirq steal ...": busy = all but idle, iowait, steal. */
static int read_proc_stat(struct fs_cpustat *cs, int nr_cpus)
{
	FILE *f = fopen("/proc/stat", "r");
	char line[512];
	__u64 tick = ns_per_tick();
	int seen = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long u, n, s, idle, io, irq, soft;
		int cpu;

		if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu", &cpu, &u, &n, &s, &idle, &io, &irq,
			   &soft) == 8 && cpu >= 0 && cpu < nr_cpus) {
			cs->busy_ns[cpu] = (u + n + s + irq + soft) * tick;
			seen++;
		}
	}
	fclose(f);
	return seen ? 0 : -1;
}

int fs_proc_cpustat(struct fs_cpustat *cs, int nr_cpus, __u64 ts_ns)
{
	memset(cs, 0, sizeof(*cs));
	cs->hdr = (struct fs_rec_hdr){ .type = FS_REC_CPUSTAT, .size = sizeof(*cs), .ts_ns = ts_ns };
	cs->nr_cpus = (__u32)nr_cpus;
	cs->source = FS_CPUSTAT_SCHEDSTAT;
	if (!read_schedstat(cs, nr_cpus))
		return 0;
	memset(cs->busy_ns, 0, sizeof(cs->busy_ns));
	cs->source = FS_CPUSTAT_PROC_STAT;
	return read_proc_stat(cs, nr_cpus);
}

static int read_freqstat(const char *policy, struct fs_freqstat *fq, __u64 ts_ns)
{
	char path[256], line[128];
	FILE *f;
	int cpu;
	__u64 tick = ns_per_tick();

	memset(fq, 0, sizeof(*fq));
	fq->hdr = (struct fs_rec_hdr){ .type = FS_REC_FREQSTAT, .size = sizeof(*fq), .ts_ns = ts_ns };
	snprintf(path, sizeof(path), CPUFREQ_DIR "/%s/related_cpus", policy);
	if (!(f = fopen(path, "r")))
		return -1;
	int ok = fscanf(f, "%d", &cpu) == 1;
	fclose(f);
	if (!ok || cpu < 0 || cpu >= FS_MAX_CPUS)
		return -1;
	fq->cpu = cpu;
	snprintf(path, sizeof(path), CPUFREQ_DIR "/%s/stats/time_in_state", policy);
	if (!(f = fopen(path, "r")))
		return -1;
	while (fgets(line, sizeof(line), f) && fq->nr < FS_MAX_FREQS) {
		unsigned long long khz, ticks;

		if (sscanf(line, "%llu %llu", &khz, &ticks) != 2 || !khz || khz > UINT32_MAX)
			continue;
		/* the kernel lists its table in its own order: keep ours ascending */
		__u32 i = fq->nr++;
		while (i && fq->st[i - 1].khz > khz) {
			fq->st[i] = fq->st[i - 1];
			i--;
		}
		fq->st[i] = (struct fs_freq_time){ .khz = (__u32)khz, .ns = ticks * tick };
	}
	fclose(f);
	return fq->nr ? 0 : -1;
}

int fs_proc_freqstats(struct fs_freqstat *out, int max, __u64 ts_ns)
{
	DIR *d = opendir(CPUFREQ_DIR);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max)
		if (!strncmp(e->d_name, "policy", 6) && !read_freqstat(e->d_name, &out[n], ts_ns))
			n++;
	closedir(d);
	return n;
}

int fs_proc_task_time(__s32 pid, __s32 tgid, __u64 ts_ns, struct fs_task_time *out)
{
	char path[96];
	unsigned long long ns;
	FILE *f;

	memset(out, 0, sizeof(*out));
	out->hdr = (struct fs_rec_hdr){ .type = FS_REC_RUNTIME, .size = sizeof(*out), .ts_ns = ts_ns };
	out->pid = pid;
	out->tgid = tgid;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", tgid, pid);
	if (!(f = fopen(path, "r")))
		return -1;
	int ok = fscanf(f, "%llu", &ns) == 1;
	fclose(f);
	if (!ok)
		return -1;
	out->sum_exec_ns = ns;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", tgid, pid);
	if ((f = fopen(path, "r"))) {
		if (fgets(out->comm, sizeof(out->comm), f))
			out->comm[strcspn(out->comm, "\n")] = 0;
		fclose(f);
	}
	return 0;
}

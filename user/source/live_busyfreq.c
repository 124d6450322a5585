// SPDX-License-Identifier: GPL-2.0
/* live_busyfreq.h: the busy-time-at-frequency map, armed, attached and read. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "cpu_online.h"
#include "cpufreq_tunables.h"
#include "live_busyfreq.h"

struct fs_busy_freq {
	int cpu_fd;
	int nr_cpus;
	int unvisited; /* CPUs armed busy that visit_cpus() could not run on */
	__u64 online;  /* CPUs online at the start: armed busy; the rest idle */
	int nr[FS_MAX_CPUS];
	__u32 khz[FS_MAX_CPUS][FS_MAX_FREQS];
	int nr_first;                     /* FS_REC_FREQ records of the start, one per policy */
	struct fs_freq first[FS_MAX_CPUS];
};

int fs_busy_freq_table(const struct fs_em *em, int cpu, __u32 khz[FS_MAX_FREQS])
{
	int pd = cpu >= 0 && cpu < FS_MAX_CPUS && cpu < em->nr_cpus ? em->cpu_pd[cpu] : -1;
	int n = 0;

	if (pd < 0)
		return 0;
	for (int i = 0; i < em->pd[pd].nr_ps && n < FS_MAX_FREQS; i++)
		if (em->pd[pd].ps[i].frequency && em->pd[pd].ps[i].frequency <= 0xffffffffu)
			khz[n++] = (__u32)em->pd[pd].ps[i].frequency;
	return n;
}

/* The CPU's current frequency from cpufreq (0: no cpufreq, as on this x86 VM). */
static __u32 cur_khz(int cpu)
{
	char path[96];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1 || v > 0xffffffffu)
		v = 0;
	fclose(f);
	return (__u32)v;
}

/*
 * Number the slots and put each online CPU busy at its current frequency
 * from now: the first switch out of idle restarts an idle CPU's span, so
 * only a CPU busy now counts from now (bpf/busyfreq.bpf.c). An offline CPU
 * is armed idle: it runs nothing, and emits no sched_switch until it comes
 * up in its idle task, whose first switch to a task opens its first span
 * (cpu_startup_entry(), kernel/sched/idle.c, v5.0 - v6.x). Armed busy, its
 * span would be counted in every read of the recording.
 */
static int arm(struct fs_busy_freq *bf, int slot_fd, char *why, size_t whylen)
{
	__u64 now = fs_live_boot_ns();

	for (int cpu = 0; cpu < bf->nr_cpus; cpu++) {
		struct fs_busy_cpu c = { .start_ns = now, .busy = !!(bf->online >> cpu & 1), .slot = FS_BUSY_UNKNOWN,
					 .khz = cur_khz(cpu) };
		__u32 key = (__u32)cpu;

		for (__u32 i = 0; i < (__u32)bf->nr[cpu]; i++) {
			__u64 k = (__u64)cpu << 32 | bf->khz[cpu][i];

			if (bpf_map_update_elem(slot_fd, &k, &i, BPF_ANY))
				goto fail;
			if (bf->khz[cpu][i] == c.khz)
				c.slot = i;
		}
		if (bpf_map_update_elem(bf->cpu_fd, &key, &c, BPF_ANY))
			goto fail;
	}
	return 0;
fail:
	snprintf(why, whylen, "filling its maps: %s", strerror(errno));
	return -1;
}

/*
 * Each CPU's policy into map freq_policy (bpf/busyfreq.bpf.c), and each
 * policy's frequency now as its first FS_REC_FREQ: the kernel traces a
 * frequency only when it changes, so without this a policy's frequency
 * would be unknown until its first change. A CPU of no policy (no cpufreq)
 * stands for itself and records what the kernel traces for it. A change
 * between this read and the attach is not seen until the next one.
 */
static int arm_freq(struct fs_busy_freq *bf, int fd, __u64 now, char *why, size_t whylen)
{
	static struct fs_rec_cpufreq pol[FS_MAX_CPUS];
	int n = fs_cpufreq_tunables(NULL, pol, FS_MAX_CPUS);

	for (int i = 0; i < n; i++) {
		int first = __builtin_ctzll(pol[i].cpus);
		struct fs_freq_policy e = { .first = (__u32)first + 1 };

		if (first >= bf->nr_cpus)
			continue;
		for (int cpu = first; cpu < bf->nr_cpus && !e.khz; cpu++)
			if (pol[i].cpus >> cpu & 1)
				e.khz = cur_khz(cpu);
		for (int cpu = first; cpu < bf->nr_cpus; cpu++) {
			__u32 key = (__u32)cpu;
			struct fs_freq_policy v = { .first = e.first, .khz = cpu == first ? e.khz : 0 };

			if ((pol[i].cpus >> cpu & 1) && bpf_map_update_elem(fd, &key, &v, BPF_ANY)) {
				snprintf(why, whylen, "filling its policy map: %s", strerror(errno));
				return -1;
			}
		}
		if (e.khz)
			bf->first[bf->nr_first++] = (struct fs_freq){
				.hdr = { .type = FS_REC_FREQ, .size = sizeof(struct fs_freq), .ts_ns = now },
				.cpu = first, .khz = e.khz };
	}
	return 0;
}

/*
 * Run this thread once on every CPU armed busy, then put its affinity back.
 * The switch that brings this thread to a CPU settles its armed span: an
 * idle CPU's restarts (idle to this thread), a busy one's goes on (a task to
 * this thread). Until then an idle CPU's armed span is counted busy wherever
 * a cpu_frequency split closes it or a read takes it, so the first read, the
 * baseline every delta starts from, must come after the visits. A CPU this
 * thread may not run on (a cpuset), or one gone offline since the online
 * list was read (the cpuhp_exit that closes a dying CPU's span,
 * bpf/busyfreq.bpf.c, came before the attach), keeps its armed span until
 * its own next switch; the count of those is returned.
 */
static int visit_cpus(int nr_cpus, __u64 busy)
{
	cpu_set_t old, one;
	int missed = 0;

	if (sched_getaffinity(0, sizeof(old), &old))
		return __builtin_popcountll(busy);
	for (int cpu = 0; cpu < nr_cpus && cpu < CPU_SETSIZE; cpu++) {
		if (!(busy >> cpu & 1))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		/* returns on that CPU: __set_cpus_allowed_ptr() moves a running task by stop_one_cpu() */
		if (sched_setaffinity(0, sizeof(one), &one) || sched_getcpu() != cpu)
			missed++;
	}
	sched_setaffinity(0, sizeof(old), &old);
	return missed;
}

struct fs_busy_freq *fs_busy_freq_start(struct fs_live_bpf *b, const struct fs_em *em, int nr_cpus,
					char *why, size_t whylen)
{
	struct fs_busy_freq *bf;
	int slot_fd;

	if (fs_live_bpf_busy_maps(b, &slot_fd, NULL) < 0) {
		snprintf(why, whylen, "its programs are not loaded");
		return NULL;
	}
	bf = calloc(1, sizeof(*bf));
	if (!bf) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	fs_live_bpf_busy_maps(b, &slot_fd, &bf->cpu_fd);
	bf->nr_cpus = nr_cpus < FS_MAX_CPUS ? nr_cpus : FS_MAX_CPUS;
	if (fs_cpu_online_read(NULL, &bf->online, why, whylen)) {
		fs_live_bpf_busy_off(b, why); /* -v's status must not say "on" */
		free(bf);
		return NULL;
	}
	bf->online &= bf->nr_cpus < 64 ? (1ull << bf->nr_cpus) - 1 : ~0ull;
	for (int cpu = 0; cpu < bf->nr_cpus; cpu++)
		bf->nr[cpu] = fs_busy_freq_table(em, cpu, bf->khz[cpu]);
	int freq_fd = fs_live_bpf_freq_map(b);

	if (arm(bf, slot_fd, why, whylen) ||
	    (freq_fd >= 0 && arm_freq(bf, freq_fd, fs_live_boot_ns(), why, whylen)) ||
	    fs_live_bpf_busy_attach(b, why, whylen)) {
		fs_live_bpf_busy_off(b, why); /* an attach that failed said so already; arm() did not */
		free(bf);
		return NULL;
	}
	bf->unvisited = visit_cpus(bf->nr_cpus, bf->online);
	return bf;
}

int fs_busy_freq_read(struct fs_busy_freq *bf, struct fs_busyfreq *out, __u64 ts_ns)
{
	for (int cpu = 0; cpu < bf->nr_cpus; cpu++) {
		struct fs_busy_cpu c;
		__u32 key = (__u32)cpu;
		struct fs_busyfreq *r = &out[cpu];

		if (bpf_map_lookup_elem(bf->cpu_fd, &key, &c))
			return 0;
		/* the open span up to ts_ns (read after the map: start_ns <= ts_ns) */
		if (c.busy && ts_ns > c.start_ns)
			c.ns[c.slot < FS_BUSY_UNKNOWN ? c.slot : FS_BUSY_UNKNOWN] += ts_ns - c.start_ns;
		memset(r, 0, sizeof(*r));
		r->hdr = (struct fs_rec_hdr){ .type = FS_REC_BUSYFREQ, .size = sizeof(*r), .ts_ns = ts_ns };
		r->cpu = cpu;
		r->nr = (__u32)bf->nr[cpu];
		for (int i = 0; i < bf->nr[cpu]; i++)
			r->st[i] = (struct fs_freq_time){ .khz = bf->khz[cpu][i], .ns = c.ns[i] };
		r->unknown_ns = c.ns[FS_BUSY_UNKNOWN];
	}
	return bf->nr_cpus;
}

int fs_busy_freq_first(const struct fs_busy_freq *bf, const struct fs_freq **out)
{
	*out = bf->first;
	return bf->nr_first;
}

int fs_busy_freq_unvisited(const struct fs_busy_freq *bf)
{
	return bf->unvisited;
}

void fs_busy_freq_free(struct fs_busy_freq *bf)
{
	free(bf);
}

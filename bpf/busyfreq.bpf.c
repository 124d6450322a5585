// SPDX-License-Identifier: GPL-2.0
/*
 * Each CPU's busy time at each frequency, kept in the kernel: the A/B
 * meter's definition (tests/ab/meter.py), so the CPU-energy denominator can
 * be Σ busy × power(OPP). Nothing goes to the ring buffer: sched_switch
 * opens or closes a busy span where the CPU leaves or enters its idle task,
 * cpu_frequency splits the span at a change, and userspace reads the map
 * every interval (user/source/live_busyfreq.c). Busy = running any task other
 * than the CPU's idle task (pid 0), as /proc/stat counts it.
 *
 * CPU hotplug needs nothing more here. A CPU going offline switches to its
 * idle task last (takedown_cpu(), kernel/cpu.c: "there's only the idle task
 * left now"), which then parks it (do_idle(), kernel/sched/idle.c:
 * cpu_is_offline() -> cpuhp_report_idle_dead(), arch_cpu_idle_dead()), so
 * its span closes then. One coming up starts in its idle task
 * (cpu_startup_entry(), kernel/sched/idle.c) with no switch into it, so its
 * first switch, idle to a task, opens its first span (v5.0 - v6.x). What
 * userspace must do is arm a CPU offline at the start idle, not busy.
 */
#include "feecscope.bpf.h"

/*
 * Slot of each (cpu << 32 | kHz) the EM knows, filled by userspace before
 * attach; a frequency outside it goes to slot FS_BUSY_UNKNOWN (counted).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FS_MAX_CPUS * FS_MAX_FREQS);
	__type(key, __u64);
	__type(value, __u32);
} busy_slot SEC(".maps");

/*
 * One entry per CPU, not a per-CPU map: cpu_frequency runs on whichever CPU
 * changed the policy's frequency (cpufreq_notify_transition() and
 * cpufreq_driver_fast_switch() trace every CPU of the policy, v5.0 - v7.x),
 * so it updates other CPUs' entries. Userspace arms every online CPU's
 * entry busy (an offline one's idle) from its own clock and the CPU's
 * current frequency before attach.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FS_MAX_CPUS);
	__type(key, __u32);
	__type(value, struct fs_busy_cpu);
} busy_cpu SEC(".maps");

/* Close the open span at now, at the slot it ran at (no-op when idle). */
static __always_inline void busy_close(struct fs_busy_cpu *c, __u64 now)
{
	__u32 slot = c->slot;
	__u64 start = c->start_ns;

	if (!c->busy || now <= start)
		return;
	if (slot > FS_BUSY_UNKNOWN)
		slot = FS_BUSY_UNKNOWN;
	/*
	 * An atomic add: a split from another CPU may close the same span at
	 * once; then both add the overlap of their reads of start_ns (ns), the
	 * price of no lock (bpf_spin_lock is refused in tracing programs).
	 */
	__sync_fetch_and_add(&c->ns[slot], now - start);
}

SEC("raw_tp/sched_switch")
int BPF_PROG(busy_sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct fs_busy_cpu *c = bpf_map_lookup_elem(&busy_cpu, &cpu);
	bool prev_idle = BPF_CORE_READ(prev, pid) == 0, next_idle = BPF_CORE_READ(next, pid) == 0;
	__u64 now;

	if (!c || prev_idle == next_idle)
		return 0; /* task to task: the span goes on */
	now = bpf_ktime_get_boot_ns();
	if (prev_idle) {
		c->start_ns = now;
		c->busy = 1;
	} else {
		busy_close(c, now);
		c->busy = 0;
	}
	return 0;
}

/* power:cpu_frequency(frequency kHz, cpu_id), once per CPU of the policy. */
SEC("raw_tp/cpu_frequency")
int BPF_PROG(busy_cpu_frequency, unsigned int khz, unsigned int cpu_id)
{
	__u32 cpu = cpu_id;
	struct fs_busy_cpu *c = bpf_map_lookup_elem(&busy_cpu, &cpu);
	__u64 key = (__u64)cpu << 32 | khz, now;
	__u32 *slot = bpf_map_lookup_elem(&busy_slot, &key);

	if (!c)
		return 0;
	if (!slot)
		count(FS_CNT_BUSY_UNKNOWN_FREQ);
	now = bpf_ktime_get_boot_ns();
	busy_close(c, now);
	c->start_ns = now;
	c->slot = slot ? *slot : FS_BUSY_UNKNOWN;
	c->khz = khz;
	return 0;
}

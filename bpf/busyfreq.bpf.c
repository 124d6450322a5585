// SPDX-License-Identifier: GPL-2.0
/*
 * Each CPU's busy time at each frequency, kept in the kernel: the A/B
 * meter's definition (tests/ab/meter.py), so the CPU-energy denominator can
 * be Σ busy × power(OPP); and each frequency change, one FS_REC_FREQ per
 * policy into the ring buffer, for the workload's work (user/sim/). The busy
 * time goes to no ring: sched_switch
 * opens or closes a busy span where the CPU leaves or enters its idle task,
 * cpu_frequency splits the span at a change, and userspace reads the map
 * every interval (user/source/live_busyfreq.c). Busy = running any task other
 * than the CPU's idle task (pid 0), as /proc/stat counts it.
 *
 * CPU hotplug. A CPU coming up starts in its idle task (cpu_startup_entry(),
 * kernel/sched/idle.c) with no switch into it, already online, so its first
 * switch, idle to a task, opens its first span; userspace arms a CPU offline
 * at the start idle. A CPU going offline switches to its idle task last
 * (takedown_cpu(), kernel/cpu.c: "there's only the idle task left now"),
 * which parks it (do_idle(): cpu_is_offline() -> cpuhp_report_idle_dead()),
 * but that switch is not traced: __cpu_disable() has taken the CPU out of
 * cpu_online_mask, and a tracepoint does not fire on an offline CPU
 * (include/linux/tracepoint.h, DECLARE_TRACE's condition
 * cpu_online(raw_smp_processor_id()); v5.0 - v6.x, seen in the lab's v6.1).
 * The span the switch into the stopper opened would stay open for as long as
 * the CPU is off, so busy_cpuhp_exit closes it (v5.0 - v6.x).
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

/*
 * Each CPU's cpufreq policy and the policy's last recorded frequency
 * (struct fs_freq_policy), filled by userspace before attach.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FS_MAX_CPUS);
	__type(key, __u32);
	__type(value, struct fs_freq_policy);
} freq_policy SEC(".maps");

/* Set by userspace before load: write FS_REC_FREQ records (off: the cost bench's run without). */
const volatile bool freq_records = false;

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

/*
 * One FS_REC_FREQ per policy and change: the kernel traces the change for
 * each CPU of the policy in turn (see busy_cpu), so the first of them
 * records it and the rest find the policy's frequency already recorded.
 * One CPU at a time changes a policy (cpufreq_freq_transition_begin()
 * waits for the previous transition; a fast switch runs from the policy's
 * one sugov update at a time), so the entry needs no lock.
 */
static __always_inline void freq_record(__u32 cpu, __u32 khz, __u64 now)
{
	struct fs_freq_policy *mine = bpf_map_lookup_elem(&freq_policy, &cpu), *pol;
	__u32 first = cpu;

	if (mine && mine->first)
		first = mine->first - 1;
	pol = bpf_map_lookup_elem(&freq_policy, &first);
	if (!pol || pol->khz == khz)
		return;
	pol->khz = khz;
	EMIT(struct fs_freq,
	     .hdr = { .type = FS_REC_FREQ, .size = sizeof(struct fs_freq), .ts_ns = now },
	     .cpu = (__s32)first,
	     .khz = khz);
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
	if (freq_records)
		freq_record(cpu, khz, now);
	return 0;
}

/*
 * cpuhp:cpuhp_exit(cpu, state, idx, ret) on the control CPU, after the
 * callback of hotplug state idx ran for cpu (cpuhp_invoke_callback(),
 * kernel/cpu.c). takedown_cpu(), CPUHP_TEARDOWN_CPU's teardown, returns 0
 * once the CPU is dead: its last switch, to the idle task, went untraced
 * (see the top), so close its span here. Counted busy beyond the truth: the
 * end of the stopper's take_cpu_down() and __cpu_die()'s wait for the CPU
 * to be off. The state's number differs by version and config: CO-RE.
 */
SEC("raw_tp/cpuhp_exit")
int BPF_PROG(busy_cpuhp_exit, unsigned int cpu, int state, int idx, int ret)
{
	__u32 key = cpu;
	struct fs_busy_cpu *c;

	if (ret || idx != (int)bpf_core_enum_value(enum cpuhp_state, CPUHP_TEARDOWN_CPU))
		return 0;
	c = bpf_map_lookup_elem(&busy_cpu, &key);
	if (!c)
		return 0;
	busy_close(c, bpf_ktime_get_boot_ns());
	c->busy = 0;
	return 0;
}

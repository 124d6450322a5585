// SPDX-License-Identifier: GPL-2.0
/* Task exit: a task's last run time, which ends its last placement's accounting. */
#include "feecscope.bpf.h"

/*
 * do_exit(): p is current and still runs, so its sum_exec_runtime is as of
 * the last update_curr() (at most a tick old). The accounting ends the
 * task's last placement here: an exited task costs nothing afterwards.
 */
static __always_inline int on_exit(bool btf, struct task_struct *p)
{
	if (TASK_READ(btf, p, tgid) == self_tgid || TASK_READ(btf, p, prio) < MAX_RT_PRIO)
		return 0;
	void *ring = my_ring();
	struct fs_task_time *r;

	if (!ring) {
		count(FS_CNT_LOST);
		return 0;
	}
	r = bpf_ringbuf_reserve(ring, sizeof(*r), 0);
	if (!r) {
		count(FS_CNT_LOST);
		return 0;
	}
	r->hdr.type = FS_REC_EXIT;
	r->hdr.nr_cpus = 0;
	r->hdr.size = sizeof(*r);
	r->hdr.ts_ns = bpf_ktime_get_boot_ns();
	r->pid = TASK_READ(btf, p, pid);
	r->tgid = TASK_READ(btf, p, tgid);
	r->sum_exec_ns = TASK_READ(btf, p, se.sum_exec_runtime);
	bpf_probe_read_kernel_str(r->comm, sizeof(r->comm), &p->comm);
	bpf_ringbuf_submit(r, wake_flag(ring));
	return 0;
}
/* Typed and BTF-enabled attach points (kernel BTF present). */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(tp_btf_sched_process_exit, struct task_struct *p) { return on_exit(true, p); }

/* Raw tracepoints: kernels without BTF (CO-RE from --btf FILE). */
SEC("raw_tp/sched_process_exit")
int BPF_PROG(raw_sched_process_exit, struct task_struct *p) { return on_exit(false, p); }

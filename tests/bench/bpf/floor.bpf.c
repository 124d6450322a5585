// SPDX-License-Identifier: GPL-2.0
/*
 * Calibration for tests/bench/live_overhead.sh: programs that do nothing, on
 * the collector's hot tracepoints. With kernel.bpf_stats_enabled their
 * run_time_ns/run_cnt is the cost of entering a program plus the stats'
 * own clock reads — the floor under every figure bpf_stats reports.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

SEC("tp_btf/sched_waking")
int BPF_PROG(floor_sched_waking, struct task_struct *p) { return 0; }

SEC("tp_btf/sched_wakeup")
int BPF_PROG(floor_sched_wakeup, struct task_struct *p) { return 0; }

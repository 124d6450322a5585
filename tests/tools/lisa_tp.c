// SPDX-License-Identifier: GPL-2.0
/*
 * Fires LISA-shaped trace events for tests/tools/make_lisa_dat.sh: each
 * function below is probed by a uprobe event named as one of LISA's
 * (lisa/_assets/kmodules/lisa/ftrace_events.h) whose fields are this
 * function's arguments, so a trace.dat gets LISA's events with values we
 * chose. Built -O0 and noipa so every call stays a call with its
 * arguments in registers (x86-64 SysV: rdi, rsi, rdx, rcx, r8, r9).
 * It waits for a line on stdin, so its pid can be given to
 * set_event_pid first, then fires 8 rounds 2 ms apart (the sleeps give
 * sched_switch and wake-ups).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define PROBE __attribute__((noinline, noipa, used))

PROBE void lisa_pelt_cfs(int cpu, const char *path, unsigned long load, unsigned long util)
{
	__asm__ volatile("" : : "r"(cpu), "r"(path), "r"(load), "r"(util) : "memory");
}

PROBE void lisa_util_est_cfs(int cpu, const char *path, unsigned int enqueued, unsigned int ewma,
			     unsigned long util)
{
	__asm__ volatile("" : : "r"(cpu), "r"(path), "r"(enqueued), "r"(ewma), "r"(util) : "memory");
}

PROBE void lisa_pelt_se(int cpu, const char *path, const char *comm, int pid, unsigned long load,
			unsigned long util)
{
	__asm__ volatile("" : : "r"(cpu), "r"(path), "r"(comm), "r"(pid), "r"(load), "r"(util) : "memory");
}

PROBE void lisa_util_est_se(int cpu, const char *comm, int pid, unsigned int enqueued, unsigned int ewma,
			    unsigned long util)
{
	__asm__ volatile("" : : "r"(cpu), "r"(comm), "r"(pid), "r"(enqueued), "r"(ewma), "r"(util) : "memory");
}

int main(void)
{
	struct timespec ms2 = { 0, 2000000 };
	char go[16];

	if (!fgets(go, sizeof(go), stdin))
		return 1;
	for (unsigned int i = 0; i < 8; i++) {
		int cpu = sched_getcpu();

		lisa_pelt_cfs(cpu, "/", 2 * (300 + 10 * i), 300 + 10 * i);
		lisa_pelt_cfs(cpu, "/autogroup-9", 5, 900);
		lisa_util_est_cfs(cpu, "/", 200 + i, 190 + i, 300 + 10 * i);
		lisa_pelt_se(cpu, "(null)", "lisa_tp", getpid(), 100 + i, 100 + 20 * i);
		lisa_util_est_se(cpu, "lisa_tp", getpid(), 110 + i, 105 + i, 100 + 20 * i);
		nanosleep(&ms2, NULL);
	}
	return 0;
}

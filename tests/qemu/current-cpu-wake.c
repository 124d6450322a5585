// SPDX-License-Identifier: GPL-2.0
/*
 * current-cpu-wake SECONDS [PAUSE_US]: wake-ups that carry WF_CURRENT_CPU
 * (v6.6+), for the lab. A seccomp user-notification ping-pong whose listener
 * has SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP: the target thread's getppid()
 * wakes the supervisor polling the listener (wake_up_poll_on_current_cpu()),
 * the supervisor's reply wakes the target (complete_on_current_cpu()).
 * Threads are named cc-sup and cc-tgt; the target sleeps PAUSE_US (default
 * 0) between calls. Prints the rounds done; exits 1 when the kernel refuses
 * the listener or its flag (before 6.6).
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* include/uapi/linux/seccomp.h of v6.6+, missing from older headers */
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS _IOW('!', 4, __u64)
#endif

static int listener = -1, failed;
static unsigned int pause_us;
static volatile int stop;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;

/* Install the filter (getppid() to the listener), hand the listener over, then call until told to stop. */
static void *target(void *arg)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(code) / sizeof(code[0]), .filter = code };
	unsigned long *calls = arg;
	int fd;

	prctl(PR_SET_NAME, "cc-tgt");
	fd = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ? -1 :
	     (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (fd < 0)
		fprintf(stderr, "current-cpu-wake: seccomp listener: %s\n", strerror(errno));
	pthread_mutex_lock(&lock);
	listener = fd;
	failed = fd < 0;
	pthread_cond_signal(&ready);
	pthread_mutex_unlock(&lock);
	while (fd >= 0 && !stop) {
		syscall(SYS_getppid);
		(*calls)++;
		if (pause_us)
			usleep(pause_us);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;
	unsigned long calls = 0, rounds = 0;
	time_t end = time(NULL) + (argc > 1 ? atoi(argv[1]) : 10);
	pthread_t t;

	prctl(PR_SET_NAME, "cc-sup");
	pause_us = argc > 2 ? (unsigned int)atoi(argv[2]) : 0;
	if (pthread_create(&t, NULL, target, &calls))
		return 1;
	pthread_mutex_lock(&lock);
	while (listener < 0 && !failed)
		pthread_cond_wait(&ready, &lock);
	pthread_mutex_unlock(&lock);
	if (failed)
		return 1;
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP, 0)) {
		fprintf(stderr, "current-cpu-wake: SECCOMP_IOCTL_NOTIF_SET_FLAGS: %s\n", strerror(errno));
		stop = 1;
		return 1;
	}
	while (time(NULL) < end) {
		struct pollfd p = { .fd = listener, .events = POLLIN };

		/* poll(), not RECV's semaphore: its wake-up is the one that carries the flag */
		if (poll(&p, 1, 100) <= 0 || !(p.revents & POLLIN))
			continue;
		memset(&req, 0, sizeof(req));
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req))
			continue;
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE; /* let getppid() run */
		if (!ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp))
			rounds++;
	}
	stop = 1; /* exit() ends the target, even one waiting for a reply */
	printf("rounds=%lu calls=%lu\n", rounds, calls);
	return 0;
}

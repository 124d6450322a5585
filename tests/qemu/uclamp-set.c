// SPDX-License-Identifier: GPL-2.0
/*
 * uclamp-set PREFIX MIN MAX [PREFIX MIN MAX]...: give every thread whose comm
 * starts with PREFIX the per-task clamps MIN/MAX (0..1024) with
 * sched_setattr(SCHED_FLAG_UTIL_CLAMP), keeping its policy and parameters.
 * The lab's rt-app (Debian's 1.0) has no util_min/util_max keys, so its
 * threads get their clamps from this once they exist. Prints one line per
 * thread it clamped; exits 1 when a prefix matched no thread.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_sched_setattr
#define SYS_sched_setattr 274 /* arm64 and the generic table */
#endif

/* include/uapi/linux/sched.h: keep policy and params, set both clamps. */
#define FLAG_KEEP_POLICY     0x08
#define FLAG_KEEP_PARAMS     0x10
#define FLAG_UTIL_CLAMP_MIN  0x20
#define FLAG_UTIL_CLAMP_MAX  0x40

struct attr { /* struct sched_attr, SCHED_ATTR_SIZE_VER1 (56 bytes) */
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;
	uint32_t util_min, util_max;
};

static int comm_of(const char *pid, const char *tid, char *buf, size_t len)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/task/%s/comm", pid, tid);
	f = fopen(path, "r");
	if (!f || !fgets(buf, (int)len, f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Clamp every matching thread; returns how many. */
static int clamp_prefix(const char *prefix, unsigned int min, unsigned int max)
{
	DIR *procs = opendir("/proc");
	struct dirent *p, *t;
	int n = 0;

	if (!procs)
		return 0;
	while ((p = readdir(procs))) {
		char dir[300], comm[32];
		DIR *tasks;

		if (p->d_name[0] < '0' || p->d_name[0] > '9')
			continue;
		snprintf(dir, sizeof(dir), "/proc/%s/task", p->d_name);
		tasks = opendir(dir);
		if (!tasks)
			continue;
		while ((t = readdir(tasks))) {
			struct attr a = { .size = sizeof(a),
					  .flags = FLAG_KEEP_POLICY | FLAG_KEEP_PARAMS | FLAG_UTIL_CLAMP_MIN |
						   FLAG_UTIL_CLAMP_MAX,
					  .util_min = min, .util_max = max };

			if (t->d_name[0] < '0' || t->d_name[0] > '9')
				continue;
			if (comm_of(p->d_name, t->d_name, comm, sizeof(comm)) ||
			    strncmp(comm, prefix, strlen(prefix)))
				continue;
			if (syscall(SYS_sched_setattr, atoi(t->d_name), &a, 0)) {
				perror("sched_setattr");
				continue;
			}
			printf("%s %s uclamp %u %u\n", t->d_name, comm, min, max);
			n++;
		}
		closedir(tasks);
	}
	closedir(procs);
	return n;
}

int main(int argc, char **argv)
{
	int rc = 0;

	if (argc < 4 || (argc - 1) % 3) {
		fprintf(stderr, "usage: uclamp-set PREFIX MIN MAX [PREFIX MIN MAX]...\n");
		return 2;
	}
	for (int i = 1; i + 2 < argc; i += 3) {
		unsigned int min = (unsigned int)atoi(argv[i + 1]), max = (unsigned int)atoi(argv[i + 2]);

		if (min > 1024 || max > 1024) {
			fprintf(stderr, "uclamp-set: %s: clamps are 0..1024\n", argv[i]);
			return 2;
		}
		if (!clamp_prefix(argv[i], min, max)) {
			fprintf(stderr, "uclamp-set: no thread named %s*\n", argv[i]);
			rc = 1;
		}
	}
	return rc;
}

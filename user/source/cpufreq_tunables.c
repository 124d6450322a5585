// SPDX-License-Identifier: GPL-2.0
/* cpufreq governors, schedutil's rate limit and CONFIG_HZ as the kernel tells them (cpufreq_tunables.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "../engine/cpu_list.h"
#include "cpufreq_tunables.h"

/* The first line of dir/name without its newline; -1 if unreadable or empty. */
static int read_line(const char *dir, const char *name, char *buf, size_t len)
{
	char path[384];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	char *ok = fgets(buf, (int)len, f);

	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return buf[0] ? 0 : -1;
}

/* related_cpus ("0 1 2 3 ", cpufreq_show_cpus()) as a mask; 0 on garbage or a CPU we cannot hold. */
static __u64 parse_cpus(const char *s)
{
	struct fs_cpu_list l;

	return fs_cpu_list_parse(s, &l) || l.highest >= FS_MAX_CPUS ? 0 : l.mask;
}

/* A rate_limit_us file's value; -1 if unreadable or not a number. */
static __s64 read_rate_limit(const char *dir)
{
	char line[64], *end;

	if (read_line(dir, "rate_limit_us", line, sizeof(line)))
		return -1;
	unsigned long long v = strtoull(line, &end, 10);

	return *end || line[0] == '-' || v > 1000000000ull ? -1 : (__s64)v;
}

int fs_cpufreq_tunables(const char *root, struct fs_rec_cpufreq *out, int max)
{
	char dir[300], line[256];
	int n = 0;

	root = root ? root : "/sys/devices/system/cpu";
	for (int pol = 0; pol < FS_MAX_CPUS && n < max; pol++) {
		struct fs_rec_cpufreq *c = &out[n];

		snprintf(dir, sizeof(dir), "%s/cpufreq/policy%d", root, pol);
		if (read_line(dir, "related_cpus", line, sizeof(line)) || !(c->cpus = parse_cpus(line)))
			continue;
		if (read_line(dir, "scaling_governor", c->governor, sizeof(c->governor)))
			c->governor[0] = 0;
		c->rate_limit_us = -1;
		if (!strcmp(c->governor, "schedutil")) {
			/* get_governor_parent_kobj(): the policy's kobject with governor_per_policy, else the global one */
			char sub[340];

			snprintf(sub, sizeof(sub), "%s/schedutil", dir);
			c->rate_limit_us = read_rate_limit(sub);
			if (c->rate_limit_us < 0) {
				snprintf(sub, sizeof(sub), "%s/cpufreq/schedutil", root);
				c->rate_limit_us = read_rate_limit(sub);
			}
		}
		n++;
	}
	return n;
}

/* CONFIG_HZ=N in one line of the config; 0 if the line is not it. */
static unsigned int hz_of(const char *line)
{
	char *end;

	if (strncmp(line, "CONFIG_HZ=", 10))
		return 0;
	unsigned long v = strtoul(line + 10, &end, 10);

	return (*end == '\n' || !*end) && v >= 10 && v <= 10000 ? (unsigned int)v : 0;
}

unsigned int fs_kernel_hz(const char *config_gz, const char *config)
{
	char line[512];
	unsigned int hz = 0;
	gzFile g = gzopen(config_gz ? config_gz : "/proc/config.gz", "rb");

	if (g) { /* gzread reads a plain file as it is, so a test may hand either */
		while (!hz && gzgets(g, line, sizeof(line)))
			hz = hz_of(line);
		gzclose(g);
	}
	FILE *f = !hz && config ? fopen(config, "r") : NULL;

	if (f) {
		while (!hz && fgets(line, sizeof(line), f))
			hz = hz_of(line);
		fclose(f);
	}
	return hz;
}

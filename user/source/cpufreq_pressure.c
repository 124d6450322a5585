// SPDX-License-Identifier: GPL-2.0
/* cpufreq pressure per CPU from sysfs, as cpufreq_update_pressure() (v6.10+) computes it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../engine/cpu_list.h"
#include "cpufreq_pressure.h"

static int read_u64(const char *dir, const char *name, unsigned long long *v)
{
	char path[320];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fscanf(f, "%llu", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

/* related_cpus ("0 1 2 3 ", cpufreq_show_cpus()) -> bit mask; -1 on garbage. */
static long long parse_cpus(const char *s)
{
	struct fs_cpu_list l;

	return fs_cpu_list_parse(s, &l) || l.highest >= 64 ? -1 : (long long)l.mask;
}

/* include/linux/math.h mult_frac(): x * n / d without overflowing x * n. */
static unsigned long long mult_frac(unsigned long long x, unsigned long long n, unsigned long long d)
{
	return (x / d) * n + ((x % d) * n) / d;
}

int fs_cpufreq_pressure(const char *root, const __u32 *cap, int nr_cpus, __u32 *pressure)
{
	int policies = 0;

	root = root ? root : "/sys/devices/system/cpu";
	memset(pressure, 0, sizeof(*pressure) * (size_t)nr_cpus);
	for (int pol = 0; pol < nr_cpus; pol++) {
		char dir[256], path[320], line[256];
		unsigned long long ref, max;
		FILE *f;

		snprintf(dir, sizeof(dir), "%s/cpufreq/policy%d", root, pol);
		snprintf(path, sizeof(path), "%s/related_cpus", dir);
		f = fopen(path, "r");
		if (!f)
			continue;
		long long cpus = fgets(line, sizeof(line), f) ? parse_cpus(line) : -1;
		fclose(f);
		if (cpus <= 0 || read_u64(dir, "cpuinfo_max_freq", &ref) || read_u64(dir, "scaling_max_freq", &max) ||
		    !ref)
			continue;
		int first = __builtin_ctzll((unsigned long long)cpus);
		if (first >= nr_cpus)
			continue;
		__u32 pr = 0;
		if (ref > max) /* boost frequencies above the reference clear the pressure */
			pr = cap[first] - (__u32)mult_frac(cap[first], max, ref);
		for (int c = 0; c < nr_cpus; c++)
			if (cpus & (1ll << c))
				pressure[c] = pr;
		policies++;
	}
	return policies;
}

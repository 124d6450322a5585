// SPDX-License-Identifier: GPL-2.0
/*
 * Which saved EM file or built-in profile fits this device, for the error of
 * a machine whose kernel shows no EM (no debugfs, no netlink family): the
 * same CPU count, and where sysfs tells them, the same CPU capacities and
 * each PD's top frequency equal to its CPUs' cpuinfo_max_freq.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "android.h"
#include "em_internal.h"

/* This device as sysfs shows it; 0 where it does not say. */
struct device_facts {
	int nr_cpus;
	__u32 capacity[FS_MAX_CPUS];
	__u64 max_khz[FS_MAX_CPUS];
};

static __u64 sysfs_u64(int cpu, const char *file)
{
	char path[128], buf[32] = "";
	__u64 v = 0;
	FILE *f;

	snprintf(path, sizeof(path), FS_SYSFS_CPU "/cpu%d/%s", cpu, file);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		if (fs_parse_u64(buf, &v))
			v = 0;
	}
	fclose(f);
	return v;
}

static void read_facts(struct device_facts *d)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	memset(d, 0, sizeof(*d));
	d->nr_cpus = n > 0 && n <= FS_MAX_CPUS ? (int)n : 0;
	for (int cpu = 0; cpu < d->nr_cpus; cpu++) {
		d->capacity[cpu] = (__u32)sysfs_u64(cpu, "cpu_capacity");
		d->max_khz[cpu] = sysfs_u64(cpu, "cpufreq/cpuinfo_max_freq");
	}
}

static bool fits(const struct fs_em *em, const struct device_facts *d)
{
	if (em->nr_cpus != d->nr_cpus)
		return false;
	for (int cpu = 0; cpu < d->nr_cpus; cpu++) {
		int p = em->cpu_pd[cpu];

		if (d->capacity[cpu] && em->capacity[cpu] != d->capacity[cpu])
			return false;
		if (p < 0)
			return false;
		if (d->max_khz[cpu] && em->pd[p].ps[em->pd[p].nr_ps - 1].frequency != d->max_khz[cpu])
			return false;
	}
	return true;
}

static void append(char *buf, size_t len, const char *what)
{
	size_t n = strlen(buf);

	fs_snprintf(buf + n, len - n, "%s%s", n ? ", " : "", what);
}

void fs_em_suggest(char *buf, size_t len)
{
	static struct fs_em em;
	struct device_facts d;
	char err[256], found[512] = "", what[300];
	DIR *dir;
	struct dirent *de;

	read_facts(&d);
	for (int i = 0; i < fs_em_profile_count(); i++)
		if (!fs_em_profile_build(fs_em_profile_name(i), &em, err, sizeof(err)) && fits(&em, &d)) {
			fs_snprintf(what, sizeof(what), "--em %s", fs_em_profile_name(i));
			append(found, sizeof(found), what);
		}
	/* EM files saved with `em --save` in the current directory */
	dir = opendir(".");
	while (dir && (de = readdir(dir))) {
		size_t n = strlen(de->d_name);

		if (n < 4 || strcmp(de->d_name + n - 3, ".em"))
			continue;
		if (!fs_em_read_file(de->d_name, &em, err, sizeof(err)) && fits(&em, &d)) {
			fs_snprintf(what, sizeof(what), "--em ./%s", de->d_name);
			append(found, sizeof(found), what);
		}
	}
	if (dir)
		closedir(dir);
	if (found[0])
		fs_snprintf(buf, len, "fits this device (%d CPUs): %s", d.nr_cpus, found);
	else
		fs_snprintf(buf, len, "no built-in profile and no saved EM file (*.em here) fits this device "
			    "(%d CPUs%s): save one with `feecscope em --save F` where debugfs is mounted%s",
			    d.nr_cpus, d.capacity[0] ? ", capacities and top frequencies from sysfs" : "",
			    fs_on_android() ? " (a userdebug build)" : "");
}

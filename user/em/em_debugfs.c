// SPDX-License-Identifier: GPL-2.0
/*
 * Reader for /sys/kernel/debug/energy_model in every layout the kernel has
 * had (v5.2 .. v6.19+), live or pulled off a device, plus the CPU capacities
 * that belong with it.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "em_internal.h"

#define ERR(...) (fs_em_errf(err, errlen, __VA_ARGS__), -1)

/* Contents of dir/name, trimmed; 1 if absent (ENOENT), 0 if read, -1 on error. */
static int read_small(const char *dir, const char *name, char *buf, size_t len, char *err, size_t errlen)
{
	char path[PATH_MAX];
	FILE *f;
	size_t n;

	if (fs_path_join(path, sizeof(path), dir, name))
		return ERR("%s/%s: path too long", dir, name);
	f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return 1;
		return ERR("%s: %s: cannot read: %s", path, name, strerror(errno));
	}
	n = fread(buf, 1, len - 1, f);
	if (ferror(f)) {
		int e = errno;
		fclose(f);
		return ERR("%s: %s: cannot read: %s", path, name, strerror(e));
	}
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	return 0;
}

/* A numeric debugfs file: -1 error, 1 absent (only when optional), 0 read. */
static int read_u64(const char *dir, const char *name, bool optional, bool hex, __u64 *v,
		    char *err, size_t errlen)
{
	char buf[64];
	int rc = read_small(dir, name, buf, sizeof(buf), err, errlen);

	if (rc < 0)
		return -1;
	if (rc > 0) {
		if (optional)
			return 1;
		return ERR("%s/%s: %s: missing", dir, name, name);
	}
	/* flags is printed "%#lx" (so "0" or "0x3"); everything else is decimal. */
	if ((!hex && (buf[0] == '0' && buf[1] == 'x')) || fs_parse_u64(buf, v))
		return ERR("%s/%s: %s: '%s' is not a%s number", dir, name, name, buf,
			   hex ? " hex" : " decimal");
	return 0;
}

/* Major/minor of a release string ("6.1.0-13-arm64"); 0 if unknown. */
static int release_code(const char *rel)
{
	int major, minor;

	if (!rel || sscanf(rel, "%d.%d", &major, &minor) != 2)
		return 0;
	return major * 1000 + minor;
}

static bool is_live_tree(const char *dir)
{
	char real[PATH_MAX];

	return realpath(dir, real) && !strcmp(real, FS_DEBUGFS_EM);
}

struct ps_ent {
	__u64 key; /* the frequency in the directory name: the kernel's table order */
	char name[64];
};

static int cmp_ps(const void *a, const void *b)
{
	const struct ps_ent *x = a, *y = b;
	return x->key < y->key ? -1 : x->key > y->key;
}

static int read_state(const char *pddir, const char *sname, struct fs_em_pd *pd, struct fs_em_ps *ps,
		      char *err, size_t errlen)
{
	char sdir[PATH_MAX];
	__u64 v;
	int rc;

	if (fs_path_join(sdir, sizeof(sdir), pddir, sname))
		return ERR("%s/%s: path too long", pddir, sname);
	if (read_u64(sdir, "frequency", false, false, &ps->frequency, err, errlen) ||
	    read_u64(sdir, "power", false, false, &ps->power, err, errlen))
		return -1;
	if (!ps->power)
		return ERR("%s/power: power: 0 (the kernel never registers a zero-power state)", sdir);
	if (read_u64(sdir, "cost", true, false, &ps->cost, err, errlen) < 0)
		return -1;
	/* inefficient: v5.16+; performance: v6.9+. */
	rc = read_u64(sdir, "inefficient", true, false, &v, err, errlen);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		if (v > 1)
			return ERR("%s/inefficient: inefficient: %llu, want 0 or 1", sdir, (unsigned long long)v);
		ps->inefficient = (__u32)v;
		pd->has_inefficient = true;
	}
	if (read_u64(sdir, "performance", true, false, &ps->performance, err, errlen) < 0)
		return -1;
	return 0;
}

static int read_states(const char *pddir, struct fs_em_pd *pd, char *err, size_t errlen)
{
	struct ps_ent ents[FS_MAX_PS];
	int n = 0;
	DIR *d = opendir(pddir);
	struct dirent *de;

	if (!d)
		return ERR("%s: cannot open: %s", pddir, strerror(errno));
	while ((de = readdir(d))) {
		/* cs:<freq> (v5.2-v5.8), ps:<freq> (v5.9+) */
		if (strncmp(de->d_name, "cs:", 3) && strncmp(de->d_name, "ps:", 3))
			continue;
		if (n == FS_MAX_PS) {
			closedir(d);
			return ERR("%s: performance states: more than %d (FS_MAX_PS)", pddir, FS_MAX_PS);
		}
		if (fs_parse_u64(de->d_name + 3, &ents[n].key) ||
		    strlen(de->d_name) >= sizeof(ents[n].name)) {
			closedir(d);
			return ERR("%s/%s: state directory: '%s' is not <cs|ps>:<frequency>", pddir,
				   de->d_name, de->d_name);
		}
		strcpy(ents[n].name, de->d_name);
		n++;
	}
	closedir(d);
	if (!n)
		return ERR("%s: performance states: no cs:<freq> or ps:<freq> directories", pddir);
	qsort(ents, n, sizeof(ents[0]), cmp_ps);
	pd->nr_ps = n;
	for (int i = 0; i < n; i++) {
		if (read_state(pddir, ents[i].name, pd, &pd->ps[i], err, errlen))
			return -1;
		if (i && pd->ps[i].frequency <= pd->ps[i - 1].frequency)
			return ERR("%s/%s/frequency: frequency: %llu kHz is not above %s's %llu kHz", pddir,
				   ents[i].name, (unsigned long long)pd->ps[i].frequency, ents[i - 1].name,
				   (unsigned long long)pd->ps[i - 1].frequency);
	}
	return 0;
}

/*
 * The PD's power unit and flags, from whichever files this kernel wrote:
 * none (v5.2-v5.10: mW), units + skip-inefficiencies (v5.11-v5.18), flags
 * (v5.19+, where bit 0 is MILLIWATTS in v5.19 but MICROWATTS from v6.0).
 */
static int read_units(const char *pddir, int rel, struct fs_em_pd *pd, enum fs_power_unit *unit,
		      bool *guessed, char *err, size_t errlen)
{
	char buf[64];
	__u64 flags, skip;
	int rc = read_u64(pddir, "flags", true, true, &flags, err, errlen);

	if (rc < 0)
		return -1;
	if (rc == 0) {
		if (flags & ~0x7ull)
			return ERR("%s/flags: flags: %#llx has bits feecscope does not know", pddir,
				   (unsigned long long)flags);
		if (rel && rel < 6000) {
			*unit = (flags & 1) ? FS_POWER_MW : FS_POWER_BOGO;
			pd->flags = (__u32)(flags & ~1ull);
		} else {
			*guessed = !rel;
			*unit = (flags & 1) ? FS_POWER_UW : FS_POWER_BOGO;
			pd->flags = (__u32)flags;
		}
		return 0;
	}
	rc = read_small(pddir, "units", buf, sizeof(buf), err, errlen);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		if (!strcmp(buf, "milliWatts"))
			*unit = FS_POWER_MW;
		else if (!strcmp(buf, "bogoWatts"))
			*unit = FS_POWER_BOGO;
		else
			return ERR("%s/units: units: '%s', want milliWatts or bogoWatts", pddir, buf);
	} else {
		*unit = FS_POWER_MW;
	}
	rc = read_u64(pddir, "skip-inefficiencies", true, false, &skip, err, errlen);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		if (skip > 1)
			return ERR("%s/skip-inefficiencies: skip-inefficiencies: %llu, want 0 or 1", pddir,
				   (unsigned long long)skip);
		if (skip)
			pd->flags |= FS_EM_PD_SKIP_INEFFICIENT;
	}
	return 0;
}

static int read_pd(const char *dir, const char *name, int rel, struct fs_em *em, bool *unit_set,
		   bool *guessed, char *err, size_t errlen)
{
	char pddir[PATH_MAX], buf[256];
	struct fs_em_pd *pd;
	enum fs_power_unit unit;
	__u64 id;

	if (fs_path_join(pddir, sizeof(pddir), dir, name))
		return ERR("%s/%s: path too long", dir, name);
	if (em->nr_pd == FS_MAX_PDS)
		return ERR("%s: performance domains: more than %d (FS_MAX_PDS)", pddir, FS_MAX_PDS);
	pd = &em->pd[em->nr_pd];
	memset(pd, 0, sizeof(*pd));
	fs_strlcpy(pd->name, name, sizeof(pd->name));
	if (read_small(pddir, "cpus", buf, sizeof(buf), err, errlen))
		return -1;
	if (fs_cpulist_parse(buf, &pd->cpus))
		return ERR("%s/cpus: cpus: '%s' is not a cpulist of CPUs below %d (FS_MAX_CPUS)", pddir, buf,
			   FS_MAX_CPUS);
	for (int i = 0; i < em->nr_pd; i++)
		if (em->pd[i].cpus & pd->cpus)
			return ERR("%s/cpus: cpus: CPU %d is also in %s/%s/cpus", pddir,
				   __builtin_ctzll(em->pd[i].cpus & pd->cpus), dir, em->pd[i].name);
	/* id: v6.19+, informational only. */
	if (read_u64(pddir, "id", true, false, &id, err, errlen) < 0)
		return -1;
	if (read_units(pddir, rel, pd, &unit, guessed, err, errlen))
		return -1;
	if (*unit_set && unit != em->unit)
		return ERR("%s: units: power unit differs from the other performance domains'", pddir);
	em->unit = unit;
	*unit_set = true;
	if (read_states(pddir, pd, err, errlen))
		return -1;
	em->nr_pd++;
	return 0;
}

/* A pulled tree's capacity table: "cpuN VALUE" lines, or `grep . .../cpuN/cpu_capacity` output. */
static int capacity_from_table(const char *path, struct fs_em *em, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int lineno = 0;

	if (!f)
		return errno == ENOENT ? 1 : ERR("%s: cannot read: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *v;
		int cpu;
		__u64 cap;

		lineno++;
		p[strcspn(p, "\n")] = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		/* grep form: /sys/devices/system/cpu/cpu3/cpu_capacity:1024 */
		char *slash = strstr(p, "/cpu_capacity:");
		if (slash) {
			char *c = slash;
			while (c > p && c[-1] != '/')
				c--;
			*slash = '\0';
			v = slash + strlen("/cpu_capacity:");
			p = c;
		} else {
			v = p + strcspn(p, " \t:");
			if (*v)
				*v++ = '\0';
		}
		if (sscanf(p, "cpu%d", &cpu) != 1 || cpu < 0) {
			fclose(f);
			return ERR("%s:%d: cpu: '%s' is not cpuN", path, lineno, p);
		}
		if (cpu >= FS_MAX_CPUS) {
			fclose(f);
			return ERR("%s:%d: cpu: cpu%d is beyond FS_MAX_CPUS (%d)", path, lineno, cpu, FS_MAX_CPUS);
		}
		if (fs_parse_u64(v, &cap) || !cap || cap > FS_SCHED_CAPACITY_SCALE) {
			fclose(f);
			return ERR("%s:%d: cpu_capacity: '%s' for cpu%d is not a number in 1..%d", path, lineno,
				   v, cpu, FS_SCHED_CAPACITY_SCALE);
		}
		em->capacity[cpu] = (__u32)cap;
	}
	fclose(f);
	return 0;
}

static int capacity_from_dir(const char *cpu_dir, int cpu, struct fs_em *em, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	__u64 cap;
	int rc;

	if (snprintf(dir, sizeof(dir), "%s/cpu%d", cpu_dir, cpu) >= (int)sizeof(dir))
		return ERR("%s: path too long", cpu_dir);
	rc = read_u64(dir, "cpu_capacity", true, false, &cap, err, errlen);
	if (rc)
		return rc;
	if (!cap || cap > FS_SCHED_CAPACITY_SCALE)
		return ERR("%s/cpu_capacity: cpu_capacity: %llu, want 1..%d", dir, (unsigned long long)cap,
			   FS_SCHED_CAPACITY_SCALE);
	em->capacity[cpu] = (__u32)cap;
	return 0;
}

static int read_capacities(const char *dir, const char *cpu_dir, bool live, struct fs_em *em,
			   char *where, size_t wlen, char *err, size_t errlen)
{
	char path[PATH_MAX];
	__u64 all = 0;
	const char *from = cpu_dir;
	int rc;

	for (int i = 0; i < em->nr_pd; i++)
		all |= em->pd[i].cpus;
	if (!from) {
		if (fs_path_join(path, sizeof(path), dir, "cpu_capacity"))
			return ERR("%s: path too long", dir);
		rc = capacity_from_table(path, em, err, errlen);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			fs_strlcpy(where, path, wlen);
			goto check;
		}
		fs_path_join(path, sizeof(path), dir, "cpus");
		struct stat st;
		if (!stat(path, &st) && S_ISDIR(st.st_mode))
			from = path;
		else if (live)
			from = FS_SYSFS_CPU;
	}
	if (!from) {
		int cpu = __builtin_ctzll(all);
		return ERR("%s: cpu_capacity: no capacity for cpu%d: a copied tree needs a cpu_capacity file "
			   "or a cpus/cpuN/cpu_capacity directory (see feecscope em --help), or --cpu-capacity-dir",
			   dir, cpu);
	}
	fs_snprintf(where, wlen, "%s/cpuN/cpu_capacity", from);
	for (int cpu = 0; cpu < FS_MAX_CPUS; cpu++) {
		if (!(all & (1ull << cpu)))
			continue;
		rc = capacity_from_dir(from, cpu, em, err, errlen);
		if (rc < 0)
			return -1;
		if (rc > 0)
			return ERR("%s/cpu%d/cpu_capacity: cpu_capacity: missing for a CPU of the Energy Model", from, cpu);
	}
check:
	for (int cpu = 0; cpu < FS_MAX_CPUS; cpu++)
		if ((all & (1ull << cpu)) && !em->capacity[cpu])
			return ERR("%s: cpu_capacity: no value for cpu%d, a CPU of the Energy Model", where, cpu);
	return 0;
}

int fs_em_read_debugfs_kernel(const char *dir, const char *cpu_dir, const char *release,
			      struct fs_em *em, char *err, size_t errlen)
{
	char names[FS_MAX_PDS * 4][64], skipped[128] = "", capwhere[PATH_MAX + 32], relbuf[64] = "";
	int nr = 0, rel;
	bool live = is_live_tree(dir), unit_set = false, guessed = false;
	DIR *d;
	struct dirent *de;

	memset(em, 0, sizeof(*em));
	if (release && *release) {
		fs_strlcpy(relbuf, release, sizeof(relbuf));
	} else if (read_small(dir, "kernel_release", relbuf, sizeof(relbuf), err, errlen) < 0) {
		return -1;
	} else if (!relbuf[0] && live) {
		struct utsname u;
		if (!uname(&u))
			fs_strlcpy(relbuf, u.release, sizeof(relbuf));
	}
	rel = release_code(relbuf);
	if (relbuf[0] && !rel)
		return ERR("%s: kernel release: '%s' does not start with MAJOR.MINOR", dir, relbuf);

	d = opendir(dir);
	if (!d)
		return ERR("%s: cannot open: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		char sub[PATH_MAX];
		struct stat st;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "cpus"))
			continue;
		if (fs_path_join(sub, sizeof(sub), dir, de->d_name)) {
			closedir(d);
			return ERR("%s/%s: path too long", dir, de->d_name);
		}
		if (stat(sub, &st) || !S_ISDIR(st.st_mode))
			continue;
		if (nr == (int)(sizeof(names) / sizeof(names[0])) || strlen(de->d_name) >= sizeof(em->pd[0].name)) {
			closedir(d);
			return ERR("%s: %s: too many or too long performance-domain directories", dir, de->d_name);
		}
		strcpy(names[nr++], de->d_name);
	}
	closedir(d);
	qsort(names, nr, sizeof(names[0]), (int (*)(const void *, const void *))strcmp);

	for (int i = 0; i < nr; i++) {
		char cpus[PATH_MAX];
		struct stat st;

		/* No cpus file: a devfreq device (GPU, DSP...), not a CPU performance domain. */
		fs_snprintf(cpus, sizeof(cpus), "%s/%s/cpus", dir, names[i]);
		if (stat(cpus, &st)) {
			size_t l = strlen(skipped);
			fs_snprintf(skipped + l, sizeof(skipped) - l, "%s%s", l ? "," : "", names[i]);
			continue;
		}
		if (read_pd(dir, names[i], rel, em, &unit_set, &guessed, err, errlen))
			return -1;
	}
	if (!em->nr_pd)
		return ERR("%s: no CPU performance domains (no directory with a cpus file)", dir);
	if (read_capacities(dir, cpu_dir, live, em, capwhere, sizeof(capwhere), err, errlen))
		return -1;
	fs_strlcpy(em->kernel, relbuf, sizeof(em->kernel));
	fs_snprintf(em->source, sizeof(em->source), "debugfs %s; capacities %s%s%s%s", dir, capwhere,
		 skipped[0] ? "; skipped non-CPU PDs " : "", skipped,
		 guessed ? "; kernel release unknown: flags bit 0 read as MICROWATTS (v6.0+), pass --kernel for a 5.19 tree" : "");
	return fs_em_finalize(em, err, errlen);
}

int fs_em_read_debugfs(const char *dir, const char *cpu_dir, struct fs_em *em, char *err, size_t errlen)
{
	return fs_em_read_debugfs_kernel(dir, cpu_dir, NULL, em, err, errlen);
}

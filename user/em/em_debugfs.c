// SPDX-License-Identifier: GPL-2.0
/*
 * Reader for /sys/kernel/debug/energy_model in every layout the kernel has
 * had (v5.2 .. v6.19+), live or pulled off a device, plus the CPU capacities
 * that belong with it.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/magic.h>
#include "em_internal.h"

#define ERR(...) (fs_em_errf(err, errlen, __VA_ARGS__), -1)

/*
 * Contents of dir/name, trimmed; 1 if absent (ENOENT), 0 if read, -1 on error.
 * A file that does not fit buf or holds a NUL byte is an error, never cut short.
 */
static int read_small(const char *dir, const char *name, char *buf, size_t len, char *err, size_t errlen)
{
	char path[PATH_MAX], extra;
	struct stat st;
	size_t n = 0;
	ssize_t got = 0;
	bool more = false;
	int fd;

	if (fs_path_join(path, sizeof(path), dir, name))
		return ERR("%s/%s: path too long", dir, name);
	/* open and read, not stdio: an EM is hundreds of these files, and a FILE added an fstat and two allocations */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		if (e == ENOENT && lstat(path, &st))
			return 1;
		/* ENOENT with an entry present: a symbolic link to nowhere. */
		return ERR("%s: %s: cannot read: %s", path, name,
			   e == ENOENT ? "dangling symbolic link" : strerror(e));
	}
	while (n < len - 1) {
		got = read(fd, buf + n, len - 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	if (n == len - 1) { /* full: one byte more means too long */
		while ((got = read(fd, &extra, 1)) < 0 && errno == EINTR)
			;
		more = got > 0;
	}
	if (got < 0) {
		int e = errno;
		close(fd);
		return ERR("%s: %s: cannot read: %s", path, name, strerror(e));
	}
	close(fd);
	if (more)
		return ERR("%s: %s: longer than %zu bytes", path, name, len - 2);
	if (memchr(buf, '\0', n))
		return ERR("%s: %s: binary data (a NUL byte)", path, name);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	return 0;
}

/*
 * The entries of a directory ("." and ".." left out), sorted by name. The
 * names are copies: nothing points into a closed DIR.
 */
struct dir_list {
	char **name;
	int nr;
};

static void dir_list_free(struct dir_list *l)
{
	for (int i = 0; i < l->nr; i++)
		free(l->name[i]);
	free(l->name);
	l->name = NULL;
	l->nr = 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_dir(const char *dir, struct dir_list *l, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int cap = 0, e;

	l->name = NULL;
	l->nr = 0;
	if (!d)
		return ERR("%s: cannot open: %s", dir, strerror(errno));
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de)
			break;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (l->nr == cap) {
			char **nn = realloc(l->name, (cap = cap ? 2 * cap : 16) * sizeof(*nn));
			if (!nn)
				break;
			l->name = nn;
		}
		if (!(l->name[l->nr] = strdup(de->d_name)))
			break;
		l->nr++;
	}
	e = errno;
	closedir(d);
	if (e) {
		dir_list_free(l);
		return ERR("%s: cannot list: %s", dir, strerror(e));
	}
	if (l->nr)
		qsort(l->name, l->nr, sizeof(l->name[0]), cmp_name);
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
	unsigned long major, minor;
	char *end;

	if (!rel || !isdigit((unsigned char)rel[0]))
		return 0;
	major = strtoul(rel, &end, 10);
	if (*end != '.' || !isdigit((unsigned char)end[1]))
		return 0;
	minor = strtoul(end + 1, &end, 10);
	if (!major || major > 999 || minor > 999)
		return 0;
	return (int)(major * 1000 + minor);
}

/* The running kernel's own tree lies on debugfs, wherever that is mounted; a copy does not. */
static bool is_live_tree(const char *dir)
{
	struct statfs fs;

	return !statfs(dir, &fs) && fs.f_type == DEBUGFS_MAGIC;
}

struct ps_ent {
	__u64 key;        /* the frequency in the directory name: the kernel's table order */
	const char *name; /* into the directory listing */
};

static int cmp_ps(const void *a, const void *b)
{
	const struct ps_ent *x = a, *y = b;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* "cs:<kHz>" (v5.2-v5.8) or "ps:<kHz>" (v5.9+): the kernel prints the frequency with %lu. */
static bool state_key(const char *name, __u64 *key)
{
	const char *p = name + 3;
	__u64 v = 0;

	if (!*p)
		return false;
	for (; *p; p++) {
		if (!isdigit((unsigned char)*p) || v > (~0ull - 9) / 10)
			return false;
		v = v * 10 + (__u64)(*p - '0');
	}
	*key = v;
	return true;
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
	struct dir_list l;
	int n = 0, rc = -1;

	if (list_dir(pddir, &l, err, errlen))
		return -1;
	for (int i = 0; i < l.nr; i++) {
		const char *name = l.name[i];

		if (strncmp(name, "cs:", 3) && strncmp(name, "ps:", 3))
			continue;
		if (n == FS_MAX_PS) {
			(void)ERR("%s: performance states: more than %d (FS_MAX_PS)", pddir, FS_MAX_PS);
			goto out;
		}
		if (!state_key(name, &ents[n].key)) {
			(void)ERR("%s/%s: state directory: '%s' is not <cs|ps>:<frequency in kHz>", pddir, name, name);
			goto out;
		}
		ents[n++].name = name;
	}
	if (!n) {
		(void)ERR("%s: performance states: no cs:<freq> or ps:<freq> directories", pddir);
		goto out;
	}
	qsort(ents, n, sizeof(ents[0]), cmp_ps);
	for (int i = 1; i < n; i++)
		if (ents[i].key == ents[i - 1].key) {
			(void)ERR("%s/%s: state directory: the same frequency as %s", pddir, ents[i].name,
			  ents[i - 1].name);
			goto out;
		}
	pd->nr_ps = n;
	for (int i = 0; i < n; i++) {
		if (read_state(pddir, ents[i].name, pd, &pd->ps[i], err, errlen))
			goto out;
		if (i && pd->ps[i].frequency <= pd->ps[i - 1].frequency) {
			(void)ERR("%s/%s/frequency: frequency: %llu kHz is not above %s's %llu kHz", pddir,
			  ents[i].name, (unsigned long long)pd->ps[i].frequency, ents[i - 1].name,
			  (unsigned long long)pd->ps[i - 1].frequency);
			goto out;
		}
	}
	rc = 0;
out:
	dir_list_free(&l);
	return rc;
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

/* One "cpuN VALUE" line, or `grep . .../cpuN/cpu_capacity` output. */
static int capacity_line(const char *path, int lineno, char *p, __u64 *seen, struct fs_em *em,
			 char *err, size_t errlen)
{
	char *v, *slash = strstr(p, "/cpu_capacity:");
	__u64 cpu, cap;

	if (slash) { /* grep form: /sys/devices/system/cpu/cpu3/cpu_capacity:1024 */
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
	if (strncmp(p, "cpu", 3) || !isdigit((unsigned char)p[3]) || fs_parse_u64(p + 3, &cpu) ||
	    (p[3] == '0' && p[4]))
		return ERR("%s:%d: cpu: '%s' is not cpuN", path, lineno, p);
	if (cpu >= FS_MAX_CPUS)
		return ERR("%s:%d: cpu: %s is beyond FS_MAX_CPUS (%d)", path, lineno, p, FS_MAX_CPUS);
	if (fs_parse_u64(v, &cap) || !cap || cap > FS_SCHED_CAPACITY_SCALE)
		return ERR("%s:%d: cpu_capacity: '%s' for %s is not a number in 1..%d", path, lineno, v, p,
			   FS_SCHED_CAPACITY_SCALE);
	if (*seen & (1ull << cpu))
		return ERR("%s:%d: cpu: %s appears twice", path, lineno, p);
	*seen |= 1ull << cpu;
	em->capacity[cpu] = (__u32)cap;
	return 0;
}

/* A pulled tree's capacity table: 1 if there is none, 0 read, -1 error. */
static int capacity_from_table(const char *path, struct fs_em *em, char *err, size_t errlen)
{
	char *text, *line, *next;
	size_t len;
	__u64 seen = 0;
	int lineno = 0, rc = fs_read_all(path, 1u << 20, &text, &len, err, errlen);

	if (rc)
		return rc;
	if (memchr(text, '\0', len)) {
		free(text);
		return ERR("%s: binary data (a NUL byte) in a capacity table", path);
	}
	for (line = text; line && !rc; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		line[strcspn(line, "\r")] = '\0';
		while (*line == ' ' || *line == '\t')
			line++;
		if (*line && *line != '#')
			rc = capacity_line(path, lineno, line, &seen, em, err, errlen);
	}
	free(text);
	return rc;
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

/*
 * Whether dir/name is a CPU performance domain: 1 yes, 0 not one (a file, or
 * a directory without a cpus file: a devfreq device such as a GPU), -1 error
 * (symbolic-link loops, dangling links, unreadable directories).
 */
static int is_cpu_pd(const char *dir, const char *name, char *err, size_t errlen)
{
	char sub[PATH_MAX], cpus[PATH_MAX];
	struct stat st;

	if (fs_path_join(sub, sizeof(sub), dir, name) || fs_path_join(cpus, sizeof(cpus), sub, "cpus"))
		return ERR("%s/%s: path too long", dir, name);
	if (stat(sub, &st))
		return ERR("%s: cannot open: %s", sub,
			   errno == ENOENT ? "dangling symbolic link" : strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return 0;
	if (!stat(cpus, &st))
		return 1;
	if (errno != ENOENT || !lstat(cpus, &st))
		return ERR("%s: cpus: cannot read: %s", cpus,
			   errno == ENOENT ? "dangling symbolic link" : strerror(errno));
	return 0;
}

int fs_em_read_debugfs_kernel(const char *dir, const char *cpu_dir, const char *release,
			      struct fs_em *em, char *err, size_t errlen)
{
	char skipped[128] = "", capwhere[PATH_MAX + 32], relbuf[64] = "";
	int rel, rc = -1;
	bool live = is_live_tree(dir), unit_set = false, guessed = false;
	struct dir_list l;

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

	if (list_dir(dir, &l, err, errlen))
		return -1;
	for (int i = 0; i < l.nr; i++) {
		const char *name = l.name[i];
		int pd;

		if (name[0] == '.' || !strcmp(name, "cpus"))
			continue;
		pd = is_cpu_pd(dir, name, err, errlen);
		if (pd < 0)
			goto out;
		if (!pd) {
			/* Only directories are devices; other files (kernel_release, cpu_capacity) are read by name. */
			char sub[PATH_MAX];
			struct stat st;
			if (!fs_path_join(sub, sizeof(sub), dir, name) && !stat(sub, &st) && S_ISDIR(st.st_mode)) {
				size_t n = strlen(skipped);
				fs_snprintf(skipped + n, sizeof(skipped) - n, "%s%s", n ? "," : "", name);
			}
			continue;
		}
		if (fs_em_bad_name(name)) {
			(void)ERR("%s/%s: performance domain: directory name with a blank or unprintable character",
				  dir, name);
			goto out;
		}
		if (strlen(name) >= sizeof(em->pd[0].name)) {
			(void)ERR("%s/%s: performance domain: directory name longer than %zu characters", dir, name,
			  sizeof(em->pd[0].name) - 1);
			goto out;
		}
		if (read_pd(dir, name, rel, em, &unit_set, &guessed, err, errlen))
			goto out;
	}
	if (!em->nr_pd) {
		(void)ERR("%s: no CPU performance domains (no directory with a cpus file)", dir);
		goto out;
	}
	if (read_capacities(dir, cpu_dir, live, em, capwhere, sizeof(capwhere), err, errlen))
		goto out;
	fs_strlcpy(em->kernel, relbuf, sizeof(em->kernel));
	fs_snprintf(em->source, sizeof(em->source), "debugfs %s; capacities %s%s%s%s", dir, capwhere,
		 skipped[0] ? "; skipped non-CPU PDs " : "", skipped,
		 guessed ? "; kernel release unknown: flags bit 0 read as MICROWATTS (v6.0+), pass --release 5.19 for a 5.19 tree" : "");
	rc = fs_em_finalize(em, err, errlen);
	/* A capacity table may list CPUs beyond the EM's: they are not part of it. */
	for (int cpu = rc ? FS_MAX_CPUS : em->nr_cpus; cpu < FS_MAX_CPUS; cpu++)
		em->capacity[cpu] = 0;
out:
	dir_list_free(&l);
	return rc;
}

int fs_em_read_debugfs(const char *dir, const char *cpu_dir, struct fs_em *em, char *err, size_t errlen)
{
	return fs_em_read_debugfs_kernel(dir, cpu_dir, NULL, em, err, errlen);
}

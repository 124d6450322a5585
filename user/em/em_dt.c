// SPDX-License-Identifier: GPL-2.0
/*
 * Device-tree facts -> Energy Model, with the kernel's own integer arithmetic,
 * and the parser for the device-facts TSV format those facts are kept in.
 */
#include <stdlib.h>
#include <string.h>
#include "em_internal.h"

#define ERR(...) (fs_em_errf(err, errlen, __VA_ARGS__), -1)

/* EM_MAX_POWER: 64 W in uW since v6.0 (0xFFFF mW before). */
#define FS_EM_MAX_POWER_UW 64000000ull

/*
 * drivers/opp/of.c _get_power(): P = dpc * mV^2 * MHz, with mV = uV/1000 and
 * MHz = Hz/10^6 each truncated first; divided by 10^6 for uW (v6.0+) or 10^9
 * for mW (v5.0-v5.19).
 */
__u64 fs_dt_opp_power(__u32 dpc, __u32 khz, __u32 uv, bool milli)
{
	__u64 mv = uv / 1000, mhz = ((__u64)khz * 1000) / 1000000;
	__u64 tmp = (__u64)dpc * mv * mv * mhz;

	return tmp / (milli ? 1000000000ull : 1000000ull);
}

/*
 * em_compute_costs() v6.0-v6.8: cost = fmax * power / freq, and (v5.16+) a
 * state whose cost is not below every faster state's is INEFFICIENT.
 * Returns whether any state was marked.
 */
static bool em_compute_costs(struct fs_em_pd *pd)
{
	__u64 fmax = pd->ps[pd->nr_ps - 1].frequency, prev_cost = ~0ull;
	bool any = false;

	for (int i = pd->nr_ps - 1; i >= 0; i--) {
		struct fs_em_ps *ps = &pd->ps[i];

		ps->cost = fmax * ps->power / ps->frequency;
		if (ps->cost >= prev_cost) {
			ps->inefficient = 1;
			any = true;
		} else {
			prev_cost = ps->cost;
		}
	}
	return any;
}

/*
 * topology_normalize_cpu_scale() (drivers/base/arch_topology.c): capacity =
 * dmips * freq_factor << 10 / max(dmips * freq_factor), where freq_factor is
 * cpuinfo.max_freq in MHz (v5.0-v6.7; v6.8+ uses kHz, which can differ by one
 * when max_freq is not a whole MHz: the provenance says when it does).
 */
static void topology_normalize_cpu_scale(const struct fs_dt_device *dev, struct fs_em *em)
{
	__u64 scale = 1;

	for (int i = 0; i < dev->nr_clusters; i++) {
		__u64 c = (__u64)dev->cl[i].dmips_mhz * (dev->cl[i].cpuinfo_max_khz / 1000);
		if (c > scale)
			scale = c;
	}
	for (int i = 0; i < dev->nr_clusters; i++) {
		__u64 c = (__u64)dev->cl[i].dmips_mhz * (dev->cl[i].cpuinfo_max_khz / 1000);
		__u32 cap = (__u32)((c << 10) / scale);

		for (int cpu = 0; cpu < FS_MAX_CPUS; cpu++)
			if (em->pd[i].cpus & (1ull << cpu))
				em->capacity[cpu] = cap;
	}
}

int fs_em_from_dt(const struct fs_dt_device *dev, const char *what, struct fs_em *em,
		  char *err, size_t errlen)
{
	memset(em, 0, sizeof(*em));
	if (dev->nr_clusters <= 0 || dev->nr_clusters > FS_MAX_PDS)
		return ERR("%s: clusters: %d, want 1..%d", what, dev->nr_clusters, FS_MAX_PDS);
	em->nr_pd = dev->nr_clusters;
	em->unit = FS_POWER_UW;
	for (int i = 0; i < dev->nr_clusters; i++) {
		const struct fs_dt_cluster *cl = &dev->cl[i];
		struct fs_em_pd *pd = &em->pd[i];

		snprintf(pd->name, sizeof(pd->name), "%s", cl->name);
		if (fs_cpulist_parse(cl->cpus, &pd->cpus))
			return ERR("%s: %s: cpus: '%s' is not a cpulist of CPUs below %d", what,
				   cl->name, cl->cpus, FS_MAX_CPUS);
		if (cl->nr_opps <= 0 || cl->nr_opps > FS_MAX_PS)
			return ERR("%s: %s: %d OPPs, want 1..%d", what, cl->name, cl->nr_opps, FS_MAX_PS);
		if (!cl->dmips_mhz || !cl->dpc || !cl->cpuinfo_max_khz)
			return ERR("%s: %s: capacity-dmips-mhz, dynamic-power-coefficient and cpuinfo_max_khz must be non-zero",
				   what, cl->name);
		pd->nr_ps = cl->nr_opps;
		for (int j = 0; j < cl->nr_opps; j++) {
			struct fs_em_ps *ps = &pd->ps[j];

			ps->frequency = cl->opp[j].khz;
			ps->power = fs_dt_opp_power(cl->dpc, cl->opp[j].khz, cl->opp[j].uv, false);
			/* em_create_perf_table(): ascending frequencies, 0 < power <= EM_MAX_POWER. */
			if (j && ps->frequency <= pd->ps[j - 1].frequency)
				return ERR("%s: %s: OPP %u kHz: frequency not above the previous OPP", what,
					   cl->name, cl->opp[j].khz);
			if (!ps->power || ps->power > FS_EM_MAX_POWER_UW)
				return ERR("%s: %s: OPP %u kHz: power %llu uW is outside 1..%llu (EM_MAX_POWER)",
					   what, cl->name, cl->opp[j].khz, (unsigned long long)ps->power,
					   FS_EM_MAX_POWER_UW);
		}
		pd->has_inefficient = true;
		pd->flags = FS_EM_PD_MICROWATTS;
		/* em_cpufreq_update_efficiencies(): SKIP only when an inefficient OPP exists. */
		if (em_compute_costs(pd))
			pd->flags |= FS_EM_PD_SKIP_INEFFICIENT;
	}
	topology_normalize_cpu_scale(dev, em);
	snprintf(em->source, sizeof(em->source), "%s", what);
	return fs_em_finalize(em, err, errlen);
}

/* --- the device-facts TSV --- */

static const char *find_key(const char *line, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = strstr(line, key); p; p = strstr(p + 1, key))
		if ((p == line || p[-1] == ' ') && p[n] == '=')
			return p + n + 1;
	return NULL;
}

static int key_u32(const char *line, const char *key, __u32 *v)
{
	const char *p = find_key(line, key);
	char buf[32];
	size_t n;
	__u64 x;

	if (!p)
		return -1;
	n = strcspn(p, " \t");
	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	if (fs_parse_u64(buf, &x) || x > 0xffffffffull)
		return -1;
	*v = (__u32)x;
	return 0;
}

static struct fs_dt_cluster *cluster_named(struct fs_dt_device *dev, const char *name)
{
	for (int i = 0; i < dev->nr_clusters; i++)
		if (!strcmp(dev->cl[i].name, name))
			return &dev->cl[i];
	return NULL;
}

/* Header "# pdN cpus=.. core=.. capacity-dmips-mhz=.. dynamic-power-coefficient=.. cpuinfo_max_khz=..". */
static int parse_cluster_header(char *line, int lineno, const char *what, struct fs_dt_device *dev,
				char *err, size_t errlen)
{
	char *name = line + 2, *sp = strchr(name, ' '), *cpus, *core;
	struct fs_dt_cluster *cl;

	if (!sp)
		return ERR("%s:%d: cluster header has no fields", what, lineno);
	if (dev->nr_clusters >= FS_MAX_PDS)
		return ERR("%s:%d: more than %d clusters (FS_MAX_PDS)", what, lineno, FS_MAX_PDS);
	cl = &dev->cl[dev->nr_clusters];
	if (key_u32(sp, "capacity-dmips-mhz", &cl->dmips_mhz))
		return ERR("%s:%d: capacity-dmips-mhz: missing or not a number", what, lineno);
	if (key_u32(sp, "dynamic-power-coefficient", &cl->dpc))
		return ERR("%s:%d: dynamic-power-coefficient: missing or not a number", what, lineno);
	if (key_u32(sp, "cpuinfo_max_khz", &cl->cpuinfo_max_khz))
		return ERR("%s:%d: cpuinfo_max_khz: missing or not a number", what, lineno);
	cpus = (char *)find_key(sp, "cpus");
	core = (char *)find_key(sp, "core");
	if (!cpus)
		return ERR("%s:%d: cpus: missing", what, lineno);
	*sp = '\0';
	cl->name = name;
	cpus[strcspn(cpus, " ")] = '\0';
	cl->cpus = cpus;
	if (core) {
		/* The core name may hold spaces: it runs up to the next key. */
		char *end = strstr(core, " capacity-dmips-mhz=");
		if (end)
			*end = '\0';
		cl->core = core;
	} else {
		cl->core = "";
	}
	dev->nr_clusters++;
	return 0;
}

static int parse_opp_row(char *line, int lineno, const char *what, struct fs_dt_device *dev,
			 char *err, size_t errlen)
{
	char *f[5] = { 0 };
	int n = 0;
	struct fs_dt_cluster *cl;
	__u64 khz, uv;

	for (char *tok = strtok(line, "\t"); tok && n < 5; tok = strtok(NULL, "\t"))
		f[n++] = tok;
	if (n < 4)
		return ERR("%s:%d: want pd, cpus, freq_khz, voltage_uv columns, got %d", what, lineno, n);
	cl = cluster_named(dev, f[0]);
	if (!cl)
		return ERR("%s:%d: pd: '%s' has no '# %s ...' header line", what, lineno, f[0], f[0]);
	if (strcmp(f[1], cl->cpus))
		return ERR("%s:%d: cpus: '%s' differs from the header's '%s'", what, lineno, f[1], cl->cpus);
	if (fs_parse_u64(f[2], &khz) || !khz || khz > 0xffffffffull)
		return ERR("%s:%d: freq_khz: '%s' is not a positive number", what, lineno, f[2]);
	if (fs_parse_u64(f[3], &uv) || !uv || uv > 0xffffffffull)
		return ERR("%s:%d: voltage_uv: '%s' is not a positive number", what, lineno, f[3]);
	if (cl->nr_opps >= FS_DT_MAX_OPPS)
		return ERR("%s:%d: %s: more than %d OPPs (FS_MAX_PS)", what, lineno, cl->name, FS_DT_MAX_OPPS);
	cl->opp[cl->nr_opps].khz = (__u32)khz;
	cl->opp[cl->nr_opps].uv = (__u32)uv;
	cl->nr_opps++;
	return 0;
}

int fs_dt_parse_tsv(const char *text, size_t len, const char *what, struct fs_dt_device *dev,
		    char **store, char *err, size_t errlen)
{
	/* One copy holds every string dev points to; provenance is appended after it. */
	char *buf = malloc(2 * len + 2), *prov, *line, *next;
	size_t plen = 0;
	int lineno = 0;
	bool header_seen = false;

	*store = buf;
	memset(dev, 0, sizeof(*dev));
	if (!buf)
		return ERR("%s: out of memory", what);
	memcpy(buf, text, len);
	buf[len] = '\0';
	prov = buf + len + 1;
	prov[0] = '\0';
	dev->name = what;
	dev->desc = "";
	for (line = buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		line[strcspn(line, "\r")] = '\0';
		if (!*line)
			continue;
		if (!strncmp(line, "# device: ", 10)) {
			dev->desc = line + 10;
		} else if (!strncmp(line, "# source: ", 10) || !strncmp(line, "# note: ", 8)) {
			plen += (size_t)sprintf(prov + plen, "%s%s", plen ? "\n" : "", line + 2);
		} else if (!strncmp(line, "# pd", 4)) {
			if (parse_cluster_header(line, lineno, what, dev, err, errlen))
				return -1;
		} else if (line[0] == '#') {
			continue;
		} else if (!strncmp(line, "pd\tcpus\t", 8)) {
			header_seen = true;
		} else {
			if (!header_seen)
				return ERR("%s:%d: OPP row before the 'pd<TAB>cpus<TAB>freq_khz<TAB>voltage_uv' header",
					   what, lineno);
			if (parse_opp_row(line, lineno, what, dev, err, errlen))
				return -1;
		}
	}
	dev->provenance = prov;
	if (!dev->nr_clusters)
		return ERR("%s: no '# pdN cpus=...' cluster header lines", what);
	for (int i = 0; i < dev->nr_clusters; i++)
		if (!dev->cl[i].nr_opps)
			return ERR("%s: %s: no OPP rows", what, dev->cl[i].name);
	return 0;
}

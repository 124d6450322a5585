/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to user/em/ (and its unit tests): device-tree facts a CPU Energy
 * Model is built from, the kernel arithmetic that turns them into one, and
 * small text helpers the readers share.
 */
#ifndef FEECSCOPE_EM_INTERNAL_H
#define FEECSCOPE_EM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include "../engine/cpu_list.h"
#include "em_io.h"

#define FS_DT_MAX_OPPS FS_MAX_PS

/* One OPP as the device tree (or a firmware LUT) lists it. */
struct fs_dt_opp {
	__u32 khz;
	__u32 uv;          /* opp-microvolt (target value) */
};

/* One cluster = one cpufreq policy = one performance domain. */
struct fs_dt_cluster {
	const char *name;           /* pd0, pd1, ... */
	const char *cpus;           /* cpulist, e.g. "0,3,4,5" */
	const char *core;           /* Cortex-A53, Kryo 485 Gold, ... */
	__u32 dmips_mhz;            /* capacity-dmips-mhz */
	__u32 dpc;                  /* dynamic-power-coefficient (uW/MHz/V^2) */
	__u32 cpuinfo_max_khz;      /* policy->cpuinfo.max_freq: capacity's frequency factor */
	int nr_opps;
	struct fs_dt_opp opp[FS_DT_MAX_OPPS];
};

/* A device: its clusters and where every number came from. */
struct fs_dt_device {
	const char *name;
	const char *desc;
	const char *provenance;     /* the TSV's source/note lines, UNVERIFIED marks kept */
	int nr_clusters;
	struct fs_dt_cluster cl[FS_MAX_PDS];
};

/* Built-in devices (em_profile_data.c). */
extern const struct fs_dt_device fs_dt_devices[];
extern const int fs_dt_nr_devices;

/*
 * Register an EM from DT facts the way v6.0-v6.8 does (dev_pm_opp_of_register_em
 * -> em_dev_register_perf_domain, microwatts): power from _get_power(), costs
 * and inefficiencies from em_compute_costs(), capacities from
 * topology_normalize_cpu_scale(). what names the input in errors.
 */
int fs_em_from_dt(const struct fs_dt_device *dev, const char *what, struct fs_em *em,
		  char *err, size_t errlen);

/* drivers/opp/of.c _get_power(): uW in v6.0+, mW (milli = true) before. */
__u64 fs_dt_opp_power(__u32 dpc, __u32 khz, __u32 uv, bool milli);

/*
 * Parse a device-facts TSV (the em-data/ format: "# pdN cpus=.. capacity-dmips-mhz=..
 * dynamic-power-coefficient=.. cpuinfo_max_khz=.." headers and pd/cpus/freq_khz/voltage_uv rows).
 * Strings point into *store, which the caller frees.
 */
int fs_dt_parse_tsv(const char *text, size_t len, const char *what, struct fs_dt_device *dev,
		    char **store, char *err, size_t errlen);

/* Provenance text of a built-in profile, NULL if name is not one. */
const char *fs_em_profile_provenance(const char *name);

/* A cpulist ("0-3,6", engine/cpu_list.h) to a mask; -1 if malformed, empty or >= FS_MAX_CPUS. */
int fs_cpulist_parse(const char *s, __u64 *mask);

/*
 * A performance-domain name must be one word of printable ASCII: the EM file
 * (and every recording) keeps it as one. Returns true if name is not.
 */
bool fs_em_bad_name(const char *name);

/* Strict decimal / hex (0x..) parse of a whole string, surrounding blanks allowed. */
int fs_parse_u64(const char *s, __u64 *v);

/* snprintf where cutting a long name short is acceptable (the result is only shown). */
void fs_snprintf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Bounded copy that always terminates (names longer than dst are cut). */
void fs_strlcpy(char *dst, const char *src, size_t len);

/* dst = a "/" b; -1 if it does not fit. */
int fs_path_join(char *dst, size_t len, const char *a, const char *b);

/*
 * The whole of path (a file or a pipe) in a NUL-terminated malloc'd *text:
 * 0 read, 1 absent (ENOENT), -1 error in err ("<path>: ..."), also when it
 * holds more than max bytes.
 */
int fs_read_all(const char *path, size_t max, char **text, size_t *len, char *err, size_t errlen);

/* Like snprintf into err, never overflowing. */
void fs_em_errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif /* FEECSCOPE_EM_INTERNAL_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where an Energy Model comes from: the kernel's debugfs tree (live, or a copy
 * pulled off a device), feecscope's portable EM file (`em --save`), or a
 * built-in device profile. Every reader reports errors as
 * "<file>: <field>: <problem>" in err and returns -1.
 */
#ifndef FEECSCOPE_EM_IO_H
#define FEECSCOPE_EM_IO_H

#include <stdio.h>
#include "../engine/em.h"

#define FS_SYSFS_CPU  "/sys/devices/system/cpu"

/*
 * Read an energy_model debugfs tree (any layout v5.2 .. today) at dir.
 * Capacities come from cpu_dir/cpuN/cpu_capacity; cpu_dir may be NULL to
 * look for a "cpu_capacity" file or "cpus/cpuN/cpu_capacity" inside dir
 * (how a pulled copy carries them), then FS_SYSFS_CPU.
 */
int fs_em_read_debugfs(const char *dir, const char *cpu_dir, struct fs_em *em, char *err, size_t errlen);
/*
 * The same with the kernel release that wrote the tree (decides what flags
 * bit 0 means: MILLIWATTS in v5.19, MICROWATTS from v6.0). release NULL: a
 * "kernel_release" file inside dir, else uname -r for the live tree, else
 * unknown (read as v6.0+, and fs_em.source says so). Capacities: for a
 * copied tree only from cpu_dir or the tree itself, never this machine's sysfs.
 */
int fs_em_read_debugfs_kernel(const char *dir, const char *cpu_dir, const char *release,
			      struct fs_em *em, char *err, size_t errlen);

/*
 * The running kernel's EM from the v6.19+ "dev-energymodel" generic netlink
 * family (no debugfs needed). 0 ok; 1 when the kernel has no such family
 * (err says so); -1 on any other error.
 */
int fs_em_read_netlink(struct fs_em *em, char *err, size_t errlen);
/*
 * Watching the kernel's EM for run-time changes (v6.9+ em_dev_update_perf_domain()):
 * with the v6.19+ family, its notifications; else the caller re-reads it every
 * interval. fs_em_watch_new() gives a watch either way (NULL: out of memory);
 * try_netlink false forces polling. how: one line for the header.
 */
struct fs_em_watch;
struct fs_em_nl_events {
	int created, updated, deleted; /* notifications seen so far */
	__u32 last_pd;                 /* the domain id of the last one */
	int last_states;               /* and its perf-table's states (0 for deleted) */
};
struct fs_em_watch *fs_em_watch_new(bool try_netlink);
bool fs_em_watch_polls(const struct fs_em_watch *w);
const char *fs_em_watch_how(const struct fs_em_watch *w);
/* Notifications since the last call (never blocks; 0 when polling): re-read the EM when > 0. */
int fs_em_watch_pending(struct fs_em_watch *w);
const struct fs_em_nl_events *fs_em_watch_events(const struct fs_em_watch *w);
void fs_em_watch_free(struct fs_em_watch *w); /* accepts NULL */
/*
 * The dev-energymodel notifications in len bytes of received netlink
 * messages (other families' and replies skipped), counted into ev: how many,
 * or -1 when a message is truncated or one names no domain (err says which).
 */
int fs_em_nl_parse_events(const void *buf, size_t len, __u16 family, struct fs_em_nl_events *ev, char *err,
			  size_t errlen);

/* Which built-in profiles and saved EM files here fit this device (for an error message). */
void fs_em_suggest(char *buf, size_t len);

/* The portable text format written by `feecscope em --save`. */
int fs_em_write(FILE *out, const struct fs_em *em);
int fs_em_parse_text(const char *text, size_t len, const char *name, struct fs_em *em,
		     char *err, size_t errlen);
int fs_em_read_file(const char *path, struct fs_em *em, char *err, size_t errlen);

/* Built-in device profiles. */
int fs_em_profile_count(void);
const char *fs_em_profile_name(int i);
const char *fs_em_profile_desc(int i);
/* Build profile `name` as kernel `era` would have registered it ("6.0" style µW is the default). */
int fs_em_profile_build(const char *name, struct fs_em *em, char *err, size_t errlen);
/* The hint for an EM of the wrong size: the built-in profiles with nr_cpus CPUs, else --em FILE. */
void fs_em_cpu_hint(int nr_cpus, char *buf, size_t len);
/* A generic profile sized to nr_cpus (for machines without an EM). */
int fs_em_profile_for_cpus(int nr_cpus, struct fs_em *em, char *err, size_t errlen);

/*
 * Resolve an --em argument: a built-in profile name, a saved EM file, a
 * debugfs-layout directory, or "netlink" (the running kernel's, v6.19+).
 * spec == NULL: the running kernel's debugfs wherever /proc/self/mounts has
 * it (mounted on /sys/kernel/debug when root and it is nowhere: kernel_fs.h),
 * else its netlink family; when neither has one the error says what was
 * tried and names the profiles and saved files that fit this device.
 * Returns 0, -1 on an error, -2 when the environment kept it from the
 * kernel's EM (debugfs neither found nor mountable, or not readable, and no
 * netlink family): the commands' exit code 3.
 */
int fs_em_load(const char *spec, struct fs_em *em, char *err, size_t errlen);
/* fs_em_load with `em --kernel` / `--cpu-capacity-dir` (either may be NULL; used for debugfs trees only). */
int fs_em_load_with(const char *spec, const char *release, const char *cpu_dir, struct fs_em *em,
		    char *err, size_t errlen);

/* Did the table change (power, cost, performance, flags of any state) from a to b? */
bool fs_em_tables_differ(const struct fs_em *a, const struct fs_em *b);
/* A reader of a changing EM: fs_em_load()'s return values. */
typedef int (*fs_em_reader)(void *ctx, struct fs_em *em, char *err, size_t errlen);
/* The reader of fs_em_load(spec): spec as ctx, NULL for the running kernel's. */
int fs_em_read_spec(void *spec, struct fs_em *em, char *err, size_t errlen);
/*
 * em holds a read of a table the kernel may be rewriting (em_settle.c): read
 * it again, up to rereads times, until two reads in a row agree. 0: em is
 * that table; 1: it kept changing (em holds the last read); else the reader's
 * error (em holds the last good read).
 */
int fs_em_settle(fs_em_reader read, void *ctx, struct fs_em *em, int rereads, char *err, size_t errlen);
/* The rereads live gives a table, at start and on each change: five reads in all. */
#define FS_EM_REREADS 4

/* Human-readable dump for `feecscope em`. */
void fs_em_print(FILE *out, const struct fs_em *em);

#endif /* FEECSCOPE_EM_IO_H */

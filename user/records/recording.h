/* SPDX-License-Identifier: GPL-2.0 */
/*
 * feecscope binary recordings (docs/recording.md): a self-describing header
 * with the EM snapshot, then compressed chunks of records in their wire form
 * (zstd from version 4, zlib before).
 * Pure file I/O: the EM travels as fs_em_write() text, parsed by the caller.
 */
#ifndef FEECSCOPE_RECORDING_H
#define FEECSCOPE_RECORDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "../record.h"
#include "version.h"
#include "wire.h"

#define FS_REC_MAGIC "\x89" "FSREC\r\n"   /* 8 bytes; the 0x89 and CRLF catch text-mode damage */
#define FS_REC_MAGIC_LEN 8
#define FS_REC_VERSION 5                  /* 2: sum_exec_ns, uid, exit/runtime/cpustat/freqstat records;
					   * 3: em records (the kernel's EM changed at run time);
					   * 4: chunks are zstd frames, not zlib streams;
					   * 5: a packages section may follow the header */
#define FS_REC_VERSION_PLAIN 4            /* what a recording without a packages list is written as */
#define FS_REC_CHUNK_RAW (64 * 1024)      /* flush a chunk once this many raw bytes are pending */
#define FS_REC_MAX_CHUNK (16u << 20)      /* reader's sanity bound on a chunk's raw/compressed length */

/*
 * One cpufreq policy as the live collector read it (docs/recording.md): its
 * CPUs, its governor and schedutil's rate_limit_us.
 */
struct fs_rec_cpufreq {
	__u64 cpus;             /* related_cpus */
	char governor[16];      /* scaling_governor; "" unreadable */
	__s64 rate_limit_us;    /* -1: not schedutil, or not readable */
};

/* What a recording (or a records CSV) says about itself. */
struct fs_rec_meta {
	char feecscope_version[32];
	char kernel_release[64];  /* "" if unknown */
	int nr_cpus;              /* entries in every wake-up's cpu[] */
	bool em_is_kernel;        /* the EM is the observed kernel's own (not a profile) */
	char *em_text;            /* fs_em_write() text, NUL-terminated; NULL if none (CSV only) */
	size_t em_len;
	char *packages_text;      /* packages.list as read when recording, NUL-terminated; NULL none */
	size_t packages_len;
	unsigned int hz;          /* CONFIG_HZ as the kernel's config says; 0 unknown */
	int nr_cpufreq;           /* cpufreq policies recorded; 0: none */
	struct fs_rec_cpufreq cpufreq[FS_MAX_CPUS];
};

void fs_rec_meta_free(struct fs_rec_meta *m);

/*
 * The machine's settings in the meta text (a recording's header, a records
 * CSV's comment lines): "hz=N" and "cpufreq=" one item per policy, blank
 * separated, "MASK:GOVERNOR:RATE_LIMIT_US" (MASK hex, "-" for no rate
 * limit). A reader that does not know the keys skips them, so they need no
 * version. fs_rec_cpufreq_text: the value, "" with no policy.
 */
void fs_rec_cpufreq_text(const struct fs_rec_meta *m, char *buf, size_t len);
/* Parse value v of key ("hz" or "cpufreq") into m. 0, or -1 with why. */
int fs_rec_machine_parse(const char *key, const char *v, struct fs_rec_meta *m, char *why, size_t len);

struct fs_rec_writer;

/*
 * Create path and write the header. meta->em_text is required; with
 * meta->packages_text the file is version 5 and holds that list, else
 * version 4 (which readers before version 5 read too).
 */
struct fs_rec_writer *fs_rec_writer_open(const char *path, const struct fs_rec_meta *meta,
					 char *err, size_t errlen);
/*
 * The same on a stream the caller opened (an output file, stdout) and
 * closes after fs_rec_writer_close(); name is for messages.
 */
struct fs_rec_writer *fs_rec_writer_open_stream(FILE *f, const char *name, const struct fs_rec_meta *meta,
						char *err, size_t errlen);
/* Append one record (copied); compresses and writes a chunk when FS_REC_CHUNK_RAW is reached. */
int fs_rec_writer_add(struct fs_rec_writer *w, const struct fs_rec_hdr *rec, char *err, size_t errlen);
/* Write the pending records as a chunk (no-op if none) and fflush. */
int fs_rec_writer_flush(struct fs_rec_writer *w, char *err, size_t errlen);
/* Flush, write the end marker, close, free. w may be NULL. */
int fs_rec_writer_close(struct fs_rec_writer *w, char *err, size_t errlen);
__u64 fs_rec_writer_records(const struct fs_rec_writer *w);

struct fs_rec_reader;

/* Open and read the header into meta (caller frees with fs_rec_meta_free). */
struct fs_rec_reader *fs_rec_reader_open(const char *path, struct fs_rec_meta *meta,
					 char *err, size_t errlen);
/*
 * Next record: 1 and *rec (valid until the next call), 0 at the end marker,
 * -1 with err = "<path>: chunk N at byte B: <problem>; replayed R records".
 */
int fs_rec_reader_next(struct fs_rec_reader *r, const struct fs_rec_hdr **rec, char *err, size_t errlen);
__u64 fs_rec_reader_records(const struct fs_rec_reader *r);
/* The file's format version (1 = before CPU times were recorded). */
int fs_rec_reader_version(const struct fs_rec_reader *r);
void fs_rec_reader_close(struct fs_rec_reader *r);

/* True if the file starts with FS_REC_MAGIC; *binary set if it looks binary at all. */
int fs_rec_sniff(const char *path, bool *is_recording, bool *binary, char *err, size_t errlen);

#endif /* FEECSCOPE_RECORDING_H */

// SPDX-License-Identifier: GPL-2.0
/* Binary recording writer and reader; the format is specified in docs/recording.md. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "rec_chunk.h"
#include "recording.h"

#define CHUNK_MAGIC "FSCK"
#define END_MAGIC   "FSND"
#define PKG_MAGIC   "FSPK" /* version 5: the packages section, before the first chunk */
#define CHUNK_HDR   20 /* magic, raw_len, comp_len, nr_records, crc32 */
#define FILE_HDR    (FS_REC_MAGIC_LEN + 16) /* magic, version, meta_len, em_len, crc32 */

static void put32(unsigned char *p, __u32 v)
{
	p[0] = v; p[1] = v >> 8; p[2] = v >> 16; p[3] = v >> 24;
}

static __u32 get32(const unsigned char *p)
{
	return p[0] | (__u32)p[1] << 8 | (__u32)p[2] << 16 | (__u32)p[3] << 24;
}

void fs_rec_meta_free(struct fs_rec_meta *m)
{
	if (!m)
		return;
	free(m->em_text);
	m->em_text = NULL;
	m->em_len = 0;
	free(m->packages_text);
	m->packages_text = NULL;
	m->packages_len = 0;
}

const char *fs_rec_type_name(unsigned int type)
{
	static const char *const names[] = {
		NULL, "wakeup", "migrate", "overutil", "lost", "exit", "runtime", "cpustat", "freqstat", "em",
		"busyfreq", "freq",
	};
	_Static_assert(sizeof(names) / sizeof(names[0]) == FS_REC_FREQ + 1, "a name for every record type");

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : NULL;
}

size_t fs_rec_wire_size(const struct fs_rec_hdr *h)
{
	switch (h->type) {
	case FS_REC_WAKEUP: return fs_wakeup_size(h->nr_cpus);
	case FS_REC_MIGRATE: return sizeof(struct fs_migrate);
	case FS_REC_OVERUTIL: return sizeof(struct fs_overutil);
	case FS_REC_LOST: return sizeof(struct fs_lost);
	case FS_REC_EXIT:
	case FS_REC_RUNTIME: return sizeof(struct fs_task_time);
	case FS_REC_CPUSTAT: return sizeof(struct fs_cpustat);
	case FS_REC_FREQSTAT: return sizeof(struct fs_freqstat);
	case FS_REC_BUSYFREQ: return sizeof(struct fs_busyfreq);
	case FS_REC_FREQ: return sizeof(struct fs_freq);
	case FS_REC_EM: /* self-sized: at least the head, at most the whole text */
		return h->size >= offsetof(struct fs_em_update, text) && h->size <= sizeof(struct fs_em_update)
			       ? h->size : 0;
	}
	return 0;
}

/*
 * Version 1 (before sum_exec_ns and uid): a wake-up lacked the 16 bytes
 * between decided_ns and task, a migrate its trailing sum_exec_ns, and only
 * types 1-4 existed. Everything else is laid out as today.
 */
#define V1_WAKEUP_GAP (offsetof(struct fs_wakeup, task) - offsetof(struct fs_wakeup, sum_exec_ns))
#define V1_MIGRATE_SIZE offsetof(struct fs_migrate, sum_exec_ns)

static size_t v1_wire_size(const struct fs_rec_hdr *h)
{
	switch (h->type) {
	case FS_REC_WAKEUP: return fs_wakeup_size(h->nr_cpus) - V1_WAKEUP_GAP;
	case FS_REC_MIGRATE: return V1_MIGRATE_SIZE;
	case FS_REC_OVERUTIL:
	case FS_REC_LOST: return fs_rec_wire_size(h);
	}
	return 0;
}

/* A version-1 record in today's layout, its runtime and uid unknown. */
static void v1_upgrade(const unsigned char *in, const struct fs_rec_hdr *h, void *out)
{
	size_t head = offsetof(struct fs_wakeup, sum_exec_ns);

	if (h->type == FS_REC_WAKEUP) {
		struct fs_wakeup *w = out;

		memcpy(w, in, head);
		memcpy((unsigned char *)w + head + V1_WAKEUP_GAP, in + head, h->size - head);
		w->sum_exec_ns = FS_NO_RUNTIME;
		w->uid = FS_NO_UID;
		w->hdr.size = (__u32)fs_wakeup_size(h->nr_cpus);
	} else if (h->type == FS_REC_MIGRATE) {
		struct fs_migrate *m = out;

		memcpy(m, in, V1_MIGRATE_SIZE);
		m->sum_exec_ns = FS_NO_RUNTIME;
		m->hdr.size = sizeof(*m);
	} else {
		memcpy(out, in, h->size);
	}
}

/* h: an aligned copy of the header of the record at bytes (avail bytes from there). */
static int check_record(const struct fs_rec_hdr *h, const unsigned char *bytes, size_t avail, int nr_cpus,
			int version, char *err, size_t errlen)
{
	if (avail < sizeof(*h)) {
		snprintf(err, errlen, "record header cut short (%zu of %zu bytes)", avail, sizeof(*h));
		return -1;
	}
	size_t want = version == 1 ? v1_wire_size(h) : fs_rec_wire_size(h);
	if (h->type == FS_REC_EM && version < 3)
		want = 0; /* em records came with version 3 */
	if (!want && h->type == FS_REC_EM && version >= 3) {
		snprintf(err, errlen, "em record of %u bytes (head %zu, at most %zu)", h->size,
			 offsetof(struct fs_em_update, text), sizeof(struct fs_em_update));
		return -1;
	}
	if (!want) {
		snprintf(err, errlen, "unknown record type %u", h->type);
		return -1;
	}
	if (h->type == FS_REC_EM && avail >= offsetof(struct fs_em_update, text)) {
		__u32 len;

		memcpy(&len, bytes + offsetof(struct fs_em_update, len), sizeof(len));
		if (len != h->size - offsetof(struct fs_em_update, text)) {
			snprintf(err, errlen, "em record of %u bytes says its text has %u", h->size, len);
			return -1;
		}
	}
	if (h->type == FS_REC_WAKEUP && (int)h->nr_cpus != nr_cpus) {
		snprintf(err, errlen, "wake-up with nr_cpus %u in a recording of %d CPUs", h->nr_cpus, nr_cpus);
		return -1;
	}
	if (h->size != want) {
		snprintf(err, errlen, "type %u record of size %u, expected %zu", h->type, h->size, want);
		return -1;
	}
	if (h->size > avail) {
		snprintf(err, errlen, "record of %u bytes cut short (%zu left)", h->size, avail);
		return -1;
	}
	return 0;
}

int fs_rec_check(const struct fs_rec_hdr *h, size_t avail, int nr_cpus, char *err, size_t errlen)
{
	return check_record(h, (const unsigned char *)h, avail, nr_cpus, FS_REC_VERSION, err, errlen);
}

/* ---- writer ---- */

struct fs_rec_writer {
	FILE *f;
	char *path;
	int nr_cpus;
	unsigned char *raw;    /* pending records, FS_REC_CHUNK_RAW + one record of room */
	size_t raw_len, raw_cap;
	__u32 raw_nr;
	unsigned char *comp;
	size_t comp_cap;
	struct fs_rec_zctx *zip;
	__u64 records;
	bool failed;
	bool borrowed;         /* f is the caller's to close */
};

static int werr(struct fs_rec_writer *w, char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s: %s: %s", w->path, what, strerror(errno ? errno : EIO));
	w->failed = true;
	return -1;
}

/* The layout facts a reader must match before trusting record bytes (version 1 had fewer). */
static int layout_meta(char *buf, size_t len, int version)
{
	bool v1 = version == 1;
	int n = snprintf(buf, len,
			 "sizeof_rec_hdr=%zu\nsizeof_fs_cpu=%zu\nsizeof_fs_task=%zu\n"
			 "offsetof_wakeup_task=%zu\noffsetof_wakeup_cpu=%zu\n"
			 "sizeof_fs_migrate=%zu\nsizeof_fs_overutil=%zu\nsizeof_fs_lost=%zu\n"
			 "max_cpus=%d\nbyte_order=little\n",
			 sizeof(struct fs_rec_hdr), sizeof(struct fs_cpu), sizeof(struct fs_task),
			 offsetof(struct fs_wakeup, task) - (v1 ? V1_WAKEUP_GAP : 0),
			 offsetof(struct fs_wakeup, cpu) - (v1 ? V1_WAKEUP_GAP : 0),
			 v1 ? V1_MIGRATE_SIZE : sizeof(struct fs_migrate), sizeof(struct fs_overutil),
			 sizeof(struct fs_lost), FS_MAX_CPUS);
	if (v1 || n < 0 || (size_t)n >= len)
		return n;
	n += snprintf(buf + n, len - n, "sizeof_fs_task_time=%zu\nsizeof_fs_cpustat=%zu\nsizeof_fs_freqstat=%zu\n",
		      sizeof(struct fs_task_time), sizeof(struct fs_cpustat), sizeof(struct fs_freqstat));
	if (version < 3 || n < 0 || (size_t)n >= len)
		return n;
	return n + snprintf(buf + n, len - n, "offsetof_em_update_text=%zu\n", offsetof(struct fs_em_update, text));
}

static int write_chunk(struct fs_rec_writer *w, const char *magic, const void *payload,
		       size_t raw_len, size_t comp_len, __u32 nr, char *err, size_t errlen);

/* Version 5's packages section: packages.list's bytes as one zstd frame in a chunk of its own. */
static int write_packages(struct fs_rec_writer *w, const struct fs_rec_meta *meta, char *err, size_t errlen)
{
	size_t cap = fs_rec_zip_bound(meta->packages_len), clen;
	unsigned char *comp = malloc(cap ? cap : 1);

	if (!comp) {
		snprintf(err, errlen, "%s: out of memory", w->path);
		w->failed = true;
		return -1;
	}
	clen = fs_rec_zip(w->zip, comp, cap, meta->packages_text, meta->packages_len);
	int rc = clen ? write_chunk(w, PKG_MAGIC, comp, meta->packages_len, clen, 0, err, errlen) : -1;
	if (!clen) {
		snprintf(err, errlen, "%s: zstd compress failed (packages list)", w->path);
		w->failed = true;
	}
	free(comp);
	return rc;
}

/* f: the caller's (kept open) or NULL to create path. */
static struct fs_rec_writer *writer_open(FILE *f, const char *path, const struct fs_rec_meta *meta,
					 char *err, size_t errlen)
{
	char layout[512], text[4096], machine[2048] = "", cpufreq[1600];
	struct fs_rec_writer *w;

	if (!meta->em_text || meta->nr_cpus <= 0 || meta->nr_cpus > FS_MAX_CPUS ||
	    (meta->packages_text && meta->packages_len > FS_REC_MAX_CHUNK)) {
		snprintf(err, errlen, "%s: cannot record: %s", path,
			 !meta->em_text ? "no EM to embed" : meta->packages_text && meta->packages_len > FS_REC_MAX_CHUNK
			 ? "the packages list is larger than 16 MiB" : "CPU count out of range");
		return NULL;
	}
	/* the oldest version that holds what is written: without a list, builds before version 5 read it */
	int version = meta->packages_text ? FS_REC_VERSION : FS_REC_VERSION_PLAIN;
	w = calloc(1, sizeof(*w));
	if (!w || !(w->path = strdup(path))) {
		free(w);
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	w->nr_cpus = meta->nr_cpus;
	w->raw_cap = FS_REC_CHUNK_RAW + sizeof(struct fs_em_update); /* the largest record */
	w->comp_cap = fs_rec_zip_bound(w->raw_cap);
	w->raw = malloc(w->raw_cap);
	w->comp = malloc(w->comp_cap);
	w->zip = fs_rec_zctx_new(true);
	w->borrowed = f != NULL;
	w->f = f ? f : fopen(path, "wb");
	if (!w->raw || !w->comp || !w->zip || !w->f) {
		werr(w, err, errlen, w->f ? "out of memory" : "cannot create");
		fs_rec_writer_close(w, NULL, 0);
		return NULL;
	}
	layout_meta(layout, sizeof(layout), version);
	/* the machine's settings (recording.h): keys a reader before them skips, so the version stays */
	fs_rec_cpufreq_text(meta, cpufreq, sizeof(cpufreq));
	int m = meta->hz ? snprintf(machine, sizeof(machine), "hz=%u\n", meta->hz) : 0;
	if (cpufreq[0])
		snprintf(machine + m, sizeof(machine) - (size_t)m, "cpufreq=%s\n", cpufreq);
	int n = snprintf(text, sizeof(text), "feecscope_version=%s\nkernel_release=%s\nnr_cpus=%d\nem_is_kernel=%d\n%s%s",
			 meta->feecscope_version[0] ? meta->feecscope_version : FS_VERSION_STRING,
			 meta->kernel_release, meta->nr_cpus, meta->em_is_kernel ? 1 : 0, machine, layout);
	unsigned char hdr[FILE_HDR];
	memcpy(hdr, FS_REC_MAGIC, FS_REC_MAGIC_LEN);
	put32(hdr + 8, (__u32)version);
	put32(hdr + 12, (__u32)n);
	put32(hdr + 16, (__u32)meta->em_len);
	uLong crc = crc32(0, hdr + 8, 12);
	crc = crc32(crc, (const Bytef *)text, n);
	crc = crc32(crc, (const Bytef *)meta->em_text, meta->em_len);
	put32(hdr + 20, (__u32)crc);
	if (fwrite(hdr, 1, sizeof(hdr), w->f) != sizeof(hdr) || fwrite(text, 1, n, w->f) != (size_t)n ||
	    fwrite(meta->em_text, 1, meta->em_len, w->f) != meta->em_len || fflush(w->f)) {
		werr(w, err, errlen, "write header");
		fs_rec_writer_close(w, NULL, 0);
		return NULL;
	}
	if (meta->packages_text && write_packages(w, meta, err, errlen)) {
		fs_rec_writer_close(w, NULL, 0);
		return NULL;
	}
	return w;
}

struct fs_rec_writer *fs_rec_writer_open(const char *path, const struct fs_rec_meta *meta,
					 char *err, size_t errlen)
{
	return writer_open(NULL, path, meta, err, errlen);
}

struct fs_rec_writer *fs_rec_writer_open_stream(FILE *f, const char *name, const struct fs_rec_meta *meta,
						char *err, size_t errlen)
{
	return writer_open(f, name, meta, err, errlen);
}

static int write_chunk(struct fs_rec_writer *w, const char *magic, const void *payload,
		       size_t raw_len, size_t comp_len, __u32 nr, char *err, size_t errlen)
{
	unsigned char h[CHUNK_HDR];
	memcpy(h, magic, 4);
	put32(h + 4, (__u32)raw_len);
	put32(h + 8, (__u32)comp_len);
	put32(h + 12, nr);
	uLong crc = crc32(0, h, 16);
	crc = crc32(crc, payload, comp_len);
	put32(h + 16, (__u32)crc);
	errno = 0;
	if (fwrite(h, 1, sizeof(h), w->f) != sizeof(h) ||
	    (comp_len && fwrite(payload, 1, comp_len, w->f) != comp_len) || fflush(w->f))
		return werr(w, err, errlen, "write chunk");
	return 0;
}

int fs_rec_writer_flush(struct fs_rec_writer *w, char *err, size_t errlen)
{
	if (w->failed) {
		snprintf(err, errlen, "%s: an earlier write failed", w->path);
		return -1;
	}
	if (!w->raw_len)
		return 0;
	size_t clen = fs_rec_zip(w->zip, w->comp, w->comp_cap, w->raw, w->raw_len);
	if (!clen) {
		snprintf(err, errlen, "%s: zstd compress failed", w->path);
		w->failed = true;
		return -1;
	}
	if (write_chunk(w, CHUNK_MAGIC, w->comp, w->raw_len, clen, w->raw_nr, err, errlen))
		return -1;
	w->raw_len = 0;
	w->raw_nr = 0;
	return 0;
}

int fs_rec_writer_add(struct fs_rec_writer *w, const struct fs_rec_hdr *rec, char *err, size_t errlen)
{
	char why[128];
	if (fs_rec_check(rec, rec->size, w->nr_cpus, why, sizeof(why))) {
		snprintf(err, errlen, "%s: refusing to record: %s", w->path, why);
		return -1;
	}
	if (w->raw_len && w->raw_len + rec->size > FS_REC_CHUNK_RAW && fs_rec_writer_flush(w, err, errlen))
		return -1;
	memcpy(w->raw + w->raw_len, rec, rec->size);
	w->raw_len += rec->size;
	w->raw_nr++;
	w->records++;
	return 0;
}

__u64 fs_rec_writer_records(const struct fs_rec_writer *w)
{
	return w->records;
}

int fs_rec_writer_close(struct fs_rec_writer *w, char *err, size_t errlen)
{
	int ret = 0;
	if (!w)
		return 0;
	if (err && w->f && !w->failed) {
		/* The end marker carries the total so a reader can tell a complete file. */
		if (fs_rec_writer_flush(w, err, errlen) ||
		    write_chunk(w, END_MAGIC, "", 0, 0, (__u32)w->records, err, errlen))
			ret = -1;
	}
	if (w->f && !w->borrowed && fclose(w->f) && !ret && err) {
		snprintf(err, errlen, "%s: close: %s", w->path, strerror(errno));
		ret = -1;
	}
	free(w->raw);
	free(w->comp);
	fs_rec_zctx_free(w->zip);
	free(w->path);
	free(w);
	return ret;
}

/* ---- reader ---- */

struct fs_rec_reader {
	FILE *f;
	char *path;
	int nr_cpus;
	int version;           /* 1: records are upgraded as they are handed out */
	long pos;              /* file offset of the next chunk header */
	__u32 chunk;           /* 1-based index of the next chunk */
	unsigned char *raw, *comp;
	size_t raw_cap, comp_cap;
	struct fs_rec_zctx *unzip;
	size_t raw_len, raw_off;
	__u32 left;            /* records of the current chunk not yet returned */
	__u64 records;         /* records returned */
	struct fs_rec_clock clock; /* the latest time of the records checked so far */
	bool done;
	union {                /* aligned copy handed out: 60 KiB for an em record, made with the first chunk */
		struct fs_rec_hdr hdr;
		struct fs_wakeup w;
		struct fs_freqstat f;
		struct fs_busyfreq bf;
		struct fs_em_update em;
	} *rec;
};

static int rerr(struct fs_rec_reader *r, char *err, size_t errlen, long at, const char *fmt, ...)
{
	char why[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "%s: chunk %u at byte %ld: %s; replayed %llu records", r->path, r->chunk,
		 at, why, (unsigned long long)r->records);
	r->done = true;
	return -1;
}

/* Value of key in "k=v\n" text, copied into out; -1 if absent. */
static int meta_get(const char *text, const char *key, char *out, size_t outlen)
{
	size_t kl = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, kl) && p[kl] == '=') {
			const char *v = p + kl + 1, *e = strchr(v, '\n');
			size_t n = e ? (size_t)(e - v) : strlen(v);
			if (n >= outlen)
				return -2; /* never cut short: the caller says it is too long */
			memcpy(out, v, n);
			out[n] = 0;
			return 0;
		}
	}
	return -1;
}

static int check_layout(const char *path, const char *text, int version, char *err, size_t errlen)
{
	char ours[768], line[128], got[64];
	layout_meta(ours, sizeof(ours), version);
	for (char *p = ours, *e; (e = strchr(p, '\n')); p = e + 1) {
		size_t n = e - p < (long)sizeof(line) - 1 ? (size_t)(e - p) : sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = 0;
		char *eq = strchr(line, '=');
		*eq = 0;
		const char *key = line, *want = eq + 1;
		if (meta_get(text, key, got, sizeof(got))) {
			snprintf(err, errlen, "%s: header: %s missing", path, key);
			return -1;
		}
		if (strcmp(got, want)) {
			snprintf(err, errlen, "%s: header: %s is %s in the file, %s in this build (record layout differs)",
				 path, key, got, want);
			return -1;
		}
	}
	return 0;
}

int fs_rec_sniff(const char *path, bool *is_recording, bool *binary, char *err, size_t errlen)
{
	unsigned char buf[4096];
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	*is_recording = n >= FS_REC_MAGIC_LEN && !memcmp(buf, FS_REC_MAGIC, FS_REC_MAGIC_LEN);
	*binary = *is_recording || (n && buf[0] == 0x89) || memchr(buf, 0, n) != NULL;
	return 0;
}

static int grow(unsigned char **buf, size_t *cap, size_t need)
{
	if (need <= *cap)
		return 0;
	unsigned char *n = realloc(*buf, need);
	if (!n)
		return -1;
	*buf = n;
	*cap = need;
	return 0;
}

/* One line about version 5's packages section at byte at; -1. */
static int pkg_err(const struct fs_rec_reader *r, long at, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int pkg_err(const struct fs_rec_reader *r, long at, char *err, size_t errlen, const char *fmt, ...)
{
	char why[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "%s: packages section at byte %ld: %s", r->path, at, why);
	return -1;
}

/*
 * Version 5: the packages section into meta when the first chunk is one
 * (framed as a chunk, nr_records 0). 0 with the file at the first record
 * chunk, or -1 with err: the header is damaged, nothing replays.
 */
static int read_packages(struct fs_rec_reader *r, struct fs_rec_meta *meta, char *err, size_t errlen)
{
	unsigned char h[CHUNK_HDR];
	long at = r->pos;
	size_t n = fread(h, 1, sizeof(h), r->f);

	if (n < 4 || memcmp(h, PKG_MAGIC, 4)) /* none: the chunks start here, load_chunk() judges them */
		return fseek(r->f, at, SEEK_SET) ? pkg_err(r, at, err, errlen, "%s", strerror(errno)) : 0;
	if (n < sizeof(h))
		return pkg_err(r, at, err, errlen, "truncated header (%zu of %d bytes)", n, CHUNK_HDR);
	__u32 raw_len = get32(h + 4), comp_len = get32(h + 8);
	if (raw_len > FS_REC_MAX_CHUNK || comp_len > FS_REC_MAX_CHUNK || get32(h + 12))
		return pkg_err(r, at, err, errlen, "implausible lengths (raw %u, compressed %u, records %u)",
			       raw_len, comp_len, get32(h + 12));
	if (grow(&r->comp, &r->comp_cap, comp_len + 1))
		return pkg_err(r, at, err, errlen, "out of memory");
	if ((n = fread(r->comp, 1, comp_len, r->f)) < comp_len)
		return pkg_err(r, at, err, errlen, "truncated (needs %u bytes, file has %zu)", CHUNK_HDR + comp_len,
			       CHUNK_HDR + n);
	if ((__u32)crc32(crc32(0, h, 16), r->comp, comp_len) != get32(h + 16))
		return pkg_err(r, at, err, errlen, "CRC mismatch");
	if (!r->unzip && !(r->unzip = fs_rec_zctx_new(false)))
		return pkg_err(r, at, err, errlen, "out of memory");
	if (!(meta->packages_text = malloc(raw_len + 1)))
		return pkg_err(r, at, err, errlen, "out of memory");
	if (fs_rec_unzip(r->unzip, r->version, meta->packages_text, raw_len, r->comp, comp_len))
		return pkg_err(r, at, err, errlen, "does not inflate to its %u bytes", raw_len);
	meta->packages_text[raw_len] = 0;
	meta->packages_len = raw_len;
	r->pos = at + CHUNK_HDR + (long)comp_len;
	return 0;
}

/*
 * The file header, its meta text and EM text, checked (magic, version,
 * lengths, CRC, layout); *textp the meta text, *body_at where the chunks
 * start. 0, or -1 with err.
 */
static int read_file_header(struct fs_rec_reader *r, const char *path, struct fs_rec_meta *meta, char **textp,
			    long *body_at, char *err, size_t errlen)
{
	unsigned char hdr[FILE_HDR];
	char *text;
	size_t n = fread(hdr, 1, sizeof(hdr), r->f);
	if (n < FS_REC_MAGIC_LEN || memcmp(hdr, FS_REC_MAGIC, FS_REC_MAGIC_LEN)) {
		snprintf(err, errlen, "%s: bad magic: not a feecscope recording", path);
		return -1;
	}
	if (n < sizeof(hdr)) {
		snprintf(err, errlen, "%s: header: truncated (%zu of %zu bytes)", path, n, sizeof(hdr));
		return -1;
	}
	__u32 version = get32(hdr + 8), tlen = get32(hdr + 12), elen = get32(hdr + 16);
	if (version < 1 || version > FS_REC_VERSION) {
		snprintf(err, errlen, "%s: recording version %u is not supported (this build reads versions 1 to %d)",
			 path, version, FS_REC_VERSION);
		return -1;
	}
	r->version = (int)version;
	if (tlen > 65536 || elen > FS_REC_MAX_CHUNK) {
		snprintf(err, errlen, "%s: header: implausible lengths (meta %u, EM %u bytes)", path, tlen, elen);
		return -1;
	}
	*textp = text = malloc(tlen + 1);
	meta->em_text = malloc(elen + 1);
	if (!text || !meta->em_text) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	if (fread(text, 1, tlen, r->f) != tlen || fread(meta->em_text, 1, elen, r->f) != elen) {
		snprintf(err, errlen, "%s: header: truncated (file ends inside the header)", path);
		return -1;
	}
	text[tlen] = 0;
	meta->em_text[elen] = 0;
	meta->em_len = elen;
	uLong crc = crc32(0, hdr + 8, 12);
	crc = crc32(crc, (const Bytef *)text, tlen);
	crc = crc32(crc, (const Bytef *)meta->em_text, elen);
	if ((__u32)crc != get32(hdr + 20)) {
		snprintf(err, errlen, "%s: header: CRC mismatch", path);
		return -1;
	}
	if (memchr(text, '\0', tlen)) {
		snprintf(err, errlen, "%s: header: a NUL byte in the meta text", path);
		return -1;
	}
	if (check_layout(path, text, r->version, err, errlen))
		return -1;
	*body_at = (long)(sizeof(hdr) + tlen + elen);
	return 0;
}

/* The meta text's keys every reader needs: nr_cpus, em_is_kernel, the release and version. */
static int parse_meta_text(const char *path, const char *text, struct fs_rec_meta *meta, char *err, size_t errlen)
{
	char val[80], why[128], *end;
	long ncpu = meta_get(text, "nr_cpus", val, sizeof(val)) ? 0 : strtol(val, &end, 10);
	if (ncpu <= 0 || ncpu > FS_MAX_CPUS || *end) {
		snprintf(err, errlen, "%s: header: nr_cpus missing or out of range 1..%d", path, FS_MAX_CPUS);
		return -1;
	}
	meta->nr_cpus = (int)ncpu;
	int rc = meta_get(text, "em_is_kernel", val, sizeof(val));
	if (rc == 0 && strcmp(val, "0") && strcmp(val, "1")) {
		snprintf(err, errlen, "%s: header: em_is_kernel: '%s', want 0 or 1", path, val);
		return -1;
	}
	meta->em_is_kernel = rc == 0 && val[0] == '1';
	if (meta_get(text, "kernel_release", meta->kernel_release, sizeof(meta->kernel_release)) == -2) {
		snprintf(err, errlen, "%s: header: kernel_release: longer than %zu characters", path,
			 sizeof(meta->kernel_release) - 1);
		return -1;
	}
	if (meta_get(text, "feecscope_version", meta->feecscope_version, sizeof(meta->feecscope_version)) == -2) {
		snprintf(err, errlen, "%s: header: feecscope_version: longer than %zu characters", path,
			 sizeof(meta->feecscope_version) - 1);
		return -1;
	}
	char big[1700];

	for (int k = 0; k < 2; k++) {
		const char *key = k ? "cpufreq" : "hz";
		int rc = meta_get(text, key, big, sizeof(big));

		if (rc == -2 || (!rc && fs_rec_machine_parse(key, big, meta, why, sizeof(why)))) {
			snprintf(err, errlen, "%s: header: %s: %s", path, key, rc == -2 ? "too long" : why);
			return -1;
		}
	}
	/* kept as written by both readers, so a recording converts to a CSV and back (fuzz find, December 2026) */
	if (fs_rec_check_meta_value(meta->kernel_release, why, sizeof(why)) ||
	    fs_rec_check_meta_value(meta->feecscope_version, why, sizeof(why))) {
		snprintf(err, errlen, "%s: header: %s: %s", path, fs_rec_check_meta_value(meta->kernel_release, why,
			 sizeof(why)) ? "kernel_release" : "feecscope_version", why);
		return -1;
	}
	return 0;
}

struct fs_rec_reader *fs_rec_reader_open(const char *path, struct fs_rec_meta *meta,
					 char *err, size_t errlen)
{
	char *text = NULL;
	long body_at;
	struct fs_rec_reader *r = calloc(1, sizeof(*r));

	memset(meta, 0, sizeof(*meta));
	if (!r || !(r->path = strdup(path))) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	r->f = fopen(path, "rb");
	if (!r->f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (read_file_header(r, path, meta, &text, &body_at, err, errlen) ||
	    parse_meta_text(path, text, meta, err, errlen))
		goto fail;
	free(text);
	text = NULL;
	r->nr_cpus = meta->nr_cpus;
	r->pos = body_at;
	r->chunk = 1;
	if (r->version >= 5 && read_packages(r, meta, err, errlen))
		goto fail;
	return r;
fail:
	free(text);
	fs_rec_meta_free(meta);
	fs_rec_reader_close(r);
	return NULL;
}

/*
 * Zero what a wake-up's unused cpu[] would read. Not the whole union: an em
 * record's text (60 KiB) is bounded by its len, and clearing it for every
 * record was a sixth of a replay's time.
 */
static void clear_rec(struct fs_rec_reader *r)
{
	memset(r->rec, 0, sizeof(r->rec->w) > sizeof(r->rec->f) ? sizeof(r->rec->w) : sizeof(r->rec->f));
}

/* Read, check and inflate the chunk at r->pos; every record boundary is checked before any is returned. */
static int load_chunk(struct fs_rec_reader *r, char *err, size_t errlen)
{
	unsigned char h[CHUNK_HDR];
	long at = r->pos;
	size_t n = fread(h, 1, sizeof(h), r->f);

	if (n == 0)
		return rerr(r, err, errlen, at, "file ends without the end marker (recording cut short)");
	if (n < sizeof(h))
		return rerr(r, err, errlen, at, "truncated chunk header (%zu of %d bytes)", n, CHUNK_HDR);
	bool end = !memcmp(h, END_MAGIC, 4);
	if (!end && memcmp(h, CHUNK_MAGIC, 4))
		return rerr(r, err, errlen, at, "bad chunk magic");
	__u32 raw_len = get32(h + 4), comp_len = get32(h + 8), nr = get32(h + 12);
	if (raw_len > FS_REC_MAX_CHUNK || comp_len > FS_REC_MAX_CHUNK)
		return rerr(r, err, errlen, at, "implausible chunk lengths (raw %u, compressed %u)", raw_len, comp_len);
	if (grow(&r->comp, &r->comp_cap, comp_len + 1))
		return rerr(r, err, errlen, at, "out of memory");
	n = fread(r->comp, 1, comp_len, r->f);
	if (n < comp_len)
		return rerr(r, err, errlen, at, "truncated (chunk needs %u bytes, file has %zu)",
			    CHUNK_HDR + comp_len, CHUNK_HDR + n);
	uLong crc = crc32(0, h, 16);
	crc = crc32(crc, r->comp, comp_len);
	if ((__u32)crc != get32(h + 16))
		return rerr(r, err, errlen, at, "CRC mismatch");
	if (end) {
		if (raw_len || comp_len)
			return rerr(r, err, errlen, at, "malformed end marker");
		if (nr != (__u32)r->records)
			return rerr(r, err, errlen, at, "end marker counts %u records, the chunks held %llu",
				    nr, (unsigned long long)r->records);
		if (fgetc(r->f) != EOF)
			return rerr(r, err, errlen, at, "data after the end marker");
		r->done = true;
		return 0;
	}
	/* the raw buffer only for a chunk that passed its CRC: a damaged length can ask for 16 MiB */
	if (grow(&r->raw, &r->raw_cap, raw_len + 1))
		return rerr(r, err, errlen, at, "out of memory");
	if (!r->unzip && !(r->unzip = fs_rec_zctx_new(false)))
		return rerr(r, err, errlen, at, "out of memory");
	if (fs_rec_unzip(r->unzip, r->version, r->raw, raw_len, r->comp, comp_len))
		return rerr(r, err, errlen, at, "does not inflate to its %u bytes", raw_len);
	/* Not calloc (60 KiB): clear_rec() clears what each record uses. */
	if (!r->rec && !(r->rec = malloc(sizeof(*r->rec))))
		return rerr(r, err, errlen, at, "out of memory");
	/* Validate the whole chunk first so a bad record never leaves a half-replayed chunk. */
	size_t off = 0;
	char why[160];
	for (__u32 i = 0; i < nr; i++) {
		struct fs_rec_hdr rh;
		if (raw_len - off < sizeof(rh))
			return rerr(r, err, errlen, at, "record %u of %u: cut short at chunk offset %zu", i + 1, nr, off);
		memcpy(&rh, r->raw + off, sizeof(rh));
		if (check_record(&rh, r->raw + off, raw_len - off, r->nr_cpus, r->version, why, sizeof(why)))
			return rerr(r, err, errlen, at, "record %u of %u: %s", i + 1, nr, why);
		/* The values too, in today's layout (r->rec is free: the last record handed out is spent). */
		clear_rec(r);
		if (r->version == 1)
			v1_upgrade(r->raw + off, &rh, r->rec);
		else
			memcpy(r->rec, r->raw + off, rh.size);
		if (fs_rec_check_values(&r->rec->hdr, r->nr_cpus, why, sizeof(why)) ||
		    fs_rec_check_time(&r->clock, &r->rec->hdr, why, sizeof(why)))
			return rerr(r, err, errlen, at, "record %u of %u: %s", i + 1, nr, why);
		off += rh.size;
	}
	if (off != raw_len)
		return rerr(r, err, errlen, at, "%zu bytes left after its %u records", raw_len - off, nr);
	r->raw_len = raw_len;
	r->raw_off = 0;
	r->left = nr;
	r->pos = at + CHUNK_HDR + comp_len;
	r->chunk++;
	return 0;
}

int fs_rec_reader_next(struct fs_rec_reader *r, const struct fs_rec_hdr **rec, char *err, size_t errlen)
{
	while (!r->left) {
		if (r->done)
			return 0;
		if (load_chunk(r, err, errlen))
			return -1;
	}
	struct fs_rec_hdr h;
	memcpy(&h, r->raw + r->raw_off, sizeof(h));
	clear_rec(r);
	if (r->version == 1)
		v1_upgrade(r->raw + r->raw_off, &h, r->rec);
	else
		memcpy(r->rec, r->raw + r->raw_off, h.size);
	r->raw_off += h.size;
	r->left--;
	r->records++;
	*rec = &r->rec->hdr;
	return 1;
}

int fs_rec_reader_version(const struct fs_rec_reader *r)
{
	return r->version;
}

__u64 fs_rec_reader_records(const struct fs_rec_reader *r)
{
	return r->records;
}

void fs_rec_reader_close(struct fs_rec_reader *r)
{
	if (!r)
		return;
	if (r->f)
		fclose(r->f);
	free(r->raw);
	free(r->comp);
	fs_rec_zctx_free(r->unzip);
	free(r->rec);
	free(r->path);
	free(r);
}

// SPDX-License-Identifier: GPL-2.0
/* CSV form of the records: reader (any column subset, defaults) and lossless writer; see docs/csv.md. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "csv_records.h"
#include "csv_packages.h"
#include "wire.h"

/* ---- column tables ---- */

enum kind { K_TYPE, K_U16, K_UCLAMP, K_U32, K_NR_RUNNING, K_S32, K_U64, K_HEX64, K_WFLAGS, K_CFLAGS, K_COMM, K_REASON,
	     K_RUNTIME, K_UID, K_SOURCE, K_FREQS, K_EMTEXT };

#define NA 0 /* no record has a field at offset 0 but its header, which no column names */
#define NR_TYPES (FS_REC_FREQ + 1)

#define W(f) ((int)offsetof(struct fs_wakeup, f))
#define M(f) ((int)offsetof(struct fs_migrate, f))
#define O(f) ((int)offsetof(struct fs_overutil, f))
#define L(f) ((int)offsetof(struct fs_lost, f))
#define T(f) ((int)offsetof(struct fs_task_time, f))
#define S(f) ((int)offsetof(struct fs_cpustat, f))
#define F(f) ((int)offsetof(struct fs_freqstat, f))
#define E(f) ((int)offsetof(struct fs_em_update, f))
#define B(f) ((int)offsetof(struct fs_busyfreq, f))
#define Q(f) ((int)offsetof(struct fs_freq, f))
_Static_assert(B(cpu) == F(cpu) && B(nr) == F(nr) && B(st) == F(st), "busyfreq must share freqstat's layout");

/* off[t]: byte offset of the field in record type t, NA if the column does not apply. */
struct col {
	const char *name;
	enum kind kind;
	int off[NR_TYPES];
};

#define WAKEUP(f) [FS_REC_WAKEUP] = W(f)
static const struct col cols[] = {
	{ "type", K_TYPE, { 0 } },
	{ "ts_ns", K_U64, { WAKEUP(hdr.ts_ns), [FS_REC_MIGRATE] = M(hdr.ts_ns), [FS_REC_OVERUTIL] = O(hdr.ts_ns),
			    [FS_REC_LOST] = L(hdr.ts_ns), [FS_REC_EXIT] = T(hdr.ts_ns), [FS_REC_RUNTIME] = T(hdr.ts_ns),
			    [FS_REC_CPUSTAT] = S(hdr.ts_ns), [FS_REC_FREQSTAT] = F(hdr.ts_ns), [FS_REC_EM] = E(hdr.ts_ns),
			    [FS_REC_BUSYFREQ] = B(hdr.ts_ns), [FS_REC_FREQ] = Q(hdr.ts_ns) } },
	{ "pid", K_S32, { WAKEUP(pid), [FS_REC_MIGRATE] = M(pid), [FS_REC_EXIT] = T(pid), [FS_REC_RUNTIME] = T(pid) } },
	{ "tgid", K_S32, { WAKEUP(tgid), [FS_REC_EXIT] = T(tgid), [FS_REC_RUNTIME] = T(tgid) } },
	{ "uid", K_UID, { WAKEUP(uid) } },
	{ "comm", K_COMM, { WAKEUP(comm), [FS_REC_EXIT] = T(comm), [FS_REC_RUNTIME] = T(comm) } },
	{ "sum_exec_ns", K_RUNTIME, { WAKEUP(sum_exec_ns), [FS_REC_MIGRATE] = M(sum_exec_ns),
				      [FS_REC_EXIT] = T(sum_exec_ns), [FS_REC_RUNTIME] = T(sum_exec_ns) } },
	{ "prev_cpu", K_S32, { WAKEUP(prev_cpu) } },
	{ "task_cpu", K_S32, { WAKEUP(task_cpu) } },
	{ "waker_cpu", K_S32, { WAKEUP(waker_cpu) } },
	{ "chosen_cpu", K_S32, { WAKEUP(chosen_cpu) } },
	{ "cpus_allowed", K_HEX64, { WAKEUP(cpus_allowed) } },
	{ "nr_cpus_allowed", K_U32, { WAKEUP(nr_cpus_allowed) } },
	{ "flags", K_WFLAGS, { WAKEUP(flags) } },
	{ "decided_ns", K_U64, { WAKEUP(decided_ns) } },
	{ "task_last_update_time", K_U64, { WAKEUP(task.last_update_time) } },
	{ "task_cfs_rq_last_update_time", K_U64, { WAKEUP(task.cfs_rq_last_update_time) } },
	{ "task_util_sum", K_U32, { WAKEUP(task.util_sum) } },
	{ "task_period_contrib", K_U32, { WAKEUP(task.period_contrib) } },
	{ "task_util_avg", K_U32, { WAKEUP(task.util_avg) } },
	{ "task_util_est_enqueued", K_U32, { WAKEUP(task.util_est_enqueued) } },
	{ "task_util_est_ewma", K_U32, { WAKEUP(task.util_est_ewma) } },
	{ "task_uclamp_min", K_UCLAMP, { WAKEUP(task.uclamp_min) } },
	{ "task_uclamp_max", K_UCLAMP, { WAKEUP(task.uclamp_max) } },
	{ "task_runnable_avg", K_U32, { WAKEUP(task.runnable_avg) } },
	{ "task_runnable_sum", K_U64, { WAKEUP(task.runnable_sum) } },
	{ "orig_cpu", K_S32, { [FS_REC_MIGRATE] = M(orig_cpu) } },
	{ "dest_cpu", K_S32, { [FS_REC_MIGRATE] = M(dest_cpu) } },
	{ "reason", K_REASON, { [FS_REC_MIGRATE] = M(reason) } },
	{ "overutilized", K_U32, { [FS_REC_OVERUTIL] = O(overutilized) } },
	{ "count", K_U64, { [FS_REC_LOST] = L(count) } },
	{ "source", K_SOURCE, { [FS_REC_CPUSTAT] = S(source) } },
	{ "policy_cpu", K_S32, { [FS_REC_FREQSTAT] = F(cpu), [FS_REC_FREQ] = Q(cpu) } },
	/* busyfreq shares freqstat's layout up to st[] (record.h): the same cell */
	{ "residency", K_FREQS, { [FS_REC_FREQSTAT] = F(nr), [FS_REC_BUSYFREQ] = B(nr) } },
	{ "em_text", K_EMTEXT, { [FS_REC_EM] = E(len) } },
	{ "busy_cpu", K_S32, { [FS_REC_BUSYFREQ] = B(cpu) } },
	{ "busy_unknown_ns", K_U64, { [FS_REC_BUSYFREQ] = B(unknown_ns) } },
	{ "khz", K_U32, { [FS_REC_FREQ] = Q(khz) } },
};
#define NR_COLS ((int)(sizeof(cols) / sizeof(cols[0])))

#define C(f) ((int)offsetof(struct fs_cpu, f))
static const struct { const char *name; enum kind kind; int off; } cpu_cols[] = {
	{ "cfs_last_update_time", K_U64, C(cfs_last_update_time) },
	{ "dl_running_bw", K_U64, C(dl_running_bw) },
	{ "util_avg", K_U32, C(util_avg) },
	{ "util_est", K_U32, C(util_est) },
	{ "runnable_avg", K_U32, C(runnable_avg) },
	{ "rt_util", K_U32, C(rt_util) },
	{ "dl_util", K_U32, C(dl_util) },
	{ "irq_util", K_U32, C(irq_util) },
	{ "capacity", K_U32, C(capacity) },
	{ "capacity_orig", K_U32, C(capacity_orig) },
	{ "thermal_pressure", K_U32, C(thermal_pressure) },
	{ "hw_load_avg", K_U32, C(hw_load_avg) },
	{ "cpufreq_pressure", K_U32, C(cpufreq_pressure) },
	{ "nr_running", K_NR_RUNNING, C(nr_running) }, /* empty: not read (FS_CPU_NO_NR_RUNNING) */
	{ "uclamp_min", K_UCLAMP, C(uclamp_min) },
	{ "uclamp_max", K_UCLAMP, C(uclamp_max) },
	{ "flags", K_CFLAGS, C(flags) },
	{ "busy_ns", K_U64, -1 }, /* cpustat: busy_ns[cpu] */
};
#define BUSY_FIELD (NR_CPU_COLS - 1)
#define NR_CPU_COLS ((int)(sizeof(cpu_cols) / sizeof(cpu_cols[0])))

/* Byte offset of CPU column (cpu, field) in a record of type t, NA where it does not apply. */
static int cpu_col_off(int t, int cpu, int field)
{
	if (field == BUSY_FIELD)
		return t == FS_REC_CPUSTAT ? S(busy_ns) + cpu * (int)sizeof(__u64) : NA;
	return t == FS_REC_WAKEUP ? W(cpu) + cpu * (int)sizeof(struct fs_cpu) + cpu_cols[field].off : NA;
}

static const char *const source_names[] = { NULL, "schedstat", "proc_stat" };
static const char *const reason_names[3] = { NULL, "balance", "wakeup" };

/* ---- writer ---- */

/* Decimal and hex text without fprintf, which parses its format for each of a row's hundreds of fields. */
static void put_u64(FILE *out, unsigned long long v)
{
	char buf[24], *p = buf + sizeof(buf);

	*--p = 0;
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	fputs(p, out);
}

static void put_s64(FILE *out, long long v)
{
	if (v < 0)
		fputc('-', out);
	put_u64(out, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v);
}

static void put_hex64(FILE *out, unsigned long long v) /* "0x%llx" */
{
	char buf[24], *p = buf + sizeof(buf);

	*--p = 0;
	do
		*--p = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	*--p = 'x';
	*--p = '0';
	fputs(p, out);
}

int fs_csv_records_write_header(FILE *out, const struct fs_rec_meta *m)
{
	fprintf(out, "# feecscope records v2\n# feecscope_version=%s\n# kernel_release=%s\n# nr_cpus=%d\n# em_is_kernel=%d\n",
		m->feecscope_version[0] ? m->feecscope_version : FS_VERSION_STRING, m->kernel_release,
		m->nr_cpus, m->em_is_kernel ? 1 : 0);
	char cpufreq[1600]; /* the machine's settings, as a recording's header keeps them (recording.h) */

	fs_rec_cpufreq_text(m, cpufreq, sizeof(cpufreq));
	if (m->hz)
		fprintf(out, "# hz=%u\n", m->hz);
	if (cpufreq[0])
		fprintf(out, "# cpufreq=%s\n", cpufreq);
	for (const char *p = m->em_text; p && *p;) {
		const char *e = strchr(p, '\n');
		int n = e ? (int)(e - p) : (int)strlen(p), w = n;
		/* a line's last CR goes: the reader takes it for the CSV's line end (the EM ignores it) */
		while (w && p[w - 1] == '\r')
			w--;
		fputs("# em: ", out);
		fwrite(p, 1, (size_t)w, out);
		fputc('\n', out);
		p += n + (e ? 1 : 0);
	}
	if (m->packages_text && fs_csv_packages_write(out, m->packages_text, m->packages_len))
		return -1;
	for (int i = 0; i < NR_COLS; i++) {
		if (i)
			fputc(',', out);
		fputs(cols[i].name, out);
	}
	for (int cpu = 0; cpu < m->nr_cpus; cpu++)
		for (int f = 0; f < NR_CPU_COLS; f++) {
			fputs(",cpu", out);
			put_u64(out, (unsigned long long)cpu);
			fputc('_', out);
			fputs(cpu_cols[f].name, out);
		}
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}

/* comm: backslash escapes for unprintable bytes and '\', CSV quotes when it holds , or " or spaces. */
static void write_comm(FILE *out, const char *comm)
{
	char buf[FS_COMM_LEN * 4 + 1];
	size_t o = 0;
	bool quote = false;
	for (int i = 0; i < FS_COMM_LEN && comm[i]; i++) {
		unsigned char c = comm[i];
		if (c < 0x20 || c >= 0x7f)
			o += sprintf(buf + o, "\\x%02x", c);
		else if (c == '\\')
			o += sprintf(buf + o, "\\\\");
		else {
			quote |= c == ',' || c == '"' || c == ' ';
			buf[o++] = c;
		}
	}
	buf[o] = 0;
	if (!quote) {
		fputs(buf, out);
		return;
	}
	fputc('"', out);
	for (char *p = buf; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	fputc('"', out);
}

/* A freqstat's residency cell: "khz:ns khz:ns ..." */
static void write_freqs(FILE *out, const unsigned char *base)
{
	const struct fs_freqstat *f = (const void *)base;
	for (__u32 i = 0; i < f->nr && i < FS_MAX_FREQS; i++) {
		if (i)
			fputc(' ', out);
		put_u64(out, f->st[i].khz);
		fputc(':', out);
		put_u64(out, f->st[i].ns);
	}
}

/* An em record's text: quoted; newline as \n, backslash as \\, quote doubled */
static void write_em_text(FILE *out, const unsigned char *base)
{
	const struct fs_em_update *e = (const void *)base;
	fputc('"', out);
	for (__u32 i = 0; i < e->len && i < FS_EM_TEXT_MAX; i++) {
		char c = e->text[i];
		if (c == '\n')
			fputs("\\n", out);
		else if (c == '\\')
			fputs("\\\\", out);
		else if (c == '"')
			fputs("\"\"", out);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void write_value(FILE *out, enum kind k, const unsigned char *base, int off)
{
	char buf[160];
	switch (k) {
	case K_TYPE: break;
	case K_U16: { __u16 v; memcpy(&v, base + off, 2); put_u64(out, v); break; }
	case K_UCLAMP: { /* "none": a kernel without CONFIG_UCLAMP_TASK (only wake-ups have clamps) */
		__u16 v; memcpy(&v, base + off, 2);
		if (((const struct fs_wakeup *)base)->flags & FS_WAKE_NO_UCLAMP)
			fputs("none", out);
		else
			put_u64(out, v);
		break;
	}
	case K_U32: { __u32 v; memcpy(&v, base + off, 4); put_u64(out, v); break; }
	case K_NR_RUNNING: { /* empty where the collector did not read it (and left 0) */
		__u32 v, f;
		memcpy(&v, base + off, 4);
		memcpy(&f, base + off - offsetof(struct fs_cpu, nr_running) + offsetof(struct fs_cpu, flags), 4);
		if (v || !(f & FS_CPU_NO_NR_RUNNING))
			put_u64(out, v);
		break;
	}
	case K_S32: { __s32 v; memcpy(&v, base + off, 4); put_s64(out, v); break; }
	case K_U64: { __u64 v; memcpy(&v, base + off, 8); put_u64(out, v); break; }
	case K_HEX64: { __u64 v; memcpy(&v, base + off, 8); put_hex64(out, v); break; }
	case K_WFLAGS: { __u32 v; memcpy(&v, base + off, 4); fs_csv_format_wake_flags(buf, sizeof(buf), v); fputs(buf, out); break; }
	case K_CFLAGS: { __u32 v; memcpy(&v, base + off, 4); fs_csv_format_cpu_flags(buf, sizeof(buf), v); fputs(buf, out); break; }
	case K_COMM: write_comm(out, (const char *)base + off); break;
	case K_REASON: {
		__u32 v; memcpy(&v, base + off, 4);
		if (v >= 1 && v <= 2)
			fputs(reason_names[v], out);
		else
			put_u64(out, v);
		break;
	}
	case K_RUNTIME: { /* empty = FS_NO_RUNTIME */
		__u64 v; memcpy(&v, base + off, 8);
		if (v != FS_NO_RUNTIME)
			put_u64(out, v);
		break;
	}
	case K_UID: { /* empty = FS_NO_UID */
		__u32 v; memcpy(&v, base + off, 4);
		if (v != FS_NO_UID)
			put_u64(out, v);
		break;
	}
	case K_SOURCE: {
		__u32 v; memcpy(&v, base + off, 4);
		if (v >= 1 && v <= 2)
			fputs(source_names[v], out);
		else
			put_u64(out, v);
		break;
	}
	case K_FREQS: write_freqs(out, base); break;
	case K_EMTEXT: write_em_text(out, base); break;
	}
}

int fs_csv_records_write(FILE *out, const struct fs_rec_hdr *rec, int nr_cpus)
{
	const unsigned char *base = (const unsigned char *)rec;
	int t = rec->type;
	if (t < 1 || t >= NR_TYPES)
		return -1;
	for (int i = 0; i < NR_COLS; i++) {
		if (i)
			fputc(',', out);
		if (cols[i].kind == K_TYPE)
			fputs(fs_rec_type_name(t), out);
		else if (cols[i].off[t] != NA)
			write_value(out, cols[i].kind, base, cols[i].off[t]);
	}
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		for (int f = 0; f < NR_CPU_COLS; f++) {
			int off = cpu_col_off(t, cpu, f);

			fputc(',', out);
			if (off != NA)
				write_value(out, cpu_cols[f].kind, base, off);
		}
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}

/* ---- reader ---- */

struct hcol {
	int spec;  /* index in cols[], or -1 for a CPU column */
	int cpu, field;
};

struct fs_csv_reader {
	FILE *f;
	char *path;
	char *line;
	size_t cap;
	unsigned long lineno;
	int nr_cpus;
	int ncols;
	struct hcol *hcols;
	int type_col;
	char **cells;
	int cells_cap;
	__u64 records;
	struct fs_rec_clock clock; /* the latest time of the rows read so far */
	struct fs_csv_packages pk; /* "# package: " lines until the header row */
	union { /* 60 KiB for an em record: made with the first row */
		struct fs_rec_hdr hdr;
		struct fs_wakeup w;
		struct fs_migrate m;
		struct fs_overutil o;
		struct fs_lost l;
		struct fs_task_time tt;
		struct fs_cpustat cs;
		struct fs_freqstat fq;
		struct fs_busyfreq bf;
		struct fs_freq fr;
		struct fs_em_update em;
	} *rec;
};

static int cerr(struct fs_csv_reader *r, char *err, size_t errlen, int col, const char *fmt, ...)
{
	char why[256], where[128] = "";
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (col >= 0) {
		const struct hcol *h = &r->hcols[col];
		if (h->spec >= 0)
			snprintf(where, sizeof(where), "column %d (%s): ", col + 1, cols[h->spec].name);
		else
			snprintf(where, sizeof(where), "column %d (cpu%d_%s): ", col + 1, h->cpu, cpu_cols[h->field].name);
	}
	snprintf(err, errlen, "%s:%lu: %s%s", r->path, r->lineno, where, why);
	return -1;
}

/* The next line, without its newline, in r->line: 1; end of file: 0; an error in err: -1. */
static int read_line(struct fs_csv_reader *r, char *err, size_t errlen)
{
	ssize_t n = getline(&r->line, &r->cap, r->f);
	if (n < 0)
		return 0;
	r->lineno++;
	/* Every cell and header value is read as a C string: a NUL would cut it unseen. */
	if (memchr(r->line, 0, (size_t)n))
		return cerr(r, err, errlen, -1, "a NUL byte in the line (a records CSV is text)");
	while (n && (r->line[n - 1] == '\n' || r->line[n - 1] == '\r'))
		r->line[--n] = 0;
	return 1;
}

/* Split r->line in place into cells (RFC 4180 quotes). Returns the count or -1. */
static int split(struct fs_csv_reader *r, char *err, size_t errlen)
{
	int n = 0;
	char *p = r->line;
	for (;;) {
		if (n == r->cells_cap) {
			int cap = r->cells_cap ? 2 * r->cells_cap : 64;
			char **c = realloc(r->cells, cap * sizeof(*c));
			if (!c)
				return cerr(r, err, errlen, -1, "out of memory");
			r->cells = c;
			r->cells_cap = cap;
		}
		while (*p == ' ' || *p == '\t') /* blanks around a cell are not its text, */
			p++;
		char *start = p, *o = p;
		if (*p == '"') { /* but inside quotes they are (a comm may end in one) */
			p++;
			for (;;) {
				if (!*p)
					return cerr(r, err, errlen, -1, "cell %d: unterminated quote", n + 1);
				if (*p == '"' && p[1] == '"') {
					*o++ = '"';
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					*o++ = *p++;
				}
			}
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p && *p != ',')
				return cerr(r, err, errlen, -1, "cell %d: text after a closing quote", n + 1);
		} else {
			p += strcspn(p, ","); /* libc's scan: a row has hundreds of cells */
			for (o = p; o > start && (o[-1] == ' ' || o[-1] == '\t'); o--)
				;
		}
		char sep = *p;
		*o = 0;
		r->cells[n++] = start;
		if (!sep)
			return n;
		p++;
	}
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = 0;
	return s;
}

/* The text after "# em: " in line, or NULL if line is no such comment. */
static const char *em_line(const char *line)
{
	line += strspn(line, " \t");
	if (*line != '#')
		return NULL;
	line += 1 + strspn(line + 1, " \t");
	if (strncmp(line, "em:", 3))
		return NULL;
	return line[3] == ' ' ? line + 4 : line + 3;
}

/*
 * Column names are matched on their first letter before a strcmp: a header
 * has hundreds of columns, and comparing each with every name was most of
 * reading one.
 */

/* The cols[] index of a column name, or -1. */
static int spec_of(const char *name)
{
	for (int i = 0; i < NR_COLS; i++)
		if (cols[i].name[0] == name[0] && !strcmp(cols[i].name, name))
			return i;
	return -1;
}

/* The cpu_cols[] index of what follows "cpuN_", or -1. */
static int cpu_field_of(const char *field)
{
	for (int f = 0; f < NR_CPU_COLS; f++)
		if (cpu_cols[f].name[0] == field[0] && !strcmp(cpu_cols[f].name, field))
			return f;
	return -1;
}

/* N of a name "cpuN_...", *field then what follows the '_'; else *field is NULL. */
static long cpu_prefix(char *name, char **field)
{
	char *end;
	long cpu;

	*field = NULL;
	if (strncmp(name, "cpu", 3))
		return -1;
	cpu = strtol(name + 3, &end, 10);
	if (end > name + 3 && *end == '_')
		*field = end + 1;
	return cpu;
}

/* One "em: " line appended to the EM text being gathered; frees it on failure. */
static int append_em_line(struct fs_csv_reader *r, char **em, size_t *em_len, size_t *em_cap, const char *v,
			  char *err, size_t errlen)
{
	size_t vl = strlen(v);
	if (*em_len + vl + 2 > *em_cap) { /* doubling: an EM is a hundred lines or more */
		size_t cap = 2 * *em_cap > *em_len + vl + 2 ? 2 * *em_cap : *em_len + vl + 2 + 1024;
		char *n = realloc(*em, cap);
		if (!n) {
			free(*em);
			return cerr(r, err, errlen, -1, "out of memory");
		}
		*em = n;
		*em_cap = cap;
	}
	memcpy(*em + *em_len, v, vl);
	*em_len += vl;
	(*em)[(*em_len)++] = '\n';
	(*em)[*em_len] = 0;
	return 0;
}

/* A "# key=value" line before the header row: the metadata it sets, or -1 on a bad value. */
static int read_meta_line(struct fs_csv_reader *r, struct fs_rec_meta *m, char *s, int *declared_cpus,
			  char *err, size_t errlen)
{
	if (!strncmp(s, "kernel_release=", 15) || !strncmp(s, "feecscope_version=", 18)) {
		bool rel = s[0] == 'k';
		char *dst = rel ? m->kernel_release : m->feecscope_version;
		size_t max = rel ? sizeof(m->kernel_release) : sizeof(m->feecscope_version);
		const char *v = s + (rel ? 15 : 18);
		if (strlen(v) >= max)
			return cerr(r, err, errlen, -1, "%.*s: longer than %zu characters", rel ? 14 : 17, s, max - 1);
		char why[96];
		if (fs_rec_check_meta_value(v, why, sizeof(why))) { /* as the recording reader: it converts back */
			return cerr(r, err, errlen, -1, "%.*s: %s", rel ? 14 : 17, s, why);
		}
		strcpy(dst, v);
	} else if (!strncmp(s, "em_is_kernel=", 13)) {
		if (strcmp(s + 13, "0") && strcmp(s + 13, "1"))
			return cerr(r, err, errlen, -1, "em_is_kernel: '%s', want 0 or 1", s + 13);
		m->em_is_kernel = s[13] == '1';
	} else if (!strncmp(s, "nr_cpus=", 8)) {
		char *end;
		long v = strtol(s + 8, &end, 10);
		if (*end || v <= 0 || v > FS_MAX_CPUS)
			return cerr(r, err, errlen, -1, "nr_cpus: '%s' is not a CPU count in 1..%d", s + 8, FS_MAX_CPUS);
		*declared_cpus = (int)v;
	} else if (!strncmp(s, "hz=", 3) || !strncmp(s, "cpufreq=", 8)) {
		char why[128];
		bool hz = s[0] == 'h';

		if (fs_rec_machine_parse(hz ? "hz" : "cpufreq", s + (hz ? 3 : 8), m, why, sizeof(why)))
			return cerr(r, err, errlen, -1, "%s: %s", hz ? "hz" : "cpufreq", why);
	}
	return 0;
}

/* The header row: each column's field (or CPU and field), the type column, the CPU count. */
static int read_columns(struct fs_csv_reader *r, struct fs_rec_meta *m, int declared_cpus, char *err, size_t errlen)
{
	int n = split(r, err, errlen);
	if (n < 0)
		return -1;
	r->hcols = calloc(n, sizeof(*r->hcols));
	if (!r->hcols)
		return cerr(r, err, errlen, -1, "out of memory");
	r->ncols = n;
	r->type_col = -1;
	int max_cpu = -1, first_col[NR_COLS] = { 0 }, first_cpu_col[FS_MAX_CPUS][NR_CPU_COLS] = { { 0 } };
	for (int i = 0; i < n; i++) {
		char *name = r->cells[i];
		struct hcol *h = &r->hcols[i];
		h->spec = -1;
		char *field;
		long cpu = cpu_prefix(name, &field);
		if (field) {
			int f = cpu_field_of(field);
			if (f < 0 || cpu < 0 || cpu >= FS_MAX_CPUS)
				return cerr(r, err, errlen, -1, "column %d: unknown column '%s'", i + 1, name);
			h->cpu = (int)cpu;
			h->field = f;
			if (cpu > max_cpu)
				max_cpu = (int)cpu;
		} else {
			h->spec = spec_of(name);
			if (h->spec < 0)
				return cerr(r, err, errlen, -1, "column %d: unknown column '%s'", i + 1, name);
			if (cols[h->spec].kind == K_TYPE)
				r->type_col = i;
		}
		/* each column's first place (1-based): a header has hundreds of columns */
		int *first = h->spec >= 0 ? &first_col[h->spec] : &first_cpu_col[h->cpu][h->field];
		if (*first)
			return cerr(r, err, errlen, -1, "column %d: '%s' repeats column %d", i + 1, name, *first);
		*first = i + 1;
	}
	if (r->type_col < 0)
		return cerr(r, err, errlen, -1, "header has no 'type' column");
	if (declared_cpus && max_cpu >= declared_cpus)
		return cerr(r, err, errlen, -1, "header has cpu%d_ columns but '# nr_cpus=%d'", max_cpu, declared_cpus);
	r->nr_cpus = declared_cpus ? declared_cpus : max_cpu + 1;
	if (r->nr_cpus <= 0)
		return cerr(r, err, errlen, -1, "no cpuN_ columns and no '# nr_cpus=' line: cannot tell the CPU count");
	m->nr_cpus = r->nr_cpus;
	return 0;
}

static int read_header(struct fs_csv_reader *r, struct fs_rec_meta *m, char *err, size_t errlen)
{
	char *em = NULL;
	size_t em_len = 0, em_cap = 0;
	int declared_cpus = 0;

	for (;;) {
		int got = read_line(r, err, errlen);
		if (got <= 0) {
			free(em);
			if (!got)
				snprintf(err, errlen, "%s: no header row", r->path);
			return -1;
		}
		/* a packages.list line, as exactly (csv_packages.h) */
		const char *pv = fs_csv_package_line(r->line);
		if (pv) {
			char why[160];

			if (fs_csv_packages_add(&r->pk, pv, FS_REC_MAX_CHUNK, why, sizeof(why))) {
				free(em);
				return cerr(r, err, errlen, -1, "%s", why);
			}
			continue;
		}
		/* keep the EM line exactly as written after "em: " (before trim() cuts its blanks) */
		const char *v = em_line(r->line);
		if (v) {
			if (append_em_line(r, &em, &em_len, &em_cap, v, err, errlen))
				return -1;
			continue;
		}
		char *s = trim(r->line);
		if (!*s)
			continue;
		if (*s != '#')
			break;
		s = trim(s + 1);
		if (read_meta_line(r, m, s, &declared_cpus, err, errlen)) {
			free(em);
			return -1;
		}
	}
	m->em_text = em;
	m->em_len = em_len;
	if (r->pk.len) { /* the recording's own list (version 5); an empty one is none, as there */
		m->packages_text = r->pk.text;
		m->packages_len = r->pk.len;
		r->pk.text = NULL;
	}
	fs_csv_packages_free(&r->pk);

	return read_columns(r, m, declared_cpus, err, errlen);
}

struct fs_csv_reader *fs_csv_reader_open(const char *path, struct fs_rec_meta *meta, char *err, size_t errlen)
{
	struct fs_csv_reader *r = calloc(1, sizeof(*r));
	memset(meta, 0, sizeof(*meta));
	if (!r || !(r->path = strdup(path))) {
		free(r);
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	r->f = fopen(path, "r");
	if (!r->f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		fs_csv_reader_close(r);
		return NULL;
	}
	if (read_header(r, meta, err, errlen)) {
		fs_rec_meta_free(meta);
		fs_csv_reader_close(r);
		return NULL;
	}
	return r;
}

static int parse_u64(const char *s, __u64 *v)
{
	char *end;
	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	unsigned long long x = strtoull(s, &end, hex ? 16 : 10);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

static int parse_s64(const char *s, long long *v)
{
	char *end;
	if (!*s)
		return -1;
	errno = 0;
	long long x = strtoll(s, &end, 10);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

static int parse_flags(const char *s, const char *const *names, int n, __u32 *out)
{
	char buf[256];
	__u32 v = 0;
	snprintf(buf, sizeof(buf), "%s", s);
	for (char *save, *tok = strtok_r(buf, "|", &save); tok; tok = strtok_r(NULL, "|", &save)) {
		tok = trim(tok);
		__u64 num;
		int b;
		for (b = 0; b < n; b++)
			if (!strcmp(tok, names[b]))
				break;
		if (b < n)
			v |= 1u << b;
		else if (!parse_u64(tok, &num) && num <= UINT32_MAX)
			v |= (__u32)num;
		else
			return -1;
	}
	*out = v;
	return 0;
}

static int parse_comm(const char *s, char *comm)
{
	int o = 0;
	memset(comm, 0, FS_COMM_LEN);
	for (const char *p = s; *p; p++) {
		unsigned c = (unsigned char)*p;
		if (*p == '\\') {
			if (p[1] == '\\') {
				p++;
			} else if (p[1] == 'x' && sscanf(p + 2, "%2x", &c) == 1 && p[2] && p[3]) {
				p += 3;
			} else {
				return -1;
			}
		}
		if (o >= FS_COMM_LEN - 1 || !c)
			return -1;
		comm[o++] = (char)c;
	}
	return 0;
}

/* "khz:ns khz:ns ...", frequencies strictly increasing, at most FS_MAX_FREQS. */
static int parse_freqs(const char *s, struct fs_freqstat *fq, char *why, size_t wl)
{
	const char *p = s;

	fq->nr = 0;
	if (strpbrk(s, "-+")) { /* sscanf's %llu would take a sign */
		snprintf(why, wl, "'%s' is not khz:ns pairs of unsigned numbers", s);
		return -1;
	}
	while (*p) {
		unsigned long long khz, ns;
		int used = 0;

		if (fq->nr == FS_MAX_FREQS) {
			snprintf(why, wl, "more than %d frequencies", FS_MAX_FREQS);
			return -1;
		}
		if (sscanf(p, "%llu:%llu%n", &khz, &ns, &used) != 2 || !khz || khz > UINT32_MAX ||
		    (p[used] && p[used] != ' ')) {
			snprintf(why, wl, "entry %u of '%s' is not khz:ns", fq->nr + 1, s);
			return -1;
		}
		if (fq->nr && khz <= fq->st[fq->nr - 1].khz) {
			snprintf(why, wl, "entry %u: %llu kHz after %u kHz (frequencies must increase)",
				 fq->nr + 1, khz, fq->st[fq->nr - 1].khz);
			return -1;
		}
		fq->st[fq->nr].khz = (__u32)khz;
		fq->st[fq->nr].ns = ns;
		fq->nr++;
		p += used;
		while (*p == ' ')
			p++;
	}
	return 0;
}

/* An unsigned cell of 16, 32 or 64 bits into base+off; -1 with the problem in why. */
static int store_unsigned(enum kind k, const char *s, unsigned char *base, int off, char *why, size_t wl)
{
	__u64 u;
	bool u32 = k == K_U32 || k == K_NR_RUNNING;
	__u64 max = k == K_U16 ? 0xffff : (u32 ? 0xffffffffull : UINT64_MAX);
	if (parse_u64(s, &u) || u > max) {
		snprintf(why, wl, "'%s' is not an unsigned %d-bit number", s, k == K_U16 ? 16 : (u32 ? 32 : 64));
		return -1;
	}
	if (k == K_U16) { __u16 v = (__u16)u; memcpy(base + off, &v, 2); }
	else if (u32) { __u32 v = (__u32)u; memcpy(base + off, &v, 4); }
	else memcpy(base + off, &u, 8);
	return 0;
}

/* An em_text cell: \n and \\ unescaped into e->text; -1 with the problem in why. */
static int parse_em_text(const char *s, struct fs_em_update *e, char *why, size_t wl)
{
	__u32 n = 0;
	for (const char *p = s; *p; p++) {
		char c = *p;
		if (c == '\\') {
			if (p[1] != 'n' && p[1] != '\\') {
				snprintf(why, wl, "em_text: '\\%c' is not an escape (\\n, \\\\)", p[1] ? p[1] : ' ');
				return -1;
			}
			c = *++p == 'n' ? '\n' : '\\';
		}
		if (n == FS_EM_TEXT_MAX) {
			snprintf(why, wl, "em_text: more than %d bytes", FS_EM_TEXT_MAX);
			return -1;
		}
		e->text[n++] = c;
	}
	e->len = n;
	return 0;
}

/* A cpustat source cell, by name, into base+off; -1 with the problem in why. */
static int store_source(const char *s, unsigned char *base, int off, char *why, size_t wl)
{
	__u32 f;
	if (!strcmp(s, "schedstat")) f = FS_CPUSTAT_SCHEDSTAT;
	else if (!strcmp(s, "proc_stat")) f = FS_CPUSTAT_PROC_STAT;
	else {
		snprintf(why, wl, "'%s' is not a busy-time source (schedstat, proc_stat)", s);
		return -1;
	}
	memcpy(base + off, &f, 4);
	return 0;
}

/* A migration reason cell, by name or number, into base+off; -1 with the problem in why. */
static int store_reason(const char *s, unsigned char *base, int off, char *why, size_t wl)
{
	__u64 u;
	__u32 f;
	if (!strcmp(s, "balance")) f = FS_MIG_BALANCE;
	else if (!strcmp(s, "wakeup")) f = FS_MIG_WAKEUP;
	else if (parse_u64(s, &u) || u > 0xffffffffull) {
		snprintf(why, wl, "'%s' is not a migration reason (balance, wakeup)", s);
		return -1;
	} else f = (__u32)u;
	memcpy(base + off, &f, 4);
	return 0;
}

/* Parse cell s of kind k into base+off; -1 with a problem description in why. */
static int store(enum kind k, const char *s, unsigned char *base, int off, char *why, size_t wl)
{
	__u64 u;
	long long sv;
	__u32 f;
	switch (k) {
	case K_TYPE:
		return 0;
	case K_UCLAMP:
		if (!strcmp(s, "none")) /* the default stays; the caller flags the record */
			return 0;
		if (parse_u64(s, &u) || u > 1024) {
			snprintf(why, wl, "'%s' is not a clamp (0..1024, or none)", s);
			return -1;
		}
		{ __u16 v = (__u16)u; memcpy(base + off, &v, 2); }
		return 0;
	case K_U16:
	case K_U32:
	case K_NR_RUNNING:
	case K_U64:
	case K_HEX64:
		return store_unsigned(k, s, base, off, why, wl);
	case K_S32:
		if (parse_s64(s, &sv) || sv < INT32_MIN || sv > INT32_MAX) {
			snprintf(why, wl, "'%s' is not a signed 32-bit number", s);
			return -1;
		}
		{ __s32 v = (__s32)sv; memcpy(base + off, &v, 4); }
		return 0;
	case K_WFLAGS:
	case K_CFLAGS:
		if (k == K_WFLAGS ? parse_flags(s, fs_csv_wake_flag_names, FS_CSV_NR_WAKE_FLAGS, &f) :
					  parse_flags(s, fs_csv_cpu_flag_names, FS_CSV_NR_CPU_FLAGS, &f)) {
			snprintf(why, wl, "'%s' is not a flag set (names joined by '|', or a number)", s);
			return -1;
		}
		memcpy(base + off, &f, 4);
		return 0;
	case K_COMM:
		if (parse_comm(s, (char *)base + off)) {
			snprintf(why, wl, "'%s' is not a comm of at most %d bytes (escapes: \\\\, \\xNN)", s, FS_COMM_LEN - 1);
			return -1;
		}
		return 0;
	case K_RUNTIME:
		if (parse_u64(s, &u) || u == FS_NO_RUNTIME) {
			snprintf(why, wl, "'%s' is not a CPU time in ns (empty = unknown)", s);
			return -1;
		}
		memcpy(base + off, &u, 8);
		return 0;
	case K_UID:
		if (parse_u64(s, &u) || u >= FS_NO_UID) {
			snprintf(why, wl, "'%s' is not a uid (empty = unknown)", s);
			return -1;
		}
		f = (__u32)u;
		memcpy(base + off, &f, 4);
		return 0;
	case K_SOURCE:
		return store_source(s, base, off, why, wl);
	case K_FREQS:
		return parse_freqs(s, (struct fs_freqstat *)base, why, wl);
	case K_EMTEXT:
		return parse_em_text(s, (struct fs_em_update *)base, why, wl);
	case K_REASON:
		return store_reason(s, base, off, why, wl);
	}
	return -1;
}

/* A value for column name was in the row (seen[]: per cols[] index); one search of cols[]. */
static bool given(const bool *seen, const char *name)
{
	int i = spec_of(name);

	return i >= 0 && seen[i];
}

static int find_col(const struct fs_csv_reader *r, const char *name)
{
	for (int i = 0; i < r->ncols; i++)
		if (r->hcols[i].spec >= 0 && !strcmp(cols[r->hcols[i].spec].name, name))
			return i;
	return -1;
}

/* Range checks the engine relies on (CPU numbers index cpu[]). */
static int check_cpu(struct fs_csv_reader *r, const char *name, __s32 v, bool allow_neg1,
		     char *err, size_t errlen)
{
	if ((v >= 0 && v < r->nr_cpus) || (allow_neg1 && v == -1))
		return 0;
	return cerr(r, err, errlen, find_col(r, name), "CPU %d out of range %s0..%d", v,
		    allow_neg1 ? "-1, " : "", r->nr_cpus - 1);
}

/* The row's record type, by name or by its number as a whole decimal (docs/csv.md); -1 if none. */
static int row_type(struct fs_csv_reader *r, int n, char *err, size_t errlen)
{
	const char *ts = n > r->type_col ? r->cells[r->type_col] : "";
	__u64 num;
	for (int t = 1; t < NR_TYPES; t++)
		if (!strcmp(ts, fs_rec_type_name(t)))
			return t;
	/* decimal digits only: parse_u64 would also take "0x0a" and " 3" */
	if (strspn(ts, "0123456789") == strlen(ts) && !parse_u64(ts, &num) && num >= 1 && num < NR_TYPES)
		return (int)num;
	return cerr(r, err, errlen, r->type_col, "'%s' is not a record type (wakeup, migrate, overutil, "
		    "lost, exit, runtime, cpustat, freqstat, em, busyfreq, freq, or 1-%d)", ts, NR_TYPES - 1);
}

/* The record before its cells: zero, and each type's defaults for the cells left empty. */
static void clear_rec(struct fs_csv_reader *r, int t)
{
	memset(r->rec, 0, sizeof(r->rec->w));
	if (t == FS_REC_WAKEUP) {
		r->rec->w.chosen_cpu = -1;
		r->rec->w.sum_exec_ns = FS_NO_RUNTIME;
		r->rec->w.uid = FS_NO_UID;
		r->rec->w.task.uclamp_max = 1024 /* SCHED_CAPACITY_SCALE: no clamp */;
		for (int cpu = 0; cpu < r->nr_cpus; cpu++) {
			r->rec->w.cpu[cpu].flags = FS_CPU_ONLINE | FS_CPU_IN_SD;
			r->rec->w.cpu[cpu].uclamp_max = 1024 /* SCHED_CAPACITY_SCALE: no clamp */;
		}
	} else if (t == FS_REC_MIGRATE) {
		r->rec->m.orig_cpu = -1;
		r->rec->m.reason = FS_MIG_BALANCE;
		r->rec->m.sum_exec_ns = FS_NO_RUNTIME;
	}
}

/* Each non-empty cell stored at its field; seen[] and *no_uclamp say what was given. */
static int store_cells(struct fs_csv_reader *r, int t, int n, bool *seen, bool *no_uclamp, char *err, size_t errlen)
{
	unsigned char *base = (unsigned char *)r->rec;
	char why[256];
	for (int i = 0; i < n; i++) {
		const char *cell = r->cells[i];
		const struct hcol *h = &r->hcols[i];
		if (!*cell || i == r->type_col)
			continue;
		int off;
		enum kind k;
		if (h->spec >= 0) {
			off = cols[h->spec].off[t];
			k = cols[h->spec].kind;
		} else {
			off = h->cpu < r->nr_cpus ? cpu_col_off(t, h->cpu, h->field) : NA;
			k = cpu_cols[h->field].kind;
		}
		if (off == NA)
			return cerr(r, err, errlen, i, "does not apply to a %s record (leave it empty)", fs_rec_type_name(t));
		if (store(k, cell, base, off, why, sizeof(why)))
			return cerr(r, err, errlen, i, "%s", why);
		*no_uclamp |= k == K_UCLAMP && !strcmp(cell, "none");
		if (h->spec >= 0)
			seen[h->spec] = true;
	}
	return 0;
}

/* A wakeup row's required cells, its defaults from other cells, its CPUs in range, its size. */
static int finish_wakeup(struct fs_csv_reader *r, const bool *seen, bool no_uclamp, char *err, size_t errlen)
{
#define SEEN(name) given(seen, name)
	struct fs_wakeup *w = &r->rec->w;
	if (!SEEN("pid") || !SEEN("prev_cpu"))
		return cerr(r, err, errlen, -1, "a wakeup needs pid and prev_cpu");
	if (!SEEN("tgid"))
		w->tgid = w->pid;
	if (no_uclamp)
		w->flags |= FS_WAKE_NO_UCLAMP;
	if (!SEEN("task_cpu"))
		w->task_cpu = w->prev_cpu;
	if (!SEEN("waker_cpu"))
		w->waker_cpu = w->prev_cpu;
	__u64 all = r->nr_cpus == 64 ? ~0ull : (1ull << r->nr_cpus) - 1;
	if (!SEEN("cpus_allowed"))
		w->cpus_allowed = all;
	if (!(w->cpus_allowed & all))
		return cerr(r, err, errlen, find_col(r, "cpus_allowed"), "0x%llx has none of CPUs 0..%d",
			    (unsigned long long)w->cpus_allowed, r->nr_cpus - 1);
	if (!SEEN("nr_cpus_allowed"))
		w->nr_cpus_allowed = (__u32)__builtin_popcountll(w->cpus_allowed);
	if (check_cpu(r, "prev_cpu", w->prev_cpu, false, err, errlen) ||
	    check_cpu(r, "task_cpu", w->task_cpu, false, err, errlen) ||
	    check_cpu(r, "waker_cpu", w->waker_cpu, false, err, errlen) ||
	    check_cpu(r, "chosen_cpu", w->chosen_cpu, true, err, errlen))
		return -1;
	w->hdr.nr_cpus = (__u16)r->nr_cpus;
	w->hdr.size = (__u32)fs_wakeup_size(r->nr_cpus);
#undef SEEN
	return 0;
}

/* The row's required cells for its type, the defaults they imply, and its size. */
static int finish_rec(struct fs_csv_reader *r, int t, const bool *seen, bool no_uclamp, char *err, size_t errlen)
{
#define SEEN(name) given(seen, name)
	if (t == FS_REC_WAKEUP) {
		if (finish_wakeup(r, seen, no_uclamp, err, errlen))
			return -1;
	} else if (t == FS_REC_MIGRATE) {
		if (!SEEN("pid") || !SEEN("dest_cpu"))
			return cerr(r, err, errlen, -1, "a migrate needs pid and dest_cpu");
		if (check_cpu(r, "dest_cpu", r->rec->m.dest_cpu, false, err, errlen) ||
		    check_cpu(r, "orig_cpu", r->rec->m.orig_cpu, true, err, errlen))
			return -1;
		r->rec->hdr.size = sizeof(struct fs_migrate);
	} else if (t == FS_REC_OVERUTIL) {
		if (!SEEN("overutilized"))
			return cerr(r, err, errlen, -1, "an overutil record needs overutilized");
		if (r->rec->o.overutilized > 1)
			return cerr(r, err, errlen, find_col(r, "overutilized"), "%u is not 0 or 1", r->rec->o.overutilized);
		r->rec->hdr.size = sizeof(struct fs_overutil);
	} else if (t == FS_REC_LOST) {
		if (!SEEN("count"))
			return cerr(r, err, errlen, -1, "a lost record needs count");
		r->rec->hdr.size = sizeof(struct fs_lost);
	} else if (t == FS_REC_EXIT || t == FS_REC_RUNTIME) {
		if (!SEEN("pid") || !SEEN("sum_exec_ns"))
			return cerr(r, err, errlen, -1, "an %s record needs pid and sum_exec_ns", fs_rec_type_name(t));
		if (!SEEN("tgid"))
			r->rec->tt.tgid = r->rec->tt.pid;
		r->rec->hdr.size = sizeof(struct fs_task_time);
	} else if (t == FS_REC_CPUSTAT) {
		if (!SEEN("source"))
			return cerr(r, err, errlen, -1, "a cpustat record needs source");
		r->rec->cs.nr_cpus = (__u32)r->nr_cpus;
		r->rec->hdr.size = sizeof(struct fs_cpustat);
	} else if (t == FS_REC_BUSYFREQ) {
		if (!SEEN("busy_cpu"))
			return cerr(r, err, errlen, -1, "a busyfreq record needs busy_cpu");
		if (check_cpu(r, "busy_cpu", r->rec->bf.cpu, false, err, errlen))
			return -1;
		r->rec->hdr.size = sizeof(struct fs_busyfreq);
	} else if (t == FS_REC_FREQ) {
		if (!SEEN("policy_cpu") || !SEEN("khz"))
			return cerr(r, err, errlen, -1, "a freq record needs policy_cpu and khz");
		if (check_cpu(r, "policy_cpu", r->rec->fr.cpu, false, err, errlen))
			return -1;
		r->rec->hdr.size = sizeof(struct fs_freq);
	} else if (t == FS_REC_EM) {
		if (!SEEN("em_text"))
			return cerr(r, err, errlen, -1, "an em record needs em_text");
		r->rec->hdr.size = (__u32)(offsetof(struct fs_em_update, text) + r->rec->em.len);
	} else {
		if (!SEEN("policy_cpu") || !SEEN("residency"))
			return cerr(r, err, errlen, -1, "a freqstat record needs policy_cpu and residency");
		if (check_cpu(r, "policy_cpu", r->rec->fq.cpu, false, err, errlen))
			return -1;
		r->rec->hdr.size = sizeof(struct fs_freqstat);
	}
#undef SEEN
	return 0;
}

int fs_csv_reader_next(struct fs_csv_reader *r, const struct fs_rec_hdr **rec, char *err, size_t errlen)
{
	char why[256];
	int n;
	for (;;) {
		int got = read_line(r, err, errlen);
		if (got <= 0)
			return got;
		char *s = trim(r->line);
		if (*s && *s != '#')
			break;
	}
	if ((n = split(r, err, errlen)) < 0)
		return -1;
	if (n > r->ncols)
		return cerr(r, err, errlen, -1, "%d cells but the header has %d columns", n, r->ncols);

	int t = row_type(r, n, err, errlen);
	if (t < 0)
		return -1;

	/* Not calloc: every fixed record is cleared below; an em record's text is bounded by its len. */
	if (!r->rec && !(r->rec = malloc(sizeof(*r->rec))))
		return cerr(r, err, errlen, -1, "out of memory");
	clear_rec(r, t);
	bool seen[NR_COLS] = { false }; /* per cols[] index: a value was given */
	bool no_uclamp = false;         /* a clamp cell said "none" */
	if (store_cells(r, t, n, seen, &no_uclamp, err, errlen))
		return -1;
	/* given in this row: seen[] is set only for the header's columns, so no search of the header */
	if (!given(seen, "ts_ns"))
		return cerr(r, err, errlen, find_col(r, "ts_ns"), "ts_ns is required");
	r->rec->hdr.type = t;
	if (finish_rec(r, t, seen, no_uclamp, err, errlen))
		return -1;
	/* What a recording would refuse, a CSV refuses too (the column checks above name the column). */
	if (fs_rec_check_values(&r->rec->hdr, r->nr_cpus, why, sizeof(why)) ||
	    fs_rec_check_time(&r->clock, &r->rec->hdr, why, sizeof(why)))
		return cerr(r, err, errlen, -1, "%s", why);
	r->records++;
	*rec = &r->rec->hdr;
	return 1;
}

__u64 fs_csv_reader_records(const struct fs_csv_reader *r)
{
	return r->records;
}

void fs_csv_reader_close(struct fs_csv_reader *r)
{
	if (!r)
		return;
	if (r->f)
		fclose(r->f);
	free(r->line);
	fs_csv_packages_free(&r->pk);
	free(r->cells);
	free(r->hcols);
	free(r->rec);
	free(r->path);
	free(r);
}

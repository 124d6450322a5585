// SPDX-License-Identifier: GPL-2.0
/*
 * feecscope's portable EM file (`feecscope em --save`): a versioned,
 * line-oriented text holding everything in struct fs_em, so an EM captured
 * once on a userdebug build is reused anywhere and recordings can embed it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "em_internal.h"

#define FS_EM_FILE_MAGIC "feecscope-em"
#define FS_EM_FILE_VERSION 1

static const char *unit_name(enum fs_power_unit u)
{
	return u == FS_POWER_UW ? "uW" : u == FS_POWER_MW ? "mW" : "bogoW";
}

/* A string field is the rest of its line: newlines are the only thing it may not hold. */
static void put_line_str(FILE *out, const char *key, const char *s)
{
	fputs(key, out);
	if (*s)
		fputc(' ', out);
	for (; *s; s++)
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
	fputc('\n', out);
}

int fs_em_write(FILE *out, const struct fs_em *em)
{
	fprintf(out, "# feecscope Energy Model: give this file to --em (feecscope em, replay, live)\n");
	fprintf(out, "%s %d\n", FS_EM_FILE_MAGIC, FS_EM_FILE_VERSION);
	put_line_str(out, "kernel", em->kernel);
	put_line_str(out, "source", em->source);
	fprintf(out, "unit %s\n", unit_name(em->unit));
	fprintf(out, "cpus %d\n", em->nr_cpus);
	for (int cpu = 0; cpu < em->nr_cpus && cpu < FS_MAX_CPUS; cpu++)
		fprintf(out, "capacity %d %u\n", cpu, em->capacity[cpu]);
	for (int i = 0; i < em->nr_pd; i++) {
		const struct fs_em_pd *pd = &em->pd[i];
		char list[256];

		fs_cpu_list_format(pd->cpus, list, sizeof(list));
		fprintf(out, "pd %s cpus=%s flags=%#x has_inefficient=%d states=%d\n", pd->name, list,
			pd->flags, pd->has_inefficient ? 1 : 0, pd->nr_ps);
		for (int j = 0; j < pd->nr_ps; j++) {
			const struct fs_em_ps *ps = &pd->ps[j];

			fprintf(out, "ps frequency=%llu power=%llu cost=%llu inefficient=%u performance=%llu\n",
				(unsigned long long)ps->frequency, (unsigned long long)ps->power,
				(unsigned long long)ps->cost, ps->inefficient,
				(unsigned long long)ps->performance);
		}
	}
	fprintf(out, "end\n");
	return ferror(out) ? -1 : 0;
}

struct parser {
	const char *name;
	int line;
	char *err;
	size_t errlen;
	unsigned int seen;           /* SEEN_* keys given so far: each exactly once */
	__u64 capacity_seen;         /* CPUs with a capacity line */
};

enum { SEEN_KERNEL = 1, SEEN_SOURCE = 2, SEEN_UNIT = 4, SEEN_CPUS = 8 };

#define PERR(p, ...)                                                                   \
	({                                                                             \
		int n_ = snprintf((p)->err, (p)->errlen, "%s:%d: ", (p)->name, (p)->line); \
		if (n_ >= 0 && (size_t)n_ < (p)->errlen)                               \
			snprintf((p)->err + n_, (p)->errlen - n_, __VA_ARGS__);        \
		-1;                                                                    \
	})

/* "key=value" fields in order; every key is required in version 1. */
static int kv_u64(struct parser *p, char **cur, const char *key, __u64 *v, bool hex_ok)
{
	char *s = *cur, *tok;
	size_t n = strlen(key);

	while (*s == ' ')
		s++;
	if (strncmp(s, key, n) || s[n] != '=')
		return PERR(p, "%s: missing (want %s=VALUE here)", key, key);
	tok = s + n + 1;
	s = tok + strcspn(tok, " ");
	if (*s)
		*s++ = '\0';
	if ((!hex_ok && tok[0] == '0' && tok[1] == 'x') || fs_parse_u64(tok, v))
		return PERR(p, "%s: '%s' is not a number", key, tok);
	*cur = s;
	return 0;
}

static int parse_pd(struct parser *p, char *rest, struct fs_em *em, int *want_ps)
{
	struct fs_em_pd *pd;
	char *name = rest, *s, *cpus;
	__u64 flags, has_ineff, states;

	if (em->nr_pd == FS_MAX_PDS)
		return PERR(p, "pd: more than %d performance domains (FS_MAX_PDS)", FS_MAX_PDS);
	pd = &em->pd[em->nr_pd];
	s = name + strcspn(name, " ");
	if (s == name || !*s)
		return PERR(p, "pd: want 'pd NAME cpus=LIST flags=HEX has_inefficient=0|1 states=N'");
	*s++ = '\0';
	if (strlen(name) >= sizeof(pd->name))
		return PERR(p, "pd: name '%s' is longer than %zu characters", name, sizeof(pd->name) - 1);
	if (fs_em_bad_name(name))
		return PERR(p, "pd: name '%s' has a character that is not printable", name);
	for (int i = 0; i < em->nr_pd; i++)
		if (!strcmp(em->pd[i].name, name))
			return PERR(p, "pd: name '%s' given twice", name);
	snprintf(pd->name, sizeof(pd->name), "%s", name);
	while (*s == ' ')
		s++;
	if (strncmp(s, "cpus=", 5))
		return PERR(p, "cpus: missing (want cpus=LIST here)");
	cpus = s + 5;
	s = cpus + strcspn(cpus, " ");
	if (*s)
		*s++ = '\0';
	if (fs_cpulist_parse(cpus, &pd->cpus))
		return PERR(p, "cpus: '%s' is not a cpulist of CPUs below %d", cpus, FS_MAX_CPUS);
	if (kv_u64(p, &s, "flags", &flags, true) || kv_u64(p, &s, "has_inefficient", &has_ineff, false) ||
	    kv_u64(p, &s, "states", &states, false))
		return -1;
	if (flags > 0xffffffffull)
		return PERR(p, "flags: %#llx does not fit 32 bits", (unsigned long long)flags);
	if (has_ineff > 1)
		return PERR(p, "has_inefficient: %llu, want 0 or 1", (unsigned long long)has_ineff);
	if (!states || states > FS_MAX_PS)
		return PERR(p, "states: %llu, want 1..%d (FS_MAX_PS)", (unsigned long long)states, FS_MAX_PS);
	if (*s)
		return PERR(p, "pd: unexpected '%s' after states=", s);
	pd->flags = (__u32)flags;
	pd->has_inefficient = has_ineff;
	pd->nr_ps = 0;
	*want_ps = (int)states;
	em->nr_pd++;
	return 0;
}

static int parse_ps(struct parser *p, char *s, struct fs_em_pd *pd)
{
	struct fs_em_ps *ps = &pd->ps[pd->nr_ps];
	__u64 ineff;

	if (kv_u64(p, &s, "frequency", &ps->frequency, false) || kv_u64(p, &s, "power", &ps->power, false) ||
	    kv_u64(p, &s, "cost", &ps->cost, false) || kv_u64(p, &s, "inefficient", &ineff, false) ||
	    kv_u64(p, &s, "performance", &ps->performance, false))
		return -1;
	if (*s)
		return PERR(p, "ps: unexpected '%s' after performance=", s);
	if (ineff > 1)
		return PERR(p, "inefficient: %llu, want 0 or 1", (unsigned long long)ineff);
	if (!ps->power)
		return PERR(p, "power: 0 (the kernel never registers a zero-power state)");
	if (pd->nr_ps && ps->frequency <= pd->ps[pd->nr_ps - 1].frequency)
		return PERR(p, "frequency: %llu kHz is not above the previous state's %llu kHz",
			    (unsigned long long)ps->frequency, (unsigned long long)pd->ps[pd->nr_ps - 1].frequency);
	ps->inefficient = (__u32)ineff;
	pd->nr_ps++;
	return 0;
}

/* The first line: the magic and the one version this feecscope reads. */
static int parse_magic(struct parser *p, const char *key, const char *rest, int *version)
{
	__u64 v;

	if (strcmp(key, FS_EM_FILE_MAGIC) || fs_parse_u64(rest, &v))
		return PERR(p, "not a feecscope EM file (want '%s VERSION' first)", FS_EM_FILE_MAGIC);
	if (v != FS_EM_FILE_VERSION)
		return PERR(p, "version: %llu, this feecscope reads version %d", (unsigned long long)v,
			    FS_EM_FILE_VERSION);
	*version = (int)v;
	return 0;
}

/* kernel, source, unit, cpus: each once, before the first pd line; 1 if key is none of them. */
static int parse_meta(struct parser *p, const char *key, const char *rest, struct fs_em *em)
{
	__u64 v;

	if (strcmp(key, "kernel") && strcmp(key, "source") && strcmp(key, "unit") && strcmp(key, "cpus"))
		return 1;
	unsigned int bit = key[0] == 'k' ? SEEN_KERNEL : key[0] == 's' ? SEEN_SOURCE :
			   key[0] == 'u' ? SEEN_UNIT : SEEN_CPUS;
	if (em->nr_pd)
		return PERR(p, "%s: after the first pd line", key);
	if (p->seen & bit)
		return PERR(p, "%s: given twice", key);
	p->seen |= bit;
	if (bit == SEEN_KERNEL || bit == SEEN_SOURCE) {
		char *dst = bit == SEEN_KERNEL ? em->kernel : em->source;
		size_t max = bit == SEEN_KERNEL ? sizeof(em->kernel) : sizeof(em->source);
		if (strlen(rest) >= max)
			return PERR(p, "%s: longer than %zu characters", key, max - 1);
		memcpy(dst, rest, strlen(rest) + 1);
	} else if (bit == SEEN_UNIT) {
		if (!strcmp(rest, "uW"))
			em->unit = FS_POWER_UW;
		else if (!strcmp(rest, "mW"))
			em->unit = FS_POWER_MW;
		else if (!strcmp(rest, "bogoW"))
			em->unit = FS_POWER_BOGO;
		else
			return PERR(p, "unit: '%s', want uW, mW or bogoW", rest);
	} else {
		if (fs_parse_u64(rest, &v) || !v || v > FS_MAX_CPUS)
			return PERR(p, "cpus: '%s', want 1..%d (FS_MAX_CPUS)", rest, FS_MAX_CPUS);
		em->nr_cpus = (int)v;
	}
	return 0;
}

/* "capacity CPU VALUE": a CPU below the cpus line's count, once, in 0..1024. */
static int parse_capacity(struct parser *p, char *rest, struct fs_em *em)
{
	char *val = rest + strcspn(rest, " ");
	__u64 v, cap;

	if (*val)
		*val++ = '\0';
	if (fs_parse_u64(rest, &v) || v >= FS_MAX_CPUS)
		return PERR(p, "capacity: CPU '%s' is not a number below %d", rest, FS_MAX_CPUS);
	if (fs_parse_u64(val, &cap) || cap > FS_SCHED_CAPACITY_SCALE)
		return PERR(p, "capacity: cpu%llu: '%s' is not a number in 0..%d", (unsigned long long)v, val,
			    FS_SCHED_CAPACITY_SCALE);
	if (!(p->seen & SEEN_CPUS) || v >= (__u64)em->nr_cpus)
		return PERR(p, "capacity: cpu%llu is not below the cpus line's %d", (unsigned long long)v,
			    em->nr_cpus);
	if (p->capacity_seen & (1ull << v))
		return PERR(p, "capacity: cpu%llu given twice", (unsigned long long)v);
	p->capacity_seen |= 1ull << v;
	em->capacity[v] = (__u32)cap;
	return 0;
}

static int parse_line(struct parser *p, char *line, struct fs_em *em, int *version, int *want_ps, bool *ended)
{
	char *key = line, *rest = line + strcspn(line, " ");
	int rc;

	if (*rest)
		*rest++ = '\0';
	if (*ended)
		return PERR(p, "'%s' after the end line", key);
	if (!*version)
		return parse_magic(p, key, rest, version);
	if ((rc = parse_meta(p, key, rest, em)) <= 0)
		return rc;
	if (!strcmp(key, "capacity"))
		return parse_capacity(p, rest, em);
	if (!strcmp(key, "pd")) {
		if (em->nr_pd && em->pd[em->nr_pd - 1].nr_ps != *want_ps)
			return PERR(p, "pd: previous pd %s has %d ps lines, its states= said %d",
				    em->pd[em->nr_pd - 1].name, em->pd[em->nr_pd - 1].nr_ps, *want_ps);
		return parse_pd(p, rest, em, want_ps);
	}
	if (!strcmp(key, "ps")) {
		if (!em->nr_pd)
			return PERR(p, "ps: before any pd line");
		if (em->pd[em->nr_pd - 1].nr_ps == *want_ps)
			return PERR(p, "ps: more states than pd %s's states=%d", em->pd[em->nr_pd - 1].name, *want_ps);
		return parse_ps(p, rest, &em->pd[em->nr_pd - 1]);
	}
	if (strcmp(key, "end"))
		return PERR(p, "unknown line '%s'", key);
	if (em->nr_pd && em->pd[em->nr_pd - 1].nr_ps != *want_ps)
		return PERR(p, "end: pd %s has %d ps lines, its states= said %d", em->pd[em->nr_pd - 1].name,
			    em->pd[em->nr_pd - 1].nr_ps, *want_ps);
	if ((p->seen & (SEEN_KERNEL | SEEN_SOURCE | SEEN_UNIT | SEEN_CPUS)) != (SEEN_KERNEL | SEEN_SOURCE | SEEN_UNIT | SEEN_CPUS))
		return PERR(p, "end: no %s line before it", !(p->seen & SEEN_KERNEL) ? "kernel" :
			    !(p->seen & SEEN_SOURCE) ? "source" : !(p->seen & SEEN_UNIT) ? "unit" : "cpus");
	*ended = true;
	return 0;
}

int fs_em_parse_text(const char *text, size_t len, const char *name, struct fs_em *em,
		     char *err, size_t errlen)
{
	struct parser p = { .name = name ? name : "(EM text)", .err = err, .errlen = errlen };
	char *buf = malloc(len + 1), *line, *next;
	int version = 0, want_ps = 0, rc = 0, nr_cpus;
	bool ended = false;

	memset(em, 0, sizeof(*em));
	if (!buf)
		return PERR(&p, "out of memory");
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (memchr(text, '\0', len)) {
		free(buf);
		return PERR(&p, "binary data (a NUL byte) in a text EM");
	}
	for (line = buf; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		p.line++;
		line[strcspn(line, "\r")] = '\0';
		if (!*line || line[0] == '#') {
			if (!next)
				break;
			continue;
		}
		rc = parse_line(&p, line, em, &version, &want_ps, &ended);
		if (rc)
			break;
	}
	free(buf);
	if (rc)
		return -1;
	if (!version)
		return PERR(&p, "empty: not a feecscope EM file");
	if (!ended)
		return PERR(&p, "end: missing (the file is truncated)");
	nr_cpus = em->nr_cpus;
	if (fs_em_finalize(em, err, errlen)) {
		/* Prefix the file name so the message still says where. */
		char tmp[512];
		snprintf(tmp, sizeof(tmp), "%s", err);
		fs_em_errf(err, errlen, "%s: %s", p.name, tmp);
		return -1;
	}
	if (nr_cpus != em->nr_cpus)
		return fs_em_errf(err, errlen, "%s: cpus: %d, but the performance domains span %d CPUs", p.name,
				  nr_cpus, em->nr_cpus), -1;
	return 0;
}

int fs_em_read_file(const char *path, struct fs_em *em, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	int rc = fs_read_all(path, 16u << 20, &buf, &len, err, errlen);

	if (rc > 0)
		return fs_em_errf(err, errlen, "%s: cannot open: %s", path, strerror(ENOENT)), -1;
	if (rc < 0)
		return -1;
	rc = fs_em_parse_text(buf, len, path, em, err, errlen);
	free(buf);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The values a record must hold to mean anything, whichever reader handed it
 * out: a recording and a records CSV accept exactly the same records, so
 * converting one into the other never fails (docs/recording.md, docs/csv.md).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "recording.h"

#define BAD(...) (snprintf(why, len, __VA_ARGS__), -1)

static int cpu_ok(__s32 cpu, int nr_cpus, bool none_ok)
{
	return (cpu >= 0 && cpu < nr_cpus) || (none_ok && cpu == -1);
}

/* The kernel's comm is at most TASK_COMM_LEN - 1 bytes and always terminated. */
static bool comm_ok(const char *comm)
{
	return memchr(comm, '\0', FS_COMM_LEN) != NULL;
}

/* The first of a pair of clamps above SCHED_CAPACITY_SCALE ("min", "max"; *v its value), or NULL. */
static const char *clamp_bad(__u16 min, __u16 max, unsigned *v)
{
	*v = min > 1024 ? min : max;
	return min > 1024 ? "min" : max > 1024 ? "max" : NULL;
}

static int wakeup(const struct fs_wakeup *w, int n, char *why, size_t len)
{
	__u64 all = (n >= 64 ? ~0ull : (1ull << n) - 1);
	const char *name = !cpu_ok(w->prev_cpu, n, false) ? "prev_cpu" :
			   !cpu_ok(w->task_cpu, n, false) ? "task_cpu" :
			   !cpu_ok(w->waker_cpu, n, false) ? "waker_cpu" : NULL;

	if (name)
		return BAD("wakeup: %s: CPU %d out of range 0..%d", name,
			   name[0] == 'p' ? w->prev_cpu : name[0] == 't' ? w->task_cpu : w->waker_cpu, n - 1);
	if (!comm_ok(w->comm))
		return BAD("wakeup: comm: not terminated within %d bytes", FS_COMM_LEN);
	if (!cpu_ok(w->chosen_cpu, n, true))
		return BAD("wakeup: chosen_cpu: CPU %d out of range -1, 0..%d", w->chosen_cpu, n - 1);
	/* Clamps are 0..SCHED_CAPACITY_SCALE; with FS_WAKE_NO_UCLAMP they are "none" and not read. */
	if (!(w->flags & FS_WAKE_NO_UCLAMP)) {
		unsigned v;
		const char *which = clamp_bad(w->task.uclamp_min, w->task.uclamp_max, &v);

		if (which)
			return BAD("wakeup: task_uclamp_%s: %u is not a clamp (0..1024)", which, v);
		for (int c = 0; c < n && c < FS_MAX_CPUS; c++)
			if ((which = clamp_bad(w->cpu[c].uclamp_min, w->cpu[c].uclamp_max, &v)))
				return BAD("wakeup: cpu%d_uclamp_%s: %u is not a clamp (0..1024)", c, which, v);
	}
	/* Bits above the recording's CPUs are kept (a VM's possible CPUs can outnumber its EM's). */
	if (!(w->cpus_allowed & all))
		return BAD("wakeup: cpus_allowed: 0x%llx has none of CPUs 0..%d",
			   (unsigned long long)w->cpus_allowed, n - 1);
	/* The collector says WF_CURRENT_CPU only where it read the wake flags and p may run on the waker's CPU. */
	if ((w->flags & FS_WAKE_CURRENT_CPU) &&
	    (!(w->flags & FS_WAKE_FLAGS_KNOWN) || w->waker_cpu >= 64 || !((w->cpus_allowed >> w->waker_cpu) & 1)))
		return BAD("wakeup: flags: current_cpu without %s", !(w->flags & FS_WAKE_FLAGS_KNOWN) ?
			   "flags_known" : "the waker's CPU in cpus_allowed");
	return 0;
}

int fs_rec_check_values(const struct fs_rec_hdr *h, int nr_cpus, char *why, size_t len)
{
	switch (h->type) {
	case FS_REC_WAKEUP:
		return wakeup((const struct fs_wakeup *)h, nr_cpus, why, len);
	case FS_REC_MIGRATE: {
		const struct fs_migrate *m = (const void *)h;
		if (!cpu_ok(m->dest_cpu, nr_cpus, false))
			return BAD("migrate: dest_cpu: CPU %d out of range 0..%d", m->dest_cpu, nr_cpus - 1);
		if (!cpu_ok(m->orig_cpu, nr_cpus, true))
			return BAD("migrate: orig_cpu: CPU %d out of range -1, 0..%d", m->orig_cpu, nr_cpus - 1);
		return 0;
	}
	case FS_REC_OVERUTIL: {
		const struct fs_overutil *o = (const void *)h;
		return o->overutilized > 1 ? BAD("overutil: overutilized: %u is not 0 or 1", o->overutilized) : 0;
	}
	case FS_REC_EXIT:
	case FS_REC_RUNTIME: {
		const struct fs_task_time *t = (const void *)h;
		if (!comm_ok(t->comm))
			return BAD("%s: comm: not terminated within %d bytes", h->type == FS_REC_EXIT ? "exit" : "runtime",
				   FS_COMM_LEN);
		return t->sum_exec_ns == FS_NO_RUNTIME ?
		       BAD("%s: sum_exec_ns: unknown (an %s record is its CPU time)",
			   h->type == FS_REC_EXIT ? "exit" : "runtime", h->type == FS_REC_EXIT ? "exit" : "runtime") : 0;
	}
	case FS_REC_CPUSTAT: {
		const struct fs_cpustat *c = (const void *)h;
		if (c->nr_cpus != (__u32)nr_cpus)
			return BAD("cpustat: nr_cpus: %u, the recording has %d CPUs", c->nr_cpus, nr_cpus);
		if (c->source != FS_CPUSTAT_SCHEDSTAT && c->source != FS_CPUSTAT_PROC_STAT)
			return BAD("cpustat: source: %u is not schedstat (%d) or proc_stat (%d)", c->source,
				   FS_CPUSTAT_SCHEDSTAT, FS_CPUSTAT_PROC_STAT);
		return 0;
	}
	case FS_REC_FREQSTAT: {
		const struct fs_freqstat *f = (const void *)h;
		if (!cpu_ok(f->cpu, nr_cpus, false))
			return BAD("freqstat: policy_cpu: CPU %d out of range 0..%d", f->cpu, nr_cpus - 1);
		if (!f->nr || f->nr > FS_MAX_FREQS)
			return BAD("freqstat: residency: %u frequencies, want 1..%d", f->nr, FS_MAX_FREQS);
		for (__u32 i = 0; i < f->nr; i++)
			if (!f->st[i].khz || (i && f->st[i].khz <= f->st[i - 1].khz))
				return BAD("freqstat: residency: entry %u: %u kHz %s", i + 1, f->st[i].khz,
					   f->st[i].khz ? "is not above the one before" : "is not a frequency");
		return 0;
	}
	case FS_REC_BUSYFREQ: {
		const struct fs_busyfreq *f = (const void *)h;
		if (!cpu_ok(f->cpu, nr_cpus, false))
			return BAD("busyfreq: busy_cpu: CPU %d out of range 0..%d", f->cpu, nr_cpus - 1);
		if (f->nr > FS_MAX_FREQS)
			return BAD("busyfreq: residency: %u frequencies, want 0..%d", f->nr, FS_MAX_FREQS);
		for (__u32 i = 0; i < f->nr; i++)
			if (!f->st[i].khz || (i && f->st[i].khz <= f->st[i - 1].khz))
				return BAD("busyfreq: residency: entry %u: %u kHz %s", i + 1, f->st[i].khz,
					   f->st[i].khz ? "is not above the one before" : "is not a frequency");
		return 0;
	}
	case FS_REC_FREQ: {
		const struct fs_freq *f = (const void *)h;
		if (!cpu_ok(f->cpu, nr_cpus, false))
			return BAD("freq: policy_cpu: CPU %d out of range 0..%d", f->cpu, nr_cpus - 1);
		return f->khz ? 0 : BAD("freq: khz: 0 is not a frequency");
	}
	}
	return 0;
}

int fs_rec_check_time(struct fs_rec_clock *c, const struct fs_rec_hdr *h, char *why, size_t len)
{
	if (c->any && h->ts_ns < c->latest_ns && c->latest_ns - h->ts_ns > FS_REC_MAX_BACK_NS) {
		const char *name = fs_rec_type_name(h->type);

		return BAD("%s: ts_ns: %llu is %.4g s before an earlier record's %llu (more than %llu s out of "
			   "time order)", name ? name : "record", (unsigned long long)h->ts_ns,
			   (double)(c->latest_ns - h->ts_ns) / 1e9, (unsigned long long)c->latest_ns,
			   FS_REC_MAX_BACK_NS / 1000000000ull);
	}
	if (!c->any || h->ts_ns > c->latest_ns)
		c->latest_ns = h->ts_ns;
	c->any = true;
	return 0;
}

int fs_rec_check_meta_value(const char *v, char *why, size_t len)
{
	size_t n = strlen(v);

	for (size_t i = 0; i < n; i++)
		if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f)
			return BAD("a control character (0x%02x) at %zu", (unsigned char)v[i], i + 1);
	if (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
		return BAD("ends in a blank");
	return 0;
}

/* A governor name as the meta text can hold it: letters, digits, '_' and '-', others as '_'. */
static void governor_put(char *out, size_t len, const char *g)
{
	size_t i = 0;

	for (; g[i] && i + 1 < len; i++)
		out[i] = isalnum((unsigned char)g[i]) || g[i] == '-' ? g[i] : '_';
	out[i] = 0;
}

void fs_rec_cpufreq_text(const struct fs_rec_meta *m, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < m->nr_cpufreq && n < len; i++) {
		const struct fs_rec_cpufreq *c = &m->cpufreq[i];
		char gov[sizeof(c->governor)], rate[24] = "-";

		governor_put(gov, sizeof(gov), c->governor[0] ? c->governor : "-");
		if (c->rate_limit_us >= 0)
			snprintf(rate, sizeof(rate), "%lld", (long long)c->rate_limit_us);
		n += (size_t)snprintf(buf + n, len - n, "%s%llx:%s:%s", i ? " " : "", (unsigned long long)c->cpus, gov,
				      rate);
	}
}

/* One "MASK:GOVERNOR:RATE" item into c. 0, or -1 with why. */
static int cpufreq_item(const char *item, size_t n, struct fs_rec_cpufreq *c, char *why, size_t len)
{
	char buf[80], *end, *gov, *rate;

	if (n >= sizeof(buf))
		return BAD("an item longer than %zu characters", sizeof(buf) - 1);
	memcpy(buf, item, n);
	buf[n] = 0;
	gov = strchr(buf, ':');
	rate = gov ? strchr(gov + 1, ':') : NULL;
	if (!rate)
		return BAD("'%s': want MASK:GOVERNOR:RATE_LIMIT_US", buf);
	*gov++ = 0;
	*rate++ = 0;
	c->cpus = strtoull(buf, &end, 16);
	if (*end || !buf[0] || !c->cpus || (FS_MAX_CPUS < 64 && c->cpus >> FS_MAX_CPUS))
		return BAD("'%s': not a CPU mask of CPUs 0..%d", buf, FS_MAX_CPUS - 1);
	if (!gov[0] || strlen(gov) >= sizeof(c->governor) || strspn(gov, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != strlen(gov))
		return BAD("governor '%s': want 1 to %zu letters, digits, '_' or '-'", gov, sizeof(c->governor) - 1);
	snprintf(c->governor, sizeof(c->governor), "%s", strcmp(gov, "-") ? gov : "");
	if (!strcmp(rate, "-")) {
		c->rate_limit_us = -1;
		return 0;
	}
	unsigned long long v = strtoull(rate, &end, 10);

	if (*end || !rate[0] || rate[0] == '-' || v > 1000000000ull)
		return BAD("rate limit '%s': want 0..1000000000 us or '-'", rate);
	c->rate_limit_us = (__s64)v;
	return 0;
}

int fs_rec_machine_parse(const char *key, const char *v, struct fs_rec_meta *m, char *why, size_t len)
{
	char *end;

	if (!strcmp(key, "hz")) {
		unsigned long hz = strtoul(v, &end, 10);

		if (*end || !v[0] || v[0] == '-' || hz < 10 || hz > 10000)
			return BAD("'%s': want a whole number 10..10000", v);
		m->hz = (unsigned int)hz;
		return 0;
	}
	m->nr_cpufreq = 0;
	for (const char *p = v; *p;) {
		size_t n = strcspn(p, " ");

		if (m->nr_cpufreq == FS_MAX_CPUS)
			return BAD("more than %d policies", FS_MAX_CPUS);
		if (!n || cpufreq_item(p, n, &m->cpufreq[m->nr_cpufreq], why, len))
			return n ? -1 : BAD("an empty item");
		m->nr_cpufreq++;
		p += n + (p[n] == ' ');
	}
	return 0;
}

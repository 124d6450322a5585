// SPDX-License-Identifier: GPL-2.0
/* Energy accounting arithmetic; the definitions it implements are in docs/accounting.md. */
#include <stdio.h>
#include <string.h>
#include "accounting.h"

__u64 fs_acct_task_close(struct fs_acct_task *t, __u64 now, int nr, fs_fj_t *energy_fj)
{
	if (!t->open)
		return 0;
	__u64 dt = fs_acct_dt(t->since_ns, now);
	for (int i = 0; i < nr; i++)
		energy_fj[i] += (fs_fj_t)t->dpower_uw[i] * (fs_fj_t)dt;
	t->open = false;
	return dt;
}

void fs_acct_task_open(struct fs_acct_task *t, __u64 now, int nr, const __s64 *dp)
{
	t->open = true;
	t->since_ns = now;
	memcpy(t->dpower_uw, dp, (size_t)nr * sizeof(*dp));
}

void fs_acct_sys_close(struct fs_acct_sys *s, __u64 now)
{
	if (s->open)
		s->total_fj += (fs_fj_t)s->power_uw * (fs_fj_t)fs_acct_dt(s->since_ns, now);
	s->open = false;
}

void fs_acct_sys_step(struct fs_acct_sys *s, __u64 now, __u64 power_uw)
{
	/* Never step backwards in time: a late record starts its step where the current one began. */
	__u64 start = s->open && s->since_ns > now ? s->since_ns : now;

	fs_acct_sys_close(s, now);
	s->open = true;
	s->since_ns = start;
	s->power_uw = power_uw;
}

int fs_acct_effective_cpu(const struct fs_feec_result *r, const struct fs_wakeup *w)
{
	if (r->cpu >= 0)
		return r->cpu;
	if (w->chosen_cpu >= 0)
		return w->chosen_cpu;
	return w->prev_cpu;
}

/*
 * Saving as a share of the threshold it failed to beat. Edges in percent:
 * 0 5 10 20 30 40 50 60 70 80 90 95 100; the last bucket includes 100%
 * (the margin test is strict, so a saving equal to the threshold is blocked).
 */
static const unsigned pct_edges[FS_ACCT_HIST] = { 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 101 };
static const char *const pct_labels[FS_ACCT_HIST] = {
	"0-5%", "5-10%", "10-20%", "20-30%", "30-40%", "40-50%",
	"50-60%", "60-70%", "70-80%", "80-90%", "90-95%", "95-100%",
};

int fs_acct_pct_bucket(__u64 saving, __u64 threshold)
{
	if (!threshold)
		return FS_ACCT_HIST - 1;
	/* saving*100/threshold without overflow: both fit comfortably below 2^57 in practice, use 128 bits anyway. */
	unsigned __int128 pct = (unsigned __int128)saving * 100 / threshold;
	for (int b = 0; b < FS_ACCT_HIST; b++)
		if (pct < pct_edges[b])
			return b;
	return FS_ACCT_HIST - 1;
}

/* Physical saving in µW (system power on prev minus on the cheaper CPU): <=0, then decades by 1-3-10. */
static const __s64 uw_edges[FS_ACCT_HIST - 1] = { 1, 10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000, 300000 };
static const char *const uw_labels[FS_ACCT_HIST] = {
	"<=0", "1-9", "10-29", "30-99", "100-299", "300-999", "1k-3k", "3k-10k",
	"10k-30k", "30k-100k", "100k-300k", ">=300k",
};

int fs_acct_uw_bucket(__s64 saving_uw)
{
	if (saving_uw < 1)
		return 0;
	for (int b = 1; b < FS_ACCT_HIST - 1; b++)
		if (saving_uw < uw_edges[b])
			return b;
	return FS_ACCT_HIST - 1;
}

const char *fs_acct_pct_label(int b)
{
	return b >= 0 && b < FS_ACCT_HIST ? pct_labels[b] : "?";
}

const char *fs_acct_uw_label(int b)
{
	return b >= 0 && b < FS_ACCT_HIST ? uw_labels[b] : "?";
}

int fs_fmt_fj(char *buf, size_t len, fs_fj_t fj, int scale_pow10, int decimals)
{
	unsigned __int128 mag = fj < 0 ? -(unsigned __int128)fj : (unsigned __int128)fj;
	unsigned __int128 div = 1, unit = 1;
	for (int i = 0; i < scale_pow10 - decimals; i++)
		div *= 10;
	for (int i = 0; i < decimals; i++)
		unit *= 10;
	/* Round half away from zero at the last printed digit. */
	/* Callers pass scale_pow10 >= decimals (fJ are the finest unit we print). */
	unsigned __int128 q = (mag + div / 2) / div;
	unsigned long long ip = (unsigned long long)(q / unit), fp = (unsigned long long)(q % unit);
	const char *sign = (fj < 0 && q) ? "-" : "";
	if (!decimals)
		return snprintf(buf, len, "%s%llu", sign, ip);
	return snprintf(buf, len, "%s%llu.%0*llu", sign, ip, decimals, fp);
}

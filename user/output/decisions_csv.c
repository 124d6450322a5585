// SPDX-License-Identifier: GPL-2.0
/* Per-decision CSV writer: fixed formatting, no wall clock, so replays are byte-identical. */
#include <stdint.h>
#include <string.h>
#include "decisions_csv.h"
#include "../source/csv_records.h"

static const char *const end_names[] = { "wakeup", "migrate", "end" };

int fs_decisions_csv_header(FILE *out, int nr, const struct fs_policy_desc *const *pols)
{
	fputs("seq,ts_ns,pid,comm,prev_cpu,kernel_cpu,task_util,flags,dt_ns,until", out);
	for (int i = 0; i < nr; i++) {
		const char *n = pols[i]->name;
		fprintf(out, ",%s_cpu,%s_reason,%s_prev_delta,%s_best_delta,%s_threshold,"
			"%s_acct_cpu,%s_power_uw,%s_dpower_uw,%s_denergy_nj", n, n, n, n, n, n, n, n, n);
	}
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}

static void put_u64_or_none(FILE *out, __u64 v)
{
	if (v == UINT64_MAX)
		fputs(",", out);
	else
		fprintf(out, ",%llu", (unsigned long long)v);
}

/* comm for a CSV cell: printable ASCII only (others as '?'), quoted when it holds , or ". */
static void put_comm(FILE *out, const char *comm)
{
	char buf[FS_COMM_LEN];
	bool quote = false;
	int n = 0;
	for (; n < FS_COMM_LEN - 1 && comm[n]; n++) {
		unsigned char c = comm[n];
		buf[n] = c < 0x20 || c >= 0x7f ? '?' : (char)c;
		quote |= c == ',' || c == '"';
	}
	buf[n] = 0;
	if (!quote) {
		fputs(buf, out);
		return;
	}
	fputc('"', out);
	for (int i = 0; i < n; i++) {
		if (buf[i] == '"')
			fputc('"', out);
		fputc(buf[i], out);
	}
	fputc('"', out);
}

int fs_decisions_csv_row(FILE *out, const struct fs_decision_row *r, int nr)
{
	char flags[160], e[64];
	fs_csv_format_wake_flags(flags, sizeof(flags), r->flags);
	fprintf(out, "%llu,%llu,%d,", (unsigned long long)r->seq, (unsigned long long)r->ts_ns, r->pid);
	put_comm(out, r->comm);
	fprintf(out, ",%d,%d,%u,%s,%llu,%s", r->prev_cpu, r->kernel_cpu, r->task_util, flags,
		(unsigned long long)r->dt_ns, end_names[r->end]);
	for (int i = 0; i < nr; i++) {
		const struct fs_decision_pol *p = &r->pol[i];
		fprintf(out, ",%d,%s", p->cpu, fs_feec_reason_name(p->reason));
		put_u64_or_none(out, p->prev_delta);
		put_u64_or_none(out, p->best_delta);
		put_u64_or_none(out, p->has_threshold ? p->threshold : UINT64_MAX);
		/* µW × ns = fJ; nJ with 6 decimals prints the fJ exactly */
		fs_fmt_fj(e, sizeof(e), (fs_fj_t)p->dpower_uw * (fs_fj_t)r->dt_ns, 6, 6);
		fprintf(out, ",%d,%llu,%lld,%s", p->acct_cpu, (unsigned long long)p->power_uw,
			(long long)p->dpower_uw, e);
	}
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}

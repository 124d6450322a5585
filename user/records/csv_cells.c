// SPDX-License-Identifier: GPL-2.0
/*
 * Record fields as CSV text, the same in the records CSV (csv_records.c) and
 * the decision CSVs (user/output/decisions_*.c): flag sets by name, comms.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "csv_cells.h"

const char *const fs_csv_wake_flag_names[] = {
	"overutilized", "no_pd", "no_asym", "fork", "sync", "flags_known", "uclamp_used", "util_est_off", "eas_unknown",
	"no_uclamp", "at_select", "current_cpu",
};
const char *const fs_csv_cpu_flag_names[] = {
	"online", "in_sd", "rt_runnable", "uclamp_idle", "curr_is_p", "no_nr_running",
};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
_Static_assert(COUNT(fs_csv_wake_flag_names) == FS_CSV_NR_WAKE_FLAGS, "FS_CSV_NR_WAKE_FLAGS is not the names' count");
_Static_assert(COUNT(fs_csv_cpu_flag_names) == FS_CSV_NR_CPU_FLAGS, "FS_CSV_NR_CPU_FLAGS is not the names' count");
/* A name per record bit, in bit order: the newest bit is the last name. */
_Static_assert(FS_WAKE_CURRENT_CPU == 1u << (FS_CSV_NR_WAKE_FLAGS - 1), "fs_csv_wake_flag_names out of step with FS_WAKE_*");
_Static_assert(FS_CPU_NO_NR_RUNNING == 1u << (FS_CSV_NR_CPU_FLAGS - 1), "fs_csv_cpu_flag_names out of step with FS_CPU_*");

static int format_flags(char *buf, size_t len, __u32 flags, const char *const *names, int n)
{
	size_t o = 0;
	buf[0] = 0;
	if (!flags)
		return snprintf(buf, len, "0");
	for (int b = 0; b < n && o < len; b++)
		if (flags & (1u << b)) {
			o += snprintf(buf + o, len - o, "%s%s", o ? "|" : "", names[b]);
			flags &= ~(1u << b);
		}
	if (flags && o < len)
		o += snprintf(buf + o, len - o, "%s0x%x", o ? "|" : "", flags);
	return (int)o;
}

int fs_csv_format_wake_flags(char *buf, size_t len, __u32 flags)
{
	return format_flags(buf, len, flags, fs_csv_wake_flag_names, FS_CSV_NR_WAKE_FLAGS);
}

int fs_csv_format_cpu_flags(char *buf, size_t len, __u32 flags)
{
	return format_flags(buf, len, flags, fs_csv_cpu_flag_names, FS_CSV_NR_CPU_FLAGS);
}

int fs_csv_comm(char *out, const char *comm)
{
	char buf[FS_COMM_LEN];
	bool quote = false;
	int n = 0, k = 0;

	/* most names are plain: copied as they are (every row of the decision CSVs has one) */
	for (; n < FS_COMM_LEN - 1 && comm[n]; n++) {
		unsigned char c = comm[n];

		if (c < 0x20 || c >= 0x7f || c == ',' || c == '"')
			break;
	}
	if (n == FS_COMM_LEN - 1 || !comm[n]) {
		memcpy(out, comm, (size_t)n);
		out[n] = 0;
		return n;
	}
	n = 0;
	for (; n < FS_COMM_LEN - 1 && comm[n]; n++) {
		unsigned char c = comm[n];
		buf[n] = c < 0x20 || c >= 0x7f ? '?' : (char)c;
		quote |= c == ',' || c == '"';
	}
	if (quote)
		out[k++] = '"';
	for (int i = 0; i < n; i++) {
		if (buf[i] == '"')
			out[k++] = '"';
		out[k++] = buf[i];
	}
	if (quote)
		out[k++] = '"';
	out[k] = 0;
	return k;
}

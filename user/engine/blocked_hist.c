// SPDX-License-Identifier: GPL-2.0
/* Margin-blocked saving histogram buckets (blocked_hist.h). */
#include "blocked_hist.h"

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

// SPDX-License-Identifier: GPL-2.0
/* The summary's kernel-agreement sentence: explained at >= 95 %, otherwise said plainly. */
#include "test.h"
#include "output/summary.h"
#include "pipeline.h"

static const struct fs_policy_desc d54 = { .name = "v5.4" }, d60 = { .name = "v6.0" };

/* Prints a summary of two policies with the given agreement counts; returns its text. */
static char *summary_text(bool emulate, __u64 a0, __u64 k0, __u64 a1, __u64 k1)
{
	static struct fs_stats st;
	static struct fs_em em;
	static struct fs_acct_totals tot;
	static char buf[8192];
	struct fs_report s = { .st = &st, .em = &em, .emulate_eas = emulate, .kernel_release = "6.1.0", .tot = &tot };

	memset(&st, 0, sizeof(st));
	memset(&em, 0, sizeof(em));
	snprintf(em.source, sizeof(em.source), "test");
	st.nr_policies = 2;
	st.pol[0].desc = &d54;
	st.pol[1].desc = &d60;
	st.pol[0].agree_kernel = a0, st.pol[0].kernel_known = k0;
	st.pol[1].agree_kernel = a1, st.pol[1].kernel_known = k1;
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	fs_summary_print(f, &s);
	fclose(f);
	/* join wrapped lines (a newline and the continuation indent) so sentences read whole */
	char *o = buf;
	for (const char *i = buf; *i; i++) {
		if (i[0] == '\n' && i[1] == ' ' && i[2] == ' ') {
			*o++ = ' ';
			while (i[1] == ' ')
				i++;
			continue;
		}
		*o++ = *i;
	}
	*o = 0;
	return buf;
}

FS_TEST(summary_verdict_names_the_policy_that_explains_the_kernel)
{
	/* 990/1000 = 99.0 % >= 95 %; v5.4 at 800/1000 loses. */
	EXPECT_CONTAINS(summary_text(false, 800, 1000, 990, 1000),
			"kernel agreement: v6.0 explains the kernel's placements (99.0%)");
}

FS_TEST(summary_verdict_at_exactly_95_percent_explains)
{
	EXPECT_CONTAINS(summary_text(false, 95, 100, 10, 100), "v5.4 explains the kernel's placements (95.0%)");
}

FS_TEST(summary_verdict_says_plainly_when_no_policy_explains)
{
	/* 94/100 and 60/100: both under 95 %. */
	EXPECT_CONTAINS(summary_text(false, 60, 100, 94, 100),
			"no policy explains the kernel's placements (best v6.0, 94.0% < 95%)");
}

FS_TEST(summary_verdict_emulated_eas_is_not_a_kernel_test)
{
	EXPECT_CONTAINS(summary_text(true, 100, 100, 100, 100), "not a test of the kernel: EAS was emulated");
}

FS_TEST(summary_verdict_without_known_placements)
{
	EXPECT_CONTAINS(summary_text(false, 0, 0, 0, 0), "no eligible wake-up with a known kernel placement");
}

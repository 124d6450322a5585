// SPDX-License-Identifier: GPL-2.0
/*
 * Reading an EM the kernel may be rewriting (em/em_settle.c): a table counts
 * once two reads in a row agree. A scripted reader hands out tables A, B, ...
 * (the 2-PD test EM with state 0's power of its big PD set to 100 + the letter's
 * index) or an error, one a call.
 */
#include <errno.h>
#include "test.h"
#include "em_builders.h"
#include "em/em_io.h"

struct script {
	const char *reads; /* one a call: a letter is that table, '!' an error */
	int calls;
};

static void table(struct fs_em *em, char which)
{
	fs_test_em_2pd(em);
	em->pd[1].ps[0].power = 100 + (__u64)(which - 'A');
}

static int scripted(void *ctx, struct fs_em *em, char *err, size_t errlen)
{
	struct script *s = ctx;
	char c = s->reads[s->calls++];

	if (!c || c == '!') {
		snprintf(err, errlen, "read %d failed", s->calls);
		return -1;
	}
	table(em, c);
	return 0;
}

/* em's table is letter's: state 0 of the big PD */
#define EXPECT_TABLE(em, letter) EXPECT_EQ_U64((em)->pd[1].ps[0].power, 100 + (__u64)((letter) - 'A'))

FS_TEST(em_tables_differ_in_any_state_field_or_the_layout)
{
	struct fs_em a, b;

	table(&a, 'A');
	table(&b, 'A');
	EXPECT_TRUE(!fs_em_tables_differ(&a, &b));
	b.pd[0].ps[1].cost++;
	EXPECT_TRUE(fs_em_tables_differ(&a, &b));
	table(&b, 'A');
	b.pd[1].ps[2].inefficient = !b.pd[1].ps[2].inefficient;
	EXPECT_TRUE(fs_em_tables_differ(&a, &b));
	table(&b, 'A');
	b.pd[1].nr_ps--;
	EXPECT_TRUE(fs_em_tables_differ(&a, &b));
	table(&b, 'A');
	b.capacity[0]++; /* not the table: capacities come from sysfs */
	EXPECT_TRUE(!fs_em_tables_differ(&a, &b));
}

FS_TEST(em_settle_takes_a_table_read_twice_alike)
{
	struct script s = { "A", 0 };
	struct fs_em em;
	char err[128];

	table(&em, 'A'); /* the first read */
	EXPECT_EQ(fs_em_settle(scripted, &s, &em, 4, err, sizeof(err)), 0);
	EXPECT_EQ(s.calls, 1);
	EXPECT_TABLE(&em, 'A');

	/* a read that spanned an update (A), then the new table twice */
	s = (struct script){ "BB", 0 };
	table(&em, 'A');
	EXPECT_EQ(fs_em_settle(scripted, &s, &em, 4, err, sizeof(err)), 0);
	EXPECT_EQ(s.calls, 2);
	EXPECT_TABLE(&em, 'B');
}

FS_TEST(em_settle_gives_up_on_a_table_that_keeps_changing)
{
	struct script s = { "BCDEF", 0 };
	struct fs_em em;
	char err[128];

	table(&em, 'A');
	EXPECT_EQ(fs_em_settle(scripted, &s, &em, 4, err, sizeof(err)), 1);
	EXPECT_EQ(s.calls, 4);
	EXPECT_TABLE(&em, 'E'); /* the last read */
}

FS_TEST(em_settle_passes_a_read_error_on_and_keeps_the_last_good_table)
{
	struct script s = { "B!", 0 };
	struct fs_em em;
	char err[128] = "";

	table(&em, 'A');
	EXPECT_EQ(fs_em_settle(scripted, &s, &em, 4, err, sizeof(err)), -1);
	EXPECT_EQ(s.calls, 2);
	EXPECT_TABLE(&em, 'B');
	EXPECT_CONTAINS(err, "read 2 failed");
}

// SPDX-License-Identifier: GPL-2.0
/* seq_sort: chunks come out in sequence order whatever order they arrive in, in memory or spilled. */
#include <stdbool.h>
#include <unistd.h>
#include "test.h"
#include "output/seq_sort.h"

/* A chunk held as its number in binary becomes its text when its turn comes. */
static int emit_row(void *ctx, const char *chunk, size_t len, FILE *out)
{
	int v;

	(void)ctx;
	if (len != sizeof(v))
		return -1;
	memcpy(&v, chunk, sizeof(v));
	return fprintf(out, "%d,row %d\n", v, v) > 0 ? 0 : -1;
}

/* Feed chunks 1..n in a shuffled order (with some long-held ones), return what came out. */
static char *run_lent(int n, size_t limit, unsigned seed, int *runs, bool packed, size_t lent)
{
	char dir[] = "/tmp/fs-seqsort-XXXXXX", path[64], *out = NULL, err[256] = "";
	size_t outlen = 0;
	int *order = malloc((size_t)n * sizeof(*order));

	if (!mkdtemp(dir) || !order)
		return NULL;
	snprintf(path, sizeof(path), "%s/out.csv", dir);
	for (int i = 0; i < n; i++)
		order[i] = i + 1;
	for (int i = n - 1; i > 0; i--) { /* a local shuffle, plus every 97th chunk held to the end */
		seed = seed * 1103515245u + 12345u;
		int j = i - (int)(seed % 8u);
		if (j < 0)
			j = 0;
		int t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	FILE *f = open_memstream(&out, &outlen);
	struct fs_seq_sort *s = fs_seq_sort_new(f, path, 1, limit);
	char text[64];
	char *scratch = lent ? malloc(lent) : NULL;
	if (packed)
		fs_seq_sort_set_emit(s, emit_row, NULL);
	if (scratch) /* lent memory: what a .gz's writer gives (the rest of its huge page) */
		fs_seq_sort_set_scratch(s, scratch, lent);
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < n; i++) {
			if ((order[i] % 97 == 0) != (pass == 1))
				continue;
			int len = snprintf(text, sizeof(text), "%d,row %d\n", order[i], order[i]);
			if (packed) {
				memcpy(text, &order[i], sizeof(order[i]));
				len = sizeof(order[i]);
			}
			if (fs_seq_sort_add(s, (__u64)order[i], text, (size_t)len, err, sizeof(err)))
				FS_FAIL_AT("add %d: %s", order[i], err);
		}
	if (fs_seq_sort_finish(s, err, sizeof(err)))
		FS_FAIL_AT("finish: %s", err);
	*runs = fs_seq_sort_runs(s);
	fs_seq_sort_free(s);
	free(scratch);
	fclose(f);
	free(order);
	/* the spill file was unlinked at once: nothing is left beside the output */
	EXPECT_EQ(rmdir(dir), 0);
	return out;
}

static char *run_as(int n, size_t limit, unsigned seed, int *runs, bool packed)
{
	return run_lent(n, limit, seed, runs, packed, 0);
}

static char *run(int n, size_t limit, unsigned seed, int *runs)
{
	return run_as(n, limit, seed, runs, false);
}

static void expect_in_order(const char *out, int n)
{
	const char *p = out;
	int bad = 0;

	for (int i = 1; i <= n && !bad; i++) {
		char want[64];
		int len = snprintf(want, sizeof(want), "%d,row %d\n", i, i);
		if (strncmp(p, want, (size_t)len))
			bad = i;
		p += len;
	}
	if (bad)
		FS_FAIL_AT("chunk %d out of place", bad);
	EXPECT_TRUE(*p == 0);
}

FS_TEST(seq_sort_in_memory_keeps_order)
{
	int runs;
	char *out = run(5000, 1 << 20, 7, &runs);

	ASSERT_TRUE(out);
	EXPECT_EQ(runs, 0);
	expect_in_order(out, 5000);
	free(out);
}

FS_TEST(seq_sort_spills_and_merges_in_order)
{
	int runs;
	char *out = run(20000, 2048, 11, &runs); /* a 2 KiB hold: many runs on disk */

	ASSERT_TRUE(out);
	EXPECT_TRUE(runs > 10);
	expect_in_order(out, 20000);
	free(out);
}

FS_TEST(seq_sort_compacts_in_place_and_keeps_order)
{
	int runs;
	/* 3.6 MB of rows under an 8 MiB hold: written rows leave over 1 MiB of garbage behind held ones */
	char *out = run(200000, 8 << 20, 5, &runs);

	ASSERT_TRUE(out);
	EXPECT_EQ(runs, 0);
	expect_in_order(out, 200000);
	free(out);
}

FS_TEST(seq_sort_emit_expands_held_chunks_in_memory_and_spilled)
{
	int runs;
	char *out = run_as(5000, 1 << 20, 3, &runs, true);

	ASSERT_TRUE(out);
	EXPECT_EQ(runs, 0);
	expect_in_order(out, 5000);
	free(out);
	out = run_as(20000, 512, 13, &runs, true); /* 512 bytes: 128 chunks a run */
	ASSERT_TRUE(out);
	EXPECT_TRUE(runs > 10);
	expect_in_order(out, 20000);
	free(out);
}

/* Rows held in lent memory while they fit in half of it, then moved to the sort's own: the same order either way. */
FS_TEST(seq_sort_lent_memory_then_its_own)
{
	int runs;
	char *out = run_lent(5000, 1 << 20, 17, &runs, false, 1 << 20); /* all fit in what was lent */

	ASSERT_TRUE(out);
	EXPECT_EQ(runs, 0);
	expect_in_order(out, 5000);
	free(out);
	out = run_lent(20000, 1 << 20, 19, &runs, true, 4096); /* 4 KiB lent: moved out after about 500 rows */
	ASSERT_TRUE(out);
	EXPECT_EQ(runs, 0);
	expect_in_order(out, 20000);
	free(out);
	out = run_lent(20000, 2048, 23, &runs, false, 4096); /* a hold smaller than the lent memory: spilled from it */
	ASSERT_TRUE(out);
	EXPECT_TRUE(runs > 10);
	expect_in_order(out, 20000);
	free(out);
}

/*
 * Lent memory that fills with written chunks' garbage while few are held:
 * compacted in place (no room past its end), in arena order. The order of
 * adds is built so that happens (400 bytes lent, 4-byte chunks): 3..60 and
 * 62 held, 2 releases 2..60 (236 bytes of garbage), 63..102 fill the rest.
 */
FS_TEST(seq_sort_lent_memory_compacted_in_place)
{
	char dir[] = "/tmp/fs-seqsort-XXXXXX", path[64], err[256] = "", *out = NULL;
	size_t outlen = 0;
	static char lent[400];
	int order[160], n = 0;

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/out.csv", dir);
	order[n++] = 1;
	for (int i = 3; i <= 60; i++)
		order[n++] = i;
	order[n++] = 62;
	order[n++] = 2;
	for (int i = 63; i <= 150; i++)
		order[n++] = i;
	order[n++] = 61;
	FILE *f = open_memstream(&out, &outlen);
	struct fs_seq_sort *s = fs_seq_sort_new(f, path, 1, 1 << 20);
	fs_seq_sort_set_emit(s, emit_row, NULL);
	fs_seq_sort_set_scratch(s, lent, sizeof(lent));
	for (int i = 0; i < n; i++)
		if (fs_seq_sort_add(s, (__u64)order[i], (const char *)&order[i], sizeof(order[i]), err, sizeof(err)))
			FS_FAIL_AT("add %d: %s", order[i], err);
	if (fs_seq_sort_finish(s, err, sizeof(err)))
		FS_FAIL_AT("finish: %s", err);
	EXPECT_EQ(fs_seq_sort_runs(s), 0);
	fs_seq_sort_free(s);
	fclose(f);
	ASSERT_TRUE(out != NULL);
	EXPECT_EQ(n, 150);
	expect_in_order(out, 150);
	free(out);
	EXPECT_EQ(rmdir(dir), 0);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny test registry for the libbpf-free core. FS_TEST(name) registers a
 * test; each runs in its own process so a crash fails one test, not the run.
 * Assertions print both values. runner.c: -l lists, -t SUBSTR filters.
 */
#ifndef FEECSCOPE_TEST_H
#define FEECSCOPE_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fs_test {
	const char *name;
	const char *file;
	void (*fn)(void);
	struct fs_test *next;
};

void fs_test_register(struct fs_test *t);
extern int fs_test_failures; /* in the child: failed assertions so far */

#define FS_TEST(tname)                                                              \
	static void tname(void);                                                    \
	static struct fs_test fs_test_##tname = { #tname, __FILE__, tname, NULL };  \
	__attribute__((constructor)) static void fs_test_reg_##tname(void)          \
	{                                                                           \
		fs_test_register(&fs_test_##tname);                                 \
	}                                                                           \
	static void tname(void)

#define FS_FAIL_AT(...)                                                             \
	do {                                                                        \
		fprintf(stderr, "    %s:%d: ", __FILE__, __LINE__);                    \
		fprintf(stderr, __VA_ARGS__);                                       \
		fputc('\n', stderr);                                                \
		fs_test_failures++;                                                 \
	} while (0)

#define EXPECT_TRUE(c)                                                              \
	do {                                                                        \
		if (!(c))                                                           \
			FS_FAIL_AT("expected true: %s", #c);                        \
	} while (0)

#define EXPECT_EQ(a, b)                                                             \
	do {                                                                        \
		long long fs_a_ = (long long)(a), fs_b_ = (long long)(b);           \
		if (fs_a_ != fs_b_)                                                 \
			FS_FAIL_AT("%s == %s: got %lld, want %lld", #a, #b, fs_a_, fs_b_); \
	} while (0)

#define EXPECT_EQ_U64(a, b)                                                         \
	do {                                                                        \
		uint64_t fs_a_ = (uint64_t)(a), fs_b_ = (uint64_t)(b);              \
		if (fs_a_ != fs_b_)                                                 \
			FS_FAIL_AT("%s == %s: got %" PRIu64 ", want %" PRIu64, #a, #b, fs_a_, fs_b_); \
	} while (0)

#define EXPECT_STR(a, b)                                                            \
	do {                                                                        \
		const char *fs_a_ = (a), *fs_b_ = (b);                              \
		if (!fs_a_ || !fs_b_ || strcmp(fs_a_, fs_b_))                       \
			FS_FAIL_AT("%s == %s: got \"%s\", want \"%s\"", #a, #b,      \
				   fs_a_ ? fs_a_ : "(null)", fs_b_ ? fs_b_ : "(null)"); \
	} while (0)

#define EXPECT_CONTAINS(hay, needle)                                                \
	do {                                                                        \
		const char *fs_h_ = (hay), *fs_n_ = (needle);                       \
		if (!fs_h_ || !strstr(fs_h_, fs_n_))                                \
			FS_FAIL_AT("\"%s\" should contain \"%s\"", fs_h_ ? fs_h_ : "(null)", fs_n_); \
	} while (0)

/* Doubles equal to within 1e-9 relative (of b, plus 1e-9 absolute). */
#define EXPECT_NEAR(a, b)                                                                   \
	do {                                                                                \
		double fs_x_ = (a), fs_y_ = (b);                                            \
		if (!(__builtin_fabs(fs_x_ - fs_y_) <= 1e-9 * (1 + __builtin_fabs(fs_y_)))) \
			FS_FAIL_AT("%s == %s: got %.12g, want %.12g", #a, #b, fs_x_, fs_y_); \
	} while (0)

/* Stop the test here when a precondition fails. */
#define ASSERT_TRUE(c)                                                              \
	do {                                                                        \
		if (!(c)) {                                                         \
			FS_FAIL_AT("assertion failed: %s", #c);                     \
			return;                                                     \
		}                                                                   \
	} while (0)

/* Path of a fixture under tests/fixtures, from FS_FIXTURES or the source tree. */
const char *fs_fixture(const char *rel);

#endif /* FEECSCOPE_TEST_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * The speed-ups must not change a single result: a margin twin re-decided
 * from its twin's scan equals its own full evaluation, and every policy's
 * results over a fixed set of generated wake-ups keep their fingerprint.
 */
#include "test.h"
#include "em_builders.h"
#include "em/em_io.h"

#define NR_WAKEUPS 20000

/* The EMs the generated wake-ups run on: hand-built and shipped profiles. */
static int build_em(int k, struct fs_em *em)
{
	char err[256];

	switch (k) {
	case 0: fs_test_em_2pd(em); return 0;
	case 1: fs_test_em_pixel4(em, FS_POWER_MW); return 0;
	case 2: fs_test_em_pixel4(em, FS_POWER_UW); return 0;
	case 3: return fs_em_profile_build("pixel4", em, err, sizeof(err)) ? -1 : 0;
	case 4: return fs_em_profile_build("hikey960", em, err, sizeof(err)) ? -1 : 0;
	default: return -1;
	}
}

/* Field by field; returns the number of differing fields (the first reported unless quiet). */
static int compare(const struct fs_feec_result *a, const struct fs_feec_result *b, const char *what,
		   int seq, bool quiet)
{
	int d = 0;

#define CMP(f)                                                                                 \
	do {                                                                                   \
		if (a->f != b->f) {                                                            \
			if (!d && !quiet)                                                      \
				fprintf(stderr, "    %s, wake-up %d: %s %lld != %lld\n", what,   \
					seq, #f, (long long)a->f, (long long)b->f);            \
			d++;                                                                   \
		}                                                                              \
	} while (0)
	CMP(cpu); CMP(best_cpu); CMP(reason); CMP(eligible); CMP(task_util); CMP(nr_cand);
	CMP(base_energy); CMP(prev_delta); CMP(best_delta); CMP(threshold); CMP(has_threshold);
	CMP(in.valid); CMP(in.prev); CMP(in.best); CMP(in.prev_fits); CMP(in.best_fits);
	CMP(in.prev_cap); CMP(in.best_cap);
	for (int k = 0; k < a->nr_cand && k < b->nr_cand; k++) {
		CMP(cand[k].cpu); CMP(cand[k].pd); CMP(cand[k].fits);
		CMP(cand[k].energy); CMP(cand[k].base); CMP(cand[k].delta);
	}
#undef CMP
	return d;
}

FS_TEST(twin_redecide_equals_full_evaluation_of_the_twin)
{
	static struct fs_em em;
	int pairs = 0;

	for (int e = 0; build_em(e, &em) == 0; e++) {
		for (int i = 0; i < fs_policy_count(); i++) {
			const struct fs_policy_desc *d = fs_policy_at(i), *td;
			struct fs_policy p, t;
			char err[256];

			if (!d->twin)
				continue;
			td = fs_policy_find(d->twin);
			ASSERT_TRUE(td != NULL);
			ASSERT_TRUE(fs_policy_init(&p, d, &em, err, sizeof(err)) == 0);
			ASSERT_TRUE(fs_policy_init(&t, td, &em, err, sizeof(err)) == 0);
			EXPECT_TRUE(fs_policy_can_redecide(&t, &p));

			__u64 seed = 0x2545f4914f6cdd1dull + (__u64)(e * 31 + i);
			int bad = 0, decided = 0, differ = 0;
			for (int n = 0; n < NR_WAKEUPS; n++) {
				static struct fs_wakeup w;
				struct fs_feec_result mine, re, full;

				fs_test_random_wakeup(&w, &em, &seed);
				fs_policy_feec(&p, &w, &mine);
				fs_policy_redecide(&t, &mine, &re);
				fs_policy_feec(&t, &w, &full);
				bad += compare(&re, &full, td->name, n, bad >= 3) != 0;
				decided += full.in.valid;
				differ += mine.cpu != full.cpu;
			}
			EXPECT_EQ(bad, 0);
			/* The generator must reach the final rule, and the margin must matter. */
			EXPECT_TRUE(decided > NR_WAKEUPS / 4);
			EXPECT_TRUE(differ > 0);
			fs_policy_fini(&p);
			fs_policy_fini(&t);
			pairs++;
		}
	}
	EXPECT_EQ(pairs, 5 * 22);
}

FS_TEST(twin_redecide_only_between_margin_twins)
{
	static struct fs_em em;
	static const char *const not_twins[][2] = {
		{ "v5.0", "v5.4" }, { "v5.4", "v5.10" }, { "v5.10", "v5.15" }, { "v5.15", "v6.0" },
		{ "v6.0", "v6.1" }, { "v6.1", "v6.6+margin" }, { "v6.6", "v6.12" },
	};
	struct fs_policy a, b, c;
	char err[256];

	fs_test_em_pixel4(&em, FS_POWER_MW);
	for (size_t k = 0; k < sizeof(not_twins) / sizeof(not_twins[0]); k++) {
		ASSERT_TRUE(fs_policy_init(&a, fs_policy_find(not_twins[k][0]), &em, err, sizeof(err)) == 0);
		ASSERT_TRUE(fs_policy_init(&b, fs_policy_find(not_twins[k][1]), &em, err, sizeof(err)) == 0);
		EXPECT_TRUE(!fs_policy_can_redecide(&a, &b));
		EXPECT_TRUE(!fs_policy_can_redecide(&b, &a));
		fs_policy_fini(&a);
		fs_policy_fini(&b);
	}
	/* A twin on another EM has other tables. */
	static struct fs_em em2;
	fs_test_em_2pd(&em2);
	ASSERT_TRUE(fs_policy_init(&a, fs_policy_find("v5.4"), &em, err, sizeof(err)) == 0);
	ASSERT_TRUE(fs_policy_init(&b, fs_policy_find("v5.4-nomargin"), &em2, err, sizeof(err)) == 0);
	ASSERT_TRUE(fs_policy_init(&c, fs_policy_find("v5.4-nomargin"), &em, err, sizeof(err)) == 0);
	EXPECT_TRUE(!fs_policy_can_redecide(&b, &a));
	EXPECT_TRUE(fs_policy_can_redecide(&c, &a));
	fs_policy_fini(&a);
	fs_policy_fini(&b);
	fs_policy_fini(&c);
}

static __u64 fnv(__u64 h, __u64 v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		h = (h ^ (v & 0xff)) * 0x100000001b3ull;
	return h;
}

/* FNV-1a over the fields of every result (not the rule inputs, an implementation detail). */
static __u64 hash_result(__u64 h, const struct fs_feec_result *r)
{
	h = fnv(h, (__u64)(__s64)r->cpu);
	h = fnv(h, (__u64)(__s64)r->best_cpu);
	h = fnv(h, r->reason);
	h = fnv(h, r->eligible);
	h = fnv(h, r->task_util);
	h = fnv(h, (__u64)r->nr_cand);
	h = fnv(h, r->base_energy);
	h = fnv(h, r->prev_delta);
	h = fnv(h, r->best_delta);
	h = fnv(h, r->threshold);
	h = fnv(h, r->has_threshold);
	for (int k = 0; k < r->nr_cand; k++) {
		h = fnv(h, (__u64)(__s64)r->cand[k].cpu);
		h = fnv(h, (__u64)(__s64)r->cand[k].pd);
		h = fnv(h, (__u64)(__s64)r->cand[k].fits);
		h = fnv(h, r->cand[k].energy);
		h = fnv(h, r->cand[k].base);
		h = fnv(h, r->cand[k].delta);
	}
	return h;
}

/*
 * Each policy's results over the generated wake-ups, hashed. Recorded before
 * the speed-ups (twin sharing, per-wake-up util caches) from the
 * straightforward per-CPU loops, then per policy so a new policy adds a line
 * and leaves the others alone. A rule change that is meant to change results
 * updates its line and says so; a speed-up never does. Every line changed
 * with the WF_CURRENT_CPU exit (one generated wake-up in 32 carries it): with
 * the exit disabled, the lines before it came back unchanged.
 */
static const struct {
	const char *policy;
	__u64 fingerprint;
} expected[] = {
	{ "v5.0", 0x298b78d5dbde426eull },
	{ "v5.0-nomargin", 0xc7c360b207d76feeull },
	{ "v5.4", 0xcd2d8bd5990ea7b0ull },
	{ "v5.4-nomargin", 0x25c3f29be427f8fbull },
	{ "v5.10", 0x54cc1446b02b845full },
	{ "v5.10-nomargin", 0x3ba52e29547f5babull },
	{ "v5.15", 0x376b045795a079a0ull },
	{ "v5.15-nomargin", 0x46aef537b5332586ull },
	{ "v6.0", 0x8b1e4971cc7e9e60ull },
	{ "v6.0+margin", 0xbbe22ed22f1aa309ull },
	{ "v6.1", 0xbed7e967b502087dull },
	{ "v6.1+margin", 0xb16ad89f484d0e12ull },
	{ "v6.6", 0xe23ff313179cd4afull },
	{ "v6.6+margin", 0x3291fa549d7cd1b7ull },
	{ "v6.12", 0x9a818ec678f30163ull },
	{ "v6.12+margin", 0xb87800f639aed4e1ull },
	/* added with the policy (its rule tested by hand in test_feec_v6_x.c) */
	{ "v6.12.97", 0x51f3070651210662ull },
	{ "v6.12.97+margin", 0x352594ae0489dbc1ull },
	/* 7.1's overutilized rule decides only emulated gates, never set here: v6.12's and v6.12.97's */
	{ "v7.1", 0x9a818ec678f30163ull },
	{ "v7.1+margin", 0xb87800f639aed4e1ull },
	{ "v7.2", 0x51f3070651210662ull },
	{ "v7.2+margin", 0x352594ae0489dbc1ull },
};

FS_TEST(feec_results_over_generated_wakeups_keep_their_fingerprint)
{
	static struct fs_em em;
	__u64 h[FS_MAX_POLICIES];
	const int np = fs_policy_count();

	ASSERT_TRUE(np <= FS_MAX_POLICIES);
	for (int i = 0; i < np; i++)
		h[i] = 0xcbf29ce484222325ull;
	for (int e = 0; build_em(e, &em) == 0; e++) {
		struct fs_policy pol[FS_MAX_POLICIES];
		char err[256];

		for (int i = 0; i < np; i++)
			ASSERT_TRUE(fs_policy_init(&pol[i], fs_policy_at(i), &em, err, sizeof(err)) == 0);
		__u64 seed = 0x9e3779b97f4a7c15ull + (__u64)e;
		for (int n = 0; n < NR_WAKEUPS / 4; n++) {
			static struct fs_wakeup w;
			struct fs_feec_result r;

			fs_test_random_wakeup(&w, &em, &seed);
			for (int i = 0; i < np; i++) {
				fs_policy_feec(&pol[i], &w, &r);
				h[i] = hash_result(h[i], &r);
			}
		}
		for (int i = 0; i < np; i++)
			fs_policy_fini(&pol[i]);
	}
	for (int i = 0; i < np; i++) {
		const char *name = fs_policy_at(i)->name;
		int k = 0;

		while (k < (int)(sizeof(expected) / sizeof(expected[0])) && strcmp(expected[k].policy, name))
			k++;
		if (k == (int)(sizeof(expected) / sizeof(expected[0])) || expected[k].fingerprint != h[i])
			fprintf(stderr, "    { \"%s\", 0x%016llxull },\n", name, (unsigned long long)h[i]);
		EXPECT_TRUE(k < (int)(sizeof(expected) / sizeof(expected[0])) && expected[k].fingerprint == h[i]);
	}
}

// SPDX-License-Identifier: GPL-2.0
/* The portable EM file: exact round trips, and every malformed line named with its number. */
#include "test.h"
#include "em/em_internal.h"

static void expect_same_em(const struct fs_em *a, const struct fs_em *b)
{
	EXPECT_EQ(a->nr_cpus, b->nr_cpus);
	EXPECT_EQ(a->nr_pd, b->nr_pd);
	EXPECT_EQ(a->unit, b->unit);
	EXPECT_STR(a->source, b->source);
	EXPECT_STR(a->kernel, b->kernel);
	for (int cpu = 0; cpu < FS_MAX_CPUS; cpu++) {
		EXPECT_EQ(a->capacity[cpu], b->capacity[cpu]);
		EXPECT_EQ(a->cpu_pd[cpu], b->cpu_pd[cpu]);
	}
	for (int i = 0; i < a->nr_pd && i < b->nr_pd; i++) {
		const struct fs_em_pd *x = &a->pd[i], *y = &b->pd[i];

		EXPECT_STR(x->name, y->name);
		EXPECT_EQ_U64(x->cpus, y->cpus);
		EXPECT_EQ(x->flags, y->flags);
		EXPECT_EQ(x->has_inefficient, y->has_inefficient);
		EXPECT_EQ(x->nr_ps, y->nr_ps);
		for (int j = 0; j < x->nr_ps && j < y->nr_ps; j++) {
			EXPECT_EQ_U64(x->ps[j].frequency, y->ps[j].frequency);
			EXPECT_EQ_U64(x->ps[j].power, y->ps[j].power);
			EXPECT_EQ_U64(x->ps[j].cost, y->ps[j].cost);
			EXPECT_EQ_U64(x->ps[j].performance, y->ps[j].performance);
			EXPECT_EQ(x->ps[j].inefficient, y->ps[j].inefficient);
		}
	}
}

static char *to_text(const struct fs_em *em, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f || fs_em_write(f, em))
		abort();
	fclose(f);
	return buf;
}

static void round_trip(const struct fs_em *em)
{
	struct fs_em back;
	char err[512] = "";
	size_t len, len2;
	char *text = to_text(em, &len), *text2;

	ASSERT_TRUE(fs_em_parse_text(text, len, "mem", &back, err, sizeof(err)) == 0);
	expect_same_em(em, &back);
	text2 = to_text(&back, &len2);
	EXPECT_EQ(len, len2);
	EXPECT_TRUE(len == len2 && !memcmp(text, text2, len));
	free(text);
	free(text2);
}

FS_TEST(em_file_round_trip_profiles)
{
	for (int i = 0; i < fs_em_profile_count(); i++) {
		struct fs_em em;
		char err[512];

		ASSERT_TRUE(fs_em_profile_build(fs_em_profile_name(i), &em, err, sizeof(err)) == 0);
		round_trip(&em);
	}
}

FS_TEST(em_file_round_trip_debugfs_trees)
{
	static const char *trees[] = { "em/v5.4", "em/v5.17", "em/v5.19", "em/v6.1-lab", "em/v6.12", "em/v6.19" };

	for (size_t i = 0; i < sizeof(trees) / sizeof(trees[0]); i++) {
		struct fs_em em;
		char err[512], dir[4096];

		snprintf(dir, sizeof(dir), "%s", fs_fixture(trees[i]));
		ASSERT_TRUE(fs_em_read_debugfs(dir, NULL, &em, err, sizeof(err)) == 0);
		round_trip(&em);
	}
}

FS_TEST(em_file_parse_not_nul_terminated)
{
	struct fs_em em, back;
	char err[512] = "";
	size_t len;
	char *text, *copy;

	ASSERT_TRUE(fs_em_profile_build("juno-r2", &em, err, sizeof(err)) == 0);
	text = to_text(&em, &len);
	/* the recording embeds the text without a terminator: follow it with garbage */
	copy = malloc(len + 8);
	memcpy(copy, text, len);
	memcpy(copy + len, "XXXXXXXX", 8);
	ASSERT_TRUE(fs_em_parse_text(copy, len, "rec", &back, err, sizeof(err)) == 0);
	EXPECT_EQ_U64(back.pd[0].cpus, 0x39); /* juno: cpus 0,3,4,5 */
	free(copy);
	free(text);
}

static const char good[] =
	"feecscope-em 1\n"
	"kernel 6.1.0\n"
	"source test\n"
	"unit uW\n"
	"cpus 2\n"
	"capacity 0 500\n"
	"capacity 1 1024\n"
	"pd cpu0 cpus=0 flags=0x1 has_inefficient=1 states=2\n"
	"ps frequency=100000 power=1000 cost=2000 inefficient=0 performance=0\n"
	"ps frequency=200000 power=3000 cost=3000 inefficient=0 performance=0\n"
	"pd cpu1 cpus=1 flags=0x1 has_inefficient=1 states=1\n"
	"ps frequency=300000 power=9000 cost=9000 inefficient=0 performance=0\n"
	"end\n";

/* Replace the first occurrence of from with to in good[], parse, expect err exactly. */
static void expect_parse_err(const char *from, const char *to, const char *want)
{
	char text[2048], err[512] = "";
	const char *at = strstr(good, from);
	struct fs_em em;

	if (!at)
		abort();
	snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
	EXPECT_EQ(fs_em_parse_text(text, strlen(text), "f.em", &em, err, sizeof(err)), -1);
	EXPECT_STR(err, want);
}

FS_TEST(em_file_good_parses)
{
	struct fs_em em;
	char err[512] = "";

	EXPECT_EQ(fs_em_parse_text(good, strlen(good), "f.em", &em, err, sizeof(err)), 0);
	EXPECT_STR(err, "");
	EXPECT_EQ(em.capacity[0], 500);
}

FS_TEST(em_file_errors)
{
	expect_parse_err("feecscope-em 1", "feecscope-em 2", "f.em:1: version: 2, this feecscope reads version 1");
	expect_parse_err("feecscope-em 1", "hello", "f.em:1: not a feecscope EM file (want 'feecscope-em VERSION' first)");
	expect_parse_err("unit uW", "unit kW", "f.em:4: unit: 'kW', want uW, mW or bogoW");
	expect_parse_err("capacity 1 1024", "capacity 1 2000", "f.em:7: capacity: cpu1: '2000' is not a number in 0..1024");
	expect_parse_err("power=3000", "power=3x00", "f.em:10: power: '3x00' is not a number");
	expect_parse_err("power=3000", "power=0", "f.em:10: power: 0 (the kernel never registers a zero-power state)");
	expect_parse_err("frequency=200000", "frequency=100000",
			 "f.em:10: frequency: 100000 kHz is not above the previous state's 100000 kHz");
	expect_parse_err("pd cpu1 cpus=1", "pd cpu1 cpus=0-1",
			 "f.em: pd cpu1: cpus: CPU 0 is already in another performance domain");
	expect_parse_err("capacity 1 1024\n", "", "f.em: cpu1: cpu_capacity: missing (0) for a CPU of pd cpu1");
	expect_parse_err("states=2", "states=3", "f.em:11: pd: previous pd cpu0 has 2 ps lines, its states= said 3");
	expect_parse_err("end\n", "", "f.em:13: end: missing (the file is truncated)");
	expect_parse_err("inefficient=0 performance=0\nps frequency=200000", "inefficient=2 performance=0\nps frequency=200000",
			 "f.em:9: inefficient: 2, want 0 or 1");
	expect_parse_err("cpus 2", "cpus 3", "f.em: cpus: 3, but the performance domains span 2 CPUs");
	expect_parse_err("source test", "colour blue", "f.em:3: unknown line 'colour'");
	expect_parse_err("cost=2000 ", "", "f.em:9: cost: missing (want cost=VALUE here)");
}

/* Each of these read back as a different EM than the file said (the EM file fuzzer's finds). */
FS_TEST(em_file_errors_lost_on_round_trip)
{
	/* a capacity beyond the cpus count was kept, then not written back */
	expect_parse_err("capacity 1 1024", "capacity 1 1024\ncapacity 9 1024",
			 "f.em:8: capacity: cpu9 is not below the cpus line's 2");
	expect_parse_err("capacity 1 1024", "capacity 0 1024", "f.em:7: capacity: cpu0 given twice");
	expect_parse_err("unit uW", "unit uW\nunit mW", "f.em:5: unit: given twice");
	expect_parse_err("unit uW\n", "", "f.em:12: end: no unit line before it");
	expect_parse_err("end\n", "kernel 6.1\nend\n", "f.em:13: kernel: after the first pd line");
	/* a pd name with a blank was written back as two words */
	expect_parse_err("pd cpu1 ", "pd cpu\x01one ", "f.em:11: pd: name 'cpu\x01one' has a character that is not printable");
	expect_parse_err("pd cpu1 ", "pd cpu0 ", "f.em:11: pd: name 'cpu0' given twice");
	/* a kernel release longer than the field was cut short silently */
	{
		char to[200], want[200];
		snprintf(to, sizeof(to), "kernel %070d", 6);
		snprintf(want, sizeof(want), "f.em:2: kernel: longer than 63 characters");
		expect_parse_err("kernel 6.1.0", to, want);
	}
}

FS_TEST(em_file_read_file_errors)
{
	struct fs_em em;
	char err[512] = "";

	EXPECT_EQ(fs_em_read_file("/nonexistent.em", &em, err, sizeof(err)), -1);
	EXPECT_STR(err, "/nonexistent.em: cannot open: No such file or directory");
}

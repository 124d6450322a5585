// SPDX-License-Identifier: GPL-2.0
/*
 * What each output costs and weighs, two ways, each in one run (modes
 * alternated):
 * - `feecscope replay` of a lab recording (tests/fixtures/view/live.fsr),
 *   run in this process as the command runs, with no output, then with the
 *   trace, the CSV.gz and both, 150 times each, each replay timed alone: CPU
 *   time (user + system of every thread, so page faults and writes count)
 *   of the fastest and of the median replay as ratios to the replay without
 *   outputs. This is the measure: outputs against the replay
 *   itself, reading included.
 * - The pipeline fed generated wake-ups from memory (pixel4's EM, the v5.4
 *   pair, CPU times known), no reading: the outputs against the engine
 *   alone, and bytes per wake-up. The kernel's CPU is random here, so
 *   policies differ from it far more often than on a device: the trace's
 *   size is near its bound (docs/perfetto.md).
 * Usage: outputs_bench [WAKEUPS [RECORDING]]; RECORDING "-" skips the first
 * part (the engine-alone figures only, in a fraction of the time).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "bench_gen.h"
#include "commands.h"
#include "pipeline.h"
#include "em/em_io.h"
#include "outputs_open.h"
#include "records/recording.h"

/* bench_wakeup()'s, with a process of its own and an app's uid. */
static void gen(struct fs_wakeup *w, const struct fs_em *em)
{
	bench_wakeup(w, em);
	w->tgid = w->pid;
	w->uid = 10000 + (__u32)(w->pid % 7);
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* CPU seconds of the whole process, every thread (the gzip one too), to the nanosecond. */
static double cpu_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

enum { NONE, PERFETTO, CSV, CSV_GZ, RECORDING, PERFETTO_CSV_GZ, NR_MODES };
static const char *const mode_name[NR_MODES] = {
	"no output", "--perfetto", "--csv .csv", "--csv .csv.gz", "--record", "--perfetto + .csv.gz",
};

/*
 * CPU seconds (every thread) to feed n wake-ups through mode's outputs into
 * dir: on a shared host wall time swings with the load, CPU time much less.
 * *bytes: what they wrote.
 */
static double run(const struct fs_em *em, const struct fs_rec_meta *meta, int mode, __u64 n, const char *dir,
		  long long *bytes)
{
	static struct fs_wakeup ring[4096];
	char err[512], pf[512], csv[512], rec[512];
	struct fs_pipeline_opts o = { .em = em, .nr_policies = 2, .kernel_release = "" };
	struct fs_output_paths paths = { 0 };

	snprintf(pf, sizeof(pf), "%s/t.pftrace", dir);
	snprintf(csv, sizeof(csv), "%s/t.csv%s", dir, mode == CSV_GZ || mode == PERFETTO_CSV_GZ ? ".gz" : "");
	snprintf(rec, sizeof(rec), "%s/t.fsr", dir);
	o.policies[0] = fs_policy_find("v5.4");
	o.policies[1] = fs_policy_find("v5.4-nomargin");
	paths.perfetto = mode == PERFETTO || mode == PERFETTO_CSV_GZ ? pf : NULL;
	paths.csv = mode == CSV || mode == CSV_GZ || mode == PERFETTO_CSV_GZ ? csv : NULL;
	paths.record = mode == RECORDING ? rec : NULL;
	paths.record_meta = meta;
	struct fs_pipeline *p = NULL;
	if (fs_outputs_open(&o, &paths, err, sizeof(err)) || !(p = fs_pipeline_new(&o, err, sizeof(err)))) {
		fprintf(stderr, "outputs_bench: %s\n", err);
		return -1;
	}
	bench_rng = 0x9e3779b97f4a7c15ull; /* the same wake-ups every run */
	for (int i = 0; i < 4096; i++)
		gen(&ring[i], em);
	double t0 = cpu_s();
	for (__u64 i = 0; i < n; i++) {
		struct fs_wakeup *w = &ring[i & 4095];
		w->hdr.ts_ns = 1000000000ull + i * 50000;
		w->sum_exec_ns = i * 20000;
		if (fs_pipeline_feed(p, &w->hdr, err, sizeof(err))) {
			fprintf(stderr, "outputs_bench: %s\n", err);
			fs_pipeline_free(p);
			return -1;
		}
	}
	if (fs_pipeline_finish(p, err, sizeof(err)))
		fprintf(stderr, "outputs_bench: %s\n", err);
	fs_pipeline_free(p);
	double dt = cpu_s() - t0;
	struct stat st;
	*bytes = 0;
	const char *files[] = { paths.perfetto, paths.csv, paths.record };
	for (int f = 0; f < 3; f++)
		if (files[f] && !stat(files[f], &st)) {
			*bytes += st.st_size;
			unlink(files[f]);
		}
	return dt;
}

enum { R_NONE, R_PERFETTO, R_CSV_GZ, R_BOTH, NR_R };
static const char *const r_name[NR_R] = { "no output", "--perfetto", "--csv .csv.gz", "--perfetto + .csv.gz" };

/* `feecscope replay rec` with mode's outputs, reps times (stdout is /dev/null): each one's CPU and wall seconds. */
static int replay_cmd(const char *rec, int mode, int reps, const char *dir, double *cpu, double *wall)
{
	char pf[512], csv[512];
	char *argv[8];
	int argc = 0;

	snprintf(pf, sizeof(pf), "%s/r.pftrace", dir);
	snprintf(csv, sizeof(csv), "%s/r.csv.gz", dir);
	argv[argc++] = (char *)"replay";
	argv[argc++] = (char *)rec;
	if (mode == R_PERFETTO || mode == R_BOTH)
		argv[argc++] = (char *)"--perfetto", argv[argc++] = pf;
	if (mode == R_CSV_GZ || mode == R_BOTH)
		argv[argc++] = (char *)"--csv", argv[argc++] = csv;
	argv[argc] = NULL;
	for (int i = 0; i < reps; i++) {
		unlink(pf);
		unlink(csv);
		double c0 = cpu_s(), w0 = now_s();
		if (fs_cmd_replay(argc, argv) != 0)
			return -1;
		cpu[i] = cpu_s() - c0;
		wall[i] = now_s() - w0;
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Wake-ups in a decision CSV: the last row's seq (rows are in wake-up order). */
static unsigned long long csv_wakeups(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	unsigned long long seq = 0;

	while (f && fgets(line, sizeof(line), f))
		if (line[0] >= '0' && line[0] <= '9')
			seq = strtoull(line, NULL, 10);
	if (f)
		fclose(f);
	return seq;
}

/*
 * The measure: the outputs against `feecscope replay` of a real
 * recording. CPU time counts every thread (the gzip one too); wall time is
 * what a user waits for, with the compression on another core.
 */
static int bench_recording(const char *rec)
{
	/* tmpfs where there is one: fsync and the disk's speed are not what is measured */
	char dir[64];

	snprintf(dir, sizeof(dir), "%s/fs-outputs-bench-XXXXXX", access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
	/*
	 * Each replay timed alone, the outputs alternated in rounds: a busy host
	 * only ever adds time, so the fastest replays of each output are the
	 * figures a quiet host gives, and their ratios hold under load where
	 * totals over many replays swung by a third; the medians show the spread.
	 */
	enum { REPS = 15, ROUNDS = 10, N = REPS * ROUNDS };
	static double cpu[NR_R][N], wall[NR_R][N];

	if (access(rec, R_OK) || !mkdtemp(dir)) {
		fprintf(stderr, "outputs_bench: %s: cannot read it\n", rec);
		return -1;
	}
	fflush(stdout);
	int saved = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY);
	if (saved < 0 || null < 0 || dup2(null, STDOUT_FILENO) < 0) {
		fprintf(stderr, "outputs_bench: cannot silence stdout\n");
		return -1;
	}
	close(null);
	int rc = 0;
	for (int round = 0; round < ROUNDS && !rc; round++)
		for (int m = 0; m < NR_R && !rc; m++)
			rc = replay_cmd(rec, m, REPS, dir, cpu[m] + round * REPS, wall[m] + round * REPS);
	for (int m = 0; m < NR_R; m++) {
		qsort(cpu[m], N, sizeof(double), cmp_double);
		qsort(wall[m], N, sizeof(double), cmp_double);
	}
	/* bytes per wake-up: the files of the last run with both, and the CSV's text once */
	char pf[512], gz[512], txt[512];
	struct stat st_rec, st_pf, st_gz, st_txt;
	snprintf(pf, sizeof(pf), "%s/r.pftrace", dir);
	snprintf(gz, sizeof(gz), "%s/r.csv.gz", dir);
	snprintf(txt, sizeof(txt), "%s/r.csv", dir);
	char *argv_txt[] = { (char *)"replay", (char *)rec, (char *)"--csv", txt, NULL };
	unsigned long long wakeups = 0;
	if (!rc && !stat(rec, &st_rec) && !stat(pf, &st_pf) && !stat(gz, &st_gz) && !fs_cmd_replay(4, argv_txt) &&
	    !stat(txt, &st_txt))
		wakeups = csv_wakeups(txt);
	unlink(pf);
	unlink(gz);
	unlink(txt);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rmdir(dir);
	if (rc) {
		fprintf(stderr, "outputs_bench: feecscope replay %s failed\n", rec);
		return -1;
	}
	printf("outputs on a recording: feecscope replay %s\n"
	       "%d times per output in this process, in rounds of %d; per replay: CPU (every\n"
	       "thread) and wall time of the fastest, CPU time of the median\n", rec, N, REPS);
	printf("%-22s %9s %7s %9s %7s %9s %7s\n", "output", "CPU ms", "ratio", "median", "ratio", "wall ms", "ratio");
	for (int m = 0; m < NR_R; m++)
		printf("%-22s %9.3f %6.2fx %9.3f %6.2fx %9.3f %6.2fx\n", r_name[m], cpu[m][0] * 1e3,
		       cpu[m][0] / cpu[R_NONE][0], cpu[m][N / 2] * 1e3, cpu[m][N / 2] / cpu[R_NONE][N / 2],
		       wall[m][0] * 1e3, wall[m][0] / wall[R_NONE][0]);
	printf("Perfetto + CSV.gz cost %.2fx the replay itself in CPU time (%.2fx at the\n"
	       "median), %.2fx in wall time (goal: < 1x)\n",
	       cpu[R_BOTH][0] / cpu[R_NONE][0] - 1, cpu[R_BOTH][N / 2] / cpu[R_NONE][N / 2] - 1,
	       wall[R_BOTH][0] / wall[R_NONE][0] - 1);
	if (wakeups)
		printf("bytes per wake-up (%llu): recording %.1f, CSV %.1f, CSV.gz %.1f, Perfetto %.1f\n\n", wakeups,
		       (double)st_rec.st_size / (double)wakeups, (double)st_txt.st_size / (double)wakeups,
		       (double)st_gz.st_size / (double)wakeups, (double)st_pf.st_size / (double)wakeups);
	else
		printf("bytes per wake-up: could not be measured\n\n");
	return 0;
}

int main(int argc, char **argv)
{
	static struct fs_em em;
	struct fs_rec_meta meta = { .nr_cpus = 0 };
	char err[256], dir[] = "/tmp/fs-outputs-bench-XXXXXX";
	__u64 n = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000;
	enum { ROUNDS = 5 }; /* modes alternated; a busy host only adds time: the best is the quiet figure */
	double best[NR_MODES];
	long long bytes[NR_MODES];

	const char *rec = argc > 2 ? argv[2] : "tests/fixtures/view/live.fsr";
	if (strcmp(rec, "-") && bench_recording(rec))
		return 1;

	if (fs_em_profile_build("pixel4", &em, err, sizeof(err))) {
		fprintf(stderr, "outputs_bench: %s\n", err);
		return 1;
	}
	meta.nr_cpus = em.nr_cpus;
	FILE *mf = open_memstream(&meta.em_text, &meta.em_len);
	if (!mf || fs_em_write(mf, &em) < 0 || fclose(mf) || !mkdtemp(dir)) {
		fprintf(stderr, "outputs_bench: cannot set up\n");
		return 1;
	}
	for (int m = 0; m < NR_MODES; m++)
		best[m] = 1e30;
	for (int round = 0; round < ROUNDS; round++)
		for (int m = 0; m < NR_MODES; m++) {
			double t = run(&em, &meta, m, n, dir, &bytes[m]);
			if (t < 0)
				return 1;
			if (t < best[m])
				best[m] = t;
		}
	rmdir(dir);
	free(meta.em_text);
	printf("outputs on the engine alone: %llu generated wake-ups fed from memory (pixel4, v5.4 pair,\n"
	       "random kernel CPU: every wake-up a disagreement), CPU time, best of %d\n", (unsigned long long)n,
	       ROUNDS);
	printf("%-22s %10s %12s %12s\n", "output", "time", "vs no output", "bytes/wakeup");
	for (int m = 0; m < NR_MODES; m++)
		printf("%-22s %9.3fs %11.2fx %12.1f\n", mode_name[m], best[m], best[m] / best[NONE],
		       (double)bytes[m] / (double)n);
	printf("Perfetto + CSV.gz cost %.2fx the engine alone (no reading; worst-case trace)\n",
	       (best[PERFETTO_CSV_GZ] - best[NONE]) / best[NONE]);
	printf("--record costs %.2fx the engine alone, %.2f us a wake-up (goal: < 1x)\n",
	       (best[RECORDING] - best[NONE]) / best[NONE], (best[RECORDING] - best[NONE]) * 1e6 / (double)n);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/* feecscope report: many recordings' verdicts, per recording, per device EM and kernel, and combined. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "commands.h"
#include "many_runs.h"
#include "output/many_report.h"
#include "output/out_file.h"
#include "records/recording.h"
#include "packages_file.h"
#include "source/probe.h"

enum { O_CSV = FS_OPT_LONG, O_JOBS, O_MIX, O_PACKAGES, O_EM };

static const struct fs_opt report_opts[] = {
	{ "json", 'j', "FILE", "The report as JSON; '-' writes it to stdout instead of the text." },
	{ "csv", O_CSV, "FILE", "One row per recording (FILE ending in .gz: gzip); '-' writes it to stdout "
	  "instead of the text." },
	{ "jobs", O_JOBS, "N", "Replay N recordings at a time. Default: one per CPU." },
	{ "mix", O_MIX, NULL, "Combine recordings of different CPU counts or Energy Models (devices) into "
	  "one verdict; without it such a report is refused (exit 2)." },
	{ "packages", O_PACKAGES, "FILE", "Android's packages.list (adb pull /data/system/packages.list): "
	  "processes are summed by the app their uid is, where it is one (docs/apps.md)." },
	{ "em", O_EM, "EM", "The Energy Model of the kernel traces given (a built-in profile, a saved EM or "
	  "a debugfs tree): a trace carries none (docs/traces.md). Recordings keep their own." },
	{ "help", 'h', NULL, "This text." },
	{ 0 }
};

static const struct fs_opt *const report_sets[] = { report_opts, NULL };

static const struct fs_cli_page report_page = {
	.name = "report",
	.summary = "verdicts of many recordings, per device and kernel",
	.synopsis = "[OPTIONS] REC|DIR...",
	.description =
"Replays every recording given (binary recordings, or records CSVs that carry "
"their EM, or kernel traces with --em; a directory stands for the recordings "
"and traces in it, told by content) through its default "
"policies (its kernel's and the twin), each once, on all CPUs, and prints what "
"the margin costs per recording, per device EM and kernel release, and over all "
"of them, with the processes it costs most (docs/analysis.md).\n"
"\n"
"A recording that cannot be replayed is listed with its error, and the exit "
"status is 1; one damaged part-way counts up to the damage. A FILE or DIR that "
"cannot be read stops the report before it starts (exit 1). In a directory, "
"a file named *.fsr that is not a recording (empty, or not starting as one) "
"is skipped with a warning, and the exit status is 1.\n"
"\n"
"Recordings of different devices (CPU counts, or Energy Models with other "
"numbers) do not add up to one device's answer: report names the first two "
"that differ and stops (exit 2, as a usage error: the files are sound) unless "
"--mix is given. Each interval, a recording's, a group's or the combined one, "
"comes from one method: a bootstrap over each recording's time blocks, "
"resampled within the recording.",
	.sets = report_sets,
	.examples = " feecscope report runs/\n feecscope report a.fsr b.fsr --json report.json",
};

struct list {
	char **v;
	size_t n, cap;
};

static int add(struct list *l, const char *s)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		char **v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	return (l->v[l->n++] = strdup(s)) ? 0 : -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool named_fsr(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && !strcmp(name + n - 4, ".fsr");
}

/*
 * A directory's recordings: its regular files that start with the recording
 * magic, by name. A *.fsr that does not is said and counted in *skipped.
 * Kernel traces (by content) only with traces (report --em): without an EM
 * none can be read, and a directory of outputs holds feecscope's own
 * Perfetto traces; those passed over are said in one line.
 */
static int add_dir(struct list *l, const char *dir, bool traces, int *skipped)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t first = l->n;
	int passed_over = 0;

	if (!d) {
		fprintf(stderr, "feecscope report: %s: cannot open: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		char path[4096], err[256];
		struct stat st;
		const struct fs_input_probe *p;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		/* recordings and kernel traces, by content; not CSVs (any text would be one) */
		if (fs_input_probe_file(path, &p, err, sizeof(err)) || !p ||
		    (p->fmt != FS_IN_RECORDING && !p->read)) {
			if (named_fsr(e->d_name)) {
				fprintf(stderr, "feecscope report: %s: skipped: %s\n", path,
					st.st_size ? "not a recording (bad magic)" : "is empty");
				(*skipped)++;
			}
			continue;
		}
		if (p->fmt != FS_IN_RECORDING && !traces) {
			passed_over++;
			continue;
		}
		if (add(l, path)) {
			closedir(d);
			return -1;
		}
	}
	closedir(d);
	if (passed_over)
		fprintf(stderr, "feecscope report: %s: %d kernel trace%s passed over (give --em to include them)\n", dir,
			passed_over, passed_over == 1 ? "" : "s");
	qsort(l->v + first, l->n - first, sizeof(*l->v), cmp_str);
	return 0;
}

struct progress {
	bool tty;
	double start;
	bool shown;
};

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A progress line on a terminal once the run takes longer than a second. */
static void on_progress(void *ctx, size_t done, size_t total)
{
	struct progress *p = ctx;

	if (!p->tty || now_s() - p->start < 1.0)
		return;
	fprintf(stderr, "\rfeecscope report: %zu/%zu recordings replayed", done, total);
	p->shown = true;
}

int fs_cmd_report(int argc, char **argv)
{
	struct fs_cli cli = { .cmd = "report", .sets = report_sets };
	const char *json = NULL, *csv = NULL, *packages = NULL, *em_spec = NULL;
	int jobs = 0, opt, ret = FS_EXIT_OK, skipped = 0;
	bool mix = false;
	struct list files = { 0 };
	struct fs_apps apps = { 0 };

	while ((opt = fs_cli_next(&cli, argc, argv)) != -1) {
		switch (opt) {
		case 'j': json = optarg; break;
		case O_CSV: csv = optarg; break;
		case O_MIX: mix = true; break;
		case O_PACKAGES: packages = optarg; break;
		case O_EM: em_spec = optarg; break;
		case O_JOBS: {
			char *end;
			long v = strtol(optarg, &end, 10);

			if (*end || end == optarg || v < 1 || v > 1024)
				return fs_cli_usage(cli.cmd, "--jobs '%s': expected a count from 1 to 1024", optarg);
			jobs = (int)v;
			break;
		}
		case 'h':
			fs_cli_help(stdout, &report_page);
			return FS_EXIT_OK;
		default:
			return FS_EXIT_USAGE;
		}
	}
	if (optind == argc)
		return fs_cli_usage(cli.cmd, "give recordings or directories");
	for (int i = optind; i < argc; i++) {
		char err[512];
		struct stat st;

		if (!stat(argv[i], &st) && S_ISDIR(st.st_mode)) {
			if (add_dir(&files, argv[i], em_spec != NULL, &skipped)) {
				ret = FS_EXIT_FAIL;
				goto out;
			}
			continue;
		}
		/* a named file that cannot be read: said before any work, in replay's words */
		if (fs_cli_input_file(argv[i], err, sizeof(err))) {
			fprintf(stderr, "feecscope report: %s\n", err);
			ret = FS_EXIT_FAIL;
			goto out;
		}
		if (add(&files, argv[i])) {
			ret = FS_EXIT_FAIL;
			goto out;
		}
	}
	if (skipped)
		ret = FS_EXIT_FAIL;
	if (!files.n) {
		fprintf(stderr, "feecscope report: no recordings found\n");
		ret = FS_EXIT_FAIL;
		goto out;
	}
	/* No output may be a recording read or the other output: checked before anything is written. */
	{
		struct fs_io_path *io = calloc(files.n + 2, sizeof(*io));
		char cerr[512];
		if (!io) {
			ret = FS_EXIT_FAIL;
			goto out;
		}
		for (size_t i = 0; i < files.n; i++)
			io[i] = (struct fs_io_path){ files.v[i], "RECORDING", false };
		io[files.n] = (struct fs_io_path){ json, "--json", true };
		io[files.n + 1] = (struct fs_io_path){ csv, "--csv", true };
		int bad = fs_paths_check(io, (int)files.n + 2, cerr, sizeof(cerr));
		free(io);
		if (bad) {
			fs_cli_error("report", "%s", cerr);
			ret = FS_EXIT_USAGE;
			goto out;
		}
	}
	char why[1024];

	if (!mix && fs_many_mixed((const char *const *)files.v, files.n, why, sizeof(why))) {
		/* a usage error: the files are sound, the request needs --mix */
		ret = fs_cli_usage(cli.cmd, "%s; --mix combines them", why);
		goto out;
	}
	if (packages && (ret = fs_packages_load("report", packages, false, &apps)))
		goto out;
	struct progress pr = { .tty = isatty(STDERR_FILENO), .start = now_s() };
	struct fs_many m;
	if (fs_many_run((const char *const *)files.v, files.n, jobs, apps.nr ? &apps : NULL, em_spec, on_progress,
			&pr, &m)) {
		fprintf(stderr, "feecscope report: out of memory\n");
		ret = FS_EXIT_FAIL;
		goto out;
	}
	if (pr.shown)
		fputs("\r\033[K", stderr);
	for (size_t i = 0; i < m.nr_runs; i++)
		if (m.runs[i].error[0]) {
			fprintf(stderr, "feecscope report: %s\n", m.runs[i].error);
			ret = FS_EXIT_FAIL;
		}
	/* an output on stdout ('-') takes the text's place */
	if (!fs_out_is_stdout(json) && !fs_out_is_stdout(csv))
		fs_many_print_text(stdout, &m);
	char err[512];
	const char *paths[2] = { json, csv };
	for (int k = 0; k < 2; k++) {
		struct fs_out_file of;

		if (!paths[k])
			continue;
		if (fs_out_open(&of, paths[k], err, sizeof(err))) {
			fs_cli_error("report", "%s", err);
			ret = FS_EXIT_FAIL;
			continue;
		}
		(k ? fs_many_print_csv : fs_many_print_json)(of.f, &m);
		if (fs_out_commit(&of, err, sizeof(err))) {
			fs_cli_error("report", "%s", err);
			ret = FS_EXIT_FAIL;
		}
	}
	fs_many_free(&m);
out:
	fs_apps_free(&apps);
	for (size_t i = 0; i < files.n; i++)
		free(files.v[i]);
	free(files.v);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/* feecscope report: many recordings' verdicts, per recording, per device EM and kernel, and combined. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "commands.h"
#include "many_files.h"
#include "many_runs.h"
#include "output/many_report.h"
#include "output/out_file.h"
#include "output/output.h"
#include "packages_file.h"

enum { O_CSV = FS_OPT_LONG, O_JOBS, O_MIX, O_PACKAGES, O_EM };

static const struct fs_opt report_opts[] = {
	{ "json", 'j', "FILE", "The report as JSON; '-' writes it to stdout instead of the text." },
	{ "csv", O_CSV, "FILE", "One row per recording (FILE ending in .gz: gzip); '-' writes it to stdout "
	  "instead of the text." },
	{ "jobs", O_JOBS, "N", "Replay N recordings at a time. Default: one per CPU." },
	{ "mix", O_MIX, NULL, "Combine recordings of different CPU counts or Energy Models (devices) into "
	  "one verdict; without it such a report is refused (exit 2)." },
	{ "packages", O_PACKAGES, "FILE", "Android's packages.list (adb pull /data/system/packages.list): "
	  "every recording's processes are summed by the app their uid is, where it is one, in place of "
	  "the list each recording kept (docs/apps.md)." },
	{ "em", O_EM, "EM", "The Energy Model of the kernel traces given (a built-in profile, a saved EM or "
	  "a debugfs tree): a trace carries none (docs/traces.md). Recordings keep their own." },
	FS_OPT_HELP,
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
"--mix is given. A group's interval and the combined one come from their "
"recordings' own: closed-loop intervals (time blocks and the jittered "
"replicas' spread) add as independent variances; per-decision ones resample "
"each recording's time blocks within it. A group of one recording shows that "
"recording's interval.",
	.sets = report_sets,
	.examples = " feecscope report runs/\n feecscope report a.fsr b.fsr --json report.json",
};

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

struct report_args {
	const char *json, *csv, *packages, *em_spec;
	int jobs;
	bool mix;
};

/* -1: go on; else the exit code (help, a usage error). */
static int parse_args(int argc, char **argv, struct report_args *a)
{
	struct fs_cli cli = { .cmd = "report", .sets = report_sets };
	int opt;

	while ((opt = fs_cli_next(&cli, argc, argv)) != -1) {
		switch (opt) {
		case 'j': a->json = optarg; break;
		case O_CSV: a->csv = optarg; break;
		case O_MIX: a->mix = true; break;
		case O_PACKAGES: a->packages = optarg; break;
		case O_EM: a->em_spec = optarg; break;
		case O_JOBS: {
			char *end;
			long v = strtol(optarg, &end, 10);

			if (*end || end == optarg || v < 1 || v > 1024)
				return fs_cli_usage(cli.cmd, "--jobs '%s': expected a count from 1 to 1024", optarg);
			a->jobs = (int)v;
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
	return -1;
}

/* No output may be a recording read or the other output: checked before anything is written. */
static int check_paths(const struct fs_file_list *files, const struct report_args *a)
{
	struct fs_io_path *io = calloc(files->n + 2, sizeof(*io));
	char err[512];

	if (!io)
		return FS_EXIT_FAIL;
	for (size_t i = 0; i < files->n; i++)
		io[i] = (struct fs_io_path){ files->v[i], "RECORDING", false };
	io[files->n] = (struct fs_io_path){ a->json, "--json", true };
	io[files->n + 1] = (struct fs_io_path){ a->csv, "--csv", true };
	int bad = fs_paths_check(io, (int)files->n + 2, err, sizeof(err));

	free(io);
	if (bad) {
		fs_cli_error("report", "%s", err);
		return FS_EXIT_USAGE;
	}
	return FS_EXIT_OK;
}

/* The outputs: the text on stdout unless an output takes it ('-'), then JSON and CSV. How many, or -1. */
static int open_outputs(const struct report_args *a, struct fs_output *outs)
{
	char err[128];
	int n = 0;

	if (!fs_out_is_stdout(a->json) && !fs_out_is_stdout(a->csv) &&
	    fs_output_many(&outs[n++], FS_MANY_TEXT, stdout, NULL, err, sizeof(err)))
		return -1;
	if (a->json && fs_output_many(&outs[n++], FS_MANY_JSON, NULL, a->json, err, sizeof(err)))
		return -1;
	if (a->csv && fs_output_many(&outs[n++], FS_MANY_CSV, NULL, a->csv, err, sizeof(err)))
		return -1;
	return n;
}

/* Replay the files, say each that failed, write the outputs: the exit code (FS_EXIT_FAIL if any failed). */
static int run_report(const struct fs_file_list *files, const struct report_args *a, const struct fs_apps *apps)
{
	struct progress pr = { .tty = isatty(STDERR_FILENO), .start = now_s() };
	struct fs_output outs[3];
	struct fs_many m;
	int rc = FS_EXIT_OK, n;

	if (fs_many_run((const char *const *)files->v, files->n, a->jobs, apps, a->em_spec, on_progress, &pr, &m)) {
		fprintf(stderr, "feecscope report: out of memory\n");
		return FS_EXIT_FAIL;
	}
	if (pr.shown)
		fputs("\r\033[K", stderr);
	for (size_t i = 0; i < m.nr_runs; i++)
		if (m.runs[i].error[0]) {
			fprintf(stderr, "feecscope report: %s\n", m.runs[i].error);
			rc = FS_EXIT_FAIL;
		}
	n = open_outputs(a, outs);
	if (n < 0 || fs_many_write(&m, outs, n, "report"))
		rc = FS_EXIT_FAIL;
	fs_many_free(&m);
	return rc;
}

int fs_cmd_report(int argc, char **argv)
{
	struct report_args a = { 0 };
	struct fs_file_list files = { 0 };
	struct fs_apps apps = { 0 };
	int ret, skipped = 0;
	char why[1024];

	if ((ret = parse_args(argc, argv, &a)) >= 0)
		return ret;
	ret = FS_EXIT_FAIL;
	if (fs_many_files(argv + optind, argc - optind, a.em_spec != NULL, &files, &skipped))
		goto out;
	if (!files.n) {
		fprintf(stderr, "feecscope report: no recordings found\n");
		goto out;
	}
	if ((ret = check_paths(&files, &a)))
		goto out;
	if (!a.mix && fs_many_mixed((const char *const *)files.v, files.n, why, sizeof(why))) {
		/* a usage error: the files are sound, the request needs --mix */
		ret = fs_cli_usage("report", "%s; --mix combines them", why);
		goto out;
	}
	if (a.packages && (ret = fs_packages_load("report", a.packages, false, &apps)))
		goto out;
	ret = run_report(&files, &a, a.packages ? &apps : NULL); /* empty: no app in any recording */
	if (skipped) /* a *.fsr that is not a recording, said while scanning */
		ret = FS_EXIT_FAIL;
out:
	fs_apps_free(&apps);
	fs_file_list_free(&files);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/* feecscope replay: run a recording or a records CSV through the policies, or convert between the two. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "source/trace_dat.h"
#include "pipeline.h"
#include "filter.h"
#include "output/out_file.h"
#include "em/em_io.h"
#include "run_opts.h"
#include "outputs_open.h"
#include "records/csv_records.h"
#include "records/recording.h"
#include "packages_file.h"
#include "run.h"
#include "source/spool.h"

enum { O_CONV_CSV = FS_RUN_OWN, O_CONV_REC };

static const struct fs_opt replay_opts[] = {
	{ "convert-csv", O_CONV_CSV, "OUT", "Write FILE's records as a records CSV and exit (lossless)." },
	{ "convert-record", O_CONV_REC, "OUT", "Write FILE's records as a binary recording and exit." },
	FS_OPT_HELP,
	{ 0 }
};

static const struct fs_opt *const replay_sets[] = {
	fs_run_policy_opts, fs_run_filter_opts, fs_run_output_opts, replay_opts, NULL
};

static struct fs_cli_page replay_page = { /* description completed by replay_help() */
	.name = "replay",
	.summary = "replay a recording, a records CSV or a kernel trace",
	.synopsis = "FILE [OPTIONS]\nFILE --convert-csv OUT | --convert-record OUT",
	.description =
"Replays FILE, a binary recording (`feecscope live --record`) or a records CSV "
"(docs/csv.md), through find_energy_efficient_cpu() of the chosen policies and "
"prints the summary to stdout: for a recording, the same text live printed "
"when it ended.\n"
"\n"
"FILE may also be a kernel trace (docs/traces.md): trace-cmd's trace.dat "
"(versions 6 and 7), ftrace text (/sys/kernel/tracing/trace, trace-cmd report) "
"or a Perfetto trace (.perfetto-trace, .pftrace; gzip'd or not). A trace has "
"no EM: give --em. Its answer is the closed-loop simulation of the workload "
"the trace's events give, with the trace's own placements as its self-check. "
"Every format is told from the file's first bytes, not its name.%s\n"
"\n"
"A damaged recording replays every complete chunk and prints the summary of "
"what it read; then the error names the chunk and byte where the file broke, "
"and the exit status is 1.\n"
"\n"
"For a kernel trace --pid and --comm pick the decision CSV's rows and the "
"processes listed, and the summary gives the kept processes' share of the "
"margin's cost; the verdict stays every task's, as a recording's closed-loop "
"answer does: the simulated machine runs every task that ran.\n"
"\n"
"FILE may be a pipe: '-' (standard input), /dev/stdin or <(command). No output "
"may be FILE, the --em file or another output (the same file by any name): "
"that is refused before anything is written (exit 2). Outputs are written "
"under a temporary name and renamed into place when complete. Any one output "
"may be '-', stdout: the summary then stays off it.",
	.sets = replay_sets,
	.examples =
" feecscope replay rec.fsr\n"
" feecscope replay rec.fsr -e pixel4 -P v5.4,v5.4-nomargin --csv d.csv\n"
" feecscope replay trace.csv --em hikey960 --convert-record trace.fsr\n"
" feecscope replay trace.dat --em pixel6 --csv d.csv --pid 1234",
};

/* The help page, with whether this build reads trace.dat (the static arm64 build has no libtracecmd). */
static void replay_help(void)
{
	static const char no_dat[] = " This build reads no trace.dat (built without libtracecmd): "
				     "give it the text of `trace-cmd report -N -t` instead.";
	const char *fmt = replay_page.description;
	char *text = NULL;

	if (asprintf(&text, fmt, fs_trace_dat_supported() ? "" : no_dat) >= 0)
		replay_page.description = text;
	fs_cli_help(stdout, &replay_page);
	replay_page.description = fmt;
	free(text);
}

/* A file opened under another name than the user gave (a piped FILE's copy, spool.h): messages say the given one. */
static struct { const char *opened, *given; } alias[1];

static void say(const char *msg)
{
	for (size_t i = 0; i < sizeof(alias) / sizeof(alias[0]); i++) {
		const char *at = alias[i].opened ? strstr(msg, alias[i].opened) : NULL;
		if (at) {
			fs_cli_error("replay", "%.*s%s%s", (int)(at - msg), msg, alias[i].given,
				at + strlen(alias[i].opened));
			return;
		}
	}
	fs_cli_error("replay", "%s", msg);
}

static int convert(const char *in, struct fs_source *s, struct fs_rec_meta *m, const char *csv_out,
		   const char *rec_out, const struct fs_em *em)
{
	char err[512], *text = NULL;
	size_t len = 0;
	const struct fs_rec_hdr *h;
	int rc;

	if (em && !m->em_text) { /* a CSV without "# em:" lines takes --em's EM */
		FILE *mf = open_memstream(&text, &len);
		if (!mf || fs_em_write(mf, em) < 0 || fclose(mf)) {
			fs_cli_error("replay", "cannot serialise the EM");
			return FS_EXIT_FAIL;
		}
		m->em_text = text;
		m->em_len = len;
	}
	if (rec_out && !m->em_text) {
		fs_cli_error("replay", "%s has no EM: give --em to embed one in %s", in, rec_out);
		return FS_EXIT_FAIL;
	}
	/* Written under a temporary name, renamed into place only when complete. */
	struct fs_out_file of;
	FILE *out = NULL;
	struct fs_rec_writer *w = NULL;
	if (fs_out_open_as(&of, csv_out ? csv_out : rec_out, csv_out ? 0 : FS_OUT_PLAIN, err, sizeof(err))) {
		say(err);
		return FS_EXIT_FAIL;
	}
	if (csv_out) {
		out = of.f;
		fs_csv_records_write_header(out, m);
	} else {
		w = fs_rec_writer_open_stream(of.f, rec_out, m, err, sizeof(err));
		if (!w) {
			say(err);
			fs_out_abort(&of);
			return FS_EXIT_FAIL;
		}
	}
	bool wfail = false;
	while ((rc = fs_source_next(s, &h, err, sizeof(err))) == 1) {
		if (out ? fs_csv_records_write(out, h, m->nr_cpus) : fs_rec_writer_add(w, h, err, sizeof(err))) {
			if (out)
				snprintf(err, sizeof(err), "%s: write failed: %s", of.path, strerror(errno ? errno : EIO));
			rc = -1;
			wfail = true;
			break;
		}
	}
	if (rc < 0)
		say(err);
	if (w && fs_rec_writer_close(w, err, sizeof(err)) && !wfail) {
		say(err);
		rc = -1;
		wfail = true;
	}
	/*
	 * A damaged input converts up to where it broke (a complete file of that
	 * much, and exit 1); a failed write leaves nothing under the name.
	 */
	if (wfail) {
		fs_out_abort(&of);
	} else if (fs_out_commit(&of, err, sizeof(err))) {
		say(err);
		rc = -1;
	}
	return rc < 0 ? FS_EXIT_FAIL : FS_EXIT_OK;
}

struct replay_args {
	struct fs_run_opts ro;
	const char *conv_csv, *conv_rec;
	const char *path;
};

/* Options and FILE: true to go on, else false with *exit_code (help, the policy list, a usage error). */
static bool parse_args(int argc, char **argv, struct replay_args *a, int *exit_code)
{
	struct fs_cli cli = { .cmd = "replay", .sets = replay_sets };
	int opt;

	*exit_code = FS_EXIT_USAGE;
	if (fs_policies_list_asked(argc, argv)) { /* `--policies` alone or `--policies list` */
		fs_policies_print(stdout);
		*exit_code = FS_EXIT_OK;
		return false;
	}
	while ((opt = fs_cli_next(&cli, argc, argv)) != -1) {
		int taken = fs_run_opt(cli.cmd, &a->ro, opt, optarg);

		if (taken < 0)
			return false;
		if (taken)
			continue;
		switch (opt) {
		case O_CONV_CSV: a->conv_csv = optarg; break;
		case O_CONV_REC: a->conv_rec = optarg; break;
		case 'h': replay_help(); *exit_code = FS_EXIT_OK; return false;
		default: return false;
		}
	}
	if (fs_run_opts_check(cli.cmd, &a->ro))
		return false;
	if (optind == argc)
		return *exit_code = fs_cli_usage(cli.cmd, "FILE is required (a recording or a records CSV)"), false;
	if (optind < argc - 1)
		return *exit_code = fs_cli_usage(cli.cmd, "one FILE only ('%s' is another)", argv[optind + 1]), false;
	if (a->conv_csv && a->conv_rec)
		return *exit_code = fs_cli_usage(cli.cmd, "--convert-csv and --convert-record exclude each other"),
		       false;
	a->path = argv[optind];
	/* No output may be an input or another output: checked before anything is written. */
	const struct fs_io_path io[] = {
		{ a->path, "FILE", false }, { a->ro.em_spec, "--em", false }, { a->ro.csv, "--csv", true },
		{ a->ro.json, "--json", true }, { a->ro.summary, "--summary", true },
		{ a->ro.perfetto, "--perfetto", true }, { a->conv_csv, "--convert-csv", true },
		{ a->ro.workload_csv, "--workload-csv", true },
		{ a->ro.packages, "--packages", false },
		{ a->conv_rec, "--convert-record", true },
	};
	char err[1024];

	if (fs_paths_check(io, sizeof(io) / sizeof(io[0]), err, sizeof(err)))
		/* exit 2; no usage hint: the names, not the options, are wrong */
		return fs_cli_error(cli.cmd, "%s", err), *exit_code = FS_EXIT_USAGE, false;
	return true;
}

/*
 * The EM: --em's, else the file's own (*have_em false if it has none).
 * 0, or -1 after the message.
 */
static int replay_em(const struct replay_args *a, const struct fs_source *src, struct fs_em *em,
		     bool *have_em, bool *emulate)
{
	const struct fs_rec_meta *meta = &src->meta;
	char err[1024];

	*have_em = false;
	if (fs_source_is_trace(src) && !a->ro.em_spec) {
		fs_cli_error("replay", "%s: a trace (%s) has no EM: give --em (a profile, a saved EM "
			"or a debugfs tree)", a->path, src->format);
		return -1;
	}
	if (a->ro.em_spec) {
		if (fs_em_load(a->ro.em_spec, em, err, sizeof(err))) {
			fs_cli_error("replay", "--em %s: %s", a->ro.em_spec, fs_cli_past_path(err, a->ro.em_spec));
			return -1;
		}
		*emulate = true;
	} else if (meta->em_text) {
		if (fs_em_parse_text(meta->em_text, meta->em_len, a->path, em, err, sizeof(err))) {
			fs_cli_error("replay", "%s: embedded EM: %s", a->path, err);
			return -1;
		}
		*emulate = !meta->em_is_kernel;
	} else {
		return 0;
	}
	*have_em = true;
	if (fs_source_is_trace(src)) /* its CPUs are checked event by event against the EM's */
		return 0;
	if (em->nr_cpus != meta->nr_cpus) {
		fs_cli_error("replay", "%s: the EM (%s) has %d CPUs but the recording has %d", a->path,
			a->ro.em_spec ? a->ro.em_spec : "embedded", em->nr_cpus, meta->nr_cpus);
		fs_em_cpu_hint(meta->nr_cpus, err, sizeof(err));
		fs_cli_hint(err);
		return -1;
	}
	return 0;
}

/*
 * A kernel trace: read whole into the simulation's workload for em, and
 * what it lacked said on stderr (the summary says it too). 0, or -1 after
 * the message. Nothing to do for a recording.
 */
static int replay_trace(const struct replay_args *a, struct fs_source *src, const struct fs_em *em)
{
	char err[1024];

	if (!fs_source_is_trace(src))
		return 0;
	if (a->conv_csv || a->conv_rec) {
		fs_cli_error("replay", "%s: a trace (%s) has no records to convert "
			"(--convert-csv and --convert-record take a recording or a records CSV)", a->path, src->format);
		return -1;
	}
	if (a->ro.no_sim) {
		fs_cli_error("replay", "%s: --no-sim: a trace's answer is the simulation's", a->path);
		return -1;
	}
	if (fs_source_prepare(src, em, a->ro.physics, err, sizeof(err))) {
		say(err);
		return -1;
	}
	return 0;
}

/* src through the policies into the outputs asked for: the exit code. */
static int replay_with(const struct fs_run_opts *ro, struct fs_source *src, const struct fs_em *em,
		       struct fs_pipeline_opts *op);

static int replay_run(const struct fs_run_opts *ro, struct fs_source *src, const struct fs_em *em, bool emulate,
		      const struct fs_apps *apps)
{
	struct fs_pipeline_opts o = { .emulate_eas = emulate };

	o.apps = apps->nr ? apps : NULL; /* an empty list: no app to group by */
	return replay_with(ro, src, em, &o);
}

/*
 * uid -> app: --packages FILE, else the list the recording kept (version
 * 5). 0 (apps->nr 0: no app), or FS_EXIT_FAIL after one line.
 */
static int replay_apps(const struct replay_args *a, const struct fs_source *src, struct fs_apps *apps)
{
	char err[1024], name[600];

	memset(apps, 0, sizeof(*apps));
	if (a->ro.packages)
		return fs_packages_load("replay", a->ro.packages, false, apps);
	if (!src->meta.packages_text)
		return 0;
	snprintf(name, sizeof(name), "%s: its packages list", a->path);
	if (fs_apps_parse(apps, src->meta.packages_text, src->meta.packages_len, name, err, sizeof(err))) {
		fprintf(stderr, "feecscope replay: %s\n", err);
		return FS_EXIT_FAIL;
	}
	snprintf(apps->from, sizeof(apps->from), "the recording's own list");
	return 0;
}

/* --convert-record keeps the list the run would use: --packages' (none if it is empty), else the file's. */
static int convert_packages(struct fs_rec_meta *m, const struct fs_apps *apps, bool given)
{
	if (!given)
		return 0;
	free(m->packages_text);
	m->packages_text = NULL;
	m->packages_len = 0;
	if (!apps->nr)
		return 0;
	if (!(m->packages_text = malloc(apps->list_len + 1)))
		return -1;
	memcpy(m->packages_text, apps->list, apps->list_len + 1);
	m->packages_len = apps->list_len;
	return 0;
}

/* replay_run() once the packages are read. */
static int replay_with(const struct fs_run_opts *ro, struct fs_source *src, const struct fs_em *em,
		       struct fs_pipeline_opts *op)
{
	struct fs_pipeline_opts o = *op;
	struct fs_output_paths out = { 0 };
	struct fs_run_status st;
	char err[1024], head[700];

	fs_run_apply(ro, src->meta.kernel_release, &o, head, sizeof(head));
	fs_run_sim_settings(ro, &src->meta, em, &o.sim_settings);
	o.em = em;
	o.kernel_release = src->meta.kernel_release;
	o.head = head[0] ? head : NULL;
	/* a trace tells no kernel release: its self-check takes the reference as the traced kernel's policy */
	if (fs_source_is_trace(src) && !o.sim_kernel_policy)
		o.sim_kernel_policy = o.policies[0];
	fs_run_output_paths(ro, &out);
	if (fs_outputs_open(&o, &out, err, sizeof(err))) {
		say(err);
		return FS_EXIT_FAIL;
	}
	struct fs_pipeline *p = fs_pipeline_new(&o, err, sizeof(err));
	if (!p) {
		say(err);
		return FS_EXIT_FAIL;
	}
	int ret = FS_EXIT_FAIL;

	/* A damaged file still gets the summary of what replayed, then the error and exit 1. */
	if (fs_run(p, src, NULL, &st) == 0)
		ret = fs_run_filter_end("replay", fs_pipeline_stats(p), fs_pipeline_filter(p));
	else
		say(st.finish_rc ? st.finish_err : st.read_err);
	fs_pipeline_free(p);
	return ret;
}

int fs_cmd_replay(int argc, char **argv)
{
	struct replay_args a = { 0 };
	struct fs_source src = { 0 };
	char err[1024], spooled[64];
	bool have_em, emulate = false;
	int ret;

	memset(alias, 0, sizeof(alias)); /* nothing from an earlier call in this process */
	if (!parse_args(argc, argv, &a, &ret))
		return ret;
	ret = FS_EXIT_FAIL;
	struct fs_em *em = calloc(1, sizeof(*em));

	if (!em) {
		fs_cli_error("replay", "out of memory");
		return FS_EXIT_FAIL;
	}
	if (strcmp(a.path, "-") && fs_cli_input_file(a.path, err, sizeof(err))) {
		say(err);
		free(em);
		return FS_EXIT_FAIL;
	}
	/* A pipe is read once: copied first, so it is sniffed and read like a file (docs/csv.md). */
	const char *in = fs_spool_if_stream(a.path, spooled, sizeof(spooled), err, sizeof(err));
	if (in == spooled) {
		alias[0].opened = spooled;
		alias[0].given = a.path;
	}
	if (!in || fs_source_open_file(&src, in, a.path, err, sizeof(err))) {
		say(err);
		free(em);
		return FS_EXIT_FAIL;
	}
	struct fs_apps apps = { 0 };
	if (replay_em(&a, &src, em, &have_em, &emulate) || replay_trace(&a, &src, em))
		goto out;
	if ((ret = replay_apps(&a, &src, &apps)))
		goto out;
	ret = FS_EXIT_FAIL;
	if (a.conv_csv || a.conv_rec) {
		if (convert_packages(&src.meta, &apps, a.ro.packages != NULL))
			fprintf(stderr, "feecscope replay: out of memory\n");
		else
			ret = convert(a.path, &src, &src.meta, a.conv_csv, a.conv_rec, have_em ? em : NULL);
	} else if (!have_em) {
		fs_cli_error("replay", "%s: no EM in the file: give --em (a profile, a saved EM or a "
			"debugfs tree)", a.path);
		fs_em_cpu_hint(src.meta.nr_cpus, err, sizeof(err));
		fs_cli_hint(err);
	} else {
		ret = replay_run(&a.ro, &src, em, emulate, &apps);
	}
out:
	fs_apps_free(&apps);
	fs_source_close(&src);
	free(em);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/* feecscope replay: run a recording or a records CSV through the policies, or convert between the two. */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "pipeline.h"
#include "output/out_file.h"
#include "em/em_io.h"
#include "output/outputs_open.h"
#include "source/csv_records.h"
#include "source/recording.h"
#include "source/spool.h"

static const char usage_text[] =
"usage: feecscope replay FILE [options]\n"
"\n"
"Replay FILE, a binary recording (feecscope live --record) or a records CSV\n"
"(docs/csv.md; the format is detected from the file's first bytes), through\n"
"find_energy_efficient_cpu() policies and print the summary to stdout.\n"
"FILE may be a pipe: '-' (standard input), /dev/stdin or <(command).\n"
"\n"
"Options:\n"
"  --em SPEC             Energy Model to use instead of the one in FILE: a built-in\n"
"                        profile name (pixel4, hikey960, ...), a saved EM file, or a\n"
"                        debugfs-layout directory. An EM that is not the recorded\n"
"                        kernel's makes feecscope emulate the EAS gates from the\n"
"                        landscape (docs/accounting.md).\n"
"  --policies A,B,...    policies to run, the first is the reference (feecscope policies).\n"
"  --kernel-policy NAME  reference policy, run with its twin (with/without the margin).\n"
"                        Default: the policy for FILE's kernel release and its twin;\n"
"                        without a release, the newest mainline policy and its twin.\n"
"  --csv OUT             decision CSV (docs/csv.md): a row per wake-up and policy,\n"
"                        in wake-up order; OUT ending in .gz is written gzip.\n"
"  --csv-layout wide     the older layout instead: a row per wake-up, columns\n"
"                        per policy, rows as placements close.\n"
"  --json OUT            the report as JSON (docs/json.md); '-' = stdout (the\n"
"                        summary then stays off stdout).\n"
"  --perfetto OUT        a Perfetto trace for ui.perfetto.dev (docs/perfetto.md);\n"
"                        OUT ending in .gz is written gzip-compressed.\n"
"  --summary OUT         also write the summary to OUT.\n"
"  --threads             list each process's threads under it in the summary.\n"
"  --pid N               only wake-ups of pid N.\n"
"  --comm NAME           only wake-ups of tasks called NAME.\n"
"  --convert-csv OUT     write FILE's records as a records CSV and exit (lossless).\n"
"  --convert-record OUT  write FILE's records as a binary recording and exit.\n"
"  -h, --help            this text.\n"
"\n"
"A damaged recording replays every complete chunk, then the error names the\n"
"chunk and byte where it broke and the exit code is 1.\n"
"\n"
"No output may be FILE, the --em file or another output (the same file by\n"
"any name): that is refused before anything is written (exit 2). Outputs are\n"
"written under a temporary name and renamed into place when complete.\n"
"\n"
"Exit codes: 0 ok, 1 bad input or failed output (the message names the file\n"
"and field), 2 bad command line.\n";

/*
 * Files opened under another name than the user gave (a piped FILE's copy,
 * spool.h; an output's temporary name, out_file.h): messages say the given one.
 */
static struct { const char *opened, *given; } alias[2];

static void say(const char *msg)
{
	for (size_t i = 0; i < sizeof(alias) / sizeof(alias[0]); i++) {
		const char *at = alias[i].opened ? strstr(msg, alias[i].opened) : NULL;
		if (at) {
			fprintf(stderr, "feecscope replay: %.*s%s%s\n", (int)(at - msg), msg, alias[i].given,
				at + strlen(alias[i].opened));
			return;
		}
	}
	fprintf(stderr, "feecscope replay: %s\n", msg);
}

struct source {
	struct fs_rec_reader *rec;
	struct fs_csv_reader *csv;
};

static int src_next(struct source *s, const struct fs_rec_hdr **h, char *err, size_t errlen)
{
	return s->rec ? fs_rec_reader_next(s->rec, h, err, errlen) : fs_csv_reader_next(s->csv, h, err, errlen);
}

static void src_close(struct source *s)
{
	fs_rec_reader_close(s->rec);
	fs_csv_reader_close(s->csv);
}

static int open_source(const char *path, struct source *s, struct fs_rec_meta *m, char *err, size_t errlen)
{
	bool is_rec, binary;
	memset(s, 0, sizeof(*s));
	if (fs_rec_sniff(path, &is_rec, &binary, err, errlen))
		return -1;
	if (binary && !is_rec) {
		snprintf(err, errlen, "%s: bad magic: not a feecscope recording (nor a text CSV)", path);
		return -1;
	}
	if (is_rec)
		s->rec = fs_rec_reader_open(path, m, err, errlen);
	else
		s->csv = fs_csv_reader_open(path, m, err, errlen);
	return s->rec || s->csv ? 0 : -1;
}

static int convert(const char *in, struct source *s, struct fs_rec_meta *m, const char *csv_out,
		   const char *rec_out, const struct fs_em *em)
{
	char err[512], *text = NULL;
	size_t len = 0;
	const struct fs_rec_hdr *h;
	int rc;

	if (em && !m->em_text) { /* a CSV without "# em:" lines takes --em's EM */
		FILE *mf = open_memstream(&text, &len);
		if (!mf || fs_em_write(mf, em) < 0 || fclose(mf)) {
			fprintf(stderr, "feecscope replay: cannot serialise the EM\n");
			return FS_EXIT_FAIL;
		}
		m->em_text = text;
		m->em_len = len;
	}
	if (rec_out && !m->em_text) {
		fprintf(stderr, "feecscope replay: %s has no EM: give --em to embed one in %s\n", in, rec_out);
		return FS_EXIT_FAIL;
	}
	/* Written under a temporary name, renamed into place only when complete. */
	struct fs_out_file of;
	FILE *out = NULL;
	struct fs_rec_writer *w = NULL;
	if (fs_out_open(&of, csv_out ? csv_out : rec_out, err, sizeof(err))) {
		say(err);
		return FS_EXIT_FAIL;
	}
	if (csv_out) {
		out = of.f;
		fs_csv_records_write_header(out, m);
	} else {
		static char tmp_name[4096]; /* a copy: of's own goes with commit or abort */
		snprintf(tmp_name, sizeof(tmp_name), "%s", fs_out_name(&of));
		alias[1].opened = tmp_name;
		alias[1].given = rec_out;
		w = fs_rec_writer_open(fs_out_name(&of), m, err, sizeof(err));
		if (!w) {
			say(err);
			fs_out_abort(&of);
			return FS_EXIT_FAIL;
		}
	}
	bool wfail = false;
	while ((rc = src_next(s, &h, err, sizeof(err))) == 1) {
		if (out ? fs_csv_records_write(out, h, m->nr_cpus) : fs_rec_writer_add(w, h, err, sizeof(err))) {
			if (out)
				snprintf(err, sizeof(err), "%s: write failed: %s", csv_out, strerror(errno ? errno : EIO));
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

static int parse_policies(char *list, struct fs_pipeline_opts *o)
{
	for (char *save, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct fs_policy_desc *d = fs_policy_find(tok);
		if (!d) {
			fprintf(stderr, "feecscope replay: --policies: unknown policy '%s' (feecscope policies lists them)\n", tok);
			return -1;
		}
		if (o->nr_policies == FS_MAX_POLICIES) {
			fprintf(stderr, "feecscope replay: --policies: at most %d policies\n", FS_MAX_POLICIES);
			return -1;
		}
		o->policies[o->nr_policies++] = d;
	}
	if (!o->nr_policies) {
		fprintf(stderr, "feecscope replay: --policies: empty list\n");
		return -1;
	}
	return 0;
}

/* Reference policy and its twin, saying why (head, printed under the verdict). */
static int default_policies(const char *kernel_policy, const char *release, struct fs_pipeline_opts *o,
			    char *head, size_t headlen)
{
	char why[512];
	const struct fs_policy_desc *d;
	if (kernel_policy) {
		d = fs_policy_find(kernel_policy);
		if (!d) {
			fprintf(stderr, "feecscope replay: --kernel-policy: unknown policy '%s' (feecscope policies lists them)\n",
				kernel_policy);
			return -1;
		}
		snprintf(why, sizeof(why), "--kernel-policy %s", kernel_policy);
	} else if (*release) {
		d = fs_policy_for_release(release, why, sizeof(why));
	} else {
		char w2[400];
		d = fs_policy_for_release("", w2, sizeof(w2));
		snprintf(why, sizeof(why), "no kernel release in the input: newest mainline policy %s", d->name);
	}
	o->policies[o->nr_policies++] = d;
	const struct fs_policy_desc *t = d->twin ? fs_policy_find(d->twin) : NULL;
	if (t)
		o->policies[o->nr_policies++] = t;
	snprintf(head, headlen, "policies: %s (reference: %s)%s%s", d->name, why, t ? ", twin " : "", t ? t->name : "");
	return 0;
}

int fs_cmd_replay(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "em", required_argument, NULL, 'e' },
		{ "policies", required_argument, NULL, 'p' },
		{ "kernel-policy", required_argument, NULL, 'k' },
		{ "csv", required_argument, NULL, 'c' },
		{ "json", required_argument, NULL, 'j' },
		{ "perfetto", required_argument, NULL, 'f' },
		{ "csv-layout", required_argument, NULL, 'L' },
		{ "summary", required_argument, NULL, 's' },
		{ "threads", no_argument, NULL, 't' },
		{ "pid", required_argument, NULL, 'P' },
		{ "comm", required_argument, NULL, 'C' },
		{ "convert-csv", required_argument, NULL, 'x' },
		{ "convert-record", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *em_spec = NULL, *kernel_policy = NULL, *conv_csv = NULL, *conv_rec = NULL;
	char *policies = NULL;
	struct fs_pipeline_opts o = { 0 };
	struct fs_output_paths out = { 0 };
	int opt;

	optind = 1;
	memset(alias, 0, sizeof(alias)); /* nothing from an earlier call in this process */
	if (fs_policies_list_asked(argc, argv)) { /* `--policies` alone or `--policies list` */
		fs_policies_print(stdout);
		return FS_EXIT_OK;
	}
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'e': em_spec = optarg; break;
		case 'p': policies = optarg; break;
		case 'k': kernel_policy = optarg; break;
		case 'c': out.csv = optarg; break;
		case 'j': out.json = optarg; break;
		case 'f': out.perfetto = optarg; break;
		case 'L':
			if (fs_csv_layout_wide(optarg) < 0) {
				fprintf(stderr, "feecscope replay: --csv-layout: '%s' is not long or wide\n", optarg);
				return FS_EXIT_USAGE;
			}
			out.csv_wide = fs_csv_layout_wide(optarg);
			break;
		case 's': out.summary = optarg; break;
		case 't': o.threads = true; break;
		case 'C': o.comm_filter = optarg; break;
		case 'x': conv_csv = optarg; break;
		case 'r': conv_rec = optarg; break;
		case 'P': {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (*end || v <= 0 || v > INT32_MAX) {
				fprintf(stderr, "feecscope replay: --pid: '%s' is not a pid\n", optarg);
				return FS_EXIT_USAGE;
			}
			o.pid_filter = (__s32)v;
			break;
		}
		case 'h':
			fputs(usage_text, stdout);
			return FS_EXIT_OK;
		default:
			fputs(usage_text, stderr);
			return FS_EXIT_USAGE;
		}
	}
	if (optind != argc - 1 || (conv_csv && conv_rec) || (policies && kernel_policy)) {
		fprintf(stderr, "feecscope replay: %s\n", optind == argc ? "FILE is required" : optind < argc - 1 ?
			"one FILE only" : conv_csv && conv_rec ? "--convert-csv and --convert-record exclude each other" :
			"--policies and --kernel-policy exclude each other");
		fputs(usage_text, stderr);
		return FS_EXIT_USAGE;
	}
	const char *path = argv[optind];
	char err[1024];
	struct source src;
	struct fs_rec_meta meta;
	static struct fs_em em;
	int ret = FS_EXIT_FAIL;

	/* No output may be an input or another output: checked before anything is written. */
	const struct fs_io_path io[] = {
		{ path, "FILE", false }, { em_spec, "--em", false }, { out.csv, "--csv", true },
		{ out.json, "--json", true }, { out.summary, "--summary", true }, { out.perfetto, "--perfetto", true },
		{ conv_csv, "--convert-csv", true }, { conv_rec, "--convert-record", true },
	};
	if (fs_paths_check(io, sizeof(io) / sizeof(io[0]), err, sizeof(err))) {
		say(err);
		return FS_EXIT_USAGE;
	}

	/* A pipe is read once: copied first, so it is sniffed and read like a file (docs/csv.md). */
	char spooled[64];
	const char *in = fs_spool_if_stream(path, spooled, sizeof(spooled), err, sizeof(err));
	if (in == spooled) {
		alias[0].opened = spooled;
		alias[0].given = path;
	}
	if (!in || open_source(in, &src, &meta, err, sizeof(err))) {
		say(err);
		return FS_EXIT_FAIL;
	}
	bool have_em = false;
	if (em_spec) {
		if (fs_em_load(em_spec, &em, err, sizeof(err))) {
			fprintf(stderr, "feecscope replay: --em %s: %s\n", em_spec, err);
			goto out;
		}
		have_em = true;
		o.emulate_eas = true;
	} else if (meta.em_text) {
		if (fs_em_parse_text(meta.em_text, meta.em_len, path, &em, err, sizeof(err))) {
			fprintf(stderr, "feecscope replay: %s: embedded EM: %s\n", path, err);
			goto out;
		}
		have_em = true;
		o.emulate_eas = !meta.em_is_kernel;
	}
	if (have_em && em.nr_cpus != meta.nr_cpus) {
		fprintf(stderr, "feecscope replay: %s: the EM has %d CPUs but the recording has %d\n", path,
			em.nr_cpus, meta.nr_cpus);
		goto out;
	}
	if (conv_csv || conv_rec) {
		ret = convert(path, &src, &meta, conv_csv, conv_rec, have_em ? &em : NULL);
		goto out;
	}
	if (!have_em) {
		fprintf(stderr, "feecscope replay: %s: no EM in the file: give --em (a profile, a saved EM or a debugfs tree)\n", path);
		goto out;
	}
	static char head[700];
	if (policies ? parse_policies(policies, &o) :
		       default_policies(kernel_policy, meta.kernel_release, &o, head, sizeof(head)))
		goto out;
	o.em = &em;
	o.kernel_release = meta.kernel_release;
	o.head = head[0] ? head : NULL;
	/* with the JSON on stdout the summary stays off it (--summary FILE keeps it) */
	out.summary_out = out.json && !strcmp(out.json, "-") ? NULL : stdout;
	if (fs_outputs_open(&o, &out, err, sizeof(err))) {
		say(err);
		goto out;
	}
	struct fs_pipeline *p = fs_pipeline_new(&o, err, sizeof(err));
	if (!p) {
		say(err);
		goto out;
	}
	const struct fs_rec_hdr *h;
	int rc;
	char ferr[512] = "";
	while ((rc = src_next(&src, &h, err, sizeof(err))) == 1)
		if (fs_pipeline_feed(p, h, ferr, sizeof(ferr))) {
			snprintf(err, sizeof(err), "%s: %s", path, ferr);
			rc = -1;
			break;
		}
	/* A damaged file still gets the summary of what replayed, then the error and exit 1. */
	if (fs_pipeline_finish(p, ferr, sizeof(ferr))) {
		say(ferr);
		rc = -1;
	} else if (rc < 0) {
		say(err);
	}
	fs_pipeline_free(p);
	ret = rc < 0 ? FS_EXIT_FAIL : FS_EXIT_OK;
out:
	src_close(&src);
	fs_rec_meta_free(&meta);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * `feecscope live`: the options, the Energy Model and the policies, the
 * outputs; then the run (user/live_run.c) from the collector to the
 * final summary.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "commands.h"
#include "source/cpufreq_tunables.h"
#include "output/out_file.h"
#include "pipeline.h"
#include "run_opts.h"
#include "em/em_io.h"
#include "em/kernel_fs.h"
#include "outputs_open.h"
#include "live_run.h"
#include "packages_file.h"
#include "records/recording.h"

enum { O_RB = FS_RUN_OWN, O_BTF, O_RAW_TP };

static const struct fs_opt live_opts[] = {
	{ "duration", 'd', "SEC", "Stop after SEC seconds and print the summary. Default: until q, Ctrl-C, "
	  "SIGTERM or SIGHUP. In a pipe or a script, this is how the run ends on its own." },
	{ "interval", 'i', "SEC", "Refresh the view (or print a line) every SEC seconds, at least 0.05. "
	  "Default 1." },
	{ "record", 'w', "FILE", "A binary recording of every record (flushed every interval) for "
	  "`feecscope replay`, which prints the same summary from it." },
	{ "ringbuf-size", O_RB, "N", "BPF ring-buffer bytes in all, a power of two with an optional K or M "
	  "(default 8M), split into one ring per CPU of at least 16K." },
	{ "btf", O_BTF, "FILE", "The vmlinux BTF for CO-RE when the kernel has no /sys/kernel/btf/vmlinux "
	  "(the events then attach as raw tracepoints: tp_btf needs the kernel's own BTF)." },
	{ "raw-tp", O_RAW_TP, NULL, "Attach raw tracepoints and probe-read task fields even where tp_btf "
	  "works, as on a kernel without BTF; no fentry." },
	{ "verbose", 'v', NULL, "-v probes, why there is no EM, and the collector's counters at the end "
	  "(and every interval without a terminal), -vv one line per record, -vvv libbpf's own log too "
	  "(the verifier's output)." },
	FS_OPT_HELP,
	{ 0 }
};

static const struct fs_opt *const live_sets[] = {
	live_opts, fs_run_policy_opts, fs_run_filter_opts, fs_run_output_opts, NULL
};

static const struct fs_cli_page live_page = {
	.name = "live",
	.summary = "watch this machine's wake-ups and what the margin costs",
	.synopsis = "[OPTIONS]        (root, or CAP_BPF and CAP_PERFMON)",
	.description =
"Loads BPF programs on sched_waking, sched_wakeup(_new) and sched_migrate_task. "
"Each wake-up's task utilization and every CPU's landscape, as feec would see "
"them, are paired with the CPU the kernel chose, then replayed through the feec "
"policies against the Energy Model.\n"
"\n"
"On a terminal the view is redrawn in place every interval and fits the window "
"(80x24 and up): the verdict, the totals, the policies, then as many processes "
"as fit; a taller window adds the CPUs' load and the PD transitions. Keys: q "
"quits, p pauses the display, s changes the process order. Without a terminal "
"it prints one key=value line per interval.\n"
"\n"
"At the end (--duration, q, Ctrl-C, SIGTERM) the ring buffer is drained, the "
"files are completed and the final summary goes to stdout: the same text "
"`feecscope replay` prints for the recording. The collector's counters go to "
"stderr. Ctrl-C on the terminal is read as a key, so in `feecscope live | tee "
"log` the summary still reaches the log. With an output on stdout ('-', as in "
"`--json - | jq`), nothing else goes there: the view or its lines go to "
"stderr.\n"
"\n"
"Without a kernel Energy Model (no EAS, as on most x86 machines) a built-in "
"profile sized to this machine's CPUs is used and EAS is emulated; the header "
"says so.",
	.sets = live_sets,
	.examples =
" sudo feecscope live\n"
" sudo feecscope live -d 60 -w rec.fsr --summary sum.txt | tee live.log\n"
" sudo feecscope live --comm surfaceflinger,RenderThread --em pixel4",
};

struct live_opts {
	struct fs_run_opts run;
	double duration_s, interval_s;
	const char *record;
	size_t ringbuf_size;
	const char *btf;
	bool raw_tp;
	int verbose;
};

/* N, NK or NM: a power of two from the page size to 1G. */
static int parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;
	long page = sysconf(_SC_PAGESIZE);

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		return -1;
	if (*end == 'K' || *end == 'k')
		v <<= 10, end++;
	else if (*end == 'M' || *end == 'm')
		v <<= 20, end++;
	if (*end || v < (unsigned long long)page || (v & (v - 1)) || v > (1ull << 30))
		return -1;
	*out = v;
	return 0;
}

/* 0 to run, 1 done (help, the policy list), -1 usage error (printed). */
static int parse_args(int argc, char **argv, struct live_opts *o)
{
	struct fs_cli cli = { .cmd = "live", .sets = live_sets };
	int c;

	memset(o, 0, sizeof(*o));
	o->interval_s = 1.0;
	o->ringbuf_size = 8u << 20;
	if (fs_policies_list_asked(argc, argv)) { /* `--policies` alone or `--policies list` */
		fs_policies_print(stdout);
		return 1;
	}
	while ((c = fs_cli_next(&cli, argc, argv)) != -1) {
		int taken = fs_run_opt(cli.cmd, &o->run, c, optarg);

		if (taken < 0)
			return -1;
		if (taken)
			continue;
		switch (c) {
		case 'd':
			if (fs_cli_seconds(optarg, 0, &o->duration_s) || o->duration_s == 0)
				return fs_cli_usage(cli.cmd, "--duration '%s': expected seconds > 0", optarg), -1;
			break;
		case 'i':
			if (fs_cli_seconds(optarg, 0.05, &o->interval_s))
				return fs_cli_usage(cli.cmd, "--interval '%s': expected seconds >= 0.05", optarg), -1;
			break;
		case 'w': o->record = optarg; break;
		case O_RB:
			if (parse_size(optarg, &o->ringbuf_size))
				return fs_cli_usage(cli.cmd, "--ringbuf-size '%s': expected a power of two between the "
						    "page size and 1G (K/M suffix allowed)", optarg), -1;
			break;
		case O_BTF: o->btf = optarg; break;
		case O_RAW_TP: o->raw_tp = true; break;
		case 'v': o->verbose++; break;
		case 'h': fs_cli_help(stdout, &live_page); return 1;
		default: return -1;
		}
	}
	if (optind < argc)
		return fs_cli_usage(cli.cmd, "unexpected argument '%s'", argv[optind]), -1;
	if (fs_run_opts_check(cli.cmd, &o->run))
		return -1;
	/* No output may be an input or another output: checked before anything is written. */
	const struct fs_io_path io[] = {
		{ o->run.em_spec, "--em", false }, { o->btf, "--btf", false }, { o->record, "--record", true },
		{ o->run.csv, "--csv", true }, { o->run.summary, "--summary", true }, { o->run.json, "--json", true },
		{ o->run.perfetto, "--perfetto", true }, { o->run.workload_csv, "--workload-csv", true },
	};
	char err[512];

	if (fs_paths_check(io, sizeof(io) / sizeof(io[0]), err, sizeof(err)))
		return fs_cli_error(cli.cmd, "%s", err), -1; /* exit 2; no usage hint: the names are wrong */
	return 0;
}

/*
 * The kernel's own EM if there is one; else a profile for this CPU count with
 * EAS emulated. 0, or the exit code.
 */
static int load_em(const struct live_opts *o, int nr_cpus, struct fs_em *em, bool *emulate)
{
	char err[512], why[512], hint[512];

	*emulate = true;
	if (o->run.em_spec) {
		int rc = fs_em_load(o->run.em_spec, em, err, sizeof(err));

		if (rc) {
			fs_cli_error("live", "--em %s: %s", o->run.em_spec, fs_cli_past_path(err, o->run.em_spec));
			return rc == -2 ? FS_EXIT_ENV : FS_EXIT_FAIL;
		}
		*emulate = strcmp(o->run.em_spec, "netlink") != 0; /* netlink: this kernel's own */
	} else if (fs_em_load(NULL, em, err, sizeof(err)) == 0) {
		*emulate = false;
	} else {
		snprintf(why, sizeof(why), "%s", err);
		memset(em, 0, sizeof(*em));
		if (fs_em_profile_for_cpus(nr_cpus, em, err, sizeof(err))) {
			fs_cli_error("live", "no kernel Energy Model (%s) and no built-in profile for "
				"%d CPUs: %s", why, nr_cpus, err);
			fs_em_cpu_hint(nr_cpus, hint, sizeof(hint));
			fs_cli_hint(hint);
			return FS_EXIT_FAIL;
		}
		/*
		 * The news first and short: on a first run this is one of at most
		 * three lines before the view; the header says the energy is the
		 * model's, -v why there is no EM.
		 */
		fs_cli_error("live", "no Energy Model in the kernel; using a built-in one for %d CPUs",
			nr_cpus);
		if (o->verbose)
			fs_cli_error("live", "why no Energy Model: %s", why);
	}
	/* the kernel's own may be changing while read (v6.9+): as live's later reads, twice alike */
	if (!*emulate &&
	    fs_em_settle(fs_em_read_spec, (void *)o->run.em_spec, em, FS_EM_REREADS, err, sizeof(err)) == 1)
		fs_cli_error("live", "the kernel's Energy Model changed at each of %d reads; using the last "
			"(live follows its later changes)", FS_EM_REREADS + 1);
	if (fs_kernel_fs_mounted())
		fs_cli_error("live", "mounted %s (it was not mounted; left mounted)", fs_kernel_fs_mounted());
	if (em->nr_cpus > nr_cpus) {
		fs_cli_error("live", "the Energy Model (%s) covers %d CPUs; this machine has %d",
			o->run.em_spec ? o->run.em_spec : "the kernel's", em->nr_cpus, nr_cpus);
		fs_em_cpu_hint(nr_cpus, hint, sizeof(hint));
		fs_cli_hint(hint);
		return FS_EXIT_FAIL;
	}
	return 0;
}

/* The files asked for, and the summary on stdout (unless an output goes there). */
static int open_outputs(const struct live_opts *o, struct fs_pipeline_opts *po, const char *release,
			const struct fs_rec_meta *machine)
{
	struct fs_rec_meta m = *machine;
	m.nr_cpus = po->em->nr_cpus;
	m.em_is_kernel = !po->emulate_eas;
	struct fs_output_paths out = { .record = o->record, .record_meta = &m };
	char err[512];
	int rc;

	fs_run_output_paths(&o->run, &out);
	snprintf(m.feecscope_version, sizeof(m.feecscope_version), "%s", FS_VERSION_STRING);
	snprintf(m.kernel_release, sizeof(m.kernel_release), "%.*s", (int)sizeof(m.kernel_release) - 1, release);
	if (o->record && po->apps) { /* the list the run names apps with: replay names them alike */
		m.packages_text = po->apps->list;
		m.packages_len = po->apps->list_len;
	}
	if (o->record) {
		FILE *mf = open_memstream(&m.em_text, &m.em_len);

		if (!mf || fs_em_write(mf, po->em) < 0 || fclose(mf)) {
			fs_cli_error("live", "%s: cannot serialise the EM", o->record);
			free(m.em_text);
			return -1;
		}
	}
	rc = fs_outputs_open(po, &out, err, sizeof(err));
	if (rc)
		fs_cli_error("live", "%s", err);
	free(m.em_text);
	return rc;
}

int fs_cmd_live(int argc, char **argv)
{
	struct live_opts o;
	struct fs_pipeline_opts po = { 0 };
	struct fs_live_run_cfg cfg = { 0 };
	struct fs_live_run *run;
	struct utsname uts;
	struct fs_em *em;
	char err[512], head[700];
	int rc, nr_cpus;

	rc = parse_args(argc, argv, &o);
	if (rc)
		return rc > 0 ? FS_EXIT_OK : FS_EXIT_USAGE;
	fs_live_run_catch_signals(true);
	if (fs_live_run_check_env(err, sizeof(err))) {
		fs_cli_error("live", "%s", err);
		return FS_EXIT_ENV;
	}
	uname(&uts);
	nr_cpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (nr_cpus <= 0 || nr_cpus > FS_MAX_CPUS) {
		fs_cli_error("live", "%d CPUs configured; feecscope records 1 to %d", nr_cpus,
			FS_MAX_CPUS);
		return FS_EXIT_ENV;
	}
	em = calloc(1, sizeof(*em));
	if (!em)
		return FS_EXIT_FAIL;
	if ((rc = load_em(&o, nr_cpus, em, &po.emulate_eas))) {
		free(em);
		return rc;
	}
	fs_run_apply(&o.run, uts.release, &po, head, sizeof(head));
	po.em = em;
	po.kernel_release = uts.release;
	/* what the simulation needs and the recording keeps: governors, rate limits, HZ */
	struct fs_rec_meta machine = { 0 };
	char config[96];

	snprintf(config, sizeof(config), "/boot/config-%.64s", uts.release);
	machine.hz = fs_kernel_hz(NULL, config);
	machine.nr_cpufreq = fs_cpufreq_tunables(NULL, machine.cpufreq, FS_MAX_CPUS);
	fs_run_sim_settings(&o.run, &machine, em, &po.sim_settings);
	po.head = head[0] ? head : NULL;
	/* uid -> app: --packages, else the device's own where it can be read (silent where it cannot) */
	struct fs_apps apps;
	if ((rc = fs_packages_load("live", o.run.packages ? o.run.packages : FS_PACKAGES_LIST, !o.run.packages,
				   &apps))) {
		free(em);
		return rc;
	}
	po.apps = apps.nr ? &apps : NULL; /* an empty list: no app to group by */

	cfg.duration_s = o.duration_s;
	cfg.interval_s = o.interval_s;
	cfg.kernel_release = uts.release;
	cfg.nr_cpus = nr_cpus;
	cfg.bpf.btf_path = o.btf;
	cfg.bpf.raw_tp = o.raw_tp;
	cfg.bpf.ringbuf_size = o.ringbuf_size;
	cfg.bpf.verbose = o.verbose;
	cfg.stdout_taken = fs_run_stdout_taken(&o.run, o.record);
	run = fs_live_run_start(&cfg, &rc, err, sizeof(err));
	if (!run) {
		fs_cli_error("live", "%s", err);
	} else if (open_outputs(&o, &po, uts.release, &machine)) {
		rc = FS_EXIT_FAIL;
	} else {
		rc = fs_live_run(run, &po);
	}
	fs_live_run_free(run);
	fs_apps_free(&apps);
	free(em);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/* `feecscope em`: print, check or save an Energy Model. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "commands.h"
#include "em/em_io.h"
#include "em/kernel_fs.h"
#include "engine/policy.h"
#include "output/out_file.h"

enum { O_CPU_DIR = FS_OPT_LONG };

static const struct fs_opt em_opts[] = {
	{ "em", 'e', "SPEC", "Where the EM comes from (above). Default: this kernel's debugfs." },
	{ "release", 'r', "RELEASE", "The kernel release that wrote a debugfs tree (uname -r there). It "
	  "decides what bit 0 of `flags` means: MILLIWATTS on v5.19, MICROWATTS from v6.0. Default: a "
	  "kernel_release file in the tree, else uname -r for the live tree, else v6.0+ is assumed and "
	  "the source line says so." },
	{ "kernel", 'r', "RELEASE", NULL }, /* the name --release had before */
	{ "cpu-capacity-dir", O_CPU_DIR, "DIR", "Read each CPU's capacity (arch_scale_cpu_capacity) from "
	  "DIR/cpuN/cpu_capacity, like /sys/devices/system/cpu on the device." },
	{ "save", 's', "FILE", "Write the EM in feecscope's portable text format (versioned, "
	  "self-contained: domains, states, flags, unit, capacities, kernel release, source) instead of "
	  "printing it; read it back anywhere with --em FILE. '-' writes to stdout." },
	{ "check", 'q', NULL, "Only validate: print nothing, exit 0 if the EM is usable." },
	{ "list", 'l', NULL, "List the built-in profiles." },
	FS_OPT_HELP,
	{ 0 }
};

static const struct fs_opt *const em_sets[] = { em_opts, NULL };

static const struct fs_cli_page em_page = {
	.name = "em",
	.summary = "print, check or save an Energy Model",
	.synopsis = "[-e SPEC] [-r RELEASE] [--cpu-capacity-dir DIR] [-s FILE | -q]\n--list",
	.description =
"Loads the Energy Model (EM) feecscope replays feec against and prints every "
"performance domain: its CPUs and capacities, its flags, and each performance "
"state's frequency, power (with its unit), cost, inefficient flag and, on "
"v6.9+ kernels, performance. Built-in profiles also show their provenance: "
"which device tree and firmware tables the facts came from, and which numbers "
"are UNVERIFIED.\n"
"\n"
"SPEC is one of\n"
"  PROFILE   a built-in device profile (--list), e.g. hikey960, pixel4, rb5\n"
"  FILE      a file written by `feecscope em --save`\n"
"  DIR       a copy of /sys/kernel/debug/energy_model pulled off a device\n"
"  netlink   the running kernel's, from its dev-energymodel netlink family\n"
"            (v6.19+; no debugfs needed)\n"
"\n"
"Without --em the running kernel's /sys/kernel/debug/energy_model is read; "
"debugfs is mounted there first when running as root and it is not mounted. "
"Without debugfs the netlink family is asked; without either, the error names "
"the built-in profiles and saved *.em files here that fit this device. "
"A path wins over a profile of the same name (write ./NAME to force a file).\n"
"\n"
"Debugfs layouts of every kernel since v5.2 are read: pd<N>/cs:<freq>/ "
"(v5.2-v5.8), cpu<N>/ps:<freq>/ (v5.9+), with units (v5.11-v5.18), "
"skip-inefficiencies and inefficient (v5.16+), flags (v5.19+), performance "
"(v6.9+) and id (v6.19+). Directories without a cpus file (GPU and other "
"devfreq devices) are skipped.",
	.sets = em_sets,
	.sections =
"PULLED TREES\n"
"    Android user builds do not mount debugfs: capture once on a userdebug\n"
"    build (as root), copying the tree, the capacities and the release:\n"
"        mount -t debugfs none /sys/kernel/debug 2>/dev/null\n"
"        cp -r /sys/kernel/debug/energy_model /data/local/tmp/em\n"
"        grep . /sys/devices/system/cpu/cpu*/cpu_capacity \\\n"
"            > /data/local/tmp/em/cpu_capacity\n"
"        uname -r > /data/local/tmp/em/kernel_release\n"
"    then `adb pull /data/local/tmp/em` and `feecscope em --em em --save\n"
"    device.em`. Capacities of a pulled tree are looked up, in order, in\n"
"    --cpu-capacity-dir, in a cpu_capacity file inside the tree, in a\n"
"    cpus/cpuN/cpu_capacity directory inside the tree; never in this machine's\n"
"    sysfs. The cpu_capacity file holds one CPU per line, either `cpuN VALUE`\n"
"    or grep's `.../cpuN/cpu_capacity:VALUE`; '#' starts a comment.\n",
	.examples =
" feecscope em --em pixel4\n"
" feecscope em --em ./em --release 5.19.0 --save pixel6-5.19.em\n"
" feecscope replay --em pixel6-5.19.em rec.fsr",
};

static int list_profiles(void)
{
	for (int i = 0; i < fs_em_profile_count(); i++)
		printf("%-12s %s\n", fs_em_profile_name(i), fs_em_profile_desc(i));
	return FS_EXIT_OK;
}

static int save(const char *path, const struct fs_em *em)
{
	struct fs_out_file of;
	char err[512];

	/* Under a temporary name until complete: a failed save leaves the old file as it was. */
	if (fs_out_open(&of, path, err, sizeof(err)))
		goto fail;
	if (fs_em_write(of.f, em)) {
		snprintf(err, sizeof(err), "%s: write failed: %s", of.path, strerror(errno ? errno : EIO));
		fs_out_abort(&of);
		goto fail;
	}
	if (fs_out_commit(&of, err, sizeof(err)))
		goto fail;
	return FS_EXIT_OK;
fail:
	fs_cli_error("em", "%s", err);
	return FS_EXIT_FAIL;
}

int fs_cmd_em(int argc, char **argv)
{
	struct fs_cli cli = { .cmd = "em", .sets = em_sets };
	const char *spec = NULL, *release = NULL, *cpu_dir = NULL, *save_path = NULL;
	bool check = false, list = false;
	struct fs_em em;
	char err[1024];
	int opt, rc;

	while ((opt = fs_cli_next(&cli, argc, argv)) != -1) {
		switch (opt) {
		case 'e': spec = optarg; break;
		case 'r':
			if ((rc = fs_cmd_release_arg(cli.cmd, optarg, &release)))
				return rc;
			break;
		case O_CPU_DIR: cpu_dir = optarg; break;
		case 's': save_path = optarg; break;
		case 'q': check = true; break;
		case 'l': list = true; break;
		case 'h': fs_cli_help(stdout, &em_page); return FS_EXIT_OK;
		default: return FS_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return fs_cli_usage(cli.cmd, "unexpected argument '%s' (the EM is given with --em)", argv[optind]);
	if (check && save_path)
		return fs_cli_usage(cli.cmd, "--check and --save exclude each other");
	if (list)
		return list_profiles();
	const struct fs_io_path io[] = {
		{ spec, "--em", false }, { cpu_dir, "--cpu-capacity-dir", false }, { save_path, "--save", true },
	};
	if (fs_paths_check(io, 3, err, sizeof(err))) {
		fs_cli_error(cli.cmd, "%s", err); /* no usage hint: the names, not the options, are wrong */
		return FS_EXIT_USAGE;
	}
	rc = fs_em_load_with(spec, release, cpu_dir, &em, err, sizeof(err));

	if (fs_kernel_fs_mounted())
		fprintf(stderr, "feecscope em: mounted %s (it was not mounted; left mounted)\n",
			fs_kernel_fs_mounted());
	if (rc) {
		fprintf(stderr, "feecscope em: %s\n", err);
		return rc == -2 ? FS_EXIT_ENV : FS_EXIT_FAIL;
	}
	if (save_path)
		return save(save_path, &em);
	if (!check)
		fs_em_print(stdout, &em);
	return FS_EXIT_OK;
}

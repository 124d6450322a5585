// SPDX-License-Identifier: GPL-2.0
/* `feecscope em`: print, check or save an Energy Model. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "commands.h"
#include "em/em_io.h"
#include "output/out_file.h"

static const char em_help[] =
"NAME\n"
"    feecscope em - print, check or save an Energy Model\n"
"\n"
"SYNOPSIS\n"
"    feecscope em [--em SPEC] [--kernel RELEASE] [--cpu-capacity-dir DIR] [--save FILE | --check]\n"
"    feecscope em --list\n"
"\n"
"DESCRIPTION\n"
"    Loads the Energy Model (EM) feecscope replays feec against and prints every\n"
"    performance domain: its CPUs and capacities, its flags, and each performance\n"
"    state's frequency, power (with its unit), cost, inefficient flag and, on\n"
"    v6.9+ kernels, performance. Built-in profiles also show their provenance:\n"
"    which device tree and firmware tables the facts came from, and which numbers\n"
"    are UNVERIFIED.\n"
"\n"
"    SPEC is one of\n"
"      PROFILE   a built-in device profile (see --list), e.g. hikey960, pixel4, rb5\n"
"      FILE      a file written by `feecscope em --save`\n"
"      DIR       a copy of /sys/kernel/debug/energy_model pulled off a device\n"
"    Without --em the running kernel's /sys/kernel/debug/energy_model is read;\n"
"    debugfs is mounted there first when running as root and it is not mounted.\n"
"    A path wins over a profile of the same name (write ./NAME to force a file).\n"
"\n"
"    Debugfs layouts of every kernel since v5.2 are read: pd<N>/cs:<freq>/ (v5.2-v5.8),\n"
"    cpu<N>/ps:<freq>/ (v5.9+), with units (v5.11-v5.18), skip-inefficiencies and\n"
"    inefficient (v5.16+), flags (v5.19+), performance (v6.9+) and id (v6.19+).\n"
"    Directories without a cpus file (GPU and other devfreq devices) are skipped.\n"
"\n"
"OPTIONS\n"
"    -e, --em SPEC\n"
"        Where the EM comes from (above).\n"
"    -k, --kernel RELEASE\n"
"        The kernel release that wrote a debugfs tree (uname -r there). It decides\n"
"        what bit 0 of `flags` means: MILLIWATTS on v5.19, MICROWATTS from v6.0.\n"
"        Default: a kernel_release file in the tree, else uname -r for the live\n"
"        tree, else v6.0+ is assumed and the source line says so.\n"
"    -c, --cpu-capacity-dir DIR\n"
"        Read each CPU's capacity (arch_scale_cpu_capacity) from DIR/cpuN/cpu_capacity,\n"
"        like /sys/devices/system/cpu on the device.\n"
"    -s, --save FILE\n"
"        Write the EM in feecscope's portable text format (versioned, self-contained:\n"
"        domains, states, flags, unit, capacities, kernel release, source) instead of\n"
"        printing it; read it back anywhere with --em FILE. '-' writes to stdout.\n"
"    -q, --check\n"
"        Only validate: print nothing, exit 0 if the EM is usable.\n"
"    -l, --list\n"
"        List the built-in profiles.\n"
"    -h, --help\n"
"        This text.\n"
"\n"
"PULLED TREES\n"
"    Android user builds do not mount debugfs: capture once on a userdebug build\n"
"    (as root), copying the tree and the capacities and the release:\n"
"        mount -t debugfs none /sys/kernel/debug 2>/dev/null\n"
"        cp -r /sys/kernel/debug/energy_model /data/local/tmp/em\n"
"        grep . /sys/devices/system/cpu/cpu*/cpu_capacity > /data/local/tmp/em/cpu_capacity\n"
"        uname -r > /data/local/tmp/em/kernel_release\n"
"    then `adb pull /data/local/tmp/em` and `feecscope em --em em --save device.em`.\n"
"    Capacities of a pulled tree are looked up, in order, in --cpu-capacity-dir, in\n"
"    a cpu_capacity file inside the tree, in a cpus/cpuN/cpu_capacity directory inside\n"
"    the tree; never in this machine's sysfs. The cpu_capacity file holds one CPU per\n"
"    line, either `cpuN VALUE` or grep's `.../cpuN/cpu_capacity:VALUE`; '#' starts a\n"
"    comment.\n"
"\n"
"EXIT STATUS\n"
"    0 the EM loaded (and was printed or saved); 1 it could not be loaded or is\n"
"    invalid: the message names the file, the field and what is wrong; 2 bad command\n"
"    line; 3 reading the running kernel's EM needs root.\n"
"\n"
"EXAMPLES\n"
"    feecscope em --em pixel4\n"
"    feecscope em --em ./em --kernel 5.19.0 --save pixel6-5.19.em\n"
"    feecscope replay --em pixel6-5.19.em rec.fsr\n";

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

	if (!strcmp(path, "-")) {
		if (fs_em_write(stdout, em) || fflush(stdout)) {
			fprintf(stderr, "feecscope em: stdout: write failed: %s\n", strerror(errno ? errno : EIO));
			return FS_EXIT_FAIL;
		}
		return FS_EXIT_OK;
	}
	/* Under a temporary name until complete: a failed save leaves the old file as it was. */
	if (fs_out_open(&of, path, err, sizeof(err)))
		goto fail;
	if (fs_em_write(of.f, em)) {
		snprintf(err, sizeof(err), "%s: write failed: %s", path, strerror(errno ? errno : EIO));
		fs_out_abort(&of);
		goto fail;
	}
	if (fs_out_commit(&of, err, sizeof(err)))
		goto fail;
	return FS_EXIT_OK;
fail:
	fprintf(stderr, "feecscope em: %s\n", err);
	return FS_EXIT_FAIL;
}

int fs_cmd_em(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "em", required_argument, NULL, 'e' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "cpu-capacity-dir", required_argument, NULL, 'c' },
		{ "save", required_argument, NULL, 's' },
		{ "check", no_argument, NULL, 'q' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *spec = NULL, *release = NULL, *cpu_dir = NULL, *save_path = NULL;
	bool check = false;
	struct fs_em em;
	char err[1024];
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "e:k:c:s:qlh", opts, NULL)) != -1) {
		switch (opt) {
		case 'e': spec = optarg; break;
		case 'k': release = optarg; break;
		case 'c': cpu_dir = optarg; break;
		case 's': save_path = optarg; break;
		case 'q': check = true; break;
		case 'l': return list_profiles();
		case 'h': fputs(em_help, stdout); return FS_EXIT_OK;
		default:
			fprintf(stderr, "usage: feecscope em [--em SPEC] [--kernel RELEASE] [--cpu-capacity-dir DIR] "
					"[--save FILE | --check] | --list   (see feecscope em --help)\n");
			return FS_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "feecscope em: unexpected argument '%s' (the EM is given with --em)\n", argv[optind]);
		return FS_EXIT_USAGE;
	}
	if (check && save_path) {
		fprintf(stderr, "feecscope em: --check and --save exclude each other\n");
		return FS_EXIT_USAGE;
	}
	const struct fs_io_path io[] = {
		{ spec, "--em", false }, { cpu_dir, "--cpu-capacity-dir", false }, { save_path, "--save", true },
	};
	if (fs_paths_check(io, 3, err, sizeof(err))) {
		fprintf(stderr, "feecscope em: %s\n", err);
		return FS_EXIT_USAGE;
	}
	if (fs_em_load_with(spec, release, cpu_dir, &em, err, sizeof(err))) {
		fprintf(stderr, "feecscope em: %s\n", err);
		if (!spec && geteuid() != 0 && strstr(err, "permission denied"))
			return FS_EXIT_NOPERM;
		return FS_EXIT_FAIL;
	}
	if (save_path)
		return save(save_path, &em);
	if (!check)
		fs_em_print(stdout, &em);
	return FS_EXIT_OK;
}

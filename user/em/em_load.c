// SPDX-License-Identifier: GPL-2.0
/* fs_em_load: turn an --em argument (profile, saved file, tree, or nothing) into an EM. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "em_internal.h"
#include "kernel_fs.h"

#define ERR(...) (fs_em_errf(err, errlen, __VA_ARGS__), -1)

/*
 * The running kernel's EM: debugfs wherever it is mounted (mounted on
 * /sys/kernel/debug when it is nowhere and we are root), else the v6.19+
 * netlink family; when neither has one, the error says what was tried and
 * which profiles and saved files fit.
 */
static int load_live(const char *release, const char *cpu_dir, struct fs_em *em, char *err, size_t errlen)
{
	struct stat st;
	char dbg[256], path[300], nlerr[256], fit[768], where[512];
	int rc, stat_errno = 0;

	if (fs_kernel_fs_dir(FS_KFS_DEBUGFS, dbg, sizeof(dbg), where, sizeof(where))) {
		dbg[0] = path[0] = '\0';
	} else {
		snprintf(path, sizeof(path), "%s/energy_model", dbg);
		if (!stat(path, &st))
			return fs_em_read_debugfs_kernel(path, cpu_dir, release, em, err, errlen);
		stat_errno = errno;
	}
	bool denied = dbg[0] && (stat_errno == EACCES || (geteuid() != 0 && access(dbg, X_OK)));
	/* No debugfs EM (Android user builds have no debugfs): v6.19+ tells it over netlink. */
	rc = fs_em_read_netlink(em, nlerr, sizeof(nlerr));
	if (rc <= 0) {
		if (rc < 0)
			fs_em_errf(err, errlen, "%s", nlerr);
		return rc;
	}
	fs_em_suggest(fit, sizeof(fit));
	/* -2: the environment, not the kernel, keeps the EM from us */
	if (!dbg[0]) {
		fs_em_errf(err, errlen, "%s; %s; %s", where, nlerr, fit);
		return -2;
	}
	if (denied) {
		fs_em_errf(err, errlen, "%s: permission denied: reading the running kernel's Energy Model "
			   "needs root (debugfs is root-only); %s; %s", path, nlerr, fit);
		return -2;
	}
	return ERR("no Energy Model at %s (kernel without CONFIG_ENERGY_MODEL, or no cpufreq driver "
		   "registered one); %s; %s", path, nlerr, fit);
}

int fs_em_load_with(const char *spec, const char *release, const char *cpu_dir, struct fs_em *em,
		    char *err, size_t errlen)
{
	struct stat st;

	if (!spec)
		return load_live(release, cpu_dir, em, err, errlen);
	/* A path wins over a profile of the same name; "./hikey960" forces the file. */
	if (!stat(spec, &st)) {
		if (S_ISDIR(st.st_mode))
			return fs_em_read_debugfs_kernel(spec, cpu_dir, release, em, err, errlen);
		if (release || cpu_dir)
			return ERR("%s: --release and --cpu-capacity-dir apply to debugfs trees; a saved EM file "
				   "already holds its kernel release and capacities", spec);
		return fs_em_read_file(spec, em, err, errlen);
	}
	if (!strcmp(spec, "netlink")) {
		int rc = fs_em_read_netlink(em, err, errlen);

		return rc > 0 ? -2 : rc; /* no family: this kernel, not the input */
	}
	if (!strchr(spec, '/')) {
		for (int i = 0; i < fs_em_profile_count(); i++)
			if (!strcmp(spec, fs_em_profile_name(i)))
				return fs_em_profile_build(spec, em, err, errlen);
	}
	if (strchr(spec, '/') || strchr(spec, '.'))
		return ERR("%s: cannot open: %s", spec, strerror(ENOENT));
	return fs_em_profile_build(spec, em, err, errlen); /* names the known profiles */
}

int fs_em_load(const char *spec, struct fs_em *em, char *err, size_t errlen)
{
	return fs_em_load_with(spec, NULL, NULL, em, err, errlen);
}

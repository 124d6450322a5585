// SPDX-License-Identifier: GPL-2.0
/* fs_em_load: turn an --em argument (profile, saved file, tree, or nothing) into an EM. */
#include <errno.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "em_internal.h"

#define ERR(...) (fs_em_errf(err, errlen, __VA_ARGS__), -1)

/* Mount debugfs at /sys/kernel/debug when we are root and it is not there yet. */
static void ensure_debugfs(void)
{
	struct stat st;

	if (!stat(FS_DEBUGFS_EM, &st) || geteuid() != 0)
		return;
	if (stat("/sys/kernel/debug", &st) || !S_ISDIR(st.st_mode))
		return;
	/* EBUSY: already mounted (and simply without an EM); any failure is reported by the caller's stat. */
	(void)mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
}

static int load_live(const char *release, const char *cpu_dir, struct fs_em *em, char *err, size_t errlen)
{
	struct stat st;
	char nlerr[256], fit[768];
	int rc;

	ensure_debugfs();
	if (!stat(FS_DEBUGFS_EM, &st))
		return fs_em_read_debugfs_kernel(FS_DEBUGFS_EM, cpu_dir, release, em, err, errlen);
	bool denied = errno == EACCES ||
		      (geteuid() != 0 && stat("/sys/kernel/debug", &st) == 0 && access("/sys/kernel/debug", X_OK));
	/* No debugfs EM (Android user builds have no debugfs): v6.19+ tells it over netlink. */
	rc = fs_em_read_netlink(em, nlerr, sizeof(nlerr));
	if (rc <= 0) {
		if (rc < 0)
			fs_em_errf(err, errlen, "%s", nlerr);
		return rc;
	}
	fs_em_suggest(fit, sizeof(fit));
	if (denied)
		return ERR("%s: permission denied: reading the running kernel's Energy Model needs root "
			   "(debugfs is root-only); %s; %s", FS_DEBUGFS_EM, nlerr, fit);
	return ERR("no Energy Model at %s (kernel without CONFIG_ENERGY_MODEL, no cpufreq driver "
		   "registered one, or no debugfs); %s; %s", FS_DEBUGFS_EM, nlerr, fit);
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
			return ERR("%s: --kernel and --cpu-capacity-dir apply to debugfs trees; a saved EM file "
				   "already holds its kernel release and capacities", spec);
		return fs_em_read_file(spec, em, err, errlen);
	}
	if (!strcmp(spec, "netlink")) {
		int rc = fs_em_read_netlink(em, err, errlen);

		return rc > 0 ? -1 : rc;
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

// SPDX-License-Identifier: GPL-2.0
/* Built-in device profiles and the synthetic profile for machines without an EM. */
#include <stdio.h>
#include <string.h>
#include "em_internal.h"

#define ERR(...) (fs_em_errf(err, errlen, __VA_ARGS__), -1)

int fs_em_profile_count(void)
{
	return fs_dt_nr_devices;
}

const char *fs_em_profile_name(int i)
{
	return i >= 0 && i < fs_dt_nr_devices ? fs_dt_devices[i].name : NULL;
}

const char *fs_em_profile_desc(int i)
{
	return i >= 0 && i < fs_dt_nr_devices ? fs_dt_devices[i].desc : NULL;
}

static const struct fs_dt_device *find_device(const char *name)
{
	for (int i = 0; i < fs_dt_nr_devices; i++)
		if (!strcmp(fs_dt_devices[i].name, name))
			return &fs_dt_devices[i];
	return NULL;
}

const char *fs_em_profile_provenance(const char *name)
{
	const struct fs_dt_device *dev = find_device(name);

	return dev ? dev->provenance : NULL;
}

int fs_em_profile_build(const char *name, struct fs_em *em, char *err, size_t errlen)
{
	const struct fs_dt_device *dev = find_device(name);
	char what[64];

	if (!dev) {
		char list[512];
		size_t off = 0;

		list[0] = '\0';
		for (int i = 0; i < fs_dt_nr_devices && off < sizeof(list); i++)
			off += snprintf(list + off, sizeof(list) - off, "%s%s", i ? ", " : "",
					fs_dt_devices[i].name);
		return ERR("profile '%s': no such built-in profile (known: %s)", name, list);
	}
	snprintf(what, sizeof(what), "profile %s", name);
	if (fs_em_from_dt(dev, what, em, err, errlen))
		return -1;
	snprintf(em->source, sizeof(em->source),
		 "profile %s: device-tree facts, v6.0-v6.8 EM arithmetic (uW; cost = fmax*power/freq)", name);
	return 0;
}

/*
 * SYNTHETIC: not any real machine. HiKey960's A53 and A73 clusters (their OPPs,
 * coefficients and capacity-dmips-mhz) stretched over nr_cpus CPUs, little
 * first, so the engine has an asymmetric EM to run against on hardware without one.
 */
int fs_em_profile_for_cpus(int nr_cpus, struct fs_em *em, char *err, size_t errlen)
{
	const struct fs_dt_device *hikey = find_device("hikey960");
	struct fs_dt_device dev;
	char little[16], big[16], what[64];
	int nr_little = (nr_cpus + 1) / 2;

	if (nr_cpus == 1)
		return ERR("synthetic profile: 1 CPU: EAS needs CPUs of different capacities "
			   "(an asymmetric sd_asym_cpucapacity domain), so one CPU cannot have an Energy Model worth replaying; "
			   "use --em with a device profile instead");
	if (nr_cpus < 1 || nr_cpus > FS_MAX_CPUS)
		return ERR("synthetic profile: %d CPUs: want 2..%d (FS_MAX_CPUS)", nr_cpus, FS_MAX_CPUS);
	if (!hikey)
		return ERR("synthetic profile: the hikey960 facts are missing from this build");
	dev = *hikey;
	dev.name = "synthetic";
	snprintf(little, sizeof(little), nr_little > 1 ? "0-%d" : "0", nr_little - 1);
	if (nr_cpus - nr_little > 1)
		snprintf(big, sizeof(big), "%d-%d", nr_little, nr_cpus - 1);
	else
		snprintf(big, sizeof(big), "%d", nr_little);
	dev.cl[0].cpus = little;
	dev.cl[1].cpus = big;
	snprintf(what, sizeof(what), "synthetic profile (%d CPUs)", nr_cpus);
	if (fs_em_from_dt(&dev, what, em, err, errlen))
		return -1;
	snprintf(em->source, sizeof(em->source),
		 "synthetic: %d-CPU layout (cpus %s little A53, %s big A73) from HiKey960 facts, not this machine's hardware",
		 nr_cpus, little, big);
	return 0;
}

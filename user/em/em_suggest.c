// SPDX-License-Identifier: GPL-2.0
/* What to say when an EM does not fit the CPUs observed: the built-in profiles that would. */
#include <stdlib.h>
#include "em_io.h"

void fs_em_cpu_hint(int nr_cpus, char *buf, size_t len)
{
	struct fs_em *em = malloc(sizeof(*em));
	char err[256], names[512] = "";
	size_t n = 0;

	for (int i = 0; em && i < fs_em_profile_count(); i++)
		if (!fs_em_profile_build(fs_em_profile_name(i), em, err, sizeof(err)) && em->nr_cpus == nr_cpus &&
		    n < sizeof(names))
			n += snprintf(names + n, sizeof(names) - n, "%s%s", n ? ", " : "", fs_em_profile_name(i));
	free(em);
	if (n)
		snprintf(buf, len, "built-in profiles with %d CPUs: %s; or --em FILE with the device's own EM "
			 "(`feecscope em --save` on it)", nr_cpus, names);
	else
		snprintf(buf, len, "no built-in profile has %d CPUs: give --em FILE with the device's own EM "
			 "(`feecscope em --save` on it)", nr_cpus);
}

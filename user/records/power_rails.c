// SPDX-License-Identifier: GPL-2.0
/* A trace's power rails (power_rails.h): only their release lives here. */
#include <stdlib.h>
#include "power_rails.h"

void fs_power_rails_free(struct fs_power_rails *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr; i++)
		free(r->rail[i].s);
	free(r->rail);
	r->rail = NULL;
	r->nr = 0;
}

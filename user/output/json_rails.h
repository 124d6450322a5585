/* SPDX-License-Identifier: GPL-2.0 */
/* The JSON report's power rails of a trace (json_rails.c, docs/json.md). */
#ifndef FEECSCOPE_JSON_RAILS_H
#define FEECSCOPE_JSON_RAILS_H

#include <stdio.h>
#include "output.h"

/* `, "power_rails": {...}` inside the simulation's trace object; nothing when the trace had none. */
void fs_json_rails(FILE *o, const struct fs_report *r);

#endif /* FEECSCOPE_JSON_RAILS_H */

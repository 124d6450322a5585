/* SPDX-License-Identifier: GPL-2.0 */
/* The JSON report's "simulation" object (json_sim.c). */
#ifndef FEECSCOPE_JSON_SIM_H
#define FEECSCOPE_JSON_SIM_H

#include <stdio.h>
#include "output.h"

/* s (at most max bytes) as a JSON string: quoted, escaped, bytes outside printable ASCII as \u00XX. */
void fs_json_str(FILE *o, const char *s, size_t max);

/* Writes `  "simulation": {...},` and a newline. */
void fs_json_sim(FILE *o, const struct fs_report *r);

#endif /* FEECSCOPE_JSON_SIM_H */

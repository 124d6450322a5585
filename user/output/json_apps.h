/* SPDX-License-Identifier: GPL-2.0 */
/* The JSON report by app (json_apps.c); both write nothing without --packages. */
#ifndef FEECSCOPE_JSON_APPS_H
#define FEECSCOPE_JSON_APPS_H

#include <stdio.h>
#include "output.h"

/* `  "apps": [...],` and a newline: each app's uid, packages, processes and sums, by |margin cost|. */
void fs_json_apps(FILE *o, const struct fs_report *r);
/* `, "app": LABEL` (null: no app's uid) inside a process's object. */
void fs_json_process_app(FILE *o, const struct fs_report *r, __u32 uid);

#endif /* FEECSCOPE_JSON_APPS_H */

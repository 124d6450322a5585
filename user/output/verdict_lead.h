/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which figure leads (issue 29): each margin's verdict is the closed-loop
 * simulation's when it ran (docs/simulation.md, "The interval"), else the
 * per-decision estimate's, and every output that states the verdict says
 * which (verdict_lead.c).
 */
#ifndef FEECSCOPE_VERDICT_LEAD_H
#define FEECSCOPE_VERDICT_LEAD_H

#include "output.h"

/*
 * Verdict v as it leads, in the per-decision verdict's terms (fJ, blocks):
 * the simulation's delta and interval where it ran and its EM has a unit
 * (true), else a copy of r->verdicts[v] (false) with *why saying why not.
 * decisions and differ stay the per-decision ones.
 */
bool fs_verdict_lead(const struct fs_report *r, int v, struct fs_verdict *out, const char **why);
/* The simulation's EM unit x ns in fJ: 1000 for mW, 1 for uW, 0 for bogoWatts. */
__s64 fs_sim_fj_per_unit_ns(const struct fs_em *em);

#endif /* FEECSCOPE_VERDICT_LEAD_H */

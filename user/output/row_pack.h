/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A complete decision row in a few bytes (varints, zigzag for signed
 * values), for writers that hold rows until earlier ones close: held as
 * text, the CSV's rows took several times the memory, and on a long capture
 * nearly every row is held (one early task that sleeps to the end holds all
 * later ones), so the held bytes were the CSV's largest cost
 * (docs/perfetto.md, Cost).
 * Packs exactly the fields a row's text is made from; unpacking gives them
 * back bit for bit (tests/unit/test_row_pack.c).
 */
#ifndef FEECSCOPE_ROW_PACK_H
#define FEECSCOPE_ROW_PACK_H

#include "output.h"

/* The most bytes fs_row_pack() writes for nr policies. */
#define FS_ROW_PACK_MAX(nr) (200 + (size_t)(nr) * 110)

/* r (its first nr policies) into buf, which holds FS_ROW_PACK_MAX(nr); the length. */
size_t fs_row_pack(char *buf, const struct fs_decision_row *r, int nr);
/*
 * buf[0..len) back into *r (the fields packed; the others are left as they
 * were: clearing the whole row cost more than decoding it). -1 if the
 * bytes do not hold exactly one row of nr policies.
 */
int fs_row_unpack(const char *buf, size_t len, struct fs_decision_row *r, int nr);

#endif /* FEECSCOPE_ROW_PACK_H */

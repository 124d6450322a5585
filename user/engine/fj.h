/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Energies as exact integers: power in µW times time in ns is femtojoules
 * (1 µW·ns = 1e-15 J), summed in 128 bits and printed by exact decimal
 * rounding, so every output is identical on every machine.
 */
#ifndef FEECSCOPE_FJ_H
#define FEECSCOPE_FJ_H

#include <stdbool.h>
#include <stddef.h>

typedef __int128 fs_fj_t; /* signed femtojoules: exact for any trace we can hold */

/* fJ -> mJ as a double (approximate: for ranking and live display only). */
static inline double fs_fj_to_mj(fs_fj_t fj)
{
	return (double)fj / 1e12;
}

/*
 * Fixed-point text of fj / 10^scale_pow10 with `decimals` digits, rounded
 * half away from zero, e.g. scale 12, decimals 3 -> "-1.234" mJ. Callers
 * pass scale_pow10 >= decimals.
 */
int fs_fmt_fj(char *buf, size_t len, fs_fj_t fj, int scale_pow10, int decimals);

/* a/b as a percentage with `decimals` digits, exact rounding ("12.35"); "-" when b == 0. */
int fs_fmt_ratio_pct(char *buf, size_t len, fs_fj_t a, fs_fj_t b, int decimals);

/*
 * fj in mJ with about three significant digits, for lines that must stay
 * short: 412.3 mJ -> "412", 12.34 -> "12.3", 1.234 -> "1.23", 0.0123 ->
 * "0.012". With plus, a non-negative value gets a '+'.
 */
int fs_fmt_mj_short(char *buf, size_t len, fs_fj_t fj, bool plus);

#endif /* FEECSCOPE_FJ_H */

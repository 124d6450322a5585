// SPDX-License-Identifier: GPL-2.0
/* Exact decimal text of femtojoule quantities (fj.h). */
#include <stdio.h>
#include "fj.h"

int fs_fmt_fj(char *buf, size_t len, fs_fj_t fj, int scale_pow10, int decimals)
{
	unsigned __int128 mag = fj < 0 ? -(unsigned __int128)fj : (unsigned __int128)fj;
	unsigned __int128 div = 1, unit = 1;

	for (int i = 0; i < scale_pow10 - decimals; i++)
		div *= 10;
	for (int i = 0; i < decimals; i++)
		unit *= 10;
	/* Round half away from zero at the last printed digit. */
	unsigned __int128 q = (mag + div / 2) / div;
	unsigned long long ip = (unsigned long long)(q / unit), fp = (unsigned long long)(q % unit);
	const char *sign = (fj < 0 && q) ? "-" : "";

	if (!decimals)
		return snprintf(buf, len, "%s%llu", sign, ip);
	return snprintf(buf, len, "%s%llu.%0*llu", sign, ip, decimals, fp);
}

int fs_fmt_ratio_pct(char *buf, size_t len, fs_fj_t a, fs_fj_t b, int decimals)
{
	if (!b)
		return snprintf(buf, len, "-");
	fs_fj_t scale = 100;
	for (int i = 0; i < decimals; i++)
		scale *= 10;
	bool neg = (a < 0) != (b < 0);
	unsigned __int128 ua = a < 0 ? -(unsigned __int128)a : (unsigned __int128)a;
	unsigned __int128 ub = b < 0 ? -(unsigned __int128)b : (unsigned __int128)b;
	/* |a|*scale/|b| rounded half away from zero; |a| < 2^100 for any real trace */
	fs_fj_t q = (fs_fj_t)((ua * (unsigned __int128)scale + ub / 2) / ub);
	return fs_fmt_fj(buf, len, neg ? -q : q, decimals, decimals);
}

int fs_fmt_mj_short(char *buf, size_t len, fs_fj_t fj, bool plus)
{
	unsigned __int128 mag = fj < 0 ? -(unsigned __int128)fj : (unsigned __int128)fj;
	const unsigned __int128 mj = 1000000000000ull; /* fJ per mJ */
	int dec = mag >= 100 * mj ? 0 : mag >= 10 * mj ? 1 : mag >= mj ? 2 : 3;
	char num[64];

	fs_fmt_fj(num, sizeof(num), fj, 12, dec);
	return snprintf(buf, len, "%s%s", plus && num[0] != '-' ? "+" : "", num);
}

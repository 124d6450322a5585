/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A recording's packages list (version 5's packages section, docs/apps.md)
 * in the records CSV: "# package: " comment lines before the header row
 * (docs/csv.md), one per line of packages.list, so the CSV stays what
 * pandas, DuckDB and older feecscope builds read (comment lines they
 * skip) and recording -> CSV -> recording keeps the list byte for byte.
 * A line's bytes are written as they are but for `\\` (a backslash),
 * `\xNN` (a control byte, a byte above 0x7e, a blank ending the list) and
 * a closing `\n`: the line ended with a newline.
 */
#ifndef FEECSCOPE_CSV_PACKAGES_H
#define FEECSCOPE_CSV_PACKAGES_H

#include <stdbool.h>
#include <stdio.h>

/* The list gathered from the lines read so far. */
struct fs_csv_packages {
	char *text;     /* NUL-terminated; NULL: no line yet */
	size_t len, cap;
	bool open_end;  /* the last line had no closing \n: the list's end, no line may follow */
};

/* text[0..len) as "# package: " lines; nothing for an empty list. 0, or -1 on a write error. */
int fs_csv_packages_write(FILE *out, const char *text, size_t len);

/* The text after "# package: " in a line of the file, or NULL if it is no such line. */
const char *fs_csv_package_line(const char *line);

/*
 * One line's text (after "# package: ") decoded onto p. 0, or -1 with why
 * (a bad escape, a line after the list's end, a list over max bytes, out of
 * memory); p keeps what it had: free it with fs_csv_packages_free().
 */
int fs_csv_packages_add(struct fs_csv_packages *p, const char *v, size_t max, char *why, size_t whylen);
void fs_csv_packages_free(struct fs_csv_packages *p);

#endif /* FEECSCOPE_CSV_PACKAGES_H */

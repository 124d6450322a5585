// SPDX-License-Identifier: GPL-2.0
/* The records CSV's "# package: " lines (csv_packages.h, docs/csv.md). */
#include <stdlib.h>
#include <string.h>
#include "csv_packages.h"

#define PREFIX "package:"

/*
 * A byte written as \xNN: a control byte or one above 0x7e (a CSV line is
 * text, and its reader drops a trailing CR), and a blank that ends the list
 * without a newline (an editor drops trailing blanks unseen).
 */
static bool escaped(unsigned char c, bool list_end)
{
	return c < 0x20 || c > 0x7e || (list_end && (c == ' ' || c == '\t'));
}

int fs_csv_packages_write(FILE *out, const char *text, size_t len)
{
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - text) : len;

		fputs("# " PREFIX " ", out);
		for (size_t k = i; k < e; k++) {
			unsigned char c = (unsigned char)text[k];

			if (c == '\\')
				fputs("\\\\", out);
			else if (escaped(c, !nl && k + 1 == e))
				fprintf(out, "\\x%02x", c);
			else
				fputc(c, out);
		}
		fputs(nl ? "\\n\n" : "\n", out);
		i = e + (nl ? 1 : 0);
	}
	return ferror(out) ? -1 : 0;
}

const char *fs_csv_package_line(const char *line)
{
	line += strspn(line, " \t");
	if (*line != '#')
		return NULL;
	line += 1 + strspn(line + 1, " \t");
	if (strncmp(line, PREFIX, strlen(PREFIX)))
		return NULL;
	line += strlen(PREFIX);
	return *line == ' ' ? line + 1 : line;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The byte an escape at v (after its backslash) stands for, *used its length; -1 if none. */
static int unescape(const char *v, size_t *used)
{
	*used = 1;
	if (*v == '\\')
		return '\\';
	if (*v == 'n')
		return '\n';
	if (*v == 'x' && hexval(v[1]) >= 0 && hexval(v[2]) >= 0) {
		*used = 3;
		return hexval(v[1]) * 16 + hexval(v[2]);
	}
	return -1;
}

static int grow(struct fs_csv_packages *p, size_t need)
{
	if (p->len + need + 1 <= p->cap)
		return 0;
	size_t cap = p->cap * 2 > p->len + need + 1 ? p->cap * 2 : p->len + need + 1 + 4096;
	char *n = realloc(p->text, cap);

	if (!n)
		return -1;
	p->text = n;
	p->cap = cap;
	return 0;
}

int fs_csv_packages_add(struct fs_csv_packages *p, const char *v, size_t max, char *why, size_t whylen)
{
	size_t n = strlen(v), at = p->len;

	if (p->text && p->open_end) {
		snprintf(why, whylen, "package: a line after one without a closing \\n");
		return -1;
	}
	if (grow(p, n)) { /* the decoded line is no longer than its text */
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		size_t used = 0;
		int c = v[i] == '\\' ? unescape(v + i + 1, &used) : (unsigned char)v[i];

		if (c < 0) {
			snprintf(why, whylen, "package: '\\%.1s' at %zu is not an escape (\\\\, \\n, \\xNN)", v + i + 1,
				 i + 1);
			p->len = at;
			return -1;
		}
		if (c == '\n' && i + 1 + used != n) {
			snprintf(why, whylen, "package: text after the closing \\n at %zu", i + 1);
			p->len = at;
			return -1;
		}
		i += v[i] == '\\' ? used : 0;
		p->text[p->len++] = (char)c;
	}
	p->text[p->len] = 0;
	p->open_end = !p->len || p->text[p->len - 1] != '\n' || p->len == at;
	if (p->len > max) {
		snprintf(why, whylen, "package: the list is larger than %zu bytes", max);
		return -1;
	}
	return 0;
}

void fs_csv_packages_free(struct fs_csv_packages *p)
{
	free(p->text);
	memset(p, 0, sizeof(*p));
}

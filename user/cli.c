// SPDX-License-Identifier: GPL-2.0
/* The command-line conventions (cli.h): option tables, usage errors, help pages, exit codes. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"

const struct fs_exit_code fs_exit_codes[] = {
	{ FS_EXIT_OK, "ok" },
	{ FS_EXIT_FAIL, "runtime or data error: a bad or damaged input, a failed output, a filter that "
			"matched none of the wake-ups; the message names the file and the field" },
	{ FS_EXIT_USAGE, "usage error: an unknown command or option, a bad value, an unknown policy or "
			 "kernel release, report over different devices without --mix" },
	{ FS_EXIT_ENV, "environment or privilege: not root (nor CAP_BPF and CAP_PERFMON), no bpf() or no "
		       "BTF in the kernel, the kernel refused the programs; em: the running kernel's EM out of "
		       "reach (no debugfs, no netlink family)" },
};
const int fs_nr_exit_codes = sizeof(fs_exit_codes) / sizeof(fs_exit_codes[0]);

/* ---- text ---- */

/*
 * Words of text after the cursor at column col, wrapped at FS_CLI_COLUMNS,
 * new lines led by lead and then indent blanks.
 */
static void wrap_words_led(FILE *out, int col, const char *lead, int indent, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	bool first = true;

	while (p < end) {
		while (p < end && *p == ' ')
			p++;
		const char *w = p;

		while (p < end && *p != ' ')
			p++;
		int wl = (int)(p - w);

		if (!wl)
			break;
		if (!first && col + 1 + wl > FS_CLI_COLUMNS) {
			col = fprintf(out, "\n%s%*s", lead, indent, "") - 1;
			first = true;
		}
		if (!first) {
			fputc(' ', out);
			col++;
		}
		col += fprintf(out, "%.*s", wl, w);
		first = false;
	}
	fputc('\n', out);
}

/* wrap_words_led() with no lead: new lines indented by indent. */
static void wrap_words(FILE *out, int col, int indent, const char *text, size_t len)
{
	wrap_words_led(out, col, "", indent, text, len);
}

void fs_cli_wrap(FILE *out, int indent, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (!len) {
			fputc('\n', out);
		} else if (*p == ' ') { /* preformatted: as is, less the marking space */
			fprintf(out, "%*s%.*s\n", indent, "", (int)len - 1, p + 1);
		} else {                /* a paragraph runs to the next blank or preformatted line */
			const char *e = p;

			while (*e && !(e[0] == '\n' && (e[1] == '\n' || e[1] == ' ' || !e[1])))
				e++;
			char *para = strndup(p, (size_t)(e - p));

			if (!para)
				return;
			for (char *c = para; *c; c++)
				if (*c == '\n')
					*c = ' ';
			fprintf(out, "%*s", indent, "");
			wrap_words(out, indent, indent, para, strlen(para));
			free(para);
			len = (size_t)(e - p);
		}
		p += len;
		if (*p == '\n')
			p++;
	}
}

void fs_cli_exit_codes(FILE *out, int indent)
{
	for (int i = 0; i < fs_nr_exit_codes; i++) {
		int col = fprintf(out, "%*s%d  ", indent, "", fs_exit_codes[i].code);

		wrap_words(out, col, col, fs_exit_codes[i].meaning, strlen(fs_exit_codes[i].meaning));
	}
}

static void option_line(FILE *out, const struct fs_opt *o)
{
	if (o->key < FS_OPT_LONG)
		fprintf(out, "    -%c, --%s", o->key, o->name);
	else
		fprintf(out, "        --%s", o->name);
	fprintf(out, "%s%s\n", o->arg ? " " : "", o->arg ? o->arg : "");
	fs_cli_wrap(out, 8, o->help);
}

void fs_cli_help(FILE *out, const struct fs_cli_page *pg)
{
	const char *name = pg->name ? pg->name : "";
	const char *sp = pg->name ? " " : "";

	fprintf(out, "NAME\n    feecscope%s%s - %s\n\nSYNOPSIS\n", sp, name, pg->summary);
	for (const char *p = pg->synopsis; *p;) {
		size_t n = strcspn(p, "\n");

		fprintf(out, "    feecscope%s%s %.*s\n", sp, name, (int)n, p);
		p += n + (p[n] == '\n');
	}
	fprintf(out, "\nDESCRIPTION\n");
	fs_cli_wrap(out, 4, pg->description);
	if (pg->sets) {
		fprintf(out, "\nOPTIONS\n");
		for (const struct fs_opt *const *s = pg->sets; *s; s++)
			for (const struct fs_opt *o = *s; o->name; o++)
				if (o->help)
					option_line(out, o);
	}
	if (pg->sections)
		fprintf(out, "\n%s", pg->sections);
	fprintf(out, "\nEXIT STATUS\n");
	fs_cli_exit_codes(out, 4);
	if (pg->examples) {
		fprintf(out, "\nEXAMPLES\n");
		fs_cli_wrap(out, 4, pg->examples);
	}
}

/* ---- errors ---- */

int fs_cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "feecscope%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\ntry 'feecscope%s%s --help'\n", cmd ? " " : "", cmd ? cmd : "");
	return FS_EXIT_USAGE;
}

void fs_cli_wrap_lines(FILE *out, const char *text)
{
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		int lead = (int)strspn(p, " ");

		if (lead > (int)len)
			lead = (int)len;
		fprintf(out, "%*s", lead, "");
		if (lead < (int)len)
			wrap_words(out, lead, lead + 2, p + lead, len - (size_t)lead);
		else
			fputc('\n', out);
		p += len + (p[len] == '\n');
	}
}

void fs_cli_wrap_led(FILE *out, const char *lead, const char *text)
{
	wrap_words_led(out, 0, lead, 0, text, strlen(text));
}

void fs_cli_error(const char *cmd, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	int col = fprintf(stderr, "feecscope%s%s: ", cmd ? " " : "", cmd ? cmd : "");

	wrap_words(stderr, col, 2, buf, strlen(buf));
}

void fs_cli_hint(const char *text)
{
	fputs("hint: ", stderr);
	wrap_words(stderr, 6, 6, text, strlen(text));
}

/* Edit distance with adjacent transpositions (a typo's usual forms); strings up to 63 bytes. */
static int distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b);
	int d[64][64];

	if (la > 63 || lb > 63)
		return 99;
	for (int i = 0; i <= la; i++)
		d[i][0] = i;
	for (int j = 0; j <= lb; j++)
		d[0][j] = j;
	for (int i = 1; i <= la; i++)
		for (int j = 1; j <= lb; j++) {
			int v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

const char *fs_cli_closest(const char *word, const char *const *names, int n)
{
	int len = (int)strlen(word), best = 99;
	/* short words get fewer edits: "xx" is not a typo of "em" */
	int limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
	const char *pick = NULL;

	for (int i = 0; i < n; i++) {
		int d = distance(word, names[i]);

		if (d < best)
			best = d, pick = names[i];
	}
	return best <= limit ? pick : NULL;
}

/* ---- getopt_long from the tables ---- */

static int build(struct fs_cli *c)
{
	int n = 0, s = 0;

	c->shortopts[s++] = ':'; /* a missing argument returns ':' */
	for (const struct fs_opt *const *set = c->sets; *set; set++)
		for (const struct fs_opt *o = *set; o->name; o++) {
			if (n == FS_CLI_MAX_OPTS)
				return -1;
			c->longopts[n++] = (struct option){ o->name, o->arg ? required_argument : no_argument,
							     NULL, o->key };
			if (o->key < FS_OPT_LONG && !memchr(c->shortopts, o->key, (size_t)s)) {
				c->shortopts[s++] = (char)o->key;
				if (o->arg)
					c->shortopts[s++] = ':';
			}
		}
	c->longopts[n] = (struct option){ 0 };
	c->shortopts[s] = 0;
	c->built = true;
	return 0;
}

static const struct fs_opt *find_long(const struct fs_cli *c, const char *name, size_t len)
{
	for (const struct fs_opt *const *set = c->sets; *set; set++)
		for (const struct fs_opt *o = *set; o->name; o++)
			if (strlen(o->name) == len && !strncmp(o->name, name, len))
				return o;
	return NULL;
}

static const struct fs_opt *find_key(const struct fs_cli *c, int key)
{
	for (const struct fs_opt *const *set = c->sets; *set; set++)
		for (const struct fs_opt *o = *set; o->name; o++)
			if (o->key == key)
				return o;
	return NULL;
}

/* Explain why getopt_long refused argv's last option (see glibc's getopt for where optind points). */
static void report(const struct fs_cli *c, int rc, char **argv)
{
	const char *last = optind > 0 ? argv[optind - 1] : "";
	const char *names[FS_CLI_MAX_OPTS];
	int n = 0;

	/* a long option: glibc has moved optind past it in every error case */
	if (!strncmp(last, "--", 2) && last[2]) {
		const char *name = last + 2;
		size_t len = strcspn(name, "=");
		const struct fs_opt *o = find_long(c, name, len);

		if (o && optopt == o->key) {
			if (rc == ':')
				fs_cli_usage(c->cmd, "option '--%s' needs a value (%s)", o->name, o->arg);
			else
				fs_cli_usage(c->cmd, "option '--%s' takes no value", o->name);
			return;
		}
		if (!optopt) {
			char word[64], list[256] = "";
			int m = 0, ln = 0;

			snprintf(word, sizeof(word), "%.*s", (int)(len < 63 ? len : 63), name);
			for (const struct fs_opt *const *set = c->sets; *set; set++)
				for (const struct fs_opt *p = *set; p->name; p++) {
					names[n++] = p->name;
					if (!strncmp(p->name, word, strlen(word)) && ln < (int)sizeof(list) - 1) {
						ln += snprintf(list + ln, sizeof(list) - ln, "%s--%s", m ? ", " : "",
							       p->name);
						m++;
					}
				}
			if (m > 1) {
				fs_cli_usage(c->cmd, "option '--%s' is ambiguous (%s)", word, list);
				return;
			}
			const char *near = fs_cli_closest(word, names, n);

			if (near)
				fs_cli_usage(c->cmd, "unknown option '--%s' (did you mean '--%s'?)", word, near);
			else
				fs_cli_usage(c->cmd, "unknown option '--%s'", word);
			return;
		}
	}
	const struct fs_opt *o = find_key(c, optopt);

	if (rc == ':' && o)
		fs_cli_usage(c->cmd, "option '-%c' needs a value (%s)", optopt, o->arg);
	else if (optopt > ' ' && optopt < 127)
		fs_cli_usage(c->cmd, "unknown option '-%c'", optopt);
	else
		fs_cli_usage(c->cmd, "unknown option '%s'", last);
}

int fs_cli_next(struct fs_cli *c, int argc, char **argv)
{
	if (!c->built) {
		if (build(c)) {
			fprintf(stderr, "feecscope %s: too many options for the parser\n", c->cmd);
			return '?';
		}
		optind = 0; /* glibc: start afresh, whatever a previous parse left */
	}
	opterr = 0;
	int rc = getopt_long(argc, argv, c->shortopts, c->longopts, NULL);

	if (rc == '?' || rc == ':') {
		report(c, rc, argv);
		return '?';
	}
	return rc;
}

/* ---- files ---- */

int fs_cli_input_file(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd;

	if (stat(path, &st)) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: is a directory", path);
		return -1;
	}
	if (!S_ISREG(st.st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	close(fd);
	if (!st.st_size) {
		snprintf(err, errlen, "%s: is empty", path);
		return -1;
	}
	return 0;
}

const char *fs_cli_past_path(const char *err, const char *path)
{
	size_t n = strlen(path);

	return !strncmp(err, path, n) && err[n] == ':' && err[n + 1] == ' ' ? err + n + 2 : err;
}

/* ---- values ---- */

int fs_cli_seconds(const char *s, double min, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < min)
		return -1;
	*out = v;
	return 0;
}

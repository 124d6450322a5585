/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line's conventions in one place, so every command follows
 * them alike: options declared once in tables (getopt_long is built from
 * them, and so is the OPTIONS section of the help), one-line usage errors
 * with a "did you mean" and a pointer to the help, help pages of one
 * style within 80 columns, and the exit-code table.
 */
#ifndef FEECSCOPE_CLI_H
#define FEECSCOPE_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * Exit codes of every command. Their meanings are fs_exit_codes[] (cli.c),
 * which every help page prints; README.md documents them once.
 */
enum fs_exit {
	FS_EXIT_OK = 0,
	FS_EXIT_FAIL = 1,  /* runtime or data error */
	FS_EXIT_USAGE = 2, /* bad command line, unknown policy or release */
	FS_EXIT_ENV = 3,   /* environment or privilege */
};

struct fs_exit_code {
	int code;
	const char *meaning;
};
extern const struct fs_exit_code fs_exit_codes[];
extern const int fs_nr_exit_codes;

/* Keys of options without a short letter start here (getopt_long's val). */
#define FS_OPT_LONG 256

/*
 * One option. A short letter means the same option in every command that
 * has it (tests/cli/options.sh checks this across the help pages).
 */
struct fs_opt {
	const char *name;  /* long name without "--" */
	int key;           /* the short letter, or FS_OPT_LONG + n */
	const char *arg;   /* metavariable ("SEC"), NULL for a flag */
	const char *help;  /* one paragraph, wrapped when printed; NULL: an alias not listed */
};

/* Every command's --help (-h), last in its first table. */
#define FS_OPT_HELP { "help", 'h', NULL, "This text." }

#define FS_CLI_MAX_OPTS 48

/* A command's parser: its name and option tables (NULL-terminated list). */
struct fs_cli {
	const char *cmd;                  /* "live" */
	const struct fs_opt *const *sets;
	/* built on the first fs_cli_next() */
	struct option longopts[FS_CLI_MAX_OPTS + 1];
	char shortopts[2 * FS_CLI_MAX_OPTS + 2];
	bool built;
};

/*
 * getopt_long over the tables: the next option's key, -1 at the end, or
 * '?' after printing the error (unknown or ambiguous option, missing or
 * unexpected argument) in the usage-error form. Restarts getopt on the
 * first call, so a command can be run more than once in a process.
 */
int fs_cli_next(struct fs_cli *c, int argc, char **argv);

/*
 * A usage error: "feecscope CMD: MESSAGE", then "try 'feecscope CMD
 * --help'", on stderr. Returns FS_EXIT_USAGE. cmd may be NULL (top level).
 */
int fs_cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "feecscope CMD: MESSAGE" on stderr, wrapped at 80 columns (continuation lines indented by 2). */
void fs_cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "hint: TEXT" on stderr, wrapped at 80 columns: what to do about the error just printed. */
void fs_cli_hint(const char *text);

/* The closest of names[0..n) to word when it is close enough to suggest, else NULL. */
const char *fs_cli_closest(const char *word, const char *const *names, int n);

/* A command's help page; every line within FS_CLI_COLUMNS. */
#define FS_CLI_COLUMNS 80

struct fs_cli_page {
	const char *name;        /* "live" (NULL: the top-level page) */
	const char *summary;     /* one line: NAME and the top-level command list */
	const char *synopsis;    /* lines, each printed after "feecscope NAME " */
	/*
	 * Paragraphs separated by blank lines, wrapped at 80 columns; a line
	 * starting with a space is printed as is, less that space.
	 */
	const char *description;
	const struct fs_opt *const *sets;
	const char *sections;    /* more sections, already formatted, or NULL */
	const char *examples;    /* lines, or NULL */
};

void fs_cli_help(FILE *out, const struct fs_cli_page *page);
/* Paragraph text wrapped at FS_CLI_COLUMNS with every line indented by indent. */
void fs_cli_wrap(FILE *out, int indent, const char *text);
/*
 * Log or status text, each of its lines wrapped at FS_CLI_COLUMNS; a wrapped
 * line goes on two columns further in than it starts (its own leading blanks
 * kept). A word longer than a line (a path) stays whole.
 */
void fs_cli_wrap_lines(FILE *out, const char *text);
/* One line of words wrapped at FS_CLI_COLUMNS, each further line led by lead. */
void fs_cli_wrap_led(FILE *out, const char *lead, const char *text);
/* The EXIT STATUS section's lines (also `feecscope help` and README.md). */
void fs_cli_exit_codes(FILE *out, int indent);

/*
 * An input FILE about to be read, in the words every command uses: 0, or
 * -1 with err "PATH: cannot open: <strerror>", "PATH: is a directory" or
 * "PATH: is empty". A pipe or a device is not opened here.
 */
int fs_cli_input_file(const char *path, char *err, size_t errlen);

/* err less a leading "path: " (an error about path said after the option that named it). */
const char *fs_cli_past_path(const char *err, const char *path);

/* Value parsers: 0, or -1 (the caller reports the usage error). */
int fs_cli_seconds(const char *s, double min, double *out);

#endif /* FEECSCOPE_CLI_H */

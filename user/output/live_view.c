// SPDX-License-Identifier: GPL-2.0
/* The live view on a terminal or as lines (live_view.h). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "live_view.h"
#include "live_term.h"
#include "summary.h"
#include "../cli.h"

#define MAX_WARNINGS 16
#define FULL_EVERY 30 /* frames: a full redraw now and then heals what another writer left */

struct fs_live_view {
	struct fs_view_info info;
	struct fs_view_rates rates;
	struct fs_view_state state;
	/* the last interval's rates, for redraws between intervals */
	double wakeup_rate, mw[FS_MAX_POLICIES], busy_pct[FS_MAX_CPUS];
	struct fs_frame frame, shown; /* shown: what the screen holds now */
	bool have_shown, closed;
	bool on_screen;               /* fs_term_screen() when it opened */
	unsigned int frames;
	char *warnings[MAX_WARNINGS];
	int nr_warnings, dropped_warnings;
	char *out;                    /* escape sequences and rows of one frame */
	size_t out_size;
	FILE *con;                    /* stdout, or stderr when an output writes to stdout */
};

struct fs_live_view *fs_live_view_new(const struct fs_view_info *info, const char *banner, FILE *out)
{
	struct fs_live_view *v = calloc(1, sizeof(*v));

	if (!v)
		return NULL;
	v->info = *info;
	v->out_size = FS_FRAME_MAX_ROWS * (FS_FRAME_MAX_COLS + 16) + 64;
	v->out = malloc(v->out_size);
	if (!v->out) {
		free(v);
		return NULL;
	}
	v->con = out;
	fflush(out);
	fs_term_open(fileno(out), STDIN_FILENO);
	v->on_screen = fs_term_screen();
	if (!v->on_screen) {
		fs_cli_wrap_lines(out, banner);
		fflush(out);
	}
	return v;
}

/*
 * Put the frame on the screen: every row addressed and erased before it is
 * written (a row as wide as the screen never wraps, nothing scrolls), and
 * only the rows that changed since the last one, for slow links.
 */
static void draw(struct fs_live_view *v, bool all)
{
	const struct fs_frame *f = &v->frame;
	size_t n = 0;

	if (!v->have_shown || v->shown.cols != f->cols || v->shown.rows != f->rows || ++v->frames % FULL_EVERY == 0)
		all = true;
	if (all)
		n += (size_t)snprintf(v->out + n, v->out_size - n, "\033[H\033[2J");
	for (int i = 0; i < f->n && n < v->out_size; i++) {
		if (!all && i < v->shown.n && !strcmp(v->shown.line[i], f->line[i]))
			continue;
		n += (size_t)snprintf(v->out + n, v->out_size - n, "\033[%d;1H\033[2K%s", i + 1, f->line[i]);
	}
	if (n > v->out_size)
		n = v->out_size;
	fs_term_write(v->out, n);
	v->shown = *f;
	v->have_shown = true;
}

static void render(struct fs_live_view *v, const struct fs_view_sample *s, bool all)
{
	int cols, rows;

	v->state.warning = v->nr_warnings ? v->warnings[v->nr_warnings - 1] : NULL;
	v->state.more_warnings = v->nr_warnings ? v->nr_warnings - 1 + v->dropped_warnings : 0;
	fs_term_size(&cols, &rows);
	fs_view_frame(&v->frame, cols, rows, &v->info, s, &v->state);
	draw(v, all);
}

/*
 * The interval's numbers for logs and pipes, as key=value lines within 80
 * columns (an adb shell without a terminal shows them as they are): the
 * totals, then one line per policy compared, each line led by its t=.
 */
static void line(FILE *out, const struct fs_view_sample *s)
{
	const struct fs_stats *st = s->st;
	double den = st->wakeups ? (double)st->wakeups : 1;
	char t[32], buf[256];

	snprintf(t, sizeof(t), "t=%.1fs ", s->elapsed_s); /* also leads each cut line's rest */
	snprintf(buf, sizeof(buf), "%swakeups=%llu wakeups/s=%.0f eligible=%.1f%% overutilized=%.1f%% lost=%llu expired=%llu",
		 t, (unsigned long long)st->wakeups, s->wakeup_rate, 100.0 * st->feec_eligible / den,
		 100.0 * st->overutilized / den, (unsigned long long)st->lost, (unsigned long long)s->expired);
	fs_cli_wrap_led(out, t, buf);
	for (int i = 1; i < st->nr_policies; i++) {
		snprintf(buf, sizeof(buf), "%spolicy=%d differ=%llu energy=%+.3fmJ rate=%+.3fmW", t, i,
			 (unsigned long long)st->pol[i].differ, s->rep ? fs_fj_to_mj(s->rep->tot->energy_fj[i]) : 0.0,
			 s->mw[i]);
		fs_cli_wrap_led(out, t, buf);
	}
	fflush(out);
}

void fs_live_view_update(struct fs_live_view *v, struct fs_view_sample *s)
{
	fs_view_rates_update(&v->rates, s);
	v->wakeup_rate = s->wakeup_rate;
	memcpy(v->mw, s->mw, sizeof(v->mw));
	memcpy(v->busy_pct, s->busy_pct, sizeof(v->busy_pct));
	if (!fs_term_screen())
		line(v->con, s);
	else if (!v->state.paused)
		render(v, s, fs_term_changed());
}

void fs_live_view_redraw(struct fs_live_view *v, struct fs_view_sample *s)
{
	s->wakeup_rate = v->wakeup_rate;
	memcpy(s->mw, v->mw, sizeof(v->mw));
	memcpy(s->busy_pct, v->busy_pct, sizeof(v->busy_pct));
	if (fs_term_screen())
		render(v, s, true);
}

/* While paused the screen keeps its numbers: only the last row changes, or the size. */
static void paused_redraw(struct fs_live_view *v)
{
	int cols, rows;
	struct fs_frame *f = &v->frame;

	if (!f->n)
		return;
	fs_term_size(&cols, &rows);
	if (cols != f->cols || rows != f->rows) { /* the frozen rows, cut or padded to the new size */
		cols = cols > FS_FRAME_MAX_COLS ? FS_FRAME_MAX_COLS : cols;
		rows = rows > FS_FRAME_MAX_ROWS ? FS_FRAME_MAX_ROWS : rows;
		for (int i = 0; i < rows; i++) {
			if (i >= f->n)
				f->line[i][0] = 0;
			f->line[i][cols] = 0;
		}
		f->n = rows;
		f->cols = cols;
		f->rows = rows;
	}
	snprintf(f->line[f->n - 1], sizeof(f->line[0]), "%.*s", cols,
		 v->state.paused ? "PAUSED: p resumes, q quits" : "");
	draw(v, true);
}

enum fs_view_event fs_live_view_input(struct fs_live_view *v)
{
	enum fs_view_event ev = FS_VIEW_NONE;
	int k;

	if (fs_term_changed()) {
		if (!v->state.paused)
			ev = FS_VIEW_REDRAW;
		else
			paused_redraw(v);
	}
	while ((k = fs_term_key()) >= 0) {
		switch (k) {
		case 'q': case 'Q':
		case 0x03: /* Ctrl-C */
		case 0x1c: /* Ctrl-\ */
		case 0x04: /* Ctrl-D */
			return FS_VIEW_QUIT;
		case 0x1a: /* Ctrl-Z */
			fs_term_suspend();
			ev = FS_VIEW_REDRAW;
			break;
		case 'p': case 'P': case ' ':
			if (!fs_term_screen())
				break;
			v->state.paused = !v->state.paused;
			if (v->state.paused)
				paused_redraw(v);
			else
				ev = FS_VIEW_REDRAW;
			break;
		case 's': case 'S':
			v->state.sort = (v->state.sort + 1) % FS_SORT__NR;
			if (!v->state.paused)
				ev = FS_VIEW_REDRAW;
			break;
		case 0x0c: /* Ctrl-L */
			v->have_shown = false;
			if (!v->state.paused)
				ev = FS_VIEW_REDRAW;
			break;
		}
	}
	return ev;
}

void fs_live_view_warn(struct fs_live_view *v, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!fs_term_screen()) {
		fs_cli_error("live", "warning: %s", buf);
		return;
	}
	if (v->nr_warnings == MAX_WARNINGS) {
		free(v->warnings[0]);
		memmove(v->warnings, v->warnings + 1, (MAX_WARNINGS - 1) * sizeof(v->warnings[0]));
		v->nr_warnings--;
		v->dropped_warnings++;
	}
	v->warnings[v->nr_warnings] = strdup(buf);
	if (v->warnings[v->nr_warnings])
		v->nr_warnings++;
}

void fs_live_view_close(struct fs_live_view *v)
{
	bool screen = fs_term_screen();

	fs_term_close();
	if (!v || !screen || v->closed)
		return;
	v->closed = true;
	if (v->dropped_warnings)
		fprintf(stderr, "feecscope live: %d earlier warnings not kept\n", v->dropped_warnings);
	for (int i = 0; i < v->nr_warnings; i++)
		fs_cli_error("live", "warning: %s", v->warnings[i]);
}

void fs_live_view_free(struct fs_live_view *v)
{
	if (!v)
		return;
	fs_live_view_close(v);
	for (int i = 0; i < v->nr_warnings; i++)
		free(v->warnings[i]);
	free(v->out);
	free(v);
}

bool fs_live_view_on_screen(const struct fs_live_view *v)
{
	return v->on_screen;
}

static int view_tick(void *self, const struct fs_view_sample *s, char *err, size_t errlen)
{
	struct fs_view_sample c = *s; /* the rates are filled into the view's own copy */

	(void)err;
	(void)errlen;
	fs_live_view_update(self, &c);
	return 0;
}

/*
 * The summary is longer than a terminal: on one, its first lines (the
 * verdict) come again last, so that they are on the screen when live ends
 * (an 80x24 `adb shell`). The summary itself stays replay's, byte for byte.
 */
static int view_finish(void *self, const struct fs_report *rep, char *err, size_t errlen)
{
	const struct fs_live_view *v = self;
	char *text = NULL;
	size_t len = 0;
	FILE *m;

	(void)err;
	(void)errlen;
	if (!v->on_screen || v->con != stdout || !isatty(STDOUT_FILENO))
		return 0;
	m = open_memstream(&text, &len);
	if (!m)
		return 0;
	fs_summary_print(m, rep);
	if (fclose(m) == 0) {
		/* the verdict lines: up to the "policies:" line or the first blank one, at most 4 */
		const char *p = text;
		int n = 0;

		fputc('\n', stdout);
		while (*p && *p != '\n' && strncmp(p, "policies:", 9) && n++ < 4) {
			size_t l = strcspn(p, "\n");

			fprintf(stdout, "%.*s\n", (int)l, p);
			p += l + (p[l] == '\n');
		}
		fflush(stdout);
	}
	free(text);
	return 0;
}

static void view_free(void *self)
{
	fs_live_view_free(self);
}

static const struct fs_output_ops view_ops = { .tick = view_tick, .finish = view_finish, .free = view_free };

void fs_output_live_view(struct fs_output *o, struct fs_live_view *v)
{
	*o = (struct fs_output){ .ops = &view_ops, .self = v };
}

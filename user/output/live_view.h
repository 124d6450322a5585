/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live view: on a terminal, the screen of view_frame.h redrawn in
 * place every interval (keys: q quits, p pauses, s sorts); otherwise one
 * key=value line per interval. Warnings stay on the screen's last row and
 * are printed again when the view closes.
 */
#ifndef FEECSCOPE_LIVE_VIEW_H
#define FEECSCOPE_LIVE_VIEW_H

#include <stdbool.h>
#include <stdio.h>
#include "view_frame.h"

struct fs_live_view;

/*
 * banner: printed first without a terminal ("feecscope live: kernel ...").
 * out: where the screen or the lines go, stdout, or stderr when an output
 * writes to stdout.
 */
struct fs_live_view *fs_live_view_new(const struct fs_view_info *info, const char *banner, FILE *out);
/* An interval: rates from the previous one, then the screen (unless paused) or a line. */
void fs_live_view_update(struct fs_live_view *v, struct fs_view_sample *s);
/* Draw s again (after a key or a resize) with the last interval's rates. */
void fs_live_view_redraw(struct fs_live_view *v, struct fs_view_sample *s);

enum fs_view_event { FS_VIEW_NONE, FS_VIEW_QUIT, FS_VIEW_REDRAW };
/* Keys and resizes since the last call. */
enum fs_view_event fs_live_view_input(struct fs_live_view *v);

/*
 * The view as an output (output.h): its tick hook updates it each interval;
 * its finish hook, where the screen was drawn on stdout's terminal, prints
 * the summary's verdict lines again so that they are on the screen when live
 * ends (the summary, longer than a terminal, stays replay's byte for byte):
 * attach it after the summary. The output owns v (its free hook frees it);
 * the run keeps v for keys, warnings and giving the terminal back.
 */
struct fs_output;
void fs_output_live_view(struct fs_output *o, struct fs_live_view *v);
/* It draws on a terminal's screen (not lines). */
bool fs_live_view_on_screen(const struct fs_live_view *v);

void fs_live_view_warn(struct fs_live_view *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Give the terminal back, then print the warnings the screen showed to stderr. */
void fs_live_view_close(struct fs_live_view *v);
void fs_live_view_free(struct fs_live_view *v); /* closes first; accepts NULL */

#endif /* FEECSCOPE_LIVE_VIEW_H */

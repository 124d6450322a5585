/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The terminal under the live view: its size (TIOCGWINSZ, SIGWINCH), the
 * alternate screen (so the scrollback never grows), keys read without
 * Enter, and the terminal given back as it was on every way out: the end,
 * q, SIGINT/SIGTERM, a stop (Ctrl-Z) and a crash. Plain ANSI, no curses:
 * it works in `adb shell`. One terminal per process (signal handlers reach it).
 */
#ifndef FEECSCOPE_LIVE_TERM_H
#define FEECSCOPE_LIVE_TERM_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Draw on out_fd when it is a terminal; read keys from in_fd when it is a
 * terminal whose foreground we are (then Ctrl-C arrives as a key, so a
 * pipe's other end such as `| tee` is not interrupted with us).
 */
void fs_term_open(int out_fd, int in_fd);
bool fs_term_screen(void);  /* drawing on a terminal */
bool fs_term_keys(void);    /* reading keys */
/* The size now; 80x24 when it cannot be told. */
void fs_term_size(int *cols, int *rows);
/* A resize or a return from a stop since the last call: draw everything again. */
bool fs_term_changed(void);
/* The next key, or -1. */
int fs_term_key(void);
/* Stop the whole job as Ctrl-Z would, the terminal given back meanwhile. */
void fs_term_suspend(void);
/* Write to the screen (all of it, retrying short writes). */
void fs_term_write(const char *buf, size_t len);
/* Give the terminal back (normal screen, cursor, line mode). Idempotent, async-signal-safe. */
void fs_term_close(void);

#endif /* FEECSCOPE_LIVE_TERM_H */

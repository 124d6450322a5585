// SPDX-License-Identifier: GPL-2.0
/* The live view's terminal (live_term.h). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include "live_term.h"

#define ENTER "\033[?1049h\033[?25l\033[H\033[2J" /* alternate screen, cursor hidden, cleared */
#define LEAVE "\033[?25h\033[?1049l"              /* cursor shown, normal screen back */

static int g_out = -1, g_in = -1;
static bool g_want_screen, g_want_keys;
static struct termios g_saved;
static volatile sig_atomic_t g_screen_on, g_keys_on, g_changed;

static void put(const char *s, size_t len)
{
	while (len) {
		ssize_t n = write(g_out, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		s += n;
		len -= (size_t)n;
	}
}

void fs_term_write(const char *buf, size_t len)
{
	if (g_screen_on)
		put(buf, len);
}

/* Alternate screen and key mode on; after open and after a stop. */
static void enter(void)
{
	if (g_want_keys && !g_keys_on) {
		struct termios t = g_saved;

		/* no line editing, no echo, Ctrl-C/Ctrl-Z/Ctrl-\ as bytes; output processing unchanged */
		t.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ISIG | IEXTEN);
		t.c_cc[VMIN] = 0;
		t.c_cc[VTIME] = 0;
		if (!tcsetattr(g_in, TCSANOW, &t))
			g_keys_on = 1;
	}
	if (g_want_screen && !g_screen_on) {
		put(ENTER, sizeof(ENTER) - 1);
		g_screen_on = 1;
	}
	g_changed = 1;
}

void fs_term_close(void)
{
	if (g_screen_on) {
		put(LEAVE, sizeof(LEAVE) - 1);
		g_screen_on = 0;
	}
	if (g_keys_on) {
		tcsetattr(g_in, TCSANOW, &g_saved);
		g_keys_on = 0;
	}
}

static void on_winch(int sig)
{
	(void)sig;
	g_changed = 1;
}

/* Stop as the default action would, with the terminal given back first; redraw after SIGCONT. */
static void on_tstp(int sig)
{
	int saved_errno = errno;
	sigset_t set;

	fs_term_close();
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	/* continued */
	signal(sig, on_tstp);
	enter();
	errno = saved_errno;
}

/* A crash: the terminal back first, then the default action (a core, a message from the shell). */
static void on_fatal(int sig)
{
	fs_term_close();
	raise(sig); /* the handler was reset (SA_RESETHAND) */
}

static void handle(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa = { .sa_handler = fn, .sa_flags = flags };

	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

void fs_term_open(int out_fd, int in_fd)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };

	g_out = out_fd;
	g_in = in_fd;
	g_want_screen = isatty(out_fd);
	g_want_keys = isatty(in_fd) && tcgetpgrp(in_fd) == getpgrp() && !tcgetattr(in_fd, &g_saved);
	if (!g_want_screen && !g_want_keys)
		return;
	atexit(fs_term_close);
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		handle(fatal[i], on_fatal, SA_RESETHAND | SA_NODEFER);
	handle(SIGTSTP, on_tstp, SA_RESTART);
	if (g_want_screen)
		handle(SIGWINCH, on_winch, SA_RESTART);
	enter();
}

bool fs_term_screen(void)
{
	return g_screen_on;
}

bool fs_term_keys(void)
{
	return g_keys_on;
}

void fs_term_size(int *cols, int *rows)
{
	struct winsize ws;
	const char *c = getenv("COLUMNS"), *l = getenv("LINES");

	*cols = 80;
	*rows = 24;
	if (g_out >= 0 && !ioctl(g_out, TIOCGWINSZ, &ws) && ws.ws_col && ws.ws_row) {
		*cols = ws.ws_col;
		*rows = ws.ws_row;
		return;
	}
	if (c && atoi(c) > 0)
		*cols = atoi(c);
	if (l && atoi(l) > 0)
		*rows = atoi(l);
}

bool fs_term_changed(void)
{
	bool c = g_changed;

	g_changed = 0;
	return c;
}

int fs_term_key(void)
{
	unsigned char ch;

	if (!g_keys_on)
		return -1;
	return read(g_in, &ch, 1) == 1 ? ch : -1;
}

void fs_term_suspend(void)
{
	/* the whole job stops, as Ctrl-Z would stop it (our SIGTSTP handler gives the terminal back) */
	kill(0, SIGTSTP);
}

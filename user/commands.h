/* SPDX-License-Identifier: GPL-2.0 */
/* The subcommands; each lives in user/cmd_<name>.c and returns the exit code. */
#ifndef FEECSCOPE_COMMANDS_H
#define FEECSCOPE_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>
#include "cli.h" /* enum fs_exit: the exit codes every command returns */

int fs_cmd_em(int argc, char **argv);
int fs_cmd_replay(int argc, char **argv);
int fs_cmd_live(int argc, char **argv);
int fs_cmd_policies(int argc, char **argv);
int fs_cmd_report(int argc, char **argv);
int fs_cmd_version(int argc, char **argv);

/* The policy table of `feecscope policies`; also what `replay/live --policies [list]` print. */
void fs_policies_print(FILE *out);
bool fs_policies_list_asked(int argc, char **argv);
/*
 * em's and policies' --release RELEASE: *release = arg, 0; or, for a string
 * that is no kernel release, the usage error said and its exit code.
 */
int fs_cmd_release_arg(const char *cmd, const char *arg, const char **release);

#endif

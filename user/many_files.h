/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report's inputs: the files named, and for a directory the recordings in
 * it (kernel traces too with report --em), told by content and taken by
 * name.
 */
#ifndef FEECSCOPE_MANY_FILES_H
#define FEECSCOPE_MANY_FILES_H

#include <stdbool.h>
#include <stddef.h>

struct fs_file_list {
	char **v;
	size_t n, cap;
};

/*
 * names[0..n): a directory stands for its recordings (and traces, with
 * traces); a file is taken as named once it can be read. 0, or -1 with the
 * reason printed (a name that cannot be read, out of memory). *skipped
 * counts the *.fsr files of a directory that are not recordings (said).
 */
int fs_many_files(char *const *names, int n, bool traces, struct fs_file_list *l, int *skipped);
void fs_file_list_free(struct fs_file_list *l);

#endif /* FEECSCOPE_MANY_FILES_H */

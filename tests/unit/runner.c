// SPDX-License-Identifier: GPL-2.0
/* Runs the FS_TEST registry: one child process per test, "N passed, N failed" last. */
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>
#include "test.h"

static struct fs_test *tests;
int fs_test_failures;

void fs_test_register(struct fs_test *t)
{
	/* Keep registration order (constructors run in file order). */
	struct fs_test **p = &tests;
	while (*p)
		p = &(*p)->next;
	*p = t;
}

const char *fs_fixture(const char *rel)
{
	static char buf[4096];
	const char *root = getenv("FS_FIXTURES");

	snprintf(buf, sizeof(buf), "%s/%s", root ? root : "tests/fixtures", rel);
	return buf;
}

static bool run_one(const struct fs_test *t)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return false;
	}
	if (pid == 0) {
		fs_test_failures = 0;
		t->fn();
		fflush(NULL);
		_exit(fs_test_failures ? 1 : 0);
	}
	int status;
	if (waitpid(pid, &status, 0) < 0) {
		perror("waitpid");
		return false;
	}
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "    killed by signal %d\n", WTERMSIG(status));
		return false;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(int argc, char **argv)
{
	const char *filter = NULL;
	bool list = false;
	int opt, passed = 0, failed = 0;

	while ((opt = getopt(argc, argv, "lt:")) != -1) {
		switch (opt) {
		case 'l': list = true; break;
		case 't': filter = optarg; break;
		default:
			fprintf(stderr, "usage: %s [-l] [-t SUBSTRING]\n", argv[0]);
			return 2;
		}
	}
	for (struct fs_test *t = tests; t; t = t->next) {
		if (filter && !strstr(t->name, filter))
			continue;
		if (list) {
			printf("%s\t%s\n", t->name, t->file);
			continue;
		}
		bool ok = run_one(t);
		printf("%s %s\n", ok ? "ok  " : "FAIL", t->name);
		ok ? passed++ : failed++;
	}
	if (!list)
		printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

// SPDX-License-Identifier: GPL-2.0
/* Outputs never overwrite an input or each other; output files appear complete or not at all. */
#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <sys/sysmacros.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "test.h"
#include "output/out_cleanup.h"
#include "output/out_file.h"

static char dir[256];

static void in_tmp(void)
{
	snprintf(dir, sizeof(dir), "/tmp/fs-out-test-XXXXXX");
	if (!mkdtemp(dir) || chdir(dir))
		abort();
}

static void done(void)
{
	char cmd[300];

	if (chdir("/"))
		abort();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		abort();
}

static const char *read_text(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return "(none)";
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Entries in the test directory: no temporary file may be left behind. */
static int entries(void)
{
	DIR *d = opendir(".");
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

#define IN(p, w) { p, w, false }
#define OUT(p, w) { p, w, true }

static int check(const struct fs_io_path *p, int n, char *err, size_t len)
{
	err[0] = '\0';
	return fs_paths_check(p, n, err, len);
}

FS_TEST(out_paths_output_is_the_input)
{
	char err[512];

	in_tmp();
	write_text("in.csv", "data\n");
	{
		struct fs_io_path p[] = { IN("in.csv", "FILE"), OUT("in.csv", "--csv") };
		EXPECT_EQ(check(p, 2, err, sizeof(err)), -1);
		EXPECT_STR(err, "--csv in.csv: the input FILE: not overwritten");
	}
	/* the same file spelled otherwise, through a hard link and a symbolic link */
	EXPECT_EQ(mkdir("sub", 0755), 0);
	EXPECT_EQ(link("in.csv", "hard.csv"), 0);
	EXPECT_EQ(symlink("in.csv", "soft.csv"), 0);
	{
		const char *other[] = { "./in.csv", "sub/../in.csv", "hard.csv", "soft.csv" };
		for (int i = 0; i < 4; i++) {
			struct fs_io_path p[] = { IN("in.csv", "FILE"), OUT(other[i], "--convert-csv") };
			char want[256];
			EXPECT_EQ(check(p, 2, err, sizeof(err)), -1);
			snprintf(want, sizeof(want), "--convert-csv %s: the input FILE (in.csv): not overwritten",
				 other[i]);
			EXPECT_STR(err, want);
		}
	}
	/* a saved EM given with --em is an input too */
	{
		struct fs_io_path p[] = { IN("in.csv", "FILE"), IN("hard.csv", "--em"), OUT("out.csv", "--csv"),
					  OUT("soft.csv", "--summary") };
		EXPECT_EQ(check(p, 4, err, sizeof(err)), -1);
		EXPECT_STR(err, "--summary soft.csv: the input FILE (in.csv): not overwritten");
	}
	EXPECT_STR(read_text("in.csv"), "data\n");
	done();
}

FS_TEST(out_paths_two_outputs)
{
	char err[512];

	in_tmp();
	/* neither exists yet: compared by where they would be created */
	{
		struct fs_io_path p[] = { OUT("x", "--csv"), OUT("./x", "--record") };
		EXPECT_EQ(check(p, 2, err, sizeof(err)), -1);
		EXPECT_STR(err, "--record ./x: the same file as --csv (x)");
	}
	{
		struct fs_io_path p[] = { OUT("x", "--csv"), OUT("y", "--record"), OUT("x", "--summary") };
		EXPECT_EQ(check(p, 3, err, sizeof(err)), -1);
		EXPECT_STR(err, "--summary x: the same file as --csv");
	}
	/* distinct outputs, a missing input, stdout, stderr and /dev/null twice are fine */
	{
		struct fs_io_path p[] = { IN("missing.csv", "FILE"), OUT("x", "--csv"), OUT("y", "--record"),
					  OUT("-", "--save"), OUT("/dev/stderr", "--json"), OUT("/dev/null", "--summary"),
					  OUT("/dev/null", "--perfetto"), { NULL, "--json", true } };
		EXPECT_EQ(check(p, 8, err, sizeof(err)), 0);
		EXPECT_STR(err, "");
	}
	/* but one output at most on stdout, by any of its names */
	{
		struct fs_io_path p[] = { IN("-", "FILE"), OUT("-", "--csv"), OUT("/dev/fd/1", "--json") };
		EXPECT_EQ(check(p, 3, err, sizeof(err)), -1);
		EXPECT_STR(err, "--json /dev/fd/1: standard output is already --csv's (one output at most goes there)");
	}
	/* an input directory (an EM tree) and an output inside it are different files */
	EXPECT_EQ(mkdir("tree", 0755), 0);
	{
		struct fs_io_path p[] = { IN("tree", "--em"), OUT("tree/out.csv", "--csv") };
		EXPECT_EQ(check(p, 2, err, sizeof(err)), 0);
	}
	done();
}

FS_TEST(out_file_fd_names)
{
	EXPECT_EQ(fs_out_fd_of("-"), 1);
	EXPECT_EQ(fs_out_fd_of("/dev/stdout"), 1);
	EXPECT_EQ(fs_out_fd_of("/dev/stderr"), 2);
	EXPECT_EQ(fs_out_fd_of("/dev/fd/63"), 63);
	EXPECT_EQ(fs_out_fd_of("/proc/self/fd/1"), 1);
	EXPECT_EQ(fs_out_fd_of("/dev/fd/"), -1);
	EXPECT_EQ(fs_out_fd_of("/dev/fd/1x"), -1);
	EXPECT_EQ(fs_out_fd_of("./-"), -1);
	EXPECT_EQ(fs_out_fd_of("/dev/null"), -1);
}

/* A link to what is not a regular file is refused; one to a regular file is replaced, not followed. */
FS_TEST(out_file_links)
{
	struct fs_out_file o;
	char err[512] = "";

	in_tmp();
	EXPECT_EQ(mkfifo("fifo", 0644), 0);
	EXPECT_EQ(symlink("fifo", "f.link"), 0);
	EXPECT_EQ(fs_out_open(&o, "f.link", err, sizeof(err)), -1);
	EXPECT_STR(err, "f.link: a symbolic link to fifo (a FIFO): not followed, nothing written");
	{
		struct fs_io_path p[] = { OUT("f.link", "--csv") };
		EXPECT_EQ(check(p, 1, err, sizeof(err)), -1);
		EXPECT_STR(err, "--csv f.link: a symbolic link to fifo (a FIFO): not followed, nothing written");
	}
	EXPECT_EQ(entries(), 2);
	write_text("target", "kept\n");
	EXPECT_EQ(symlink("target", "t.link"), 0);
	ASSERT_TRUE(fs_out_open(&o, "t.link", err, sizeof(err)) == 0);
	fputs("new\n", o.f);
	EXPECT_EQ(fs_out_commit(&o, err, sizeof(err)), 0);
	{
		struct stat st;
		EXPECT_EQ(lstat("t.link", &st), 0);
		EXPECT_TRUE(S_ISREG(st.st_mode));
	}
	EXPECT_STR(read_text("t.link"), "new\n");
	EXPECT_STR(read_text("target"), "kept\n");
	/* a recording's file: under its name at once, through the same exclusive creation */
	ASSERT_TRUE(fs_out_open_as(&o, "now.fsr.gz", FS_OUT_NOW | FS_OUT_PLAIN, err, sizeof(err)) == 0);
	EXPECT_TRUE(o.tmp == NULL && o.gz == NULL);
	EXPECT_EQ(access("now.fsr.gz", F_OK), 0);
	fs_out_abort(&o);
	EXPECT_EQ(access("now.fsr.gz", F_OK), 0);
	EXPECT_EQ(entries(), 5);
	done();
}

/*
 * A device named directly takes an output only when it is a terminal or
 * /dev/null, /dev/zero, /dev/full; any other (a hard link can plant one) is
 * refused by the check before anything is written and by the opener.
 */
FS_TEST(out_file_devices)
{
	struct fs_out_file o;
	char err[512] = "";
	int pty;

	ASSERT_TRUE(fs_out_open(&o, "/dev/zero", err, sizeof(err)) == 0);
	EXPECT_TRUE(o.tmp == NULL);
	fputs("x", o.f);
	EXPECT_EQ(fs_out_commit(&o, err, sizeof(err)), 0);
	/* a terminal: a new pseudo-terminal's other end */
	pty = posix_openpt(O_RDWR | O_NOCTTY);
	if (pty >= 0 && !grantpt(pty) && !unlockpt(pty) && ptsname(pty)) {
		char name[128];
		snprintf(name, sizeof(name), "%s", ptsname(pty));
		struct fs_io_path p[] = { OUT(name, "--csv") };
		EXPECT_EQ(check(p, 1, err, sizeof(err)), 0);
		ASSERT_TRUE(fs_out_open(&o, name, err, sizeof(err)) == 0);
		EXPECT_TRUE(o.tmp == NULL);
		EXPECT_EQ(fs_out_commit(&o, err, sizeof(err)), 0);
	}
	if (pty >= 0)
		close(pty);
	/* /dev/urandom's numbers and an unassigned block device, made where mknod is allowed (root) */
	in_tmp();
	if (!mknod("rnd", S_IFCHR | 0600, makedev(1, 9)) && !mknod("blk", S_IFBLK | 0600, makedev(240, 0))) {
		struct fs_io_path p[] = { OUT("ok.csv", "--csv"), OUT("rnd", "--json") }, q[] = { OUT("blk", "--csv") };
		EXPECT_EQ(check(p, 2, err, sizeof(err)), -1);
		EXPECT_STR(err, "--json rnd: a character device, not a terminal or /dev/null: nothing written");
		EXPECT_EQ(check(q, 1, err, sizeof(err)), -1);
		EXPECT_STR(err, "--csv blk: a block device, not a terminal or /dev/null: nothing written");
		EXPECT_EQ(fs_out_open(&o, "rnd", err, sizeof(err)), -1);
		EXPECT_STR(err, "rnd: a character device, not a terminal or /dev/null: nothing written");
		EXPECT_EQ(fs_out_open(&o, "blk", err, sizeof(err)), -1);
		EXPECT_STR(err, "blk: a block device, not a terminal or /dev/null: nothing written");
		EXPECT_EQ(entries(), 2);
	}
	done();
}

FS_TEST(out_file_commit_replaces_only_when_complete)
{
	struct fs_out_file o;
	char err[512] = "";

	in_tmp();
	write_text("out.csv", "old\n");
	ASSERT_TRUE(fs_out_open(&o, "out.csv", err, sizeof(err)) == 0);
	fputs("new\n", o.f);
	fflush(o.f);
	/* while being written the final name still holds the old, complete file */
	EXPECT_STR(read_text("out.csv"), "old\n");
	EXPECT_EQ(entries(), 2);
	EXPECT_EQ(fs_out_commit(&o, err, sizeof(err)), 0);
	EXPECT_STR(read_text("out.csv"), "new\n");
	EXPECT_EQ(entries(), 1);
	/* a new file gets the usual permissions (0666 less the umask), not mkstemp's 0600 */
	{
		struct stat st;
		mode_t mask = umask(022);
		ASSERT_TRUE(fs_out_open(&o, "fresh.csv", err, sizeof(err)) == 0);
		EXPECT_EQ(fs_out_commit(&o, err, sizeof(err)), 0);
		umask(mask);
		EXPECT_EQ(stat("fresh.csv", &st), 0);
		EXPECT_EQ(st.st_mode & 0777, 0644);
	}
	done();
}

FS_TEST(out_file_abort_leaves_nothing)
{
	struct fs_out_file o;
	char err[512] = "";

	in_tmp();
	write_text("out.csv", "old\n");
	ASSERT_TRUE(fs_out_open(&o, "out.csv", err, sizeof(err)) == 0);
	fputs("half a file", o.f);
	fs_out_abort(&o);
	EXPECT_STR(read_text("out.csv"), "old\n");
	EXPECT_EQ(entries(), 1);
	ASSERT_TRUE(fs_out_open(&o, "never.csv", err, sizeof(err)) == 0);
	fs_out_abort(&o);
	EXPECT_EQ(access("never.csv", F_OK), -1);
	EXPECT_EQ(entries(), 1);
	done();
}

FS_TEST(out_file_errors)
{
	struct fs_out_file o;
	char err[512] = "";

	/* a full device: the error names the file and the reason */
	ASSERT_TRUE(fs_out_open(&o, "/dev/full", err, sizeof(err)) == 0);
	EXPECT_TRUE(o.tmp == NULL);
	fputs("x", o.f);
	EXPECT_EQ(fs_out_commit(&o, err, sizeof(err)), -1);
	EXPECT_STR(err, "/dev/full: write failed: No space left on device");
	EXPECT_EQ(fs_out_open(&o, "/nonexistent-dir/out.csv", err, sizeof(err)), -1);
	EXPECT_STR(err, "/nonexistent-dir/out.csv: cannot create: No such file or directory");
	/* the output directory removed while writing: nothing is renamed into it, the error says why */
	in_tmp();
	EXPECT_EQ(mkdir("d", 0755), 0);
	ASSERT_TRUE(fs_out_open(&o, "d/out.csv", err, sizeof(err)) == 0);
	fputs("rows\n", o.f);
	{
		char cmd[300];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s/d'", dir);
		EXPECT_EQ(system(cmd), 0);
	}
	EXPECT_EQ(fs_out_commit(&o, err, sizeof(err)), -1);
	EXPECT_STR(err, "d/out.csv: write failed: No such file or directory");
	EXPECT_EQ(entries(), 0);
	done();
}

/*
 * A signal that ends the process removes the temporary names still open
 * (out_cleanup.c) and still ends it by that signal; an ignored one stays
 * ignored, and a name already renamed into place stays.
 */
FS_TEST(out_file_signal_removes_tmp)
{
	struct fs_out_file o, done_o;
	char err[512] = "";
	int status = 0;
	pid_t pid;

	in_tmp();
	signal(SIGHUP, SIG_IGN);
	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (pid == 0) {
		signal(SIGTERM, SIG_DFL);
		if (fs_out_open(&done_o, "done.csv", err, sizeof(err)) || fs_out_commit(&done_o, err, sizeof(err)) ||
		    fs_out_open(&o, "open.csv", err, sizeof(err)) || entries() != 2)
			_exit(3);
		fputs("half a file", o.f);
		raise(SIGHUP); /* ignored: the process goes on */
		raise(SIGTERM);
		_exit(4);
	}
	ASSERT_TRUE(waitpid(pid, &status, 0) == pid);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	EXPECT_EQ(access("open.csv", F_OK), -1);
	EXPECT_EQ(access("done.csv", F_OK), 0);
	EXPECT_EQ(entries(), 1);
	/*
	 * One that comes while a name is being created waits until it is kept
	 * (open_tmp() holds the signals): then it removes it, never leaves it.
	 */
	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (pid == 0) {
		sigset_t old;
		signal(SIGTERM, SIG_DFL);
		fs_out_cleanup_hold(&old);
		raise(SIGTERM); /* pending: held */
		if (fs_out_open(&o, "held.csv", err, sizeof(err)) || entries() != 2)
			_exit(3);
		fs_out_cleanup_release(&old);
		_exit(4);
	}
	ASSERT_TRUE(waitpid(pid, &status, 0) == pid);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	EXPECT_EQ(entries(), 1);
	/* an ignored signal stays ignored in this process too */
	{
		struct sigaction sa;
		ASSERT_TRUE(fs_out_open(&o, "x.csv", err, sizeof(err)) == 0);
		EXPECT_EQ(sigaction(SIGHUP, NULL, &sa), 0);
		EXPECT_TRUE(sa.sa_handler == SIG_IGN);
		fs_out_abort(&o);
	}
	done();
}

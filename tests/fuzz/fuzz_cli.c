// SPDX-License-Identifier: GPL-2.0
/*
 * The command lines of `em`, `replay` and `policies` (option parsing, then
 * whatever the options lead to). Input: the arguments, one a line, the first
 * being the command. They run in a tmpfs directory holding a records CSV
 * (a.csv), a recording (a.fsr), a saved EM (a.em) and a debugfs tree (tree/),
 * as made for every input. No argument may contain '/', so nothing is
 * read or written outside that directory (a command's outputs land beside
 * the inputs; the directory is remade only when a command changed it, see
 * as_made()); `em` always gets "--em pixel4"
 * first (a later --em wins), so it never reads or mounts this machine's
 * debugfs. The exit code must be one of the documented ones. `live` is not
 * here: it needs the BPF side and root (tests/live).
 */
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fuzz.h"
#include "commands.h"
#include "em/em_io.h"
#include "records/recording.h"

#define MAX_ARGS 24

static char *csv_text, *em_text;
static size_t csv_len, em_len;

static void put(const char *name, const char *text, size_t len)
{
	FILE *f = fopen(name, "w");

	FUZZ_CHECK(f && fwrite(text, 1, len, f) == len && fclose(f) == 0, "cannot write %s", name);
}

static void load_inputs(void)
{
	static struct fs_em em;
	const char *root = getenv("FS_FIXTURES");
	char path[4096], err[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/replay/hikey960.csv", root ? root : "tests/fixtures");
	f = fopen(path, "r");
	FUZZ_CHECK(f != NULL, "%s: run from the repository's top directory or set FS_FIXTURES", path);
	csv_text = malloc(1 << 16);
	csv_len = fread(csv_text, 1, 1 << 16, f);
	fclose(f);
	FUZZ_CHECK(fs_em_profile_build("hikey960", &em, err, sizeof(err)) == 0, "%s", err);
	em_text = fuzz_em_text(&em, &em_len);
}

/* The files the arguments may name: their bytes, and the inode each was made as. */
static const char *const names[] = { "a.csv", "a.em", "a.fsr" };
static char *bytes[3];
static size_t lens[3];
static struct stat made[3], made_dir, made_tree;

/*
 * Whether the directory is still as made_inputs() left it: no entry added or
 * removed (tmpfs counts them in the directory's size), no input replaced (a
 * new inode) or written in place (other bytes). Cheaper than remaking it,
 * which was most of an input's time.
 */
static bool as_made(void)
{
	char buf[1 << 16];
	struct stat st;

	if (!made_dir.st_ino || lstat(".", &st) || st.st_ino != made_dir.st_ino || st.st_size != made_dir.st_size ||
	    st.st_nlink != made_dir.st_nlink || lstat("tree", &st) || st.st_ino != made_tree.st_ino)
		return false;
	for (int i = 0; i < 3; i++) {
		int fd = open(names[i], O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		bool same = fd >= 0 && !fstat(fd, &st) && st.st_ino == made[i].st_ino && (size_t)st.st_size == lens[i] &&
			    lens[i] <= sizeof(buf) && pread(fd, buf, sizeof(buf), 0) == (ssize_t)lens[i] &&
			    !memcmp(buf, bytes[i], lens[i]);

		if (fd >= 0)
			close(fd);
		if (!same)
			return false;
	}
	return true;
}

static void make_inputs(void)
{
	struct fs_rec_meta m = { .nr_cpus = 8, .em_text = em_text, .em_len = em_len };
	struct fs_rec_writer *w;
	char err[512];

	FUZZ_CHECK(chdir(fuzz_scratch_dir()) == 0, "chdir");
	put("a.csv", csv_text, csv_len);
	put("a.em", em_text, em_len);
	w = fs_rec_writer_open("a.fsr", &m, err, sizeof(err));
	FUZZ_CHECK(w && fs_rec_writer_close(w, err, sizeof(err)) == 0, "a.fsr: %s", err);
	mkdir("tree", 0755);
	mkdir("tree/cpu0", 0755);
	mkdir("tree/cpu0/ps:500000", 0755);
	put("tree/cpu0/cpus", "0-1\n", 4);
	put("tree/cpu0/flags", "0x1\n", 4);
	put("tree/cpu0/ps:500000/frequency", "500000\n", 7);
	put("tree/cpu0/ps:500000/power", "20000\n", 6);
	put("tree/cpu_capacity", "cpu0 1024\ncpu1 1024\n", 20);
	for (int i = 0; i < 3; i++) {
		FILE *f = fopen(names[i], "rb");

		free(bytes[i]);
		bytes[i] = malloc(1 << 16);
		FUZZ_CHECK(f && bytes[i] && stat(names[i], &made[i]) == 0, "cannot read back %s", names[i]);
		lens[i] = fread(bytes[i], 1, 1 << 16, f);
		FUZZ_CHECK(lens[i] < 1 << 16, "%s: too large to compare", names[i]);
		fclose(f);
	}
	FUZZ_CHECK(lstat(".", &made_dir) == 0 && lstat("tree", &made_tree) == 0, "cannot stat the inputs");
}

/* Into the directory of inputs, remade if the previous command changed it. */
static void enter_inputs(void)
{
	FUZZ_CHECK(made_dir.st_ino == 0 || chdir(fuzz_scratch_path()) == 0, "chdir");
	if (!as_made())
		make_inputs();
}

/* glibc keeps getopt's position in the previous argv unless optind is 0: start afresh. */
static void reset_getopt(void)
{
	static char *none[] = { "x", NULL };

	optind = 0;
	opterr = 0;
	(void)getopt(1, none, "");
	opterr = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy, *argv[MAX_ARGS + 4], *p, *nl;
	int argc = 0, rc, (*cmd)(int, char **);
	static char em_opt[] = "--em", em_val[] = "pixel4";

	static int home = -1;

	if (!csv_text) {
		load_inputs();
		home = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		FUZZ_CHECK(home >= 0, "cannot open the working directory");
	}
	if (memchr(data, '/', size) || memchr(data, '\0', size))
		return 0;
	copy = malloc(size + 1);
	FUZZ_CHECK(copy != NULL, "out of memory");
	memcpy(copy, data, size);
	copy[size] = '\0';
	for (p = copy; p && argc < MAX_ARGS; p = nl) {
		nl = strchr(p, '\n');
		if (nl)
			*nl++ = '\0';
		argv[argc++] = p;
		if (argc == 1 && !strcmp(p, "em")) {
			argv[argc++] = em_opt;
			argv[argc++] = em_val;
		}
	}
	argv[argc] = NULL;
	cmd = !strcmp(argv[0], "em") ? fs_cmd_em : !strcmp(argv[0], "replay") ? fs_cmd_replay :
	      !strcmp(argv[0], "policies") ? fs_cmd_policies : NULL;
	if (cmd) {
		enter_inputs();
		fuzz_quiet(1);
		reset_getopt();
		rc = cmd(argc, argv);
		fuzz_quiet(0);
		/* back where libFuzzer keeps its corpus (relative paths) */
		FUZZ_CHECK(fchdir(home) == 0, "fchdir");
		/* em reads the running kernel's EM when told to (--em netlink): out of reach is 3 */
		FUZZ_CHECK(rc == FS_EXIT_OK || rc == FS_EXIT_FAIL || rc == FS_EXIT_USAGE ||
				   (rc == FS_EXIT_ENV && cmd == fs_cmd_em),
			   "exit code %d (documented: 0, 1, 2; 3 only for the environment)", rc);
	}
	free(copy);
	return 0;
}

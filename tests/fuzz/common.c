// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the fuzz harnesses: memfd-backed files, a tmpfs scratch dir, EM round trips. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <dirent.h>
#include <stdbool.h>
#include <sanitizer/common_interface_defs.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fuzz.h"
#include "em/em_io.h"

#define NR_SLOTS 4

const char *fuzz_file(int slot, const void *data, size_t size)
{
	static int fd[NR_SLOTS] = { -1, -1, -1, -1 };
	static char path[NR_SLOTS][32];

	FUZZ_CHECK(slot >= 0 && slot < NR_SLOTS, "slot %d", slot);
	if (fd[slot] < 0) {
		fd[slot] = memfd_create("fuzz-input", 0);
		FUZZ_CHECK(fd[slot] >= 0, "memfd_create: %s", strerror(errno));
		snprintf(path[slot], sizeof(path[slot]), "/proc/self/fd/%d", fd[slot]);
	}
	/* written over, then cut to size (emptied first, tmpfs freed its pages and allocated them again) */
	FUZZ_CHECK(pwrite(fd[slot], data, size, 0) == (ssize_t)size, "pwrite: %s", strerror(errno));
	FUZZ_CHECK(ftruncate(fd[slot], (off_t)size) == 0, "ftruncate: %s", strerror(errno));
	return path[slot];
}

static bool remove_dir_at(int dfd, const char *name);

/*
 * One pass over what the directory dfd holds, depth first by each name's
 * d_type: no stat per entry and no DIR (nftw's lstat calls and opendir's 32 KB
 * buffer, mapped afresh by ASan for every directory, were a third of em_tree's
 * time). True if it removed anything.
 */
static bool remove_entries(int dfd)
{
	char buf[4096];
	bool removed = false;
	long n;

	while ((n = getdents64(dfd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			struct dirent64 *e = (struct dirent64 *)(buf + off);
			const char *name = e->d_name;

			off += e->d_reclen;
			if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
				continue;
			if (e->d_type != DT_DIR && !unlinkat(dfd, name, 0))
				removed = true;
			else if (e->d_type == DT_DIR || e->d_type == DT_UNKNOWN)
				removed |= remove_dir_at(dfd, name);
		}
	}
	return removed;
}

/*
 * Remove the directory name in dfd with what it holds. One pass, then rmdir:
 * a directory changed while read may skip a name, and rmdir says so
 * (ENOTEMPTY), so passes repeat while rmdir fails and a pass removes something.
 * True if it removed anything.
 */
static bool remove_dir_at(int dfd, const char *name)
{
	bool removed = false;

	for (;;) {
		int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		bool pass = false;

		if (sub < 0 && errno == EACCES) { /* modes do not stop root; a user run still cleans up */
			fchmodat(dfd, name, 0700, 0);
			sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (sub >= 0) {
			pass = remove_entries(sub);
			close(sub);
		}
		if (!unlinkat(dfd, name, AT_REMOVEDIR))
			return true;
		if (!pass)
			return removed;
		removed = true;
	}
}

void fuzz_empty_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return;
	/* passes until one removes nothing: the last finds the directory empty (or what cannot go) */
	while (remove_entries(fd))
		lseek(fd, 0, SEEK_SET);
	close(fd);
}

/* The scratch directory: made once per process in tmpfs (else /tmp), removed at exit with what it holds. */
static char scratch[64];

static void remove_scratch(void)
{
	fuzz_empty_dir(scratch);
	rmdir(scratch);
}

const char *fuzz_scratch_path(void)
{
	if (!scratch[0]) {
		const char *base = access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm";
		snprintf(scratch, sizeof(scratch), "%s/feecscope-fuzz-XXXXXX", base);
		FUZZ_CHECK(mkdtemp(scratch) != NULL, "mkdtemp %s: %s", scratch, strerror(errno));
		atexit(remove_scratch);
	}
	return scratch;
}

const char *fuzz_scratch_dir(void)
{
	const char *dir = fuzz_scratch_path();

	fuzz_empty_dir(dir);
	return dir;
}

char *fuzz_em_text(const struct fs_em *em, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	FUZZ_CHECK(f != NULL, "open_memstream");
	FUZZ_CHECK(fs_em_write(f, em) == 0, "fs_em_write failed");
	FUZZ_CHECK(fclose(f) == 0, "fclose");
	return buf;
}

static void same_em(const struct fs_em *a, const struct fs_em *b, const char *what)
{
	FUZZ_CHECK(a->nr_cpus == b->nr_cpus && a->nr_pd == b->nr_pd && a->unit == b->unit,
		   "%s: cpus %d/%d pds %d/%d unit %d/%d", what, a->nr_cpus, b->nr_cpus, a->nr_pd, b->nr_pd,
		   a->unit, b->unit);
	FUZZ_CHECK(!memcmp(a->capacity, b->capacity, sizeof(a->capacity)), "%s: capacities differ", what);
	FUZZ_CHECK(!memcmp(a->cpu_pd, b->cpu_pd, sizeof(a->cpu_pd)), "%s: cpu_pd differs", what);
	for (int i = 0; i < a->nr_pd; i++) {
		const struct fs_em_pd *x = &a->pd[i], *y = &b->pd[i];

		FUZZ_CHECK(!strcmp(x->name, y->name), "%s: pd name '%s' came back as '%s'", what, x->name, y->name);
		FUZZ_CHECK(x->cpus == y->cpus && x->flags == y->flags && x->has_inefficient == y->has_inefficient &&
			   x->nr_ps == y->nr_ps, "%s: pd %s differs", what, x->name);
		for (int j = 0; j < x->nr_ps; j++)
			FUZZ_CHECK(x->ps[j].frequency == y->ps[j].frequency && x->ps[j].power == y->ps[j].power &&
				   x->ps[j].cost == y->ps[j].cost && x->ps[j].performance == y->ps[j].performance &&
				   x->ps[j].inefficient == y->ps[j].inefficient,
				   "%s: pd %s state %d differs", what, x->name, j);
	}
}

void fuzz_em_round_trip(const struct fs_em *em, const char *what)
{
	static struct fs_em back;
	char err[1024] = "";
	size_t len, len2;
	char *text = fuzz_em_text(em, &len), *text2;

	FUZZ_CHECK(fs_em_parse_text(text, len, "round-trip", &back, err, sizeof(err)) == 0,
		   "%s: its own EM text does not read back: %s\n%s", what, err, text);
	same_em(em, &back, what);
	text2 = fuzz_em_text(&back, &len2);
	FUZZ_CHECK(len == len2 && !memcmp(text, text2, len), "%s: the EM text changed on a second round trip", what);
	free(text);
	free(text2);
	fs_em_print(fuzz_null_stream(), em);
}

FILE *fuzz_null_stream(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	FUZZ_CHECK(f != NULL, "/dev/null: %s", strerror(errno));
	return f;
}

static int saved_fd[3] = { -1, -1, -1 };

static int report_fd(void)
{
	return saved_fd[2] >= 0 ? saved_fd[2] : 2;
}

void fuzz_report(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdprintf(report_fd(), fmt, ap);
	va_end(ap);
}

/*
 * A child forked by the code under test (the trace.dat guard's reader)
 * reports on its own stderr. Given a report fd, the sanitizers reopen it
 * in a child as a file ".PID" in the working directory (sanitizer_file.cpp,
 * ReportFile::ReopenIfNecessary()), which left such files in the tree.
 * The child's faults are seen again when the harness reads in-process.
 */
static void child_reports_to_stderr(void)
{
	__sanitizer_set_report_fd((void *)(intptr_t)2);
}

void fuzz_quiet(int on)
{
	static int null_fd = -1, null_in = -1;

	fflush(stdout);
	fflush(stderr);
	if (saved_fd[2] < 0) {
		saved_fd[1] = fcntl(1, F_DUPFD_CLOEXEC, 3);
		saved_fd[2] = fcntl(2, F_DUPFD_CLOEXEC, 3);
		null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		null_in = open("/dev/null", O_RDONLY | O_CLOEXEC);
		FUZZ_CHECK(saved_fd[1] >= 0 && saved_fd[2] >= 0 && null_fd >= 0 && null_in >= 0,
			   "cannot save stdout/stderr");
		__sanitizer_set_report_fd((void *)(intptr_t)saved_fd[2]);
		pthread_atfork(NULL, NULL, child_reports_to_stderr);
	}
	dup2(on ? null_fd : saved_fd[1], 1);
	dup2(on ? null_fd : saved_fd[2], 2);
	if (on) /* a command reading '-' gets an empty input, never the fuzzer's terminal */
		dup2(null_in, 0);
}

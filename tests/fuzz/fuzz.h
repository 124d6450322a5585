/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.c, docs/fuzzing.md).
 * Every harness defines LLVMFuzzerTestOneInput; `make fuzz` links it with
 * libFuzzer, `make test` with standalone.c to replay the kept inputs.
 * A harness reports a broken invariant with FUZZ_CHECK, which aborts, so the
 * fuzzer keeps the input like any crash.
 */
#ifndef FEECSCOPE_FUZZ_H
#define FEECSCOPE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "engine/em.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond, ...)                                                        \
	do {                                                                         \
		if (!(cond)) {                                                       \
			fuzz_report("fuzz invariant broken at %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			fuzz_report(__VA_ARGS__);                                    \
			fuzz_report("\n");                                           \
			abort();                                                     \
		}                                                                    \
	} while (0)

/* To the stderr the process started with, even while fuzz_quiet() is on. */
void fuzz_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Send stdout and stderr to /dev/null (on true) or back (false), for code that
 * prints on every input. Sanitizer reports keep going to the original stderr.
 */
void fuzz_quiet(int on);

/* A file holding data: "/proc/self/fd/N" of a memfd, rewritten on every call (one per slot). */
const char *fuzz_file(int slot, const void *data, size_t size);

/*
 * A fresh, empty directory on tmpfs, the same one on every call (made once
 * per process, removed at its exit); fuzz_scratch_path() the same without emptying it.
 */
const char *fuzz_scratch_dir(void);
const char *fuzz_scratch_path(void);

/* Remove everything inside dir (not dir itself), links not followed. */
void fuzz_empty_dir(const char *dir);

/* The EM in the text format, malloc'd; aborts if the writer fails. */
char *fuzz_em_text(const struct fs_em *em, size_t *len);

/*
 * The round trip every successfully read EM must survive: written as text,
 * parsed back to the same numbers, written again to the same bytes. what
 * names the harness's input in the message when it does not.
 */
void fuzz_em_round_trip(const struct fs_em *em, const char *what);

/* A stream that discards what is written (summaries, printed EMs). */
FILE *fuzz_null_stream(void);

#endif /* FEECSCOPE_FUZZ_H */

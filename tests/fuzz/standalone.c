// SPDX-License-Identifier: GPL-2.0
/*
 * Runs a fuzz harness once per file named on the command line, without
 * libFuzzer: how `make test` replays the seed corpus and every input the
 * fuzzers found (tests/fuzz/<target>/) under gcc's ASan and UBSan.
 */
#include <errno.h>
#include <string.h>
#include "fuzz.h"

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		unsigned char *buf = NULL;
		size_t len = 0, cap = 0, n;

		if (!f) {
			fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
			return 2;
		}
		do {
			if (len == cap && !(buf = realloc(buf, cap = cap ? 2 * cap : 65536)))
				abort();
			n = fread(buf + len, 1, cap - len, f);
			len += n;
		} while (n);
		fclose(f);
		fprintf(stderr, "input %s (%zu bytes)\n", argv[i], len);
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
	}
	return 0;
}

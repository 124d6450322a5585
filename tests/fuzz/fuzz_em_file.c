// SPDX-License-Identifier: GPL-2.0
/*
 * The portable EM file (`em --save`, and the EM embedded in every recording
 * and records CSV): fs_em_parse_text on the input as it is, and fs_em_read_file
 * on the same bytes through a file. What parses must survive the round trip.
 */
#include <string.h>
#include "fuzz.h"
#include "em/em_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fs_em em, em2;
	char err[1024] = "", err2[1024] = "";
	int rc = fs_em_parse_text((const char *)data, size, "fuzz.em", &em, err, sizeof(err));
	const char *path = fuzz_file(0, data, size);
	int rc2 = fs_em_read_file(path, &em2, err2, sizeof(err2));

	FUZZ_CHECK(rc == rc2, "text says %d (%s), file says %d (%s)", rc, err, rc2, err2);
	if (rc) {
		FUZZ_CHECK(err[0] && !strncmp(err, "fuzz.em", 7), "error without the file name: '%s'", err);
		return 0;
	}
	fuzz_em_round_trip(&em, "EM file");
	return 0;
}

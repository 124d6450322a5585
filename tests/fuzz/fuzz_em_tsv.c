// SPDX-License-Identifier: GPL-2.0
/*
 * The device-facts TSV (tests/fixtures/em-data/, the files the built-in
 * profiles are made from): fs_dt_parse_tsv, then fs_em_from_dt with the
 * kernel's arithmetic. An EM it builds must survive the EM file round trip.
 */
#include <string.h>
#include "fuzz.h"
#include "em/em_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fs_dt_device dev;
	static struct fs_em em;
	char err[1024] = "", *store = NULL;

	if (fs_dt_parse_tsv((const char *)data, size, "fuzz.tsv", &dev, &store, err, sizeof(err))) {
		FUZZ_CHECK(!strncmp(err, "fuzz.tsv", 8), "error without the file name: '%s'", err);
	} else if (fs_em_from_dt(&dev, "fuzz.tsv", &em, err, sizeof(err)) == 0) {
		fuzz_em_round_trip(&em, "EM from TSV");
	}
	free(store);
	return 0;
}

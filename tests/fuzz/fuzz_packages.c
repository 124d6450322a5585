// SPDX-License-Identifier: GPL-2.0
/*
 * packages.list (--packages, docs/apps.md): fs_apps_parse, then every
 * uid's label. An error names the file; a parsed list is sorted by app id;
 * a label fits the room it was given, however short, and is found again
 * for the same app id under another user.
 */
#include <string.h>
#include "fuzz.h"
#include "engine/apps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fs_apps a;
	char err[512] = "", b[96], c[96];

	if (fs_apps_parse(&a, (const char *)data, size, "fuzz.list", err, sizeof(err))) {
		FUZZ_CHECK(!strncmp(err, "fuzz.list: line ", 16), "error without the file and line: '%s'", err);
		return 0;
	}
	for (size_t i = 0; i < a.nr; i++) {
		__u32 id = a.pkgs[i].app_id;
		size_t room = 1 + (size + i) % sizeof(b);

		FUZZ_CHECK(id < FS_PER_USER_RANGE, "app id %u", id);
		FUZZ_CHECK(!i || a.pkgs[i - 1].app_id <= id, "not sorted at %zu", i);
		FUZZ_CHECK(fs_apps_label(&a, id, b, sizeof(b)), "no label for a listed app id %u", id);
		FUZZ_CHECK(fs_apps_label(&a, id + 10 * FS_PER_USER_RANGE, c, sizeof(c)), "user 10 of %u", id);
		fs_apps_label(&a, id, b, room);
		FUZZ_CHECK(strlen(b) < room, "label of %zu bytes in %zu", strlen(b), room);
	}
	fs_apps_free(&a);
	return 0;
}

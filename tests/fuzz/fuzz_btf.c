// SPDX-License-Identifier: GPL-2.0
/*
 * The live collector's raw BTF scan (user/source/btf_scan.c), what it reads
 * from --btf FILE or /sys/kernel/btf/vmlinux. Input: the blob. Byte 3 (the
 * header's flags, which the scan ignores) odd: the harness first makes the
 * header's section offsets and lengths fit the input (types from byte 24,
 * strings after them), else mutations rarely get past the header. The blob
 * is scanned from a buffer of its exact size, so a read past it is caught.
 * A refusal must say why; facts found must point inside the blob's types.
 */
#include <linux/btf.h>
#include <string.h>
#include "fuzz.h"
#include "source/btf_scan.h"

/* The header made consistent: hdr_len 24, types then strings, nothing outside. */
static void fit_header(unsigned char *blob, size_t size)
{
	struct btf_header h;
	__u32 rest = (__u32)(size - sizeof(h));

	memcpy(&h, blob, sizeof(h));
	h.hdr_len = sizeof(h);
	h.type_off = 0;
	h.type_len = h.type_len % (rest + 1) & ~3u;
	h.str_off = h.type_len;
	h.str_len = rest - h.type_len;
	memcpy(blob, &h, sizeof(h));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *blob = malloc(size ? size : 1);
	struct fs_btf_facts f;
	char err[256];

	FUZZ_CHECK(blob != NULL, "out of memory");
	memcpy(blob, data, size);
	if (size >= sizeof(struct btf_header) && size < (1u << 30) && (blob[3] & 1))
		fit_header(blob, size);
	memset(&f, 0, sizeof(f));
	f.mapped = size & 1;
	err[0] = '\0';
	if (fs_btf_facts_scan(blob, size, &f, err, sizeof(err))) {
		FUZZ_CHECK(err[0] && strlen(err) < sizeof(err) - 1, "refused without a (whole) reason: '%s'", err);
	} else {
		FUZZ_CHECK(f.mapped == (size & 1), "the mapped flag was not kept");
		FUZZ_CHECK(f.select_id == -1 || (f.select_id >= 1 && (unsigned)f.select_id <= f.nr_types),
			   "select_task_rq_fair id %d of %u types", f.select_id, f.nr_types);
		FUZZ_CHECK(f.runqueues_id == -1 || (f.runqueues_id >= 1 && (unsigned)f.runqueues_id <= f.nr_types),
			   "runqueues id %d of %u types", f.runqueues_id, f.nr_types);
		FUZZ_CHECK(f.select_nargs >= 0 && f.select_nargs <= 0xffff && (f.select_id >= 0 || !f.select_nargs),
			   "select_task_rq_fair has %d arguments (id %d)", f.select_nargs, f.select_id);
		/* a type is at least 12 bytes */
		FUZZ_CHECK(f.nr_types <= size / sizeof(struct btf_type), "%u types in %zu bytes", f.nr_types, size);
	}
	free(blob);
	return 0;
}

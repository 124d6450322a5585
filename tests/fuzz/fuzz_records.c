// SPDX-License-Identifier: GPL-2.0
/*
 * Records with any field values, through the whole replay path: the
 * recording writer and reader, the records CSV writer and reader, and the
 * pipeline (filters, every feec policy, energy accounting, summary,
 * decisions CSV). Input: byte 0 picks the EM (a built-in profile, or the
 * synthetic one for 1..FS_MAX_CPUS CPUs), byte 1 the kernel release (so
 * the policy), byte 2 bit 0 em_is_kernel; the rest is records in their
 * wire form. The harness makes each record's type, nr_cpus and size
 * consistent (other types wrap onto the known fixed-size ones, short records
 * zero-filled), so every field value is the fuzzer's. The self-sized em
 * record is left out: its size is its text's, up to 60 KB (the recording
 * and csv targets read em records).
 */
#include <string.h>
#include "replay_common.h"
#include "em/em_io.h"

static const char *const releases[] = {
	"", "5.0.0", "5.4.0", "5.10.0-28-arm64", "5.15.0", "5.19.0", "6.0.0", "6.1.0-13-arm64",
	"6.5.0", "6.8.0", "6.12.0", "6.19.0",
};

static __u16 types[32]; /* every named type with a wire size of its own */
static unsigned int nr_types;

/* A fixed-size type stays; others wrap onto one (0, zero-filled bytes, onto the last: not a wake-up). */
static __u16 known_type(__u16 t)
{
	for (unsigned int i = 0; i < nr_types; i++)
		if (types[i] == t)
			return t;
	return types[(t + nr_types - 1u) % nr_types];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fs_em em;
	struct fs_rec_meta meta = { 0 };
	struct fuzz_records rs = { 0 }, all = { 0 };
	struct fs_rec_clock clock = { 0 };
	char err[1024];
	size_t len, off = 3;
	int nprof = fs_em_profile_count();
	/* Counting types up to the first without a wire size stopped at em (9): no busyfreq, no freq. */
	if (!nr_types)
		for (struct fs_rec_hdr h = { .type = 1, .nr_cpus = 1 }; fs_rec_type_name(h.type); h.type++)
			if (fs_rec_wire_size(&h) && nr_types < sizeof(types) / sizeof(types[0]))
				types[nr_types++] = h.type;
	if (size < 3)
		return 0;
	if (data[0] % (nprof + FS_MAX_CPUS) < nprof)
		FUZZ_CHECK(fs_em_profile_build(fs_em_profile_name(data[0] % (nprof + FS_MAX_CPUS)), &em, err,
					       sizeof(err)) == 0, "profile: %s", err);
	else if (fs_em_profile_for_cpus(data[0] % (nprof + FS_MAX_CPUS) - nprof + 1, &em, err, sizeof(err)))
		return 0; /* sizes the synthetic profile refuses (one CPU) */
	snprintf(meta.kernel_release, sizeof(meta.kernel_release), "%s",
		 releases[data[1] % (sizeof(releases) / sizeof(releases[0]))]);
	meta.nr_cpus = em.nr_cpus;
	meta.em_is_kernel = data[2] & 1;
	meta.em_text = fuzz_em_text(&em, &len);
	meta.em_len = len;
	while (off < size) {
		union { struct fs_wakeup w; struct fs_rec_hdr h; } rec;
		size_t want;

		memset(&rec, 0, sizeof(rec));
		memcpy(&rec, data + off, size - off < sizeof(rec) ? size - off : sizeof(rec));
		rec.h.type = known_type(rec.h.type);
		rec.h.nr_cpus = rec.h.type == FS_REC_WAKEUP ? (__u16)em.nr_cpus : 0;
		want = fs_rec_wire_size(&rec.h);
		rec.h.size = (__u32)want;
		if (want < sizeof(rec))
			memset((char *)&rec + want, 0, sizeof(rec) - want);
		FUZZ_CHECK(fs_rec_check(&rec.h, want, em.nr_cpus, err, sizeof(err)) == 0, "%s", err);
		fuzz_records_add(&all, &rec.h);
		/* as the readers check them: values, then time against the records they accepted */
		if (!fs_rec_check_values(&rec.h, em.nr_cpus, err, sizeof(err)) &&
		    !fs_rec_check_time(&clock, &rec.h, err, sizeof(err)))
			fuzz_records_add(&rs, &rec.h);
		off += want;
	}
	/* The pipeline gets everything (what it cannot use it must refuse, not crash on); */
	fuzz_replay(&meta, &all);
	/* the files hold what a reader accepts, and must give it back. */
	fuzz_recording_round_trip(&meta, &rs);
	fuzz_csv_round_trip(&meta, &rs);
	fuzz_records_free(&rs);
	fuzz_records_free(&all);
	free(meta.em_text);
	return 0;
}

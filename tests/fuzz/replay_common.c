// SPDX-License-Identifier: GPL-2.0
/* Replay and round trips shared by the recording, records and CSV harnesses. */
#include <string.h>
#include "replay_common.h"
#include "pipeline.h"
#include "outputs_open.h"
#include "em/em_io.h"
#include "records/csv_records.h"
#include "engine/apps.h"

void fuzz_records_add(struct fuzz_records *rs, const struct fs_rec_hdr *h)
{
	if (rs->len + h->size > rs->cap) {
		rs->cap = (rs->len + h->size) * 2 + 4096;
		rs->buf = realloc(rs->buf, rs->cap);
		FUZZ_CHECK(rs->buf != NULL, "out of memory");
	}
	memcpy(rs->buf + rs->len, h, h->size);
	rs->len += h->size;
	rs->nr++;
}

void fuzz_records_free(struct fuzz_records *rs)
{
	free(rs->buf);
	memset(rs, 0, sizeof(*rs));
}

const struct fs_rec_hdr *fuzz_records_next(const struct fuzz_records *rs, size_t *off)
{
	static union { struct fs_wakeup w; struct fs_rec_hdr h; } rec;
	struct fs_rec_hdr h;

	if (*off >= rs->len)
		return NULL;
	memcpy(&h, rs->buf + *off, sizeof(h));
	memset(&rec, 0, sizeof(rec));
	memcpy(&rec, rs->buf + *off, h.size);
	*off += h.size;
	return &rec.h;
}

void fuzz_replay(const struct fs_rec_meta *meta, const struct fuzz_records *rs)
{
	static struct fs_em em;
	/* The simulation's cost grows with the span: a fuzzed timestamp must not make it hours. */
	struct fs_pipeline_opts o = { .sim_max_span_ns = 10 * 1000000000ull };
	struct fs_output_paths paths = { 0 };
	char err[1024] = "", why[512];
	const struct fs_policy_desc *d;
	const struct fs_rec_hdr *h;
	struct fs_pipeline *p;
	size_t off = 0;

	if (meta->em_text) {
		if (fs_em_parse_text(meta->em_text, meta->em_len, "embedded", &em, err, sizeof(err)))
			return;
		o.emulate_eas = !meta->em_is_kernel;
	} else {
		if (fs_em_profile_for_cpus(meta->nr_cpus, &em, err, sizeof(err)))
			return;
		o.emulate_eas = true;
	}
	if (em.nr_cpus != meta->nr_cpus)
		return; /* replay refuses it with a message */
	d = fs_policy_for_release(meta->kernel_release, why, sizeof(why));
	FUZZ_CHECK(d != NULL, "no policy for release '%s'", meta->kernel_release);
	o.policies[o.nr_policies++] = d;
	if (d->twin && fs_policy_find(d->twin))
		o.policies[o.nr_policies++] = fs_policy_find(d->twin);
	o.em = &em;
	o.kernel_release = meta->kernel_release;
	/* a recording's packages list names apps in the summary and JSON, as replay does */
	struct fs_apps apps = { 0 };
	if (meta->packages_text && !fs_apps_parse(&apps, meta->packages_text, meta->packages_len, "rec", err,
						  sizeof(err)) && apps.nr)
		o.apps = &apps;
	err[0] = 0;
	/*
	 * Every writer runs, into /dev/null: nothing reads the files, and their
	 * temporary name, fsync and rename (the cli harness runs those) were a
	 * fifth of an input's system calls.
	 */
	paths.csv = paths.json = paths.perfetto = "/dev/null";
	paths.csv_wide = rs->nr & 1; /* both decision CSV layouts */
	paths.summary_out = fuzz_null_stream();
	FUZZ_CHECK(fs_outputs_open(&o, &paths, err, sizeof(err)) == 0, "outputs: %s", err);
	p = fs_pipeline_new(&o, err, sizeof(err));
	if (!p) { /* an EM the policies cannot use (a state with performance 0 under v6.9+ costs): replay says so */
		FUZZ_CHECK(err[0], "a refused pipeline without an error");
		fs_apps_free(&apps);
		return;
	}
	while ((h = fuzz_records_next(rs, &off))) {
		err[0] = '\0';
		if (fs_pipeline_feed(p, h, err, sizeof(err))) {
			FUZZ_CHECK(err[0], "a refused record without an error");
			break;
		}
	}
	err[0] = '\0';
	if (fs_pipeline_finish(p, err, sizeof(err)))
		FUZZ_CHECK(err[0], "a failed finish without an error");
	fs_pipeline_free(p);
	fs_apps_free(&apps);
}

static void same_records(const struct fuzz_records *a, const struct fuzz_records *b, const char *what)
{
	size_t oa = 0, ob = 0;
	const struct fs_rec_hdr *x;

	FUZZ_CHECK(a->nr == b->nr, "%s: %zu records came back as %zu", what, a->nr, b->nr);
	FUZZ_CHECK(a->len == b->len, "%s: %zu bytes of records came back as %zu", what, a->len, b->len);
	for (size_t i = 0; (x = fuzz_records_next(a, &oa)); i++) {
		struct fs_rec_hdr hx = *x;
		unsigned char copy[sizeof(struct fs_wakeup)];

		memcpy(copy, x, hx.size);
		x = fuzz_records_next(b, &ob);
		FUZZ_CHECK(x && !memcmp(copy, x, hx.size), "%s: record %zu (type %u) differs", what, i + 1, hx.type);
	}
}

static char *csv_text(const struct fs_rec_meta *meta, const struct fuzz_records *rs, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	const struct fs_rec_hdr *h;
	size_t off = 0;

	FUZZ_CHECK(f && fs_csv_records_write_header(f, meta) >= 0, "CSV header");
	while ((h = fuzz_records_next(rs, &off)))
		FUZZ_CHECK(fs_csv_records_write(f, h, meta->nr_cpus) == 0, "CSV row");
	FUZZ_CHECK(fclose(f) == 0, "fclose");
	return text;
}

/*
 * Padding bytes (implicit ones too) have no CSV column, so the CSV claim is
 * on the text: written, read back and written again, it is the same text.
 */
void fuzz_csv_round_trip(const struct fs_rec_meta *meta, const struct fuzz_records *rs)
{
	char err[1024] = "", *text, *text2;
	size_t len = 0, len2 = 0;
	const struct fs_rec_hdr *h;
	struct fuzz_records back = { 0 };
	struct fs_rec_meta m2;
	struct fs_csv_reader *r;
	int rc;

	text = csv_text(meta, rs, &len);
	r = fs_csv_reader_open(fuzz_file(1, text, len), &m2, err, sizeof(err));
	FUZZ_CHECK(r != NULL, "our own CSV does not open: %s", err);
	FUZZ_CHECK(m2.nr_cpus == meta->nr_cpus && !strcmp(m2.kernel_release, meta->kernel_release),
		   "CSV meta: %d CPUs '%s' came back as %d '%s'", meta->nr_cpus, meta->kernel_release,
		   m2.nr_cpus, m2.kernel_release);
	while ((rc = fs_csv_reader_next(r, &h, err, sizeof(err))) == 1)
		fuzz_records_add(&back, h);
	FUZZ_CHECK(rc == 0, "our own CSV does not read back: %s", err);
	FUZZ_CHECK(back.nr == rs->nr, "CSV round trip: %zu records came back as %zu", rs->nr, back.nr);
	/* the packages list in "# package:" lines: its bytes back exactly (an empty list is none, as in a recording) */
	bool had = meta->packages_text && meta->packages_len;
	FUZZ_CHECK(had == !!m2.packages_text && (!had || (m2.packages_len == meta->packages_len &&
		   !memcmp(m2.packages_text, meta->packages_text, m2.packages_len))),
		   "CSV round trip: the packages list (%zu bytes) reads back as %zu", had ? meta->packages_len : 0,
		   m2.packages_text ? m2.packages_len : 0);
	text2 = csv_text(&m2, &back, &len2);
	if (len != len2 || memcmp(text, text2, len)) {
		size_t i = 0, l0;
		while (i < len && i < len2 && text[i] == text2[i])
			i++;
		for (l0 = i; l0 && text[l0 - 1] != '\n'; l0--)
			;
		FUZZ_CHECK(0, "CSV round trip: the text changed at byte %zu:\n%.*s\n%.*s", i,
			   (int)strcspn(text + l0, "\n"), text + l0, (int)strcspn(text2 + l0, "\n"), text2 + l0);
	}
	fs_csv_reader_close(r);
	fs_rec_meta_free(&m2);
	fuzz_records_free(&back);
	free(text);
	free(text2);
}

void fuzz_recording_round_trip(const struct fs_rec_meta *meta, const struct fuzz_records *rs)
{
	char err[1024] = "";
	const char *path = fuzz_file(2, "", 0);
	struct fs_rec_writer *w = fs_rec_writer_open(path, meta, err, sizeof(err));
	struct fuzz_records back = { 0 };
	const struct fs_rec_hdr *h;
	struct fs_rec_reader *r;
	struct fs_rec_meta m2;
	size_t off = 0;
	int rc;

	FUZZ_CHECK(w != NULL, "recording: %s", err);
	while ((h = fuzz_records_next(rs, &off)))
		FUZZ_CHECK(fs_rec_writer_add(w, h, err, sizeof(err)) == 0, "recording add: %s", err);
	FUZZ_CHECK(fs_rec_writer_close(w, err, sizeof(err)) == 0, "recording close: %s", err);
	r = fs_rec_reader_open(path, &m2, err, sizeof(err));
	FUZZ_CHECK(r != NULL, "our own recording does not open: %s", err);
	while ((rc = fs_rec_reader_next(r, &h, err, sizeof(err))) == 1)
		fuzz_records_add(&back, h);
	FUZZ_CHECK(rc == 0, "our own recording does not read back: %s", err);
	same_records(rs, &back, "recording round trip");
	FUZZ_CHECK(!meta->packages_text == !m2.packages_text && meta->packages_len == m2.packages_len &&
		   (!m2.packages_text || !memcmp(meta->packages_text, m2.packages_text, m2.packages_len)),
		   "recording round trip: the packages list (%zu bytes) reads back as %zu", meta->packages_len,
		   m2.packages_len);
	fs_rec_reader_close(r);
	fs_rec_meta_free(&m2);
	fuzz_records_free(&back);
}

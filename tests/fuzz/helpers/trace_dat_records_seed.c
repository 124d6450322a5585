// SPDX-License-Identifier: GPL-2.0
/*
 * Seeds of the trace_dat_records fuzz target (tests/fuzz/fuzz_trace_dat_records.c,
 * whose comment defines the input): a trace.dat's records, as libtracecmd
 * reads them, in the target's record format. The top buffer's, else the
 * first instance's, as the reader takes them (user/source/trace_dat.c).
 * A NAME=K argument sets the common_type of NAME's records to the id of the
 * target's set's event K (the records' own ids otherwise). With SET's
 * big-endian bit (4), every integer field (and __data_loc word) of a
 * record of a little-endian file is byte-swapped by its event's format.
 *
 * Usage: trace_dat_records_seed IN.dat SET OUT [NAME=K...]   (SET: byte 0)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include <trace-cmd.h>

struct out {
	FILE *f;
	struct tep_handle *tep;
	char **map;
	int swap;
	int nmap;
	unsigned long long last[8];
};

static void put(FILE *f, unsigned long long v, int n)
{
	for (int i = 0; i < n; i++)
		fputc((int)(v >> (8 * i)) & 0xff, f);
}

/* The K of NAME=K for the record's event, -1 if none. */
static int patch_of(struct out *o, struct tep_record *r)
{
	struct tep_event *e = tep_find_event(o->tep, tep_data_type(o->tep, r));
	size_t n;

	for (int i = 0; e && i < o->nmap; i++) {
		n = strlen(e->name);
		if (!strncmp(o->map[i], e->name, n) && o->map[i][n] == '=')
			return atoi(o->map[i] + n + 1);
	}
	return -1;
}

static void swap_fields(struct tep_format_field *f, unsigned char *d, int size)
{
	for (; f; f = f->next) {
		if ((f->flags & TEP_FIELD_IS_ARRAY) && !(f->flags & TEP_FIELD_IS_DYNAMIC))
			continue;
		if ((f->size != 2 && f->size != 4 && f->size != 8) || f->offset + f->size > size)
			continue;
		for (int i = 0; i < f->size / 2; i++) {
			unsigned char t = d[f->offset + i];

			d[f->offset + i] = d[f->offset + f->size - 1 - i];
			d[f->offset + f->size - 1 - i] = t;
		}
	}
}

static int one(struct tracecmd_input *h, struct tep_record *r, int cpu, void *data)
{
	struct out *o = data;
	unsigned long long step = r->ts - o->last[cpu & 7];
	int k = patch_of(o, r), tb = step < 256 ? 0 : step < 65536 ? 1 : step < (1ull << 32) ? 2 : 3;
	int hdr = (cpu & 7) | (k >= 0 ? 8 : 0) | (r->missed_events ? 16 : 0) | (r->size > 255 ? 32 : 0) | tb << 6;

	unsigned char buf[65536]; /* the page libtracecmd maps is read-only */
	struct tep_event *e = o->swap ? tep_find_event(o->tep, tep_data_type(o->tep, r)) : NULL;

	(void)h;
	if (r->size < 0 || r->size > (int)sizeof(buf))
		return -1;
	memcpy(buf, r->data, (size_t)r->size);
	if (e) {
		swap_fields(e->format.common_fields, buf, r->size);
		swap_fields(e->format.fields, buf, r->size);
	}
	fputc(hdr, o->f);
	if (k >= 0)
		fputc(k, o->f);
	if (r->missed_events)
		fputc(r->missed_events > 0 && r->missed_events < 255 ? (int)r->missed_events : 255, o->f);
	put(o->f, tb == 3 ? r->ts : step, 1 << tb);
	put(o->f, (unsigned long long)r->size, r->size > 255 ? 2 : 1);
	fwrite(buf, 1, (size_t)r->size, o->f);
	o->last[cpu & 7] = r->ts;
	return 0;
}

int main(int argc, char **argv)
{
	struct out o = { .map = argv + 4, .nmap = argc - 4 };
	struct tracecmd_input *h, *b;
	long before;

	if (argc < 4) {
		fprintf(stderr, "usage: %s IN.dat SET OUT [NAME=K...]\n", argv[0]);
		return 2;
	}
	h = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	o.f = fopen(argv[3], "wb");
	if (!h || !o.f) {
		fprintf(stderr, "%s: cannot open %s\n", argv[0], h ? argv[3] : argv[1]);
		return 1;
	}
	o.tep = tracecmd_get_tep(h);
	fputc(atoi(argv[2]), o.f);
	o.swap = (atoi(argv[2]) & 4) && !tep_is_file_bigendian(o.tep);
	before = ftell(o.f);
	tracecmd_iterate_events(h, NULL, 0, one, &o);
	if (ftell(o.f) == before && tracecmd_buffer_instances(h) > 0 && (b = tracecmd_buffer_instance_handle(h, 0))) {
		tracecmd_iterate_events(b, NULL, 0, one, &o);
		tracecmd_close(b);
	}
	tracecmd_close(h);
	return fclose(o.f) ? 1 : 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/* Open the outputs of a run (--record, --csv, --summary, --json, --perfetto, --workload-csv, the summary on stdout) for the pipeline. */
#ifndef FEECSCOPE_OUTPUTS_OPEN_H
#define FEECSCOPE_OUTPUTS_OPEN_H

#include "pipeline.h"

struct fs_output_paths {
	const char *record;                     /* binary recording, or NULL */
	const struct fs_rec_meta *record_meta;  /* what the recording says about itself */
	const char *csv;                        /* decision CSV */
	bool csv_wide;                          /* ... in the wide layout (--csv-layout wide) */
	FILE *summary_out;                      /* the summary on this stream (stdout), or NULL */
	const char *summary;                    /* the summary into a file */
	const char *json;                       /* JSON report, "-" = stdout */
	const char *perfetto;                   /* Perfetto trace ("*.gz": gzip) */
	const char *workload_csv;               /* the closed loop's workload, a row per task */
};

/* --csv-layout NAME: 1 "wide", 0 "long" (the default), -1 neither. */
int fs_csv_layout_wide(const char *name);

/* Append the outputs to po->outputs (po->policies set first). -1 with err: none left open. */
int fs_outputs_open(struct fs_pipeline_opts *po, const struct fs_output_paths *paths, char *err, size_t errlen);

#endif /* FEECSCOPE_OUTPUTS_OPEN_H */

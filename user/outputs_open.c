// SPDX-License-Identifier: GPL-2.0
/* The outputs a command asked for, opened in one place so live and replay attach them alike. */
#include <stdlib.h>
#include <string.h>
#include "outputs_open.h"

static struct fs_output *next(struct fs_pipeline_opts *po, char *err, size_t errlen)
{
	if (po->nr_outputs == FS_MAX_OUTPUTS) {
		snprintf(err, errlen, "too many outputs (at most %d)", FS_MAX_OUTPUTS);
		return NULL;
	}
	return &po->outputs[po->nr_outputs];
}

/* --csv-layout's argument: 1 wide, 0 long, -1 unknown. */
int fs_csv_layout_wide(const char *name)
{
	return !strcmp(name, "wide") ? 1 : !strcmp(name, "long") ? 0 : -1;
}

int fs_outputs_open(struct fs_pipeline_opts *po, const struct fs_output_paths *paths, char *err, size_t errlen)
{
	struct fs_output *o;

#define ADD(call) do {						\
		if (!(o = next(po, err, errlen)) || (call))	\
			goto fail;				\
		po->nr_outputs++;				\
	} while (0)
	if (paths->record)
		ADD(fs_output_recording(o, paths->record, paths->record_meta, err, errlen));
	if (paths->csv && paths->csv_wide)
		ADD(fs_output_decisions_csv(o, paths->csv, po->nr_policies, po->policies, err, errlen));
	else if (paths->csv)
		ADD(fs_output_decisions_long(o, paths->csv, po->nr_policies, po->policies, err, errlen));
	if (paths->summary_out)
		ADD(fs_output_summary(o, paths->summary_out, NULL, err, errlen));
	if (paths->summary)
		ADD(fs_output_summary(o, NULL, paths->summary, err, errlen));
	if (paths->json)
		ADD(fs_output_json(o, paths->json, err, errlen));
	if (paths->perfetto)
		ADD(fs_output_perfetto(o, paths->perfetto, po->em->nr_cpus, po->nr_policies, po->policies,
				       po->kernel_release, err, errlen));
	if (paths->workload_csv)
		ADD(fs_output_workload_csv(o, paths->workload_csv, err, errlen));
#undef ADD
	return 0;
fail:
	for (int i = 0; i < po->nr_outputs; i++)
		po->outputs[i].ops->free(po->outputs[i].self);
	po->nr_outputs = 0;
	return -1;
}

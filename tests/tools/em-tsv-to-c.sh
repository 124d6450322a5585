#!/usr/bin/env bash
# Regenerates user/em/em_profile_data.c (the built-in profiles) from device-facts
# TSVs: tests/tools/em-tsv-to-c.sh NAME=FILE.tsv ... > user/em/em_profile_data.c
# Facts only (frequency, voltage, coefficients); the arithmetic lives in em_dt.c.
set -eu
here=$(dirname "$0")
{
cat <<'HDR'
// SPDX-License-Identifier: GPL-2.0
/*
 * Built-in device profiles: device-tree facts (OPPs, capacity-dmips-mhz,
 * dynamic-power-coefficient, cpuinfo.max_freq) copied from the device-facts
 * TSVs by tests/tools/em-tsv-to-c.sh. No power, cost or capacity here: those
 * are computed by em_dt.c with the kernel's arithmetic.
 *
 * Deliberate repetition: a variant profile (rb5-dpc205: rb5 with the silver
 * DPC before upstream 775a5283c25d) comes from its own TSV and repeats its
 * base's provenance lines and clusters, so each profile reads whole, as `em
 * -e NAME` prints it; only OPP lists are shared (written once below).
 */
#include "em_internal.h"

const struct fs_dt_device fs_dt_devices[] = {
HDR
for spec in "$@"; do
	name=${spec%%=*} file=${spec#*=}
	awk -v name="$name" -v base="$(basename "$file")" -F'\t' '
	function esc(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return s }
	function key(line, k,   r) {
		if (match(line, " " k "=[^ ]*")) { r = substr(line, RSTART + length(k) + 2, RLENGTH - length(k) - 2); return r }
		return ""
	}
	/^# device: / { desc = substr($0, 11); next }
	NR == 1 { prov[np++] = "facts: device-facts table " base " (frequency, voltage, coefficients only)" }
	/^# (source|note|arch): / { prov[np++] = substr($0, 3); next }
	/^# pd[0-9]+ / {
		split(substr($0, 3), w, " "); c = w[1]; order[nc++] = c
		cpus[c] = key($0, "cpus"); dmips[c] = key($0, "capacity-dmips-mhz")
		dpc[c] = key($0, "dynamic-power-coefficient"); cmax[c] = key($0, "cpuinfo_max_khz")
		core[c] = $0; sub(/.* core=/, "", core[c]); sub(/ capacity-dmips-mhz=.*/, "", core[c])
		next
	}
	/^#/ || /^pd\tcpus/ || NF == 0 { next }
	{ opps[$1] = opps[$1] sprintf("\t\t\t\t{ %s, %s },%s\n", $3, $4, ($5 != "-" ? " /* " $5 " */" : "")); n[$1]++ }
	END {
		printf "\t{\n\t\t.name = \"%s\",\n\t\t.desc = \"%s\",\n", name, esc(desc)
		printf "\t\t.provenance =\n"
		for (i = 0; i < np; i++) printf "\t\t\t\"%s%s\"\n", esc(prov[i]), (i < np - 1 ? "\\n" : "")
		printf "\t\t\t,\n\t\t.nr_clusters = %d,\n\t\t.cl = {\n", nc
		for (i = 0; i < nc; i++) {
			c = order[i]
			printf "\t\t\t{ .name = \"%s\", .cpus = \"%s\", .core = \"%s\",\n", c, cpus[c], esc(core[c])
			printf "\t\t\t  .dmips_mhz = %s, .dpc = %s, .cpuinfo_max_khz = %s, .nr_opps = %d, .opp = {\n", dmips[c], dpc[c], cmax[c], n[c]
			printf "%s\t\t\t} },\n", opps[c]
		}
		printf "\t\t},\n\t},\n"
	}' "$file"
done
cat <<'FTR'
};

const int fs_dt_nr_devices = sizeof(fs_dt_devices) / sizeof(fs_dt_devices[0]);
FTR
} | awk -f "$here/em-opps-once.awk"

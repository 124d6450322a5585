// SPDX-License-Identifier: GPL-2.0
/* fs_em_print: the human-readable dump `feecscope em` shows. */
#include <string.h>
#include "em_internal.h"

static const char *unit_long(enum fs_power_unit u)
{
	switch (u) {
	case FS_POWER_UW: return "uW (microwatts)";
	case FS_POWER_MW: return "mW (milliwatts)";
	default: return "bogoW (abstract scale, comparable only within this EM)";
	}
}

static const char *unit_short(enum fs_power_unit u)
{
	return u == FS_POWER_UW ? "uW" : u == FS_POWER_MW ? "mW" : "bogoW";
}

static void flags_text(__u32 flags, char *buf, size_t len)
{
	fs_snprintf(buf, len, "%#x%s%s%s%s%s", flags, flags ? " (" : "",
		    flags & FS_EM_PD_MICROWATTS ? "MICROWATTS" : "",
		    flags & FS_EM_PD_SKIP_INEFFICIENT ? (flags & 1 ? " SKIP_INEFFICIENCIES" : "SKIP_INEFFICIENCIES") : "",
		    flags & FS_EM_PD_ARTIFICIAL ? (flags & 3 ? " ARTIFICIAL" : "ARTIFICIAL") : "",
		    flags ? ")" : "");
}

/* The profile a source string names ("profile NAME: ..."), or NULL. */
static const char *provenance_of(const char *source)
{
	char name[64];
	size_t n;

	if (strncmp(source, "profile ", 8))
		return NULL;
	n = strcspn(source + 8, ": ");
	if (n >= sizeof(name))
		return NULL;
	memcpy(name, source + 8, n);
	name[n] = '\0';
	return fs_em_profile_provenance(name);
}

static void print_capacities(FILE *out, const struct fs_em *em, const struct fs_em_pd *pd)
{
	int first = fs_em_pd_first_cpu(pd);
	bool same = true;

	for (int cpu = 0; cpu < em->nr_cpus; cpu++)
		if ((pd->cpus & (1ull << cpu)) && em->capacity[cpu] != em->capacity[first])
			same = false;
	if (same) {
		fprintf(out, "capacity %u", em->capacity[first]);
		return;
	}
	fprintf(out, "capacities");
	for (int cpu = 0; cpu < em->nr_cpus; cpu++)
		if (pd->cpus & (1ull << cpu))
			fprintf(out, " cpu%d=%u", cpu, em->capacity[cpu]);
}

void fs_em_print(FILE *out, const struct fs_em *em)
{
	const char *prov = provenance_of(em->source);

	fprintf(out, "Energy Model\n");
	fprintf(out, "  source:      %s\n", em->source[0] ? em->source : "(not recorded)");
	fprintf(out, "  kernel:      %s\n", em->kernel[0] ? em->kernel : "(unknown)");
	fprintf(out, "  power unit:  %s\n", unit_long(em->unit));
	fprintf(out, "  CPUs:        %d in %d performance domain%s\n", em->nr_cpus, em->nr_pd,
		em->nr_pd == 1 ? "" : "s");
	if (!strncmp(em->source, "synthetic", 9))
		fprintf(out, "  NOTE:        SYNTHETIC layout, not measured on this machine: placements show what EAS "
			     "would do on such a chip, not on this one\n");
	for (int i = 0; i < em->nr_pd; i++) {
		const struct fs_em_pd *pd = &em->pd[i];
		bool perf = false;
		char list[128], flags[96];

		for (int j = 0; j < pd->nr_ps; j++)
			perf |= pd->ps[j].performance != 0;
		fs_cpu_list_format(pd->cpus, list, sizeof(list));
		flags_text(pd->flags, flags, sizeof(flags));
		fprintf(out, "\n%s: cpus %s, ", pd->name, list);
		print_capacities(out, em, pd);
		fprintf(out, ", flags %s, %d states%s\n", flags, pd->nr_ps,
			pd->has_inefficient ? "" : " (no inefficient flags in the source)");
		fprintf(out, "  %14s %14s %14s %11s%s\n", "frequency_kHz", "power", "cost", "inefficient",
			perf ? "   performance" : "");
		for (int j = 0; j < pd->nr_ps; j++) {
			const struct fs_em_ps *ps = &pd->ps[j];
			char power[32];

			fs_snprintf(power, sizeof(power), "%llu %s", (unsigned long long)ps->power, unit_short(em->unit));
			fprintf(out, "  %14llu %14s %14llu %11s", (unsigned long long)ps->frequency, power,
				(unsigned long long)ps->cost, !pd->has_inefficient ? "-" : ps->inefficient ? "yes" : "no");
			if (perf)
				fprintf(out, " %13llu", (unsigned long long)ps->performance);
			fputc('\n', out);
		}
	}
	if (prov) {
		fprintf(out, "\nprovenance (device-tree facts; power, cost and capacity computed as the kernel does):\n");
		for (const char *p = prov; *p;) {
			size_t n = strcspn(p, "\n");
			fprintf(out, "  %.*s\n", (int)n, p);
			p += n;
			if (*p)
				p++;
		}
	}
}

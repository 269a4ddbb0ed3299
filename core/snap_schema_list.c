/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snap_schema_list.c: every field of the snapshot JSON, one a line: path, type, unit, meaning
 * (tunetop --list-json; docs/json.md's table is made from it). The sections' tables
 * (core/snap_schema.c) and, beside them, the fields tui/snapjson.c writes by hand. */
#include <stdio.h>
#include <string.h>

#include "core/snap_schema.h"

static const struct snap_field head_fields[] = {
    SF_SLOT("schema", "number", "1: the version of this layout"),
    SF_SLOT("tool", "string", "\"tunetop\""),
    SF_SLOT("version", "string", "tunetop's version"),
    SF_SLOT("time", "string", "ISO 8601 UTC time of the snapshot"),
    SF_SLOT("uptime_s", "number", "seconds since the engine (or host backend) started"),
    SF_SLOT("interval_s", "number", "seconds the deltas of this snapshot cover"),
    SF_SLOT("backend", "string", "\"engine\" or \"host\""),
    SF_SLOT("seq", "number", "snapshot number, 1, 2, ..."),
    SF_SLOT("cpu.governor", "string",
	    "governor in force (performance, powersave, ondemand, schedutil; the host's own name, "
	    "or \"none\")"),
    SF_SLOT("cpu.governor_source", "string",
	    "\"cpufreq\" (real, libcpupower), \"emulated\" (the frequency model), \"none\" (host "
	    "without cpufreq)"),
};
static const struct snap_field tail_fields[] = {
    SF_SLOT("knobs.<knob>", "value (number, string or bool)",
	    "every knob and its current value (see Knobs); null for a host knob the host lacks "
	    "(--host without cpufreq, a block device or OVS)"),
    SF_SLOT("events[].time", "string", "ISO 8601 UTC time"),
    SF_SLOT("events[].kind", "string",
	    "calibration, kthread_start, kthread_stop, hang, knob, error, info, invariant, diag (a "
	    "diagnosis started or cleared)"),
    SF_SLOT("events[].text", "string", "what happened, in the kernel's words where it has some"),
};
static const struct snap_field diag_fields[] = {
    SF_SLOT("diagnoses[].id", "string", "the rule (\"pmd.sleep_outlasts_ring\")"),
    SF_SLOT("diagnoses[].severity", "string", "info, warning or critical"),
    SF_SLOT("diagnoses[].since", "number",
	    "seq of the first of the consecutive samples that raised it"),
    SF_SLOT("diagnoses[].since_time", "string", "ISO 8601 UTC time of that sample"),
    SF_SLOT("diagnoses[].evidence[].figure", "string",
	    "a snapshot path or a derived figure the finding rests on"),
    SF_SLOT("diagnoses[].evidence[].value", "number", "its value at this sample"),
    SF_SLOT("diagnoses[].evidence[].unit", "string", "its unit"),
    SF_SLOT("diagnoses[].conclusion", "string", "one sentence"),
    SF_SLOT("diagnoses[].fix", "string",
	    "the knob assignment that would fix it (--set syntax), null when no knob does"),
};

static const size_t head_n = SF_N(head_fields), tail_n = SF_N(tail_fields),
		    diag_n = SF_N(diag_fields);
static const struct {
	const char *prefix;
	const struct snap_field *f;
	const size_t *n;
} sections[] = {
    {"", head_fields, &head_n},
    {"cpu.cpus[].", snap_cpu_fields, &snap_cpu_nfields},
    {"threads[].", snap_thread_fields, &snap_thread_nfields},
    {"est.", snap_est_fields, &snap_est_nfields},
    {"pmd.", snap_pmd_fields, &snap_pmd_nfields},
    {"blk.", snap_blk_fields, &snap_blk_nfields},
    {"host.", snap_host_fields, &snap_host_nfields},
    {"host.ovs_pmds_total.", snap_host_ovs_total_fields, &snap_host_ovs_total_nfields},
    {"", tail_fields, &tail_n},
    {"self.", snap_self_fields, &snap_self_nfields},
    {"", diag_fields, &diag_n},
};

/* The JSON type of a member (a hand-written one's is in the row). */
static const char *snap_json_type(const struct snap_field *f)
{
	if (f->enc == SFE_SLOT)
		return f->jtype;
	switch (f->type) {
	case SFT_BOOL:
		return "bool";
	case SFT_STR:
		return "string";
	case SFT_ROWS:
		return "array";
	default:
		return "number";
	}
}

/* The unit its name says (docs/json.md: "Units are in the names"): of the last part of the path
 * that has one ("lat_us" in pmd.lat_us.p50); "-" none. */
static const char *snap_unit(const char *path)
{
	static const struct {
		const char *suffix, *unit;
	} units[] = {{"_pct", "%"},   {"_per_s", "1/s"}, {"_pps", "packets/s"},
		     {"_ns", "ns"},   {"_us", "us"},	 {"_bytes", "bytes"},
		     {"_mhz", "MHz"}, {"_hz", "Hz"},	 {"_s", "s"}};
	char p[160];
	snprintf(p, sizeof(p), "%s", path);
	for (char *part; (part = strrchr(p, '.')) || p[0]; *(part ? part : p) = '\0') {
		char *name = part ? part + 1 : p, *br = strchr(name, '[');
		size_t n = br ? (size_t)(br - name) : strlen(name);
		for (size_t i = 0; i < SF_N(units); i++) {
			size_t k = strlen(units[i].suffix);
			if (n > k && strncmp(name + n - k, units[i].suffix, k) == 0)
				return units[i].unit;
		}
	}
	return "-";
}

static void snap_list_rows(FILE *out, const char *prefix, const struct snap_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *t = snap_json_type(&f[i]), *arr = strstr(t, "[]");
		size_t tlen = arr ? (size_t)(arr - t) : strlen(t);
		char path[160];
		snprintf(path, sizeof(path), "%s%s%s", prefix, f[i].key,
			 f[i].type == SFT_U64ARR ? "[]"
			 : arr			 ? arr
						 : "");
		if (f[i].type == SFT_ROWS) {
			char sub[sizeof(path) + 4];
			if (f[i].doc[0])
				fprintf(out, "%s[]\tarray\t-\t%s\n", path, f[i].doc);
			snprintf(sub, sizeof(sub), "%s[].", path);
			snap_list_rows(out, sub, f[i].rows->f, f[i].rows->n);
			continue;
		}
		fprintf(out, "%s\t%.*s\t%s\t%s\n", path, (int)tlen, t,
			strncmp(t, "number", tlen) == 0 ? snap_unit(path) : "-", f[i].doc);
	}
}

void snap_schema_list(FILE *out)
{
	for (size_t i = 0; i < SF_N(sections); i++)
		snap_list_rows(out, sections[i].prefix, sections[i].f, *sections[i].n);
}

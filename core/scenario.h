/* SPDX-License-Identifier: GPL-2.0-or-later */
/* scenario.h: named and file-described starting sets of knob values (--scenario). */
#ifndef TT_SCENARIO_H
#define TT_SCENARIO_H

#include <stddef.h>

/* Where a scenario's lines go: "knob=value" to the caller's setter (a source, an
 * engine in tests). Returns 0 or a KNOB_ERR_* code with a message in err. */
typedef int (*scenario_assign_fn)(void *ctx, const char *assignment, char *err, size_t errlen);

struct scenario {
	const char *name;
	const char *summary; /* one line for --list-scenarios */
	const char *text; /* "knob = value" lines, the file format */
};

extern const struct scenario scenario_table[];
extern const size_t scenario_count;

/*
 * Apply a built-in scenario by name, or a file by path (anything with a '/'
 * or that names an existing file). File format: one "knob = value" a line,
 * '#' comments, blank lines, and "scenario = NAME" to start from a built-in.
 * Returns 0, or KNOB_ERR_USAGE / KNOB_ERR_RUNTIME with "where: what" in err
 * (a file's errors name its line). Knobs set before the error stay set.
 */
int scenario_apply(const char *name_or_path, scenario_assign_fn assign, void *ctx, char *err,
		   size_t errlen);
/* Apply scenario text; origin names it in messages ("pmd-seed", "my.scn"). */
int scenario_apply_text(const char *origin, const char *text, int depth, scenario_assign_fn assign,
			void *ctx, char *err, size_t errlen);

#endif

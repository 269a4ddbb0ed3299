/* scenario.h: named and file-described starting sets of knob values (INTERFACE.md). */
#ifndef TT_SCENARIO_H
#define TT_SCENARIO_H

#include <stddef.h>

struct engine;

struct scenario {
	const char *name;
	const char *summary; /* one line for --list-scenarios */
	const char *text;    /* "knob = value" lines, the file format */
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
int scenario_apply(struct engine *eng, const char *name_or_path, char *err, size_t errlen);
/* Apply scenario text; origin names it in messages ("pmd-seed", "my.scn"). */
int scenario_apply_text(struct engine *eng, const char *origin, const char *text, int depth,
			char *err, size_t errlen);

#endif

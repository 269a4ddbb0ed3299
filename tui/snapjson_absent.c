/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapjson_absent.c: figures a source lacks, made null in a snapshot's JSON after it is built. */
#include "tui/snapjson_absent.h"

#include <string.h>

/* Every number under v becomes null; objects, arrays, strings and booleans stay. */
static void snapjson_null_numbers(json_t *v)
{
	const char *k;
	json_t *x;
	size_t i;
	if (json_is_object(v)) {
		json_object_foreach (v, k, x) {
			if (json_is_number(x))
				json_object_set_new(v, k, json_null());
			else
				snapjson_null_numbers(x);
		}
	} else if (json_is_array(v)) {
		json_array_foreach (v, i, x) {
			if (json_is_number(x))
				json_array_set_new(v, i, json_null());
			else
				snapjson_null_numbers(x);
		}
	}
}

/* The figures at path ("rx_drop_pps", "per_cpu.completed") under v, through arrays (a field
 * of every PMD row, every CPU) and objects: their numbers become null. A last name the object
 * does not hold is the field of its rows (docs/json.md: "pmd.rx_drop_pps" is every
 * pmd.threads[].rx_drop_pps), so each array under it is searched the same way. */
void snapjson_null_path(json_t *v, const char *path)
{
	size_t i;
	const char *k;
	json_t *x;
	if (json_is_array(v)) {
		json_array_foreach (v, i, x)
			snapjson_null_path(x, path);
		return;
	}
	if (!json_is_object(v))
		return;
	const char *dot = strchr(path, '.');
	char key[64];
	size_t n = dot ? (size_t)(dot - path) : strlen(path);
	if (n >= sizeof(key))
		return;
	memcpy(key, path, n);
	key[n] = '\0';
	x = json_object_get(v, key);
	if (!x) {
		json_object_foreach (v, k, x)
			if (!dot && json_is_array(x))
				snapjson_null_path(x, path);
	} else if (dot) {
		snapjson_null_path(x, dot + 1);
	} else if (json_is_number(x)) {
		json_object_set_new(v, key, json_null());
	} else {
		snapjson_null_numbers(x);
	}
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* module.h: finding and opening tunetop's own shared modules (pictures, eBPF, the exporter). */
#ifndef TT_MODULE_H
#define TT_MODULE_H

#include <stddef.h>

/*
 * What a library is wanted for decides when it is loaded (docs/design.md "Modules"): cairo,
 * libbpf and libmicrohttpd each live in a module of their own that the binary dlopen()s when
 * a run asks for it. Every module keeps the same contract: one exported function, named by
 * entry, that takes the ABI number the program speaks and returns a table whose first member
 * is that number (an unsigned), or NULL when the module speaks another (a stale build).
 *
 * Where a module is looked for, first found wins: $TUNETOP_LIBDIR alone when it is set (the
 * tests point it at a build or an empty directory); else the executable's own directory (the
 * build tree), PREFIX/lib/tunetop found from the executable's PREFIX/bin (any PREFIX, and a
 * package built without one), then the PKGLIBDIR the binary was built for.
 */
struct mod_spec {
	const char *name; /* "picture module": the messages' "no picture module ..." */
	const char *a_name; /* "a picture module": "...: not a picture module of this tunetop" */
	const char *file; /* "tunetop-cairo.so" */
	const char *entry; /* "tunetop_pic_module" */
	unsigned abi;
};

/*
 * The module's table, the module kept loaded for the process (its libraries' state may be
 * process-wide); NULL with why in err: "no NAME (TUNETOP_LIBDIR=DIR): WHY" or "no NAME FILE
 * beside the executable, in DIR or in PKGLIBDIR (WHY)", WHY being dlopen's reason or "PATH:
 * not A_NAME of this tunetop (ABI N)". Not thread-safe: each module's caller loads it from one
 * thread, and keeps the table.
 */
const void *mod_load(const struct mod_spec *spec, char *err, size_t errlen);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* module.h: finding and opening tunetop's own shared modules (pictures, eBPF, the exporter). */
#ifndef TT_MODULE_H
#define TT_MODULE_H

#include <stddef.h>

/*
 * What a library is wanted for decides when it is loaded (docs/design.md "Modules"): cairo,
 * libbpf, libnl-route and libmicrohttpd each live in a module of their own that the binary
 * dlopen()s when a run asks for it. Every module keeps the same contract: it exports one
 * symbol, its table of functions, whose first member is the ABI number it was built for (an
 * unsigned) and whose other members are function pointers, none NULL; it calls nothing in
 * tunetop (linked with -z defs), what it needs of the program coming through a host table of
 * its own; and it says which thread calls what.
 *
 * Where a module is looked for, first found wins: $TUNETOP_LIBDIR alone when it is set (the
 * tests point it at a build or an empty directory); else the executable's own directory (the
 * build tree), PREFIX/lib/tunetop found from the executable's PREFIX/bin (any PREFIX, and a
 * package built without one), then the PKGLIBDIR the binary was built for.
 */
struct mod_spec {
	const char *name; /* "picture": the messages' "no picture module ..." */
	const char *file; /* "tunetop-cairo.so" */
	const char *symbol; /* "tunetop_pic_module": the table */
	unsigned abi;
	size_t size; /* the table's */
	const void *table; /* once loaded */
};
#define MOD_SPEC(name, file, symbol, abi, type)                                                    \
	{                                                                                          \
		name, file, symbol, abi, sizeof(type), NULL                                        \
	}

/*
 * The module's table, the module kept loaded for the process (its libraries' state may be
 * process-wide) and the table in spec; NULL with why in err: "no NAME module
 * (TUNETOP_LIBDIR=DIR): WHY" or "no NAME module FILE beside the executable, in DIR or in
 * PKGLIBDIR (WHY)", WHY being dlopen's reason or "PATH: not a NAME module of this tunetop (ABI
 * N)". Not thread-safe: each module's caller loads it from one thread.
 */
const void *mod_load(struct mod_spec *spec, char *err, size_t errlen);

#endif

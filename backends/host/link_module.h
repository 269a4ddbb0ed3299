/* SPDX-License-Identifier: GPL-2.0-or-later */
/* link_module.h: the contract between tunetop and its link module (tunetop-link.so). */
#ifndef TT_LINK_MODULE_H
#define TT_LINK_MODULE_H

/*
 * Only host mode reads the interfaces' counters, through libnl-route-3's link cache. Merely
 * loaded, that library took 432 KiB of a console's RSS on the engine, which never calls it.
 * So backends/host/host_link_mod.c is a module of its own that backends/host/host_link.c dlopen()s
 * when host mode opens its links (docs/design.md "Modules"): the engine console and -b map none of
 * it.
 *
 * Beside core/module.h's contract (one symbol, its table; linked with -z defs against libnl
 * and libc), each call on one struct host_links is made from one thread at a time (the
 * sampler's).
 */

#include <stddef.h>

#include "backends/host/host_link.h"

/* Raised on any change of the struct below or of struct host_link_stat. */
#define LINK_MODULE_ABI 1u
#define LINK_MODULE_FILE "tunetop-link.so"
#define LINK_MODULE_SYMBOL "tunetop_link_module"

struct link_module {
	unsigned abi; /* LINK_MODULE_ABI */
	/* An rtnetlink socket and its link cache; NULL with a reason. */
	struct host_links *(*open)(char *err, size_t errlen);
	void (*close)(struct host_links *l);
	/* Refresh and copy up to max links into out (ifindex order); -1 with a message. */
	int (*read)(struct host_links *l, struct host_link_stat *out, int max, char *err,
		    size_t errlen);
};

/* The one exported symbol (LINK_MODULE_SYMBOL). */
extern const struct link_module tunetop_link_module;

#endif

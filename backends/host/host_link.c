/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_link.c: the interfaces' counters through the link module tunetop-link.so
 * (backends/host/link_module.h), loaded the first time host mode opens its links. */
#include "backends/host/host_link.h"

#include <stdio.h>

#include "backends/host/link_module.h"
#include "core/module.h"

/* Loaded once and kept (core/module.h): host mode opens its links on one thread, at start. */
static struct mod_spec hl_spec =
    MOD_SPEC("link", LINK_MODULE_FILE, LINK_MODULE_SYMBOL, LINK_MODULE_ABI, struct link_module);
static const struct link_module *hl_mod;

struct host_links *host_link_open(char *err, size_t errlen)
{
	hl_mod = mod_load(&hl_spec, err, errlen);
	return hl_mod ? hl_mod->open(err, errlen) : NULL;
}

void host_link_close(struct host_links *l)
{
	if (l && hl_mod)
		hl_mod->close(l);
}

int host_link_read(struct host_links *l, struct host_link_stat *out, int max, char *err,
		   size_t errlen)
{
	if (!hl_mod) {
		snprintf(err, errlen, "no link module");
		return -1;
	}
	return hl_mod->read(l, out, max, err, errlen);
}

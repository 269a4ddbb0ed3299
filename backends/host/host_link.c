/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_link.c: the interfaces' counters through the link module tunetop-link.so
 * (backends/host/link_module.h), loaded the first time host mode opens its links. */
#include "backends/host/host_link.h"

#include <stdio.h>

#include "backends/host/link_module.h"
#include "core/module.h"

static const struct mod_spec hl_spec = {.name = "link module",
					.a_name = "a link module",
					.file = LINK_MODULE_FILE,
					.entry = LINK_MODULE_ENTRY,
					.abi = LINK_MODULE_ABI};

/* Loaded once and kept (core/module.h): host mode opens its links on one thread, at start. */
static const struct link_module *hl_mod;

struct host_links *host_link_open(char *err, size_t errlen)
{
	if (!hl_mod && !(hl_mod = mod_load(&hl_spec, err, errlen)))
		return NULL;
	return hl_mod->open(err, errlen);
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

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bpf_module.h: the contract between tunetop and its eBPF module (tunetop-bpf.so). */
#ifndef TT_BPF_MODULE_H
#define TT_BPF_MODULE_H

/*
 * Only the sleep probe needs libbpf and libelf, and loading it reads the kernel's BTF and
 * runs the verifier. So backends/host/host_bpf_mod.c is a shared module of its own that
 * backends/host/host_bpf.c dlopen()s when pmd.sleep_probe is turned on (docs/pmd.md "Timer
 * slack, run-queue delay and the eBPF sleep probe"): a run with the probe off maps neither
 * library and puts nothing into the kernel.
 *
 * Beside core/module.h's contract (one symbol, its table; linked with -z defs against libbpf
 * and libc, memory from struct bpf_mod_host), each call is made from one thread at a time
 * (the sampler's), so it keeps no lock.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/host/bpf/sleep_probe.h"

/* Raised on any change of the structs below or of sleep_probe.h's. */
#define BPF_MODULE_ABI 1u
#define BPF_MODULE_FILE "tunetop-bpf.so"
#define BPF_MODULE_SYMBOL "tunetop_bpf_module"

/* What the program lends the module. */
struct bpf_mod_host {
	void *(*xcalloc)(size_t n, size_t size); /* never NULL (core/xalloc.h) */
};

struct bpf_probe; /* the module's: the loaded programs and their map */

struct bpf_module {
	unsigned abi; /* BPF_MODULE_ABI */
	/*
	 * Load the programs on the first hook that loads and attaches, in the order
	 * tracepoints (tracefs), fentry/fexit, kprobes, raw sys_enter/sys_exit; only `only`
	 * when it names one ("tp", "fentry", "kprobe", "raw"). Attached on return; NULL with
	 * why otherwise.
	 */
	struct bpf_probe *(*open)(const struct bpf_mod_host *h, const char *only, char *why,
				  size_t len);
	void (*close)(struct bpf_probe *p);
	int (*attach)(struct bpf_probe *p, char *err, size_t errlen); /* 0, or -1 with why */
	void (*detach)(struct bpf_probe *p);
	/* What it hooks, for the messages: "syscalls:sys_{enter,exit}_*nanosleep" and so on. */
	const char *(*hook)(const struct bpf_probe *p);
	/* True on raw sys_enter/sys_exit: every system call on the host runs the programs. */
	bool (*every_syscall)(const struct bpf_probe *p);
	/* Watch tid from now (an entry already there is kept); *h its counts so far. */
	int (*watch)(struct bpf_probe *p, uint32_t tid, struct sleep_probe_hist *h);
	void (*unwatch)(struct bpf_probe *p, uint32_t tid);
	int (*read)(struct bpf_probe *p, uint32_t tid, struct sleep_probe_hist *h); /* 0 or -1 */
	/* Kernel run time of the programs so far (ns; TUNETOP_BPF_STATS=1), 0 without. */
	uint64_t (*run_ns)(const struct bpf_probe *p);
};

/* The one exported symbol (BPF_MODULE_SYMBOL). */
extern const struct bpf_module tunetop_bpf_module;

#endif

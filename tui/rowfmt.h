/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rowfmt.h: text formatting of snapshot figures into caller buffers (screen and tests). */
#ifndef TT_ROWFMT_H
#define TT_ROWFMT_H

#include <stddef.h>
#include <stdint.h>

#include "core/snapshot.h"

/* 950, 1.2k, 34.5k, 1.20M: at most 6 characters. */
const char *rowfmt_count(double v, char *buf, size_t len);
/* 850ns, 12.3us, 4.80ms, 1.20s: at most 7 characters. */
const char *rowfmt_ns(uint64_t ns, char *buf, size_t len);
/* A percentile that is a lower bound (its histogram's open top bucket): ">1023us", ">4.1ms"
 * (milliseconds from 2 ms up); at most 8 characters below 100 s. */
const char *rowfmt_at_least_us(double us, char *buf, size_t len);
/* name with each character outside printable ASCII, and each ill-formed UTF-8 run, as one
 * '?' (one cell per character, any locale). */
const char *rowfmt_name(const char *name, char *buf, size_t len);
/* v with the printf format fmt, or "-" when absent or negative (a figure the source lacks,
 * or one with no baseline yet): never a 0 that was not measured. */
const char *rowfmt_opt(double v, bool absent, const char *fmt, char *buf, size_t len);
/* Line `row` of text wrapped at spaces to w columns (at least min_w; a longer word is cut),
 * indented by indent, into buf (when buf); returns the number of lines (1 for no text). */
int rowfmt_wrap(const char *text, int w, int min_w, int indent, int row, char *buf, size_t len);
/* The per-subsystem column of a thread row (tick work, drops, completions). */
const char *rowfmt_detail(const struct snapshot *s, const struct snap_thread *t, char *buf,
			  size_t len);
/*
 * The subsystem a thread row, the JSON and the exporter name. The host backend files each
 * thread it has no subsystem for as "engine"; those are named by what they are instead: "ovs"
 * (Open vSwitch's handler, revalidator, urcu, main thread ...), "kernel" or "other"
 * (docs/pmd.md "Host mode: what an operator reads"). PMD, blk and est threads keep theirs.
 */
const char *rowfmt_thread_group(const struct snapshot *s, const struct snap_thread *t);
/* The same for every host thread, PMDs included (the exporter's subsystem label). A thread
 * named as OVS names its own (handler*, revalidator*, urcu*, ...) is "ovs" only when it is
 * the watched ovs-vswitchd's (snap_thread.ovs); one of another process is "other". */
const char *rowfmt_host_group(const struct snapshot *s, const struct snap_thread *t);
/* A whole thread row of width w, columns as rowfmt_head(). */
const char *rowfmt_thread(const struct snapshot *s, const struct snap_thread *t, char *buf,
			  size_t len, int w);
/* Column headings of the thread table and where each column starts. */
#define ROWFMT_NCOLS 8
extern const char *const rowfmt_head[ROWFMT_NCOLS];
extern const int rowfmt_col_x[ROWFMT_NCOLS];
/* A PMD row in pmd-perf-show terms. */
const char *rowfmt_pmd(const struct pmd_thread_snap *p, char *buf, size_t len);
extern const char rowfmt_pmd_head[];

#endif

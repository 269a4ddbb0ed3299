/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_blk.h: a block device's rq_affinity in sysfs (docs/blk.md §6), with validated names. */
#ifndef TT_HOST_BLK_H
#define TT_HOST_BLK_H

#include <stdbool.h>
#include <stddef.h>

/* Where whole disks live; the only directory paths are built under. */
#define HOST_BLK_SYSFS "/sys/block"
#define HOST_BLK_NAME_MAX 32

/*
 * A device name we are willing to put in a path: 1..31 characters of
 * [A-Za-z0-9_.:-] (no '/', so no traversal), not "." nor "..". Pure.
 */
bool host_blk_name_valid(const char *name);

/*
 * /sys/block/<dev>/queue/rq_affinity for a valid name whose directory exists
 * (a partition has none: its disk holds the queue). -1 with a message otherwise.
 */
int host_blk_rq_path(const char *dev, char *out, size_t outlen, char *err, size_t errlen);

/* Read 0, 1 or 2; -1 with a message. */
int host_blk_rq_affinity_read(const char *dev, char *err, size_t errlen);

/*
 * Write v (0..2) and read it back: the kernel accepts 3..UINT_MAX and changes
 * nothing (docs/blk.md §6), so only the read-back proves the write.
 * -1 with a message ("needs root" on EACCES/EPERM).
 */
int host_blk_rq_affinity_write(const char *dev, int v, char *err, size_t errlen);

/* A default device: the first whole disk with a queue, preferring real disks over loop/zram/ram. */
int host_blk_default_dev(char *out, size_t outlen);

#endif

/* SPDX-License-Identifier: MIT */
/* Discarding a range of a block device or a file: what rw=trim and trim_before do. */
#ifndef IOWATT_DISCARD_H
#define IOWATT_DISCARD_H

#include <stdint.h>

/*
 * The device forgets [off, off + len): a block device is told directly (BLKDISCARD); a
 * file's blocks are freed by punching a hole, which the filesystem passes on as a discard
 * where it is mounted with discard (else at its next fstrim). Either way the range reads
 * back as zeros. 0 or -errno; logs nothing (the caller names the job). The target's rules
 * (target.h) decide beforehand whether iowatt may do it at all.
 */
int io_discard(int fd, int blockdev, uint64_t off, uint64_t len);

#endif

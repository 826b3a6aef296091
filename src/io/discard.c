/* SPDX-License-Identifier: MIT */
/* Discarding a range of a block device or a file: what rw=trim and trim_before do. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

#include "io/discard.h"

int io_discard(int fd, int blockdev, uint64_t off, uint64_t len)
{
	uint64_t range[2] = { off, len };
	int rc;

	do {
		rc = blockdev ? ioctl(fd, BLKDISCARD, range)
			      : fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off,
					  (off_t)len);
	} while (rc && errno == EINTR);
	return rc ? -errno : 0;
}

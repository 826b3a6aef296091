/* SPDX-License-Identifier: MIT */
/* Sysfs for meters: attributes kept open, fixed-rate polling, power from energy counters. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "meters/transport/sysfs.h"

int sysfs_attr_open(struct sysfs_attr *a, const char *fullpath)
{
	long long v;
	int rc;

	a->fd = open(fullpath, O_RDONLY | O_CLOEXEC);
	if (a->fd < 0)
		return -errno;
	/* A value that never parses would otherwise be read as a lost device, again and
	 * again: say so once, at open. */
	rc = sysfs_attr_read_ll(a, &v);
	if (rc == -EBADMSG)
		sysfs_attr_close(a);
	return rc == -EBADMSG ? rc : 0;
}

int sysfs_attr_read_ll(struct sysfs_attr *a, long long *out)
{
	char buf[32], *end;
	ssize_t n;

	n = pread(a->fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -ENODEV;
	buf[n] = 0;
	errno = 0;
	*out = strtoll(buf, &end, 10);
	while (*end == '\n' || *end == ' ')
		end++;
	if (end == buf || errno || *end)
		return -EBADMSG;
	return 0;
}

const char *sysfs_attr_strerror(int err)
{
	return err == -EBADMSG ? "it holds something that is not a decimal number"
			       : strerror(-err);
}

void sysfs_attr_close(struct sysfs_attr *a)
{
	if (a->fd >= 0)
		close(a->fd);
	a->fd = -1;
}

void sysfs_attr_close_all(struct sysfs_attr *a, int n)
{
	int i;

	for (i = 0; i < n; i++)
		sysfs_attr_close(&a[i]);
}

int sysfs_wait_tick(uint64_t *next_ns, uint64_t period_ns, int timeout_ms)
{
	uint64_t t = now_ns(), limit = t + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0) * NS_PER_MS;

	if (!*next_ns)
		*next_ns = t;
	if (*next_ns > limit) {
		sleep_until_ns(limit);
		return 0;
	}
	if (*next_ns > t && sleep_until_ns(*next_ns) < 0)
		return 0;
	t = now_ns();
	*next_ns += period_ns;
	if (*next_ns <= t) /* fell behind: skip missed ticks rather than burst */
		*next_ns = t + period_ns;
	return 1;
}

int energy_rate_update(struct energy_rate *r, uint64_t t_ns, double uj, double range_uj, double *w,
		       uint64_t *mid_ns)
{
	int ret = 0;
	double d;

	if (r->have && t_ns > r->t_ns) {
		d = uj - r->uj;
		if (d < 0 && range_uj > 0)
			d += range_uj; /* counter wrapped between the two reads */
		*w = d * 1e-6 / ((double)(t_ns - r->t_ns) * 1e-9);
		/* The mean power of the interval belongs to its middle, whatever its length. */
		*mid_ns = r->t_ns + (t_ns - r->t_ns) / 2;
		ret = 1;
	}
	r->t_ns = t_ns;
	r->uj = uj;
	r->have = 1;
	return ret;
}

/* SPDX-License-Identifier: MIT */
/* IIO buffered capture: scan elements chosen, the buffer enabled, records read from /dev/iio:deviceN. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/files.h"
#include "core/log.h"
#include "core/sysfs.h"
#include "meters/board/iio_priv.h"

#define MOD "iio"
#define NS_PER_S_I64 1000000000LL
#define STAMP_AHEAD_MAX_NS NS_PER_SEC

static const char *const q_type[IIO_Q_COUNT] = { "voltage", "current", "power" };

/* Writes val to the device's attribute rel ("buffer/enable"): 0 or -errno. */
static int iio_attr_write(const struct iio_priv *p, const char *rel, const char *val)
{
	char path[IIO_DIR_LEN + 64];
	ssize_t n, len = (ssize_t)strlen(val);
	int fd, err;

	snprintf(path, sizeof(path), "%s/%s", p->dir, rel);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, (size_t)len);
	err = n == len ? 0 : n < 0 ? -errno : -EIO;
	if (close(fd) < 0 && !err) /* sysfs reports a refused store at close as well */
		err = -errno;
	return err;
}

static int scan_attr(const struct iio_priv *p, const char *elem, const char *what, char *buf,
		     size_t len)
{
	char path[IIO_DIR_LEN + 96];

	snprintf(path, sizeof(path), "%s/scan_elements/%s_%s", p->dir, elem, what);
	return read_text_file(path, buf, len);
}

int iio_buffer_available(const struct iio_priv *p)
{
	char path[IIO_DIR_LEN + 32], name[40], buf[32];
	int i;

	snprintf(path, sizeof(path), "%s/buffer/enable", p->dir);
	if (access(path, W_OK) || access(p->chardev, R_OK))
		return 0;
	for (i = 0; i < IIO_Q_COUNT; i++) {
		if (!p->q[i].present)
			continue;
		snprintf(name, sizeof(name), "in_%s%u", q_type[i], p->q[i].ch);
		if (scan_attr(p, name, "type", buf, sizeof(buf)) < 0)
			return 0;
	}
	return 1;
}

/* Every scan element off, ours and the timestamp on: the records then hold only ours. */
static int choose_elements(struct meter_dev *dev, struct iio_priv *p)
{
	struct iio_scan_elem el[IIO_Q_COUNT + 1];
	char dir[IIO_DIR_LEN + 16], name[48], buf[80], **names;
	long long idx;
	int n, i, k, ret, ne = 0;

	snprintf(dir, sizeof(dir), "%s/scan_elements", p->dir);
	n = sysfs_list("", dir, "", &names);
	for (i = 0; i < n; i++) {
		size_t l = strlen(names[i]);

		if (l > 3 && !strcmp(names[i] + l - 3, "_en")) {
			snprintf(name, sizeof(name), "scan_elements/%s", names[i]);
			iio_attr_write(p, name, "0");
		}
	}
	sysfs_list_free(names, n);
	for (i = 0; i <= IIO_Q_COUNT; i++) {
		struct iio_scan_type *t = i < IIO_Q_COUNT ? &p->q[i].type : &p->ts_type;

		if (i < IIO_Q_COUNT && !p->q[i].present)
			continue;
		if (i < IIO_Q_COUNT)
			snprintf(name, sizeof(name), "in_%s%u", q_type[i], p->q[i].ch);
		else
			snprintf(name, sizeof(name), "in_timestamp");
		snprintf(buf, sizeof(buf), "scan_elements/%s_en", name);
		ret = iio_attr_write(p, buf, "1");
		if (ret < 0 && i == IIO_Q_COUNT)
			continue; /* no timestamp channel: the core stamps arrivals */
		if (ret < 0) {
			log_err(MOD, "%s: cannot enable %s in the buffer: %s", dev->spec, name,
				strerror(-ret));
			return ret;
		}
		if (scan_attr(p, name, "type", buf, sizeof(buf)) < 0 || iio_scan_type_parse(buf, t) ||
		    scan_attr(p, name, "index", buf, sizeof(buf)) < 0 || sscanf(buf, "%lld", &idx) != 1) {
			log_err(MOD, "%s: %s's scan element has no usable _type or _index", dev->spec,
				name);
			return -EINVAL;
		}
		/* ina2xx-adc declares every channel 'u', but the current register counts
		 * both ways (its sysfs raw value is signed): read it as the chip has it */
		if (p->ina2xx && i == IIO_Q_A && t->realbits == 16)
			t->is_signed = 1;
		el[ne].index = (unsigned)idx;
		el[ne].type = *t;
		el[ne++].tag = i;
		p->has_ts |= i == IIO_Q_COUNT;
	}
	p->rec_len = iio_scan_layout(el, (size_t)ne);
	for (k = 0; k < ne; k++) {
		if (el[k].tag == IIO_Q_COUNT)
			p->ts_off = el[k].offset;
		else
			p->q[el[k].tag].rec_off = el[k].offset;
	}
	if (!p->rec_len || p->rec_len > IIO_RECORD_MAX) {
		log_err(MOD, "%s: a scan record of %zu bytes is not one iowatt reads", dev->spec,
			p->rec_len);
		return -EINVAL;
	}
	return 0;
}

/*
 * The IIO core stamps scans with the device's current_timestamp_clock, CLOCK_REALTIME
 * unless told: ask for monotonic (iowatt's clock); where that is refused, shift realtime
 * stamps by the offset between the clocks now (a clock step during the run then shows).
 */
static void choose_clock(struct meter_dev *dev, struct iio_priv *p)
{
	char path[IIO_DIR_LEN + 32], cur[32];
	struct timespec rt, mono;

	p->ts_to_mono_ns = 0;
	snprintf(path, sizeof(path), "%s/current_timestamp_clock", p->dir);
	if (iio_attr_write(p, "current_timestamp_clock", "monotonic") == 0 ||
	    (read_text_file(path, cur, sizeof(cur)) == 0 && !strcmp(cur, "monotonic")))
		return;
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	p->ts_to_mono_ns = ((int64_t)mono.tv_sec - rt.tv_sec) * NS_PER_S_I64 +
			   ((int64_t)mono.tv_nsec - rt.tv_nsec);
	log_info(MOD, "%s: the device stamps scans in CLOCK_REALTIME; shifted to iowatt's clock",
		 dev->spec);
}

int iio_buffer_start(struct meter_dev *dev, unsigned length)
{
	struct iio_priv *p = dev->priv;
	char len[24];
	int ret;

	iio_attr_write(p, "buffer/enable", "0"); /* the channels can change only while off */
	ret = choose_elements(dev, p);
	if (ret < 0)
		return ret;
	if (p->has_ts)
		choose_clock(dev, p);
	snprintf(len, sizeof(len), "%u", length);
	ret = iio_attr_write(p, "buffer/length", len);
	if (ret < 0)
		log_warn(MOD, "%s: buffer/length %s refused (%s); the driver's own is used",
			 dev->spec, len, strerror(-ret));
	if (p->fd < 0)
		p->fd = open(p->chardev, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (p->fd < 0) {
		ret = -errno;
		log_err(MOD, "%s: cannot open %s: %s", dev->spec, p->chardev, strerror(-ret));
		return ret;
	}
	ret = iio_attr_write(p, "buffer/enable", "1");
	if (ret < 0) {
		log_err(MOD, "%s: cannot enable the buffer: %s", dev->spec, strerror(-ret));
		return ret;
	}
	p->enabled = 1;
	p->have = 0;
	return 0;
}

void iio_buffer_stop(struct meter_dev *dev)
{
	struct iio_priv *p = dev->priv;

	if (p->enabled)
		iio_attr_write(p, "buffer/enable", "0");
	p->enabled = 0;
}

double iio_chan_value(const struct iio_chan *c, int64_t raw)
{
	return c->present ? ((double)raw + c->offset) * c->scale : NAN;
}

/*
 * The record's stamp on iowatt's clock, or 0 (the core stamps its arrival) for one that
 * is no scan's: a second past now_ns or more (the core would hold every later sample
 * there), before the clock's start, or beyond 64 bits once shifted. The second allows a
 * realtime clock slewed since the shift was taken.
 */
static uint64_t stamp(const struct iio_priv *p, const unsigned char *rec, uint64_t now_ns)
{
	int64_t ts = iio_scan_value(&p->ts_type, rec, p->ts_off), off = p->ts_to_mono_ns;

	if ((off > 0 && ts > INT64_MAX - off) || (off < 0 && ts < INT64_MIN - off))
		return 0;
	ts += off;
	return ts > 0 && (uint64_t)ts < now_ns + STAMP_AHEAD_MAX_NS ? (uint64_t)ts : 0;
}

/* One record into a sample: IIO's mV, mA and mW into volts, amps and watts. */
static void decode(const struct iio_priv *p, const unsigned char *rec, uint64_t now_ns,
		   struct meter_sample *s)
{
	double x[IIO_Q_COUNT];
	int i;

	for (i = 0; i < IIO_Q_COUNT; i++)
		x[i] = p->q[i].present ? iio_chan_value(&p->q[i],
							iio_scan_value(&p->q[i].type, rec, p->q[i].rec_off)) / 1e3
				       : NAN;
	memset(s, 0, sizeof(*s));
	s->v = x[IIO_Q_V];
	s->a = x[IIO_Q_A];
	s->w = x[IIO_Q_W];
	if (isnan(s->w) && !isnan(s->v) && !isnan(s->a)) {
		s->w = s->v * s->a;
		s->flags |= SAMPLE_W_COMPUTED;
	}
	s->t_ns = p->has_ts ? stamp(p, rec, now_ns) : 0;
}

int iio_buffer_read(struct meter_dev *dev, struct meter_sample *out, unsigned max, int timeout_ms)
{
	struct iio_priv *p = dev->priv;
	struct pollfd pfd = { .fd = p->fd, .events = POLLIN };
	size_t room, done;
	unsigned n, i;
	uint64_t now;
	ssize_t got;

	if (!max)
		return 0;
	if (max > IIO_SCANS_PER_READ)
		max = IIO_SCANS_PER_READ;
	if (poll(&pfd, 1, timeout_ms) <= 0)
		return 0;
	if (!(pfd.revents & POLLIN) && (pfd.revents & (POLLHUP | POLLERR | POLLNVAL))) {
		log_warn(MOD, "%s: %s hung up: the device went away", dev->spec, p->chardev);
		return -ENODEV;
	}
	/* whole records only; a reader of a pipe may see one cut, kept for the next read */
	room = (size_t)max * p->rec_len - p->have;
	got = read(p->fd, p->buf + p->have, room);
	if (got < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -ENODEV;
	p->have += (size_t)got;
	n = (unsigned)(p->have / p->rec_len);
	now = now_ns();
	for (i = 0; i < n; i++)
		decode(p, p->buf + (size_t)i * p->rec_len, now, &out[i]);
	done = (size_t)n * p->rec_len;
	memmove(p->buf, p->buf + done, p->have - done);
	p->have -= done;
	return (int)n;
}

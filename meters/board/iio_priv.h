/* SPDX-License-Identifier: MIT */
/* State shared by the IIO meter's set-up (iio.c) and its buffered capture (iio_buffer.c). */
#ifndef IOWATT_IIO_PRIV_H
#define IOWATT_IIO_PRIV_H

#include <stdint.h>

#include "meters/board/iio_scan.h"
#include "meters/meter-internal.h"
#include "meters/transport/sysfs.h"

/* The quantities iowatt reads, each one channel: in_voltageN (bus), in_currentN, in_powerN. */
enum { IIO_Q_V, IIO_Q_A, IIO_Q_W, IIO_Q_COUNT };
enum iio_mode { IIO_MODE_AUTO, IIO_MODE_BUFFER, IIO_MODE_POLL };

#define IIO_DIR_LEN 400
#define IIO_SCANS_PER_READ 256
/* Room for the four ina2xx channels and the timestamp, with their padding. */
#define IIO_RECORD_MAX 64

struct iio_chan {
	int present;
	unsigned ch;	      /* N of in_<type>N */
	double scale, offset; /* (raw + offset) * scale is mV, mA or mW */
	struct sysfs_attr raw; /* polled mode */
	struct iio_scan_type type;
	size_t rec_off;	      /* buffered mode: where it sits in a record */
};

struct iio_priv {
	struct sysfs_poll poll; /* first: sysfs_poll_start() resets it */
	char dir[IIO_DIR_LEN];	/* the device's sysfs directory, root included */
	char chardev[IIO_DIR_LEN];
	int buffered;
	int ina2xx; /* the kernel's ina2xx-adc: its current register is two's complement */
	struct iio_chan q[IIO_Q_COUNT];
	/* buffered mode */
	int fd, enabled, has_ts;
	struct iio_scan_type ts_type;
	size_t ts_off, rec_len, have;
	int64_t ts_to_mono_ns; /* added to the device's timestamps: 0 when they are monotonic */
	unsigned char buf[IIO_SCANS_PER_READ * IIO_RECORD_MAX];
};

/* Whether the device offers a buffer for the chosen channels and the char device exists. */
int iio_buffer_available(const struct iio_priv *p);
/* Chooses the channels, the timestamp clock and the length, then enables the buffer. */
int iio_buffer_start(struct meter_dev *dev, unsigned length);
void iio_buffer_stop(struct meter_dev *dev);
int iio_buffer_read(struct meter_dev *dev, struct meter_sample *out, unsigned max, int timeout_ms);
/* A channel's raw value in mV, mA or mW; NAN where absent. */
double iio_chan_value(const struct iio_chan *c, int64_t raw);

#endif

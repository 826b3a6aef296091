/* SPDX-License-Identifier: MIT */
/* IIO buffer scan records: a scan element's type, the record's layout, a value decoded. */
#ifndef IOWATT_IIO_SCAN_H
#define IOWATT_IIO_SCAN_H

#include <stddef.h>
#include <stdint.h>

/*
 * One scan element as its scan_elements/<name>_type reads ("le:s16/16>>0",
 * "be:u13/16>>3"; Documentation/ABI/testing/sysfs-bus-iio): byte order, sign, the bits
 * that carry the value, the bytes it takes, and how far the value is shifted up.
 */
struct iio_scan_type {
	int big_endian, is_signed;
	unsigned realbits, storagebits, shift;
};

/* Parses a _type attribute's text: 0, or -EINVAL (repeat counts other than 1 included). */
int iio_scan_type_parse(const char *text, struct iio_scan_type *t);

/* An enabled element of the record: its scan index and type, the caller's tag for it; the
 * layout sets offset. */
struct iio_scan_elem {
	unsigned index;
	struct iio_scan_type type;
	int tag;
	size_t offset;
};

/*
 * Lays out a record as the IIO core packs it: elements in scan-index order, each at a
 * multiple of its own size, the record padded to its largest element. Sorts elem by
 * index, sets each offset; returns the record's size in bytes, or 0 for a bad element.
 */
size_t iio_scan_layout(struct iio_scan_elem *elem, size_t n);

/* The element's value in rec (shifted down, masked to realbits, sign-extended). */
int64_t iio_scan_value(const struct iio_scan_type *t, const unsigned char *rec, size_t offset);

#endif

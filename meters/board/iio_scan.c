/* SPDX-License-Identifier: MIT */
/* IIO buffer scan records: a scan element's type, the record's layout, a value decoded. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meters/board/iio_scan.h"

#define IIO_STORAGE_MAX_BITS 64

int iio_scan_type_parse(const char *text, struct iio_scan_type *t)
{
	char endian[3] = "", sign = 0;
	unsigned real = 0, storage = 0, shift = 0, repeat = 1;
	int used = 0;
	const char *rest;

	memset(t, 0, sizeof(*t));
	if (sscanf(text, "%2[bl]e:%c%u/%u%n", endian, &sign, &real, &storage, &used) != 4)
		return -EINVAL;
	rest = text + used;
	/* "X<repeat>" appears only for elements that repeat; iowatt reads one value each */
	if (*rest == 'X' && sscanf(rest, "X%u%n", &repeat, &used) == 1)
		rest += used;
	if (!strncmp(rest, ">>", 2) && sscanf(rest, ">>%u%n", &shift, &used) == 1)
		rest += used;
	while (*rest == '\n' || *rest == ' ')
		rest++;
	/* real and shift apart: their sum may wrap (">>4294967295" passed as 1 + it) */
	if (*rest || repeat != 1 || (sign != 's' && sign != 'u') || !real ||
	    storage % 8 || !storage || storage > IIO_STORAGE_MAX_BITS || real > storage ||
	    shift > storage - real)
		return -EINVAL;
	t->big_endian = endian[0] == 'b';
	t->is_signed = sign == 's';
	t->realbits = real;
	t->storagebits = storage;
	t->shift = shift;
	return 0;
}

static int elem_cmp(const void *a, const void *b)
{
	const struct iio_scan_elem *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

size_t iio_scan_layout(struct iio_scan_elem *elem, size_t n)
{
	size_t i, off = 0, bytes, largest = 1;

	qsort(elem, n, sizeof(*elem), elem_cmp);
	for (i = 0; i < n; i++) {
		bytes = elem[i].type.storagebits / 8;
		if (!bytes)
			return 0;
		off = (off + bytes - 1) / bytes * bytes;
		elem[i].offset = off;
		off += bytes;
		if (bytes > largest)
			largest = bytes;
	}
	return (off + largest - 1) / largest * largest;
}

int64_t iio_scan_value(const struct iio_scan_type *t, const unsigned char *rec, size_t offset)
{
	unsigned bytes = t->storagebits / 8, i;
	uint64_t raw = 0, mask;

	for (i = 0; i < bytes; i++)
		raw |= (uint64_t)rec[offset + (t->big_endian ? bytes - 1 - i : i)] << (8 * i);
	raw >>= t->shift;
	mask = t->realbits >= 64 ? ~0ULL : (1ULL << t->realbits) - 1;
	raw &= mask;
	if (t->is_signed && t->realbits < 64 && (raw >> (t->realbits - 1)) & 1)
		raw |= ~mask;
	return (int64_t)raw;
}

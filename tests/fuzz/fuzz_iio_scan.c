/* SPDX-License-Identifier: MIT */
/* Fuzz target: an IIO scan element's _type text (sysfs), then a record laid out with it and its values read. */
#include "fuzz.h"
#include "meters/board/iio_scan.h"

/* The input: a _type line, then (after the first NUL) the bytes of one record. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_str(data, size);
	size_t tl = strlen(text), rec_len, i;
	unsigned char rec[64] = { 0 };
	struct iio_scan_elem el[2];
	struct iio_scan_type t;
	int64_t v;

	if (!iio_scan_type_parse(text, &t)) {
		if (!t.realbits || t.storagebits % 8 || t.storagebits > 64 ||
		    t.realbits > t.storagebits || t.shift > t.storagebits - t.realbits)
			abort();
		if (tl + 1 < size)
			memcpy(rec, data + tl + 1, size - tl - 1 < sizeof(rec) ? size - tl - 1 : sizeof(rec));
		el[0] = (struct iio_scan_elem){ .index = 1, .type = t };
		el[1] = (struct iio_scan_elem){ .index = 0, .type = t };
		rec_len = iio_scan_layout(el, 2);
		if (!rec_len || rec_len > sizeof(rec))
			abort();
		for (i = 0; i < 2; i++) {
			if (el[i].offset + t.storagebits / 8 > rec_len)
				abort();
			v = iio_scan_value(&t, rec, el[i].offset);
			/* within the real bits, as signed or not */
			if (t.realbits < 64 && t.is_signed &&
			    (v < -(INT64_C(1) << (t.realbits - 1)) || v >= INT64_C(1) << (t.realbits - 1)))
				abort();
			if (t.realbits < 64 && !t.is_signed && (uint64_t)v >> t.realbits)
				abort();
		}
	}
	free(text);
	return 0;
}

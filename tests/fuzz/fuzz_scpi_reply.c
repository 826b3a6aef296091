/* SPDX-License-Identifier: MIT */
/* Fuzz target: an instrument's bytes through the SCPI line assembler, split anywhere, and each line through every reply parser. */
#include <math.h>

#include "fuzz.h"
#include "meters/scpi/scpi_protocol.h"

#define ARRAY_MAX 64

/* A field of *IDN? ends inside its array. */
static void check_field(const char *f, size_t cap)
{
	if (!memchr(f, '\0', cap))
		abort();
}

static void parse_line(const char *line)
{
	struct scpi_idn idn;
	double v, arr[ARRAY_MAX];
	char text[32];
	int n, code;

	if (!scpi_idn_parse(line, &idn)) {
		check_field(idn.maker, sizeof(idn.maker));
		check_field(idn.model, sizeof(idn.model));
		check_field(idn.serial, sizeof(idn.serial));
		check_field(idn.firmware, sizeof(idn.firmware));
		if (!scpi_model_find(idn.model))
			abort();
	}
	/* a reading is a finite number below SCPI's overload */
	if (!scpi_number(line, &v) && (!isfinite(v) || fabs(v) >= 9.9e37))
		abort();
	n = scpi_numbers(line, arr, ARRAY_MAX);
	if (n > ARRAY_MAX)
		abort();
	while (n-- > 0)
		if (!isfinite(arr[n]))
			abort();
	if (!scpi_error(line, &code, text, sizeof(text)) &&
	    (code < -32768 || code > 32767 || !memchr(text, '\0', sizeof(text))))
		abort();
}

/* The input in pieces of chunk bytes (0: whole), each complete line parsed. */
static void pass(const uint8_t *in, size_t n, size_t chunk, size_t max)
{
	static struct scpi_rx rx;
	size_t off = 0, k, used, at;
	int rc;

	scpi_rx_reset(&rx, max);
	while (off < n) {
		k = chunk && n - off > chunk ? chunk : n - off;
		for (at = 0; at < k; at += used) {
			rc = scpi_rx_take(&rx, (const char *)in + off + at, k - at, &used);
			if (used > k - at || rx.len > rx.max || rx.max > SCPI_ARRAY_LINE_MAX)
				abort();
			if (rc < 0) {
				scpi_rx_reset(&rx, max); /* the driver drops the link here */
				used = k - at;
			} else if (rc == 1) {
				if (strlen(rx.line) > rx.max)
					abort();
				parse_line(rx.line);
				scpi_rx_reset(&rx, max);
			}
		}
		off += k;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pass(data, size, 0, SCPI_LINE_MAX);
	pass(data, size, 1, SCPI_LINE_MAX);
	pass(data, size, 7, SCPI_ARRAY_LINE_MAX);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/* Reports captured from real ATORCH meters (tests/data/atorch, sources in its README) through the decoder. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meters/atorch/atorch_protocol.h"
#include "tap.h"

#define LINE_MAX_LEN 512

/* The value of key= in a line's annotation ("v=3.2"), NAN if absent. */
static double field(const char *note, const char *key)
{
	char pat[16];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(note, pat);
	return p ? strtod(p + strlen(pat), NULL) : NAN;
}

static int close_to(double got, double want)
{
	return fabs(got - want) <= 1e-9 * (fabs(want) + 1);
}

/*
 * Every report of a file: its checksum verdict as annotated, and with the check off
 * (what check=off does) the annotated values. Returns how many passed the checksum.
 */
static int check_file(const char *name, int *lines)
{
	char path[64], line[LINE_MAX_LEN], *note, *p, *end;
	uint8_t r[ATORCH_REPORT_LEN];
	struct atorch_reading rd;
	int n = 0, pass = 0, len, want_pass, rc, same;
	FILE *f;

	snprintf(path, sizeof(path), "tests/data/atorch/%s.hex", name);
	f = fopen(path, "r");
	if (!ok(f != NULL, "%s opens", path))
		return 0;
	while (fgets(line, sizeof(line), f)) {
		note = strchr(line, '#');
		if (!note)
			continue;
		*note++ = '\0';
		note[strcspn(note, "\n")] = '\0';
		for (len = 0, p = line; len < ATORCH_REPORT_LEN; len++, p = end) {
			unsigned long v = strtoul(p, &end, 16);

			if (end == p)
				break;
			r[len] = (uint8_t)v;
		}
		n++;
		want_pass = !strncmp(note, " pass", 5);
		rc = atorch_decode(r, 1, &rd);
		pass += rc == 0;
		ok(len == ATORCH_REPORT_LEN && (want_pass ? rc == 0 : rc == -EBADMSG),
		   "%s %d: checksum %s as captured (checksum byte 0x%02X, computed 0x%02X)", name,
		   n, want_pass ? "passes" : "fails", r[ATORCH_REPORT_LEN - 1],
		   atorch_checksum(r, ATORCH_REPORT_LEN));
		rc = atorch_decode(r, 0, &rd);
		same = rc == 0 && close_to(rd.v, field(note, "v")) && close_to(rd.a, field(note, "a")) &&
		       close_to(rd.mah, field(note, "mah")) && close_to(rd.wh, field(note, "wh")) &&
		       close_to(rd.temp_c, field(note, "t")) &&
		       rd.seconds == (uint32_t)field(note, "s");
		ok(same, "%s %d: %.6g V, %.6g A, %.6g mAh, %.6g Wh, %.0f C, %u s (%s)", name, n,
		   rd.v, rd.a, rd.mah, rd.wh, rd.temp_c, rd.seconds, strstr(note, "ref=") + 4);
	}
	fclose(f);
	*lines = n;
	return pass;
}

int main(void)
{
	int n, pass;
	struct atorch_reading rd;
	uint8_t ud18[ATORCH_REPORT_LEN] = { 0xFF, 0x55, 0x01, 0x03, 0x00, 0x01, 0xF3, 0x00, 0x00,
					    0x00, 0x00, 0x06, 0x38, 0x00, 0x00, 0x03, 0x11, 0x00,
					    0x07, 0x00, 0x0A, 0x00, 0x00, 0x00, 0x12, 0x2E, 0x33,
					    0x3C, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x4E };

	pass = check_file("dl24", &n);
	ok(n == 6 && pass == 6, "DL24: 6 of 6 real reports pass the checksum");
	pass = check_file("j7c", &n);
	ok(n == 12 && pass == 0, "J7-C: 0 of 12 real reports pass (the known quirk: check=off)");
	pass = check_file("dt3010", &n);
	ok(n == 3 && pass == 3, "DT3010: 3 of 3 pass; their voltage is the quirk the README says");
	pass = check_file("dl24-issue73", &n);
	ok(n == 1 && pass == 0, "syssi issue 73's DC report fails its checksum too");
	pass = check_file("ud18", &n);
	ok(n == 1 && pass == 1, "UD18: the published report passes");
	/* The UD18's USB-only channels, as atorch-console and syssi read them. */
	ok(atorch_decode(ud18, 1, &rd) == 0 && close_to(rd.dn_v, 0.07) && close_to(rd.dp_v, 0.10),
	   "UD18: D- 0.07 V, D+ 0.10 V");
	return done_testing();
}

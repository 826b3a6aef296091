/* SPDX-License-Identifier: MIT */
/* Reports captured from real ATORCH and RDTech UM34C meters (tests/data/atorch, tests/data/um; sources in their READMEs) through the decoders. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meters/atorch/atorch_protocol.h"
#include "meters/um/um_protocol.h"
#include "tap.h"

#define LINE_MAX_LEN 1024

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

/* A line's hex bytes before its "#" note into b[0..max); how many were read. */
static int hex_bytes(const char *line, uint8_t *b, int max)
{
	const char *p = line;
	char *end;
	int len;

	for (len = 0; len < max; len++, p = end) {
		unsigned long v = strtoul(p, &end, 16);

		if (end == p)
			break;
		b[len] = (uint8_t)v;
	}
	return len;
}

/* A capture file of tests/data/DIR, NAME.hex; NULL (a failed case) when it is missing. */
static FILE *open_capture(const char *dir, const char *name)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "tests/data/%s/%s.hex", dir, name);
	f = fopen(path, "r");
	ok(f != NULL, "%s opens", path);
	return f;
}

/* The next line with a "#" note: its hex part left in line, the note returned; NULL at
 * the end. */
static char *next_annotated(FILE *f, char *line, int size)
{
	char *note;

	while (fgets(line, size, f)) {
		note = strchr(line, '#');
		if (!note)
			continue;
		*note++ = '\0';
		note[strcspn(note, "\n")] = '\0';
		return note;
	}
	return NULL;
}

/*
 * Every report of a file: its checksum verdict as annotated, and with the check off
 * (what check=off does) the annotated values. Returns how many passed the checksum.
 */
static int check_file(const char *name, int *lines)
{
	char line[LINE_MAX_LEN], *note;
	uint8_t r[ATORCH_REPORT_LEN];
	struct atorch_reading rd;
	int n = 0, pass = 0, len, want_pass, rc, same;
	FILE *f = open_capture("atorch", name);

	if (!f)
		return 0;
	while ((note = next_annotated(f, line, sizeof(line)))) {
		len = hex_bytes(line, r, ATORCH_REPORT_LEN);
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

/*
 * Every UM34C reply through the resync buffer as the driver takes it: found by its model
 * id, its checksum passing as annotated, V, A and W as annotated; one flipped bit of a
 * byte the checksum covers and the reply is dropped. Returns how many were taken.
 */
static int check_um(const char *name, int *lines)
{
	char line[LINE_MAX_LEN], *note;
	uint8_t r[UM_FRAME_LEN + 1], frame[UM_FRAME_LEN];
	const struct um_model *m = NULL;
	struct meter_sample s;
	struct um_rx rx;
	int n = 0, taken = 0, len, got;
	FILE *f = open_capture("um", name);

	if (!f)
		return 0;
	while ((note = next_annotated(f, line, sizeof(line)))) {
		len = hex_bytes(line, r, UM_FRAME_LEN + 1);
		n++;
		memset(&rx, 0, sizeof(rx));
		um_rx_push(&rx, r, (size_t)len);
		got = um_rx_next(&rx, frame, &m);
		taken += got;
		memset(&s, 0, sizeof(s));
		if (got)
			um_decode(m, frame, &s);
		ok(len == UM_FRAME_LEN && got && m && !strcmp(m->meta.name, "UM34C") &&
			   close_to(s.v, field(note, "v")) && close_to(s.a, field(note, "a")) &&
			   close_to(s.w, field(note, "w")),
		   "%s %d: taken as a UM34C (checksum 0x%02X), %.2f V, %.3f A, %.3f W (%s)", name,
		   n, r[UM_FRAME_LEN - 1], s.v, s.a, s.w, strstr(note, "ref=") + 4);
		r[3] ^= 0x01; /* an odd offset: the XOR covers it */
		memset(&rx, 0, sizeof(rx));
		um_rx_push(&rx, r, (size_t)len);
		ok(!um_rx_next(&rx, frame, &m), "%s %d: with one bit of its voltage flipped it is "
		   "dropped", name, n);
	}
	fclose(f);
	*lines = n;
	return taken;
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
	pass = check_um("um34c", &n);
	ok(n == 5 && pass == 5, "UM34C: 5 of 5 real replies taken, their checksums pass");
	return done_testing();
}

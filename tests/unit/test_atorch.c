/* SPDX-License-Identifier: MIT */
/* ATORCH frames: the published reset-all command, report decoding, resync, J7-C mode. */
#include <errno.h>
#include <string.h>

#include "meters/atorch/atorch_protocol.h"
#include "tap.h"

static void test_command(void)
{
	static const uint8_t published[ATORCH_CMD_LEN] = { 0xFF, 0x55, 0x11, 0x03, 0x05,
							   0x00, 0x00, 0x00, 0x00, 0x5D };
	uint8_t cmd[ATORCH_CMD_LEN];

	atorch_command(ATORCH_DEV_USB, ATORCH_CMD_RESET_ALL, 0, cmd);
	ok(!memcmp(cmd, published, sizeof(cmd)), "reset-all is FF 55 11 03 05 00 00 00 00 5D");
	is_int(atorch_checksum(published, sizeof(published)), 0x5D,
	       "the checksum of the published frame");
}

static void test_usb_report(void)
{
	struct atorch_reading in = { .dev_type = ATORCH_DEV_USB, .v = 5.12, .a = 1.23, .mah = 456,
				     .wh = 7.89, .dp_v = 0.6, .dn_v = 0.59, .temp_c = 31,
				     .seconds = 3723 };
	struct atorch_reading out;
	uint8_t r[ATORCH_REPORT_LEN];

	atorch_encode(&in, r);
	ok(r[0] == 0xFF && r[1] == 0x55 && r[2] == 0x01 && r[3] == 0x03, "report header");
	/* Hand-checked layout: 512 = 0x000200 at offset 4, 123 = 0x00007B at 7. */
	ok(r[4] == 0x00 && r[5] == 0x02 && r[6] == 0x00 && r[9] == 0x7B,
	   "voltage and current as u24 big-endian in 10 mV / 10 mA");
	ok(r[23] == 0 && r[24] == 1 && r[25] == 2 && r[26] == 3, "1 h 2 min 3 s");
	is_int(atorch_decode(r, 1, &out), 0, "a good USB report decodes");
	ok(fabs(out.v - 5.12) < 1e-9 && fabs(out.a - 1.23) < 1e-9 && fabs(out.wh - 7.89) < 1e-9 &&
		   out.seconds == 3723 && fabs(out.dp_v - 0.6) < 1e-9,
	   "its fields come back");
	r[8] ^= 0x10;
	is_int(atorch_decode(r, 1, &out), -EBADMSG, "a changed byte fails the checksum");
	is_int(atorch_decode(r, 0, &out), 0, "without the check (J7-C firmware) it is accepted");
	r[8] ^= 0x10;
	r[3] = ATORCH_DEV_AC;
	r[35] = atorch_checksum(r, ATORCH_REPORT_LEN);
	is_int(atorch_decode(r, 1, &out), -ENOTSUP, "an AC meter's report is not read");
}

static void test_dc_report(void)
{
	struct atorch_reading in = { .dev_type = ATORCH_DEV_DC, .v = 12.3, .a = 2.345, .mah = 1230,
				     .wh = 40, .temp_c = 25, .seconds = 59 };
	struct atorch_reading out;
	uint8_t r[ATORCH_REPORT_LEN];

	atorch_encode(&in, r);
	ok(r[6] == 123 && r[8] == 0x09 && r[9] == 0x29, "DC: 100 mV and 1 mA units");
	ok(!atorch_decode(r, 1, &out) && fabs(out.v - 12.3) < 1e-9 && fabs(out.a - 2.345) < 1e-9 &&
		   isnan(out.dp_v) && out.seconds == 59,
	   "a DC report decodes, no D+/D-");
}

static void test_resync(void)
{
	struct atorch_reading in = { .dev_type = ATORCH_DEV_USB, .v = 5, .a = 0.5 };
	struct atorch_reading out;
	struct atorch_rx rx = { .len = 0 };
	uint8_t good[ATORCH_REPORT_LEN], bad[ATORCH_REPORT_LEN], r[ATORCH_REPORT_LEN];
	static const uint8_t reply[8] = { 0xFF, 0x55, 0x02, 0x01, 0x01, 0x00, 0x00, 0x42 };
	int n = 0;

	atorch_encode(&in, good);
	memcpy(bad, good, sizeof(bad));
	bad[20] ^= 0xFF;
	atorch_rx_push(&rx, (const uint8_t *)"\x12\x34", 2);
	atorch_rx_push(&rx, reply, sizeof(reply));
	atorch_rx_push(&rx, bad, 10); /* a report cut short by a reconnect */
	atorch_rx_push(&rx, good, sizeof(good));
	atorch_rx_push(&rx, good, 20);
	while (atorch_rx_next(&rx, r)) {
		if (atorch_decode(r, 1, &out)) {
			atorch_rx_reject(&rx, r);
			continue;
		}
		n++;
	}
	is_int(n, 1, "garbage, a reply and a cut report are skipped; the good report is found");
	atorch_rx_push(&rx, good + 20, sizeof(good) - 20);
	ok(atorch_rx_next(&rx, r) && !atorch_decode(r, 1, &out), "a report split over two reads");
}

int main(void)
{
	test_command();
	test_usb_report();
	test_dc_report();
	test_resync();
	return done_testing();
}

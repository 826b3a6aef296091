/* SPDX-License-Identifier: MIT */
/* FNIRSI reports: CRC-8 against published command trailers, decode, round trip, rejects. */
#include <errno.h>
#include <string.h>

#include "meters/fnirsi/fnirsi_protocol.h"
#include "tap.h"

static void test_crc(void)
{
	static const char check[] = "123456789";
	uint8_t cmd[FNB_REPORT_LEN];

	/* Published: baryluk's logger sends these three complete frames. */
	fnb_command(FNB_CMD_INIT1, cmd);
	is_int(cmd[63], 0x8E, "AA 81 ... ends in 8E");
	fnb_command(FNB_CMD_INIT2, cmd);
	is_int(cmd[63], 0x96, "AA 82 ... ends in 96");
	fnb_command(FNB_CMD_POLL, cmd);
	is_int(cmd[63], 0x9E, "AA 83 ... ends in 9E");
	ok(cmd[0] == 0xAA && cmd[1] == 0x83 && cmd[2] == 0 && cmd[62] == 0,
	   "a command is AA, the code, zeros, the CRC");
	/* The catalogue check value of this CRC-8 (reveng's parameters in baryluk's logger). */
	is_int(fnb_crc8((const uint8_t *)check, 9), 0x4B, "CRC-8 of \"123456789\" is 0x4B");
}

static void test_decode(void)
{
	struct fnb_reading in[FNB_SAMPLES_PER_REPORT], out[FNB_SAMPLES_PER_REPORT];
	uint8_t r[FNB_REPORT_LEN];
	int i;

	/* A hand-built report: reading 0 is 5.12345 V (512345 = 0x0007D159), 1.00001 A
	 * (100001 = 0x000186A1), D+ 2.81 V, D- 2.80 V, 27.3 C. */
	memset(r, 0, sizeof(r));
	r[0] = 0xAA;
	r[1] = 0x04;
	r[2] = 0x59, r[3] = 0xD1, r[4] = 0x07, r[5] = 0x00;
	r[6] = 0xA1, r[7] = 0x86, r[8] = 0x01, r[9] = 0x00;
	r[10] = 0xFA, r[11] = 0x0A; /* 2810 mV */
	r[12] = 0xF0, r[13] = 0x0A; /* 2800 mV */
	r[14] = 1;
	r[15] = 0x11, r[16] = 0x01; /* 273 -> 27.3 C */
	r[63] = fnb_crc8(r + 1, 62);
	is_int(fnb_decode(r, out), 1, "a data report with a good CRC decodes");
	is_dbl(out[0].v, 5.12345, 1e-9, "VBUS in 10 uV");
	is_dbl(out[0].a, 1.00001, 1e-9, "IBUS in 10 uA");
	is_dbl(out[0].dp_v, 2.81, 1e-9, "D+ in mV");
	is_dbl(out[0].dn_v, 2.80, 1e-9, "D- in mV");
	is_dbl(out[0].temp_c, 27.3, 1e-9, "temperature in 0.1 C");
	is_dbl(out[1].v, 0.0, 0, "the other readings of a sparse report are zero");

	r[40] ^= 0x01;
	is_int(fnb_decode(r, out), -EBADMSG, "one flipped bit fails the CRC");
	r[40] ^= 0x01;
	r[0] = 0xAB;
	is_int(fnb_decode(r, out), -EBADMSG, "a wrong magic is refused");
	r[0] = 0xAA;
	r[1] = 0x03;
	r[63] = fnb_crc8(r + 1, 62);
	is_int(fnb_decode(r, out), 0, "a report of another type is skipped, not an error");

	for (i = 0; i < FNB_SAMPLES_PER_REPORT; i++)
		in[i] = (struct fnb_reading){ 5.0 + i * 0.01, 0.25 + i * 0.001, 0.6, 0.6, 30.5 };
	fnb_encode(in, r);
	ok(fnb_decode(r, out) == 1 && fabs(out[3].v - 5.03) < 1e-9 && fabs(out[2].a - 0.252) < 1e-9 &&
		   fabs(out[1].temp_c - 30.5) < 1e-9,
	   "encode and decode agree");
}

static void test_models(void)
{
	const struct fnb_model *m = fnb_model_by_id(0x2E3C, 0x5558);

	ok(m && !strcmp(m->meta.name, "FNB58") && m->keepalive_82, "2e3c:5558 is an FNB58");
	m = fnb_model_by_id(0x0483, 0x003A);
	ok(m && !strcmp(m->meta.name, "FNB48") && !m->keepalive_82, "0483:003a is an FNB48");
	ok(fnb_model_by_id(0x2E3C, 0x0049) && fnb_model_by_id(0x0483, 0x003B),
	   "FNB48S and C1 are known");
	ok(!fnb_model_by_id(0x0483, 0x5740), "another STM32 device is not");
}

int main(void)
{
	test_crc();
	test_decode();
	test_models();
	return done_testing();
}

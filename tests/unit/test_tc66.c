/* SPDX-License-Identifier: MIT */
/* TC66C: the published reply decrypts (nettle AES-256-ECB) and decodes exactly; CRCs. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"

#ifdef HAVE_NETTLE
#include "meters/tc66/tc66_protocol.h"

/* tests/data/tc66c/NAME.hex: 192 bytes as hex lines. */
static int load_hex(const char *name, uint8_t out[TC66_REPLY_LEN])
{
	char path[256];
	FILE *fp;
	unsigned b;
	size_t n = 0;

	snprintf(path, sizeof(path), "tests/data/tc66c/%s.hex", name);
	fp = fopen(path, "r");
	if (!fp)
		return -errno;
	while (n < TC66_REPLY_LEN && fscanf(fp, "%2x", &b) == 1)
		out[n++] = (uint8_t)b;
	fclose(fp);
	return n == TC66_REPLY_LEN ? 0 : -EINVAL;
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static void test_vector(void)
{
	uint8_t cipher[TC66_REPLY_LEN], plain[TC66_REPLY_LEN], again[TC66_REPLY_LEN];
	struct tc66_reading r;

	ok(!load_hex("cipher", cipher) && !load_hex("plain", plain), "the published vector loads");
	memcpy(again, cipher, sizeof(again));
	tc66_decrypt(again);
	ok(!memcmp(again, plain, sizeof(plain)), "the ciphertext decrypts to the published plaintext");
	tc66_encrypt(again);
	ok(!memcmp(again, cipher, sizeof(cipher)), "and encrypts back");
	is_int(tc66_crc16(plain, 60), 0x77BE, "pac1 CRC-16/MODBUS 0x77BE");
	is_int(tc66_crc16(plain + 64, 60), 0x816A, "pac2 CRC 0x816A");
	is_int(tc66_crc16(plain + 128, 60), 0x0528, "pac3 CRC 0x0528");
	ok(le16(plain + 60) == 0x77BE && le16(plain + 124) == 0x816A && le16(plain + 188) == 0x0528,
	   "each block carries its CRC");
	is_int(tc66_decode(plain, &r), 0, "the vector decodes");
	is_dbl(r.v, 5.1609, 1e-12, "5.1609 V");
	is_dbl(r.a, 0.01990, 1e-12, "19.90 mA");
	is_dbl(r.w, 0.1026, 1e-12, "0.1026 W (the meter's own, not V x I)");
	is_str(r.fw, "1.18", "firmware 1.18");
	is_str(r.model, "TC66", "model TC66");
	is_dbl(r.ohms, 259.3, 1e-9, "259.3 Ohm");
	is_dbl(r.temp_c, 27, 0, "27 C");
	is_dbl(r.dp_v, 2.81, 1e-12, "D+ 2.81 V");
	is_dbl(r.dn_v, 2.80, 1e-12, "D- 2.80 V");
	is_dbl(r.mwh[0], 5, 0, "group 0: 5 mWh");

	plain[50] ^= 1;
	is_int(tc66_decode(plain, &r), -EBADMSG, "a changed byte fails its block's CRC");
	plain[50] ^= 1;
	plain[64] = 'x';
	is_int(tc66_decode(plain, &r), -EBADMSG, "a wrong magic is refused");
	memcpy(again, cipher, sizeof(again));
	again[100] ^= 0x80;
	tc66_decrypt(again);
	is_int(tc66_decode(again, &r), -EBADMSG, "a flipped ciphertext bit ruins its block");
}

static void test_round_trip(void)
{
	struct tc66_reading in = { .model = "TC66", .fw = "1.18", .v = 5.0375, .a = 0.25,
				   .w = 1.2594, .temp_c = -3 }, out;
	uint8_t buf[TC66_REPLY_LEN];

	tc66_encode(&in, buf);
	tc66_encrypt(buf);
	tc66_decrypt(buf);
	ok(!tc66_decode(buf, &out) && fabs(out.v - 5.0375) < 1e-9 && fabs(out.a - 0.25) < 1e-9 &&
		   fabs(out.w - 1.2594) < 1e-9 && out.temp_c == -3,
	   "encode, encrypt, decrypt, decode (negative temperature too)");
}

int main(void)
{
	test_vector();
	test_round_trip();
	return done_testing();
}
#else
int main(void)
{
	skip("built without nettle: no TC66 driver");
	return done_testing();
}
#endif

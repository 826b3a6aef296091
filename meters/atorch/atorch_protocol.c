/* SPDX-License-Identifier: MIT */
/* ATORCH pushed reports: checksum, USB (type 3) and DC (type 2) layouts, resync, encoding. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "meters/atorch/atorch_protocol.h"

#define CK_XOR 0x44
#define CK_FIRST 2
#define O_TYPE 2
#define O_DEV 3
#define O_V 4
#define O_I 7
#define O_CAP 10
#define O_ENERGY 13
#define CMD_O_DEV 3
#define CMD_O_CMD 4
#define CMD_O_VALUE 5
/* USB layout */
#define U_DN 17
#define U_DP 19
#define U_TEMP 21
#define U_HOURS 23
#define U_MIN 25
#define U_SEC 26
#define U_V_LSB 0.01	 /* 10 mV */
#define U_I_LSB 0.01	 /* 10 mA */
#define U_CAP_LSB 1.0	 /* mAh */
#define U_E_LSB 0.01	 /* 10 mWh, in Wh */
#define U_DATA_LSB 0.01	 /* 10 mV */
/* DC layout (sigrok and syssi agree; atorch-console reads energy differently) */
#define D_TEMP 24
#define D_HOURS 26
#define D_MIN 28
#define D_SEC 29
#define D_V_LSB 0.1	 /* 100 mV */
#define D_I_LSB 0.001	 /* 1 mA */
#define D_CAP_LSB 10.0	 /* 10 mAh */
#define D_E_LSB 10.0	 /* 10 Wh */
#define SECS_PER_HOUR 3600u
#define SECS_PER_MIN 60u

/* No primary source gives these meters' limits; only reverse current is ruled out. */
const struct meter_model atorch_models[2] = {
	{ "ATORCH USB", { NAN, NAN, 0.0, NAN, NAN }, "no public datasheet", .accuracy = { .source = NULL } },
	{ "ATORCH DC", { NAN, NAN, 0.0, NAN, NAN }, "no public datasheet", .accuracy = { .source = NULL } },
};

uint8_t atorch_checksum(const uint8_t *f, size_t len)
{
	unsigned sum = 0;
	size_t i;

	for (i = CK_FIRST; i + 1 < len; i++)
		sum += f[i];
	return (uint8_t)((sum & 0xFF) ^ CK_XOR);
}

static uint32_t be(const uint8_t *p, int n)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static void put_be(uint8_t *p, int n, double x)
{
	double max = n == 4 ? 4294967295.0 : (double)((1u << (8 * n)) - 1);
	uint32_t v = x <= 0 ? 0 : x >= max ? (uint32_t)max : (uint32_t)lround(x);
	int i;

	for (i = n - 1; i >= 0; i--) {
		p[i] = (uint8_t)v;
		v >>= 8;
	}
}

void atorch_command(uint8_t dev_type, uint8_t cmd, uint32_t value, uint8_t out[ATORCH_CMD_LEN])
{
	out[0] = ATORCH_MAGIC0;
	out[1] = ATORCH_MAGIC1;
	out[2] = ATORCH_MSG_CMD;
	out[CMD_O_DEV] = dev_type;
	out[CMD_O_CMD] = cmd;
	put_be(out + CMD_O_VALUE, 4, value);
	out[ATORCH_CMD_LEN - 1] = atorch_checksum(out, ATORCH_CMD_LEN);
}

static uint32_t run_time(const uint8_t *r, int h, int m, int s)
{
	return be(r + h, 2) * SECS_PER_HOUR + r[m] * SECS_PER_MIN + r[s];
}

int atorch_decode(const uint8_t r[ATORCH_REPORT_LEN], int check, struct atorch_reading *out)
{
	if (r[0] != ATORCH_MAGIC0 || r[1] != ATORCH_MAGIC1 || r[O_TYPE] != ATORCH_MSG_REPORT)
		return -EBADMSG;
	if (check && atorch_checksum(r, ATORCH_REPORT_LEN) != r[ATORCH_REPORT_LEN - 1])
		return -EBADMSG;
	out->dev_type = r[O_DEV];
	if (r[O_DEV] == ATORCH_DEV_USB) {
		out->v = be(r + O_V, 3) * U_V_LSB;
		out->a = be(r + O_I, 3) * U_I_LSB;
		out->mah = be(r + O_CAP, 3) * U_CAP_LSB;
		out->wh = be(r + O_ENERGY, 4) * U_E_LSB;
		out->dn_v = be(r + U_DN, 2) * U_DATA_LSB;
		out->dp_v = be(r + U_DP, 2) * U_DATA_LSB;
		out->temp_c = be(r + U_TEMP, 2);
		out->seconds = run_time(r, U_HOURS, U_MIN, U_SEC);
		return 0;
	}
	if (r[O_DEV] == ATORCH_DEV_DC) {
		out->v = be(r + O_V, 3) * D_V_LSB;
		out->a = be(r + O_I, 3) * D_I_LSB;
		out->mah = be(r + O_CAP, 3) * D_CAP_LSB;
		out->wh = be(r + O_ENERGY, 4) * D_E_LSB;
		out->dp_v = out->dn_v = NAN;
		out->temp_c = be(r + D_TEMP, 2);
		out->seconds = run_time(r, D_HOURS, D_MIN, D_SEC);
		return 0;
	}
	return -ENOTSUP;
}

void atorch_encode(const struct atorch_reading *in, uint8_t r[ATORCH_REPORT_LEN])
{
	int usb = in->dev_type == ATORCH_DEV_USB;
	uint32_t s = in->seconds;

	memset(r, 0, ATORCH_REPORT_LEN);
	r[0] = ATORCH_MAGIC0;
	r[1] = ATORCH_MAGIC1;
	r[O_TYPE] = ATORCH_MSG_REPORT;
	r[O_DEV] = (uint8_t)in->dev_type;
	put_be(r + O_V, 3, in->v / (usb ? U_V_LSB : D_V_LSB));
	put_be(r + O_I, 3, in->a / (usb ? U_I_LSB : D_I_LSB));
	put_be(r + O_CAP, 3, in->mah / (usb ? U_CAP_LSB : D_CAP_LSB));
	put_be(r + O_ENERGY, 4, in->wh / (usb ? U_E_LSB : D_E_LSB));
	if (usb) {
		put_be(r + U_DN, 2, in->dn_v / U_DATA_LSB);
		put_be(r + U_DP, 2, in->dp_v / U_DATA_LSB);
	}
	put_be(r + (usb ? U_TEMP : D_TEMP), 2, in->temp_c);
	put_be(r + (usb ? U_HOURS : D_HOURS), 2, s / SECS_PER_HOUR);
	r[usb ? U_MIN : D_MIN] = (uint8_t)(s / SECS_PER_MIN % SECS_PER_MIN);
	r[usb ? U_SEC : D_SEC] = (uint8_t)(s % SECS_PER_MIN);
	r[ATORCH_REPORT_LEN - 1] = atorch_checksum(r, ATORCH_REPORT_LEN);
}

void atorch_rx_push(struct atorch_rx *rx, const uint8_t *data, size_t n)
{
	size_t room, drop;

	while (n) {
		room = sizeof(rx->buf) - rx->len;
		if (!room) {
			/* Full without a report: keep the newest half. */
			drop = sizeof(rx->buf) / 2;
			memmove(rx->buf, rx->buf + drop, rx->len - drop);
			rx->len -= (unsigned)drop;
			rx->skipped += drop;
			room = drop;
		}
		if (room > n)
			room = n;
		memcpy(rx->buf + rx->len, data, room);
		rx->len += (unsigned)room;
		data += room;
		n -= room;
	}
}

static void rx_drop(struct atorch_rx *rx, unsigned n)
{
	memmove(rx->buf, rx->buf + n, rx->len - n);
	rx->len -= n;
	rx->skipped += n;
}

/* Replies to our commands (FF 55 02) and noise are skipped; only reports are returned. */
int atorch_rx_next(struct atorch_rx *rx, uint8_t r[ATORCH_REPORT_LEN])
{
	static const uint8_t head[3] = { ATORCH_MAGIC0, ATORCH_MAGIC1, ATORCH_MSG_REPORT };
	unsigned i, k;

	for (i = 0; i < rx->len; i++) {
		k = rx->len - i < sizeof(head) ? rx->len - i : (unsigned)sizeof(head);
		if (!memcmp(rx->buf + i, head, k))
			break;
	}
	if (i)
		rx_drop(rx, i);
	if (rx->len < ATORCH_REPORT_LEN)
		return 0;
	memcpy(r, rx->buf, ATORCH_REPORT_LEN);
	memmove(rx->buf, rx->buf + ATORCH_REPORT_LEN, rx->len - ATORCH_REPORT_LEN);
	rx->len -= ATORCH_REPORT_LEN;
	return 1;
}

void atorch_rx_reject(struct atorch_rx *rx, const uint8_t r[ATORCH_REPORT_LEN])
{
	uint8_t tmp[sizeof(rx->buf)];
	unsigned back = ATORCH_REPORT_LEN - 1, keep = rx->len;

	/* The rejected report minus its first byte goes back ahead of what followed it. */
	if (keep > sizeof(rx->buf) - back)
		keep = (unsigned)sizeof(rx->buf) - back;
	memcpy(tmp, rx->buf, keep);
	memcpy(rx->buf, r + 1, back);
	memcpy(rx->buf + back, tmp, keep);
	rx->len = back + keep;
	rx->skipped++;
}

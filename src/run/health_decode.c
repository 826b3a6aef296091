/* SPDX-License-Identifier: MIT */
/* Decoding what storage says of its wear and class: eMMC EXT_CSD fields, SD SSR and CID, NVMe SMART. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/mem.h"
#include "run/health_decode.h"

int health_life_time_pct(int code)
{
	if (code < 1 || code > 11)
		return -1;
	return code * 10;
}

const char *health_pre_eol_name(int code)
{
	static const char *const names[] = { NULL, "normal", "warning", "urgent" };

	return code >= 1 && code <= 3 ? names[code] : NULL;
}

const char *health_emmc_version(int rev)
{
	/* EXT_CSD_REV 4 was never assigned a version */
	static const char *const v[] = { "4.0", "4.1", "4.2", "4.3", NULL, "4.41", "4.5", "5.0", "5.1" };

	return rev >= 0 && (size_t)rev < ARRAY_SIZE(v) ? v[rev] : NULL;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Byte `i` of the register counting from bit 511's byte. */
static int ssr_byte(const char *hex, size_t i)
{
	return hexval(hex[2 * i]) << 4 | hexval(hex[2 * i + 1]);
}

/*
 * Bit b of the 512-bit register sits in byte (511 - b) / 8 of the string: SPEED_CLASS
 * 447:440 is byte 8, UHS_SPEED_GRADE 399:396 byte 14's high nibble, VIDEO_SPEED_CLASS
 * 391:384 byte 15, APP_PERF_CLASS 339:336 byte 21's low nibble (SD Physical Layer
 * Simplified Specification, "SD Status").
 */
int health_sd_ssr_decode(const char *hex, struct sd_classes *out)
{
	static const char *const speed[] = { NULL, "C2", "C4", "C6", "C10" };
	size_t i, n = strcspn(hex, "\n");
	int sc, uhs, vsc, app;

	memset(out, 0, sizeof(*out));
	if (n != 128)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (hexval(hex[i]) < 0)
			return -EINVAL;
	sc = ssr_byte(hex, 8);
	uhs = ssr_byte(hex, 14) >> 4;
	vsc = ssr_byte(hex, 15);
	app = ssr_byte(hex, 21) & 0x0f;
	out->speed_class = sc < (int)ARRAY_SIZE(speed) ? speed[sc] : NULL;
	out->uhs_grade = uhs == 1 ? "U1" : uhs == 3 ? "U3" : NULL;
	if (vsc == 6 || vsc == 10 || vsc == 30 || vsc == 60 || vsc == 90)
		snprintf(out->video_class, sizeof(out->video_class), "V%d", vsc);
	out->app_class = app == 0 ? "none" : app == 1 ? "A1" : app == 2 ? "A2" : NULL;
	return 0;
}

struct maker {
	unsigned id;
	const char *name;
};

/*
 * Manufacturer IDs as the widely published lists give them (the SD Association and JEDEC
 * assign them but publish no table); an ID not here reads as its hex value.
 */
static const struct maker sd_makers[] = {
	{ 0x01, "Panasonic" }, { 0x02, "Toshiba" }, { 0x03, "SanDisk" }, { 0x1b, "Samsung" },
	{ 0x1d, "ADATA" },     { 0x27, "Phison" },  { 0x28, "Lexar" },	 { 0x31, "Silicon Power" },
	{ 0x41, "Kingston" },  { 0x74, "Transcend" }, { 0x76, "Patriot" }, { 0x82, "Sony" },
};

static const struct maker mmc_makers[] = {
	{ 0x11, "Toshiba" }, { 0x13, "Micron" },   { 0x15, "Samsung" }, { 0x45, "SanDisk" },
	{ 0x70, "Kingston" }, { 0x90, "SK Hynix" }, { 0xfe, "Micron" },
};

const char *health_cid_maker(const char *type, unsigned manfid)
{
	const struct maker *t = sd_makers;
	size_t i, n = ARRAY_SIZE(sd_makers);

	if (type && !strcmp(type, "MMC")) {
		t = mmc_makers;
		n = ARRAY_SIZE(mmc_makers);
	}
	for (i = 0; i < n; i++)
		if (t[i].id == manfid)
			return t[i].name;
	return NULL;
}

void health_cid_oem(unsigned oemid, char *buf, size_t len)
{
	int hi = (int)(oemid >> 8 & 0xff), lo = (int)(oemid & 0xff);

	if (oemid <= 0xffff && isalnum(hi) && isalnum(lo))
		snprintf(buf, len, "%c%c", hi, lo);
	else
		snprintf(buf, len, "0x%04x", oemid);
}

int health_cid_date(const char *mm_yyyy, char *buf, size_t len)
{
	unsigned m, y;
	char end;

	if (!mm_yyyy || sscanf(mm_yyyy, "%u/%u%c", &m, &y, &end) != 2 || m < 1 || m > 12 ||
	    y < 1990 || y > 2100)
		return -EINVAL;
	snprintf(buf, len, "%04u-%02u", y, m);
	return 0;
}

/* FNV-1a over the text, then a 64-bit finaliser so that the top bits mix every input bit. */
static uint64_t hash_text(const char *s, uint64_t h)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

void health_serial_hash(const char *manfid, const char *oemid, const char *name,
			const char *date, const char *serial, char buf[7])
{
	const char *parts[] = { manfid, oemid, name, date, serial };
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(parts); i++) {
		h = hash_text(parts[i] ? parts[i] : "", h);
		h = hash_text("/", h);
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	snprintf(buf, 7, "%06x", (unsigned)(h >> 40));
}

static uint64_t le(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/*
 * The counters are 128-bit; a value above 2^64 units (9 ZB) does not occur, so the low
 * 8 bytes are the count. Temperature is in kelvin; 0 is no reading, not -273 C.
 */
void health_nvme_smart_decode(const uint8_t log[NVME_SMART_LOG_BYTES], struct nvme_smart *out)
{
	out->critical_warning = log[0];
	out->temperature_c = le(log + 1, 2) ? (int)le(log + 1, 2) - 273 : NVME_TEMP_NONE;
	out->percentage_used = log[5];
	out->data_units_written = le(log + 48, 8);
	out->media_errors = le(log + 160, 8);
}

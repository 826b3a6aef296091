/* SPDX-License-Identifier: MIT */
/* Decoding what storage says of its wear and class: eMMC EXT_CSD fields, SD SSR and CID, NVMe SMART. */
#ifndef IOWATT_RUN_HEALTH_DECODE_H
#define IOWATT_RUN_HEALTH_DECODE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

/*
 * eMMC DEVICE_LIFE_TIME_EST_TYP_A/B: 1..10 is the band (N-1)*10 .. N*10 % of life used,
 * 11 is past the estimate. The top of the band in %, or -1 for 0 (not defined) and
 * reserved values.
 */
int health_life_time_pct(int code);
/* "normal", "warning" (80 % of reserved blocks used), "urgent" (90 %), or NULL. */
const char *health_pre_eol_name(int code);
/* EXT_CSD_REV -> the eMMC version it means ("5.1"), or NULL. */
const char *health_emmc_version(int rev);

/* The classes the SD Status register (ACMD13) rates the card with. NULL: not rated. */
struct sd_classes {
	const char *speed_class; /* "C2" "C4" "C6" "C10" */
	const char *uhs_grade;	 /* "U1" "U3" */
	char video_class[8];	 /* "V6" .. "V90"; "" not rated */
	const char *app_class;	 /* "A1" "A2"; "none" when rated 0 */
};

/*
 * The sysfs `ssr` attribute: 512 bits as 128 hex digits, bit 511 first (the kernel prints
 * the 16 words of the register big-endian). 0, or -EINVAL when it is not that.
 */
int health_sd_ssr_decode(const char *hex, struct sd_classes *out);

/* A CID's maker for manfid on a card of type "SD" or "MMC": a name or NULL (unknown). */
const char *health_cid_maker(const char *type, unsigned manfid);
/* oemid as SD writes it (two ASCII letters, "SD"), or hex ("0x0100") when not letters. */
void health_cid_oem(unsigned oemid, char *buf, size_t len);
/* sysfs "06/2022" -> "2022-06"; 0 or -EINVAL. */
int health_cid_date(const char *mm_yyyy, char *buf, size_t len);
/*
 * 24 bits (6 hex digits) of a hash of the card's CID fields and serial: equal for the
 * same card, and too short to give the 32-bit serial back (2^8 serials share each).
 */
void health_serial_hash(const char *manfid, const char *oemid, const char *name,
			const char *date, const char *serial, char buf[7]);

/* The fields of the NVMe SMART / Health Information log page (02h) iowatt keeps. */
struct nvme_smart {
	unsigned critical_warning;
	int temperature_c; /* NVME_TEMP_NONE: the drive said 0 K (no sensor; nvmet's loop target) */
	unsigned percentage_used;
	uint64_t data_units_written; /* 1000 x 512 bytes each, rounded up by the drive */
	uint64_t media_errors;
};

#define NVME_TEMP_NONE INT_MIN
#define NVME_SMART_LOG_BYTES 512
/* The 512-byte log page (little-endian, as the drive returns it). */
void health_nvme_smart_decode(const uint8_t log[NVME_SMART_LOG_BYTES], struct nvme_smart *out);

#endif

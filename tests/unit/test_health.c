/* SPDX-License-Identifier: MIT */
/* Device health and power settings: the decoders, and fake sysfs trees laid out as the kernel documents them. */
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "result/result_json.h"
#include "run/context_device.h"
#include "run/context_health.h"
#include "run/health_decode.h"
#include "tap.h"

#define DATA "tests/data/"

/* A register of 512 bits as `ssr` prints it, with field values set at their bits. */
static void ssr_hex(char out[129], unsigned speed, unsigned uhs, unsigned video, unsigned app)
{
	unsigned char b[64];
	size_t i;

	memset(b, 0, sizeof(b));
	/* bit k of the register is bit (k % 8) of byte 63 - k / 8 */
	b[63 - 440 / 8] = (unsigned char)speed;
	b[63 - 396 / 8] |= (unsigned char)(uhs << (396 % 8));
	b[63 - 384 / 8] = (unsigned char)video;
	b[63 - 336 / 8] |= (unsigned char)(app << (336 % 8));
	for (i = 0; i < 64; i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
}

static void test_ssr(void)
{
	struct sd_classes c;
	char hex[129];

	ssr_hex(hex, 4, 3, 30, 2);
	is_int(health_sd_ssr_decode(hex, &c), 0, "ssr: 128 hex digits decode");
	is_str(c.speed_class, "C10", "ssr: SPEED_CLASS 4 is C10");
	is_str(c.uhs_grade, "U3", "ssr: UHS grade 3 is U3");
	is_str(c.video_class, "V30", "ssr: video class 30");
	is_str(c.app_class, "A2", "ssr: APP_PERF_CLASS 2 is A2");
	ssr_hex(hex, 2, 1, 0, 1);
	health_sd_ssr_decode(hex, &c);
	ok(!strcmp(c.speed_class, "C4") && !strcmp(c.uhs_grade, "U1") && !c.video_class[0] &&
		   !strcmp(c.app_class, "A1"),
	   "ssr: C4 U1, no video class, A1");
	ssr_hex(hex, 0, 0, 0, 0);
	health_sd_ssr_decode(hex, &c);
	ok(!c.speed_class && !c.uhs_grade && !strcmp(c.app_class, "none"),
	   "ssr: an unrated card has no classes and app class none");
	is_int(health_sd_ssr_decode("0123", &c), -22, "ssr: too short is -EINVAL");
	hex[5] = 'g';
	is_int(health_sd_ssr_decode(hex, &c), -22, "ssr: a non-hex digit is -EINVAL");
}

static void test_cid(void)
{
	char buf[16], h1[7], h2[7], h3[7];

	is_str(health_cid_maker("SD", 0x03), "SanDisk", "cid: SD 0x03 is SanDisk");
	is_str(health_cid_maker("MMC", 0x15), "Samsung", "cid: MMC 0x15 is Samsung");
	ok(!health_cid_maker("SD", 0xee), "cid: an unknown ID has no name");
	health_cid_oem(0x5344, buf, sizeof(buf));
	is_str(buf, "SD", "cid: OEM 0x5344 is 'SD'");
	health_cid_oem(0x0100, buf, sizeof(buf));
	is_str(buf, "0x0100", "cid: a non-letter OEM stays hex");
	is_int(health_cid_date("06/2022", buf, sizeof(buf)), 0, "cid: date parses");
	is_str(buf, "2022-06", "cid: date as year-month");
	ok(health_cid_date("13/2022", buf, sizeof(buf)) < 0, "cid: month 13 is refused");
	health_serial_hash("0x000003", "0x5344", "SC64G", "06/2022", "0x012345ab", h1);
	health_serial_hash("0x000003", "0x5344", "SC64G", "06/2022", "0x012345ab", h2);
	health_serial_hash("0x000003", "0x5344", "SC64G", "06/2022", "0x012345ac", h3);
	is_str(h1, h2, "serial hash: the same card hashes alike");
	ok(strcmp(h1, h3) != 0, "serial hash: the next serial differs");
	is_int((long long)strlen(h1), 6, "serial hash: 6 hex digits (24 bits)");
}

static void test_emmc_codes(void)
{
	is_int(health_life_time_pct(1), 10, "life_time 0x01: up to 10 %%");
	is_int(health_life_time_pct(10), 100, "life_time 0x0A: up to 100 %%");
	is_int(health_life_time_pct(11), 110, "life_time 0x0B: past the estimate");
	is_int(health_life_time_pct(0), -1, "life_time 0x00: not defined");
	is_str(health_pre_eol_name(3), "urgent", "pre_eol 3 is urgent");
	ok(!health_pre_eol_name(4), "pre_eol 4 is reserved");
	is_str(health_emmc_version(8), "5.1", "EXT_CSD_REV 8 is eMMC 5.1");
	is_str(health_emmc_version(7), "5.0", "EXT_CSD_REV 7 is eMMC 5.0");
	ok(!health_emmc_version(4) && !health_emmc_version(9), "EXT_CSD_REV 4 and 9: none");
}

/* A log page laid out as NVMe's SMART / Health Information (log 02h), little-endian. */
static void test_smart(void)
{
	uint8_t log[NVME_SMART_LOG_BYTES];
	struct nvme_smart s;

	memset(log, 0, sizeof(log));
	log[0] = 0x04;			  /* critical warning: reliability degraded */
	log[1] = 0x3b, log[2] = 0x01;	  /* 315 K */
	log[5] = 7;			  /* percentage used */
	log[48] = 0x40, log[49] = 0x42, log[50] = 0x0f; /* data units written 1000000 */
	log[52] = 0x01;			  /* + 2^32 */
	log[160] = 3;			  /* media errors */
	health_nvme_smart_decode(log, &s);
	is_int(s.critical_warning, 4, "smart: critical warning byte 0");
	is_int(s.temperature_c, 42, "smart: 315 K is 42 C");
	is_int(s.percentage_used, 7, "smart: percentage used byte 5");
	is_int((long long)s.data_units_written, 1000000LL + (1LL << 32),
	       "smart: data units written, bytes 48.. little-endian");
	is_int((long long)s.media_errors, 3, "smart: media errors at byte 160");
	log[1] = log[2] = 0; /* nvmet's loop target, a drive without a sensor */
	health_nvme_smart_decode(log, &s);
	ok(s.temperature_c == NVME_TEMP_NONE, "smart: 0 K is no reading, not %d C", s.temperature_c);
}

static json_t *health_json(const char *tree, const char *disk, json_t **pm)
{
	struct device_dirs dd;
	struct run_result r;
	json_t *doc, *dev;

	memset(&r, 0, sizeof(r));
	if (device_dirs_find(tree, disk, &dd))
		return NULL;
	r.context = xcalloc(1, sizeof(*r.context));
	r.context->device = xcalloc(1, sizeof(*r.context->device));
	r.context->device->health = context_health(&dd);
	r.context->device->power_management = context_power_mgmt(&dd);
	doc = result_to_json(&r);
	dev = json_object_get(json_object_get(doc, "context"), "device");
	*pm = json_incref(json_object_get(dev, "power_management"));
	dev = json_incref(json_object_get(dev, "health"));
	json_decref(doc);
	result_free(&r);
	return dev;
}

static const char *s_(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static long long i_(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_integer(v) ? json_integer_value(v) : -999;
}

/* Does one of `missing`'s lines name this field? */
static int missing_names(json_t *o, const char *field)
{
	json_t *m = json_object_get(o, "missing"), *v;
	size_t i;

	json_array_foreach(m, i, v)
		if (strstr(json_string_value(v), field))
			return 1;
	return 0;
}

static void test_tree_sd(void)
{
	json_t *pm, *h = health_json(DATA "sysfs-mmc", "mmcblk0", &pm);

	is_str(s_(h, "source"), "sd", "sd tree: source sd");
	is_str(s_(h, "app_class"), "A2", "sd tree: A2");
	is_str(s_(h, "video_class"), "V30", "sd tree: V30");
	is_str(s_(h, "speed_class"), "C10", "sd tree: C10");
	is_str(s_(h, "uhs_grade"), "U3", "sd tree: U3");
	is_str(s_(h, "maker"), "SanDisk", "sd tree: maker from manfid");
	is_str(s_(h, "oem"), "SD", "sd tree: OEM letters");
	is_str(s_(h, "date"), "2022-06", "sd tree: date");
	ok(json_is_null(json_object_get(h, "used_pct")) && missing_names(h, "used_pct"),
	   "sd tree: no wear figure, and missing says why");
	is_str(s_(pm, "control"), "auto", "sd tree: runtime PM control");
	ok(missing_names(pm, "apst_enabled"), "sd tree: APST is NVMe only");
	json_decref(h);
	json_decref(pm);
}

static void test_tree_emmc(void)
{
	json_t *pm, *h = health_json(DATA "sysfs-emmc", "mmcblk1", &pm);

	is_str(s_(h, "source"), "emmc", "emmc tree: source emmc");
	is_int(i_(h, "life_time_a"), 1, "emmc tree: life time A 0x01");
	is_int(i_(h, "life_time_b"), 2, "emmc tree: life time B 0x02");
	is_int(i_(h, "used_pct"), 20, "emmc tree: used_pct is the worse band's top");
	is_int(i_(h, "pre_eol_info"), 1, "emmc tree: pre-EOL normal");
	is_int(i_(h, "ext_csd_rev"), 8, "emmc tree: EXT_CSD rev 8");
	is_str(s_(h, "emmc_version"), "5.1", "emmc tree: eMMC 5.1");
	is_str(s_(h, "maker"), "SanDisk", "emmc tree: MMC maker table");
	ok(json_is_null(json_object_get(h, "app_class")) && missing_names(h, "app_class"),
	   "emmc tree: no SD classes, with the reason");
	is_str(s_(pm, "control"), "on", "emmc tree: runtime PM off (control on)");
	json_decref(h);
	json_decref(pm);
}

static void test_tree_emmc_worn(void)
{
	json_t *pm, *h = health_json(DATA "sysfs-emmcworn", "mmcblk1", &pm);

	is_int(i_(h, "life_time_a"), 10, "worn emmc: life time A 0x0A (90-100 %%)");
	is_int(i_(h, "life_time_b"), 11, "worn emmc: life time B 0x0B (past the estimate)");
	is_int(i_(h, "used_pct"), 110, "worn emmc: used_pct past 100");
	is_int(i_(h, "pre_eol_info"), 3, "worn emmc: pre-EOL urgent");
	json_decref(h);
	json_decref(pm);
}

static void test_tree_nvme(void)
{
	json_t *pm, *h = health_json(DATA "sysfs-nvme", "nvme0n1", &pm);

	is_str(s_(h, "source"), "nvme", "nvme tree: source nvme");
	ok(json_is_null(json_object_get(h, "used_pct")) && missing_names(h, "used_pct"),
	   "nvme tree: no SMART without the device node, and why");
	is_int(i_(h, "temperature_c"), 41, "nvme tree: temperature from the hwmon chip");
	is_int(i_(pm, "apst_max_latency_us"), 100000, "nvme tree: nvme_core's APST latency");
	ok(json_is_null(json_object_get(pm, "apst_enabled")) && missing_names(pm, "apst_enabled"),
	   "nvme tree: APST on/off needs the admin command, null with why");
	is_str(s_(pm, "control"), "auto", "nvme tree: the PCI function's runtime PM");
	json_decref(h);
	json_decref(pm);
}

static void test_tree_usb(void)
{
	json_t *pm, *h = health_json(DATA "sysfs-usb", "sda", &pm);

	is_str(s_(h, "usb_protocol"), "uas", "usb tree: UAS");
	is_str(s_(h, "usb_speed"), "5000M", "usb tree: SuperSpeed");
	is_int(i_(pm, "autosuspend_delay_ms"), 2000, "usb tree: autosuspend delay");
	is_str(s_(pm, "control"), "auto", "usb tree: autosuspend allowed");
	json_decref(h);
	json_decref(pm);
	h = health_json(DATA "sysfs-usbbot", "sda", &pm);
	is_str(s_(h, "usb_protocol"), "bot", "usb-storage tree: bulk-only transport");
	is_str(s_(h, "usb_speed"), "480M", "usb-storage tree: high speed");
	json_decref(h);
	json_decref(pm);
}

static void test_tree_loop(void)
{
	json_t *pm, *h = health_json(DATA "sysfs-loop", "loop3", &pm);

	ok(json_is_null(json_object_get(h, "source")) && missing_names(h, "health"),
	   "loop tree: no health, and why");
	json_decref(h);
	json_decref(pm);
}

int main(void)
{
	test_ssr();
	test_cid();
	test_emmc_codes();
	test_smart();
	test_tree_sd();
	test_tree_emmc();
	test_tree_emmc_worn();
	test_tree_nvme();
	test_tree_usb();
	test_tree_loop();
	return done_testing();
}

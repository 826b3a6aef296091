/* SPDX-License-Identifier: MIT */
/* The iio: meter against a fake IIO sysfs tree: polled reads, and buffered scans through a FIFO. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "board_util.h"
#include "core/clock.h"
#include "meters/board/iio_scan.h"
#include "tap.h"

static struct capture cap;
static char root[256];

/* The two devices: as the kernel's ina2xx-adc lays them out (channels 0 shunt, 1 bus,
 * 2 power, 3 current, 4 timestamp) with the scales it computes for the given shunt. */
#define DEV0 "/sys/bus/iio/devices/iio:device0"
#define DEV1 "/sys/bus/iio/devices/iio:device1"

static void put(const char *rel, const char *val)
{
	tree_put(root, rel, val);
}

static void get(const char *rel, char *buf, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	buf[0] = 0;
	f = fopen(path, "r");
	if (f) {
		if (!fgets(buf, (int)len, f))
			buf[0] = 0;
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = 0;
}

static void mkdirs(const char *rel)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s%s'", root, rel);
	if (system(cmd) != 0)
		printf("# mkdir %s failed\n", rel);
}

static void scan_elem(const char *dev, const char *name, int index, const char *type)
{
	char rel[300], v[16];

	snprintf(v, sizeof(v), "%d", index);
	snprintf(rel, sizeof(rel), "%s/scan_elements/%s_index", dev, name);
	put(rel, v);
	snprintf(rel, sizeof(rel), "%s/scan_elements/%s_type", dev, name);
	put(rel, type);
	snprintf(rel, sizeof(rel), "%s/scan_elements/%s_en", dev, name);
	put(rel, "0");
}

/*
 * device0: an INA226 on a 10 mOhm shunt, with a buffer. Scales as the driver computes them:
 * bus 1.25 mV, current 2500 nV / 10000 uOhm = 0.25 mA, power 25 x 0.25 = 6.25 mW.
 * device1: an INA219 on 0.1 Ohm at PGA /8, polled only (no scan_elements): bus 4 mV,
 * current 10000 nV / 100000 uOhm = 0.1 mA, power 20 x 0.1 = 2 mW.
 */
static void make_tree(void)
{
	mkdirs(DEV0 "/scan_elements");
	mkdirs(DEV0 "/buffer");
	mkdirs(DEV1);
	mkdirs("/dev");
	put(DEV0 "/name", "ina226");
	put(DEV0 "/in_voltage0_raw", "400");
	put(DEV0 "/in_voltage0_scale", "0.002500000");
	put(DEV0 "/in_voltage1_raw", "4032");
	put(DEV0 "/in_voltage1_scale", "1.250000000");
	put(DEV0 "/in_power2_raw", "322");
	put(DEV0 "/in_power2_scale", "6.250000000");
	put(DEV0 "/in_current3_raw", "1600");
	put(DEV0 "/in_current3_scale", "0.250000000");
	put(DEV0 "/in_shunt_resistor", "0.010000");
	put(DEV0 "/in_sampling_frequency", "114");
	put(DEV0 "/in_oversampling_ratio", "4");
	put(DEV0 "/current_timestamp_clock", "realtime");
	put(DEV0 "/buffer/enable", "0");
	put(DEV0 "/buffer/length", "128");
	scan_elem(DEV0, "in_voltage0", 0, "le:u16/16>>0");
	scan_elem(DEV0, "in_voltage1", 1, "le:u16/16>>0");
	scan_elem(DEV0, "in_power2", 2, "le:u16/16>>0");
	scan_elem(DEV0, "in_current3", 3, "le:u16/16>>0");
	scan_elem(DEV0, "in_timestamp", 4, "le:s64/64>>0");

	put(DEV1 "/name", "ina219");
	put(DEV1 "/in_voltage0_raw", "1234");
	put(DEV1 "/in_voltage0_scale", "0.010000000");
	put(DEV1 "/in_voltage0_hardwaregain", "0.125000");
	put(DEV1 "/in_voltage1_raw", "1260");
	put(DEV1 "/in_voltage1_scale", "4");
	put(DEV1 "/in_power2_raw", "311");
	put(DEV1 "/in_power2_scale", "2.000000000");
	put(DEV1 "/in_current3_raw", "1234");
	put(DEV1 "/in_current3_scale", "0.100000000");
	put(DEV1 "/in_shunt_resistor", "0.100000");
}

static void test_scan_type(void)
{
	struct iio_scan_type t;
	unsigned char rec[16] = { 0 };
	struct iio_scan_elem el[3];

	ok(!iio_scan_type_parse("le:s16/16>>0", &t) && t.is_signed && !t.big_endian &&
		   t.realbits == 16 && t.storagebits == 16 && !t.shift,
	   "le:s16/16>>0 parses");
	ok(!iio_scan_type_parse("be:u13/16>>3\n", &t) && !t.is_signed && t.big_endian &&
		   t.realbits == 13 && t.shift == 3,
	   "be:u13/16>>3 (the INA219 bus as newer kernels declare it) parses");
	ok(iio_scan_type_parse("le:s16/16X2>>0", &t) == -EINVAL, "a repeated element is refused");
	ok(iio_scan_type_parse("le:s12/8>>0", &t) == -EINVAL, "more bits than storage is refused");
	ok(iio_scan_type_parse("sideways", &t) == -EINVAL, "garbage is refused");
	ok(iio_scan_type_parse("le:s1/16>>4294967295", &t) == -EINVAL,
	   "a shift whose sum with the bits wraps is refused (it shifted by 2^32 - 1)");
	ok(iio_scan_type_parse("le:s4294967295/16>>2", &t) == -EINVAL,
	   "bits whose sum with the shift wraps are refused");
	ok(!iio_scan_type_parse("le:u4/16>>12", &t) && t.shift == 12, "the top four bits: taken");

	/* 5.04 V on an INA219 bus register: 1260 << 3 with CNVR (bit 1) set, big-endian */
	iio_scan_type_parse("be:u13/16>>3", &t);
	rec[2] = (unsigned char)(((1260 << 3) | 2) >> 8);
	rec[3] = (unsigned char)(((1260 << 3) | 2) & 0xff);
	is_int((int)iio_scan_value(&t, rec, 2), 1260, "shifted down, flags masked off");
	iio_scan_type_parse("le:s16/16>>0", &t);
	rec[4] = 0x70;
	rec[5] = 0xfe;
	is_int((int)iio_scan_value(&t, rec, 4), -400, "0xfe70 signed is -400");
	/* a timestamp: -2 as le:s64 is fe ff ff ff ff ff ff ff */
	iio_scan_type_parse("le:s64/64>>0", &t);
	memset(rec + 8, 0xff, 8);
	rec[8] = 0xfe;
	ok(iio_scan_value(&t, rec, 8) == -2, "a 64-bit signed element");

	/* a u16 at index 3, an s64 at 5, a u16 at 1: 2 bytes at 0 and 2, 8 at 8, 16 in all */
	iio_scan_type_parse("le:u16/16>>0", &el[0].type);
	el[0].index = 3;
	iio_scan_type_parse("le:s64/64>>0", &el[1].type);
	el[1].index = 5;
	el[2].type = el[0].type;
	el[2].index = 1;
	is_int((int)iio_scan_layout(el, 3), 16, "record: 2 + 2 + pad 4 + 8 bytes");
	ok(el[0].index == 1 && el[0].offset == 0 && el[1].offset == 2 && el[2].offset == 8,
	   "elements in index order, the timestamp aligned to 8");
}

static void test_polled(void)
{
	struct meter_dev *dev;
	struct meter_sample s;
	const struct meter_info *info;
	int ret = -1, i;

	capture_begin(&cap, 2);
	ret = tdev_open("iio:ina219", root, &dev);
	capture_end(&cap);
	if (!ok(!ret, "iio:ina219 opens (no buffer: polled)"))
		return;
	info = meter_info(dev);
	ok(strstr(info->model, "polled") != NULL, "model says polled: %s", info->model);
	for (i = 0; i < 3 && (ret = dev->drv->read(dev, &s, 1, 200)) == 0; i++)
		;
	is_int(ret, 1, "one sample");
	is_dbl(s.v, 1260 * 4e-3, 1e-9, "bus: in_voltage1_raw x scale 4 mV = 5.04 V");
	is_dbl(s.a, 1234 * 0.1e-3, 1e-12, "current: 1234 x 0.1 mA = 123.4 mA");
	is_dbl(s.w, 311 * 2e-3, 1e-12, "power: 311 x 2 mW = 0.622 W, measured");
	ok(!(s.flags & SAMPLE_W_COMPUTED), "... not computed");
	is_dbl(info->accuracy.a.resolution, 1e-4, 1e-12, "current step 0.1 mA (hwmon: 1 mA)");
	is_dbl(info->accuracy.a.offset, 200e-6 / 0.1, 1e-12,
	       "INA219 offset at PGA /8 (hardwaregain 0.125): 200 uV over 0.1 Ohm");
	is_dbl(info->accuracy.a.gain, 0.01, 1e-12, "INA219 current gain 1 %%");
	is_dbl(info->range.a_max, 0.32 / 0.1, 1e-9, "range: 320 mV over 0.1 Ohm");
	tdev_free(dev);

	/* a sampling frequency whose period no uint64_t holds: the default, not a cast's
	 * garbage (x86 made 1e39 ns of it 292 years) */
	put(DEV1 "/in_sampling_frequency", "1e-30");
	capture_begin(&cap, 2);
	ret = tdev_open("iio:ina219", root, &dev);
	capture_end(&cap);
	if (ok(!ret, "iio:ina219 opens with in_sampling_frequency 1e-30")) {
		is_int((int)(meter_info(dev)->period_ns / NS_PER_MS), 100,
		       "its period the 100 ms default");
		tdev_free(dev);
	}
	{
		char path[400];

		snprintf(path, sizeof(path), "%s" DEV1 "/in_sampling_frequency", root);
		unlink(path);
	}

	put(DEV1 "/in_current3_raw", "-250");
	capture_begin(&cap, 2);
	ret = tdev_open("iio:iio:device1,mode=poll", root, &dev);
	capture_end(&cap);
	if (ok(!ret, "iio:iio:device1 by its entry")) {
		for (i = 0; i < 3 && (ret = dev->drv->read(dev, &s, 1, 200)) == 0; i++)
			;
		is_dbl(s.a, -0.025, 1e-12, "a signed raw reads negative (-25 mA)");
		tdev_free(dev);
	}
}

static void test_refusals(void)
{
	struct meter_dev *dev;
	const char *log;
	int ret;

	capture_begin(&cap, 2);
	ret = tdev_open("iio:ina219,mode=buffer", root, &dev);
	log = capture_end(&cap);
	ok(ret < 0 && strstr(log, "mode=buffer"), "mode=buffer on a device without one fails: %s",
	   log);
	tdev_free(ret ? NULL : dev);
	capture_begin(&cap, 2);
	ret = tdev_open("iio:ina226,index=1", root, &dev);
	log = capture_end(&cap);
	ok(ret == -ENOENT && strstr(log, "no IIO device"), "a second ina226 is not there");
	tdev_free(ret ? NULL : dev);
	capture_begin(&cap, 2);
	ret = tdev_open("iio:ina219,a=7", root, &dev);
	log = capture_end(&cap);
	ok(ret == -ENOENT && strstr(log, "in_current7_raw"), "a=7 names a channel it lacks");
	tdev_free(ret ? NULL : dev);
}

/* One scan as the kernel packs bus (index 1), power (2), current (3), timestamp (4):
 * u16 LE at 0, 2, 4, two bytes of padding, the s64 LE at 8. Written by hand, not by the
 * code under test. */
static void pack(unsigned char *rec, unsigned bus, unsigned pw, int cur, int64_t ts)
{
	uint16_t c = (uint16_t)(int16_t)cur;
	uint64_t t = (uint64_t)ts;
	int i;

	memset(rec, 0, 16);
	rec[0] = (unsigned char)bus;
	rec[1] = (unsigned char)(bus >> 8);
	rec[2] = (unsigned char)pw;
	rec[3] = (unsigned char)(pw >> 8);
	rec[4] = (unsigned char)c;
	rec[5] = (unsigned char)(c >> 8);
	for (i = 0; i < 8; i++)
		rec[8 + i] = (unsigned char)(t >> (8 * i));
}

static void test_buffered(void)
{
	static const struct { unsigned bus, pw; int cur; } w[] = {
		{ 4032, 322, 1600 }, { 4000, 640, 3200 }, { 4040, 0, -400 },
	};
	char fifo[300], buf[64];
	unsigned char rec[3 * 16 + 8];
	struct meter_sample s[8];
	struct meter_dev *dev;
	const struct meter_info *info;
	uint64_t t0 = now_ns();
	int wfd, ret, got = 0, i;

	snprintf(fifo, sizeof(fifo), "%s/dev/iio:device0", root);
	if (mkfifo(fifo, 0600) < 0 && errno != EEXIST) {
		skip("no FIFO here");
		return;
	}
	/* the test holds the writing end, as the kernel does the device's */
	wfd = open(fifo, O_RDWR | O_NONBLOCK);
	capture_begin(&cap, 2);
	ret = tdev_open("iio:ina226", root, &dev);
	capture_end(&cap);
	if (!ok(!ret && wfd >= 0, "iio:ina226 opens with its buffer")) {
		if (wfd >= 0)
			close(wfd);
		return;
	}
	info = meter_info(dev);
	ok(strstr(info->model, "buffered") != NULL, "model says buffered: %s", info->model);
	is_int((int)(info->period_ns / 1000), 1000000 / 114, "period from in_sampling_frequency");
	get(DEV0 "/buffer/enable", buf, sizeof(buf));
	is_str(buf, "1", "buffer/enable written 1");
	get(DEV0 "/buffer/length", buf, sizeof(buf));
	is_str(buf, "4096", "buffer/length the buffer= default");
	get(DEV0 "/current_timestamp_clock", buf, sizeof(buf));
	is_str(buf, "monotonic", "the timestamp clock set to monotonic");
	get(DEV0 "/scan_elements/in_voltage0_en", buf, sizeof(buf));
	is_str(buf, "0", "the shunt channel left out of the scan");
	get(DEV0 "/scan_elements/in_current3_en", buf, sizeof(buf));
	is_str(buf, "1", "the current channel in the scan");
	get(DEV0 "/scan_elements/in_timestamp_en", buf, sizeof(buf));
	is_str(buf, "1", "the timestamp in the scan");
	is_dbl(info->accuracy.a.resolution, 0.25e-3, 1e-12, "current step 0.25 mA");
	is_dbl(info->accuracy.a.offset, 10e-6 / 0.01, 1e-12, "INA226 shunt offset 10 uV / 10 mOhm");

	for (i = 0; i < 3; i++)
		pack(rec + 16 * i, w[i].bus, w[i].pw, w[i].cur, (int64_t)(t0 + (uint64_t)i * 8771000));
	/* a cut record: the rest comes later */
	if (write(wfd, rec, 3 * 16 - 5) != 3 * 16 - 5)
		printf("# short write\n");
	for (i = 0; i < 5 && got < 2; i++) {
		ret = dev->drv->read(dev, s + got, 8, 200);
		got += ret > 0 ? ret : 0;
	}
	is_int(got, 2, "two whole scans read, the cut third kept");
	if (write(wfd, rec + 3 * 16 - 5, 5) != 5)
		printf("# short write\n");
	for (i = 0; i < 5 && got < 3; i++) {
		ret = dev->drv->read(dev, s + got, 8, 200);
		got += ret > 0 ? ret : 0;
	}
	is_int(got, 3, "the third completes");
	for (i = 0; i < got; i++) {
		is_dbl(s[i].v, w[i].bus * 1.25e-3, 1e-12, "scan %d: bus x 1.25 mV", i);
		is_dbl(s[i].a, w[i].cur * 0.25e-3, 1e-12, "scan %d: current x 0.25 mA", i);
		is_dbl(s[i].w, w[i].pw * 6.25e-3, 1e-12, "scan %d: power x 6.25 mW", i);
		ok(s[i].t_ns == t0 + (uint64_t)i * 8771000, "scan %d: the kernel's timestamp", i);
	}
	tdev_free(dev);
	get(DEV0 "/buffer/enable", buf, sizeof(buf));
	is_str(buf, "0", "stop disables the buffer");

	/* A device that keeps CLOCK_REALTIME: stamps shifted to monotonic. */
	{
		char path[400], spec[340];
		struct timespec rt;
		int64_t rt_ns, mono_ns, off;

		snprintf(path, sizeof(path), "%s" DEV0 "/current_timestamp_clock", root);
		unlink(path);
		capture_begin(&cap, 2);
		ret = tdev_open("iio:ina226,chardev=", root, &dev);
		capture_end(&cap);
		ok(ret < 0, "an empty chardev= fails to open");
		tdev_free(ret ? NULL : dev);
		snprintf(spec, sizeof(spec), "iio:ina226,chardev=%s", fifo);
		capture_begin(&cap, 2);
		ret = tdev_open(spec, root, &dev);
		capture_end(&cap);
		if (ok(!ret, "chardev= given as a path")) {
			clock_gettime(CLOCK_REALTIME, &rt);
			mono_ns = (int64_t)now_ns();
			rt_ns = (int64_t)rt.tv_sec * 1000000000LL + rt.tv_nsec;
			pack(rec, 4032, 322, 1600, rt_ns);
			if (write(wfd, rec, 16) != 16)
				printf("# short write\n");
			for (i = 0, ret = 0; i < 5 && ret <= 0; i++)
				ret = dev->drv->read(dev, s, 8, 200);
			off = (int64_t)s[0].t_ns - mono_ns;
			ok(ret == 1 && off > -1000000000LL && off < 1000000000LL,
			   "a realtime stamp lands on the monotonic clock (%lld ns apart)",
			   (long long)off);
			/* stamps no scan has: the shift would overflow (it was undefined), an hour
			 * ahead (every later sample would have been held there) */
			pack(rec, 4032, 322, 1600, INT64_MIN + 1);
			pack(rec + 16, 4032, 322, 1600, rt_ns + 3600 * 1000000000LL);
			if (write(wfd, rec, 32) != 32)
				printf("# short write\n");
			for (i = 0, ret = 0; i < 5 && ret <= 0; i++)
				ret = dev->drv->read(dev, s, 8, 200);
			ok(ret == 2 && s[0].t_ns == 0 && s[1].t_ns == 0,
			   "stamps an hour ahead or out of range: left to the core's arrival time "
			   "(%d: %llu, %llu)", ret, (unsigned long long)s[0].t_ns,
			   (unsigned long long)s[1].t_ns);
			tdev_free(dev);
		}
	}
	close(wfd);
}

static void test_scan(void)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return;
	meter_drivers_scan(meter_registry, root, f);
	fclose(f);
	ok(out && strstr(out, "--meter iio:iio:device0") && strstr(out, "(ina226)"),
	   "iowatt meters lists the IIO devices");
	free(out);
}

int main(void)
{
	char cmd[400];

	/* mkdtemp's template: a private folder under $TMPDIR (the suite's own), else /tmp. */
	snprintf(root, sizeof(root), "%s/iowatt-iio.XXXXXX",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root))
		return 1;
	make_tree();
	test_scan_type();
	test_polled();
	test_refusals();
	test_buffered();
	test_scan();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", root);
	return done_testing();
}

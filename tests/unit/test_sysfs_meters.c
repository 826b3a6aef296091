/* SPDX-License-Identifier: MIT */
/* hwmon, power_supply, RAPL and Pi 5 PMIC meters against fake sysfs trees in a temp copy. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_util.h"
#include "core/clock.h"
#include "meters/registry/registry.h"
#include "meters/transport/sysfs.h"
#include "tap.h"

/* stderr of the call under test, to check its messages */
static struct capture cap;

static char root[256];

static void put(const char *rel, const char *val)
{
	tree_put(root, rel, val);
}

/* The published description of the last device one() opened. */
static struct meter_info last_info;

/* Open spec, read one sample (up to 3 reads of 200 ms); returns read()'s result. */
static int one(const char *spec, struct meter_sample *s, const char **log)
{
	struct meter_dev *dev;
	int ret, i;

	capture_begin(&cap, 2);
	ret = tdev_open(spec, root, &dev);
	*log = capture_end(&cap);
	memset(&last_info, 0, sizeof(last_info));
	if (dev)
		last_info = *meter_info(dev);
	for (i = 0; ret >= 0 && i < 3; i++) {
		ret = dev->drv->read(dev, s, 1, 200);
		if (ret)
			break;
	}
	tdev_free(dev);
	return ret;
}

static void test_hwmon(void)
{
	struct meter_sample s;
	const char *log;
	int ret;

	ret = one("hwmon:ina226", &s, &log);
	is_int(ret, 1, "hwmon ina226 by name gives a sample");
	is_dbl(s.v, 5.040, 1e-9, "bus voltage from in1 (not the shunt in0)");
	is_dbl(s.a, 0.412, 1e-9, "curr1_input mA -> A");
	is_dbl(s.w, 2.076, 1e-9, "power1_input uW -> W");
	ok(!(s.flags & SAMPLE_W_COMPUTED), "power is measured, not computed");
	ok(strstr(log, "10000 uOhm default") != NULL, "warns about the default shunt_resistor");
	is_dbl(last_info.range.v_max, 36.0, 1e-12, "ina226 range: 36 V from the datasheet");
	is_dbl(last_info.range.a_max, 0.08192 / 0.01, 1e-9,
	       "ina226 range: 81.92 mV over the 10 mOhm shunt_resistor");
	ok(last_info.range.a_min == -last_info.range.a_max, "... both ways");

	ret = one("hwmon:ina226,index=1", &s, &log);
	is_int(ret, 1, "index=1 picks the second ina226");
	is_dbl(s.w, 12.0 * 0.150, 1e-9, "no power input: w = v * a");
	ok(s.flags & SAMPLE_W_COMPUTED, "... flagged SAMPLE_W_COMPUTED");
	ok(strstr(log, "default") == NULL, "no shunt warning with 100000 uOhm");

	ret = one("hwmon:/sys/class/hwmon/hwmon1,in=0", &s, &log);
	is_dbl(s.v, 0.005, 1e-12, "by path, in=0 selects the shunt channel");

	ret = one("hwmon:ina226,index=2", &s, &log);
	ok(ret == -ENOENT && strstr(log, "index=2"), "index out of range is an error naming it");
	ret = one("hwmon:nosuch", &s, &log);
	ok(ret == -ENOENT && strstr(log, "coretemp, ina226"), "unknown chip lists what exists");
	ret = one("hwmon:coretemp", &s, &log);
	ok(ret == -ENODEV && strstr(log, "no power"), "temperature-only chip refused");
	ret = one("hwmon:ina226,bogus=1", &s, &log);
	ok(ret == -EINVAL && strstr(log, "bogus") && strstr(log, "index, in, curr"),
	   "unknown key refused, the known ones listed");
	ret = one("hwmon:ina226,index=x", &s, &log);
	ok(ret == -EINVAL && strstr(log, "index=x") && strstr(log, "whole number"),
	   "a bad value is refused before any file is opened");
	ret = one("hwmon:soc_energy,interval=5ms", &s, &log);
	ok(ret >= 0 && isnan(last_info.range.v_max) && isnan(last_info.range.a_max),
	   "a chip without a datasheet range: no limits");
}

static void test_hwmon_energy(void)
{
	struct meter_dev *dev;
	struct meter_sample s;
	uint64_t t0, t1;
	int r1, r2;

	if (!ok(!tdev_open("hwmon:soc_energy,interval=5ms", root, &dev),
		"energy-only hwmon chip opens (hwmon10 sorts after hwmon2)"))
		return;
	t0 = now_ns();
	r1 = dev->drv->read(dev, &s, 1, 100);
	put("/sys/class/hwmon/hwmon10/energy1_input", "1002000"); /* +2000 uJ */
	r2 = dev->drv->read(dev, &s, 1, 100);
	t1 = now_ns();
	is_int(r1, 0, "first energy reading only starts the derivative");
	is_int(r2, 1, "second reading gives power");
	ok(s.w > 0 && s.w * ((double)(t1 - t0) / 1e9) >= 2000e-6 * 0.999,
	   "power = delta energy / delta t (%.4g W over <= %.4g s)", s.w, (double)(t1 - t0) / 1e9);
	tdev_free(dev);
}

/* A value that is not a number: an error naming the file at open, a bad frame at run time
 * (not a lost device, which would reconnect again and again). */
static void test_hwmon_garbage(void)
{
	struct meter_dev *dev;
	struct meter_sample s;
	const char *log;
	int ret, i;

	put("/sys/class/hwmon/hwmon1/curr1_input", "12x");
	ret = one("hwmon:ina226", &s, &log);
	ok(ret < 0 && strstr(log, "hwmon1/curr1_input") && strstr(log, "not a decimal number"),
	   "hwmon value '12x' at open: an error naming the file (%d: %s)", ret, log);
	put("/sys/class/hwmon/hwmon1/curr1_input", "412");
	if (!ok(!tdev_open("hwmon:ina226", root, &dev), "the same chip opens once it is fixed"))
		return;
	put("/sys/class/hwmon/hwmon1/curr1_input", "garbage");
	ret = dev->drv->read(dev, &s, 1, 200);
	ok(ret == 0 && METER_LOAD(dev->frames_bad) == 1,
	   "a bad value at run time is one bad frame, no sample, no reconnect (ret %d)", ret);
	put("/sys/class/hwmon/hwmon1/curr1_input", "412");
	for (i = 0, ret = 0; !ret && i < 10; i++) /* the next tick of its interval */
		ret = dev->drv->read(dev, &s, 1, 200);
	ok(ret == 1 && fabs(s.a - 0.412) < 1e-9, "the next good value is a sample again");
	tdev_free(dev);
}

static void test_power_supply(void)
{
	struct meter_sample s;
	const char *log;
	int ret;

	ret = one("power_supply:BAT0,interval=1ms", &s, &log);
	is_int(ret, 1, "battery gives a sample");
	is_dbl(s.v, 7.4, 1e-9, "voltage_now uV -> V");
	is_dbl(s.a, 0.85, 1e-9, "negative discharge current reported as the draw's magnitude");
	is_dbl(s.w, 7.4 * 0.85, 1e-9, "w = v * |a| without power_now");
	ok(s.flags & SAMPLE_W_COMPUTED, "... flagged computed");
	ret = one("power_supply:BAT0,sign=raw,interval=1ms", &s, &log);
	is_dbl(s.a, -0.85, 1e-9, "sign=raw keeps the driver's sign");
	ret = one("power_supply:BAT0,sign=invert,interval=1ms", &s, &log);
	is_dbl(s.a, 0.85, 1e-9, "sign=invert flips it");
	ret = one("power_supply:BAT0,sign=up", &s, &log);
	ok(ret == -EINVAL && strstr(log, "sign=up") && strstr(log, "auto, abs, raw, invert"),
	   "bad sign= names the value and the choices");
	ret = one("power_supply:ucsi-source-psy-1,interval=1ms", &s, &log);
	is_dbl(s.w, 30.0, 1e-9, "power_now used when present");
	ret = one("power_supply:AC9", &s, &log);
	ok(ret == -ENOENT && strstr(log, "AC9"), "missing supply named");
}

static void test_rapl(void)
{
	struct meter_dev *dev;
	struct energy_rate r = { 0 };
	struct meter_sample s;
	uint64_t t0, t1;
	double w = 0;
	int r1, r2;

	/* pure maths first: a wrap between two reads half a second apart */
	energy_rate_update(&r, NS_PER_SEC, 262143328850.0 - 1000, 262143328850.0, &w, &t0);
	r1 = energy_rate_update(&r, NS_PER_SEC * 3 / 2, 500, 262143328850.0, &w, &t0);
	ok(r1 == 1 && fabs(w - 1500e-6 / 0.5) < 1e-12, "wrap: delta = now + range - previous (%.9g W)",
	   w);
	is_int(t0, NS_PER_SEC * 5 / 4, "the power is dated at the middle of its interval");

	if (!ok(!tdev_open("rapl:package-0,interval=5ms", root, &dev),
		"rapl:package-0 opens by domain name"))
		return;
	t0 = now_ns();
	r1 = dev->drv->read(dev, &s, 1, 100);
	put("/sys/class/powercap/intel-rapl:0/energy_uj", "500"); /* wrapped: +1350 uJ */
	r2 = dev->drv->read(dev, &s, 1, 100);
	t1 = now_ns();
	is_int(r1, 0, "first RAPL read starts the derivative");
	is_int(r2, 1, "second read gives power");
	ok(s.w > 0 && s.w * ((double)(t1 - t0) / 1e9) >= 1350e-6 * 0.999,
	   "counter wrapped between reads: power stays right (%.4g W)", s.w);
	ok(isnan(s.v) && isnan(s.a), "RAPL has no volts or amps");
	tdev_free(dev);
}

static void test_pmic(const char *srcdir)
{
	char spec[512];
	struct meter_sample s;
	const char *log;
	int ret;

	snprintf(spec, sizeof(spec), "pmic:EXT5V,vcgencmd=%s/tests/data/sysfs-meters/vcgencmd,interval=1ms",
		 srcdir);
	ret = one(spec, &s, &log);
	is_int(ret, 1, "pmic:EXT5V reads through the vcgencmd stand-in");
	is_dbl(s.v, 5.1, 1e-9, "v is EXT5V_V");
	is_dbl(s.w, 0.1 * 3.7 + 0.2 * 3.3 + 1.5 * 0.8, 1e-9, "w is the sum of paired rails");
	ok(isnan(s.a), "no input current");
	ok((s.flags & SAMPLE_RAIL_SUM) && (s.flags & SAMPLE_W_COMPUTED), "flagged RAIL_SUM");
	snprintf(spec, sizeof(spec), "pmic:VDD_CORE,vcgencmd=%s/tests/data/sysfs-meters/vcgencmd,interval=1ms",
		 srcdir);
	ret = one(spec, &s, &log);
	ok(ret == 1 && fabs(s.w - 1.2) < 1e-9 && !(s.flags & SAMPLE_RAIL_SUM), "one rail: VDD_CORE");
	ret = one("pmic:EXT5V,vcgencmd=/nonexistent/vcgencmd", &s, &log);
	ok(ret == -ENOENT && strstr(log, "vcgencmd not found"), "missing vcgencmd: clear error");
}

static void test_scan(void)
{
	char buf[4096] = "";
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	meter_drivers_scan(meter_registry, root, f);
	fclose(f);
	ok(strstr(buf, "--meter hwmon:ina226") && !strstr(buf, "hwmon:coretemp"),
	   "scan lists power-capable hwmon chips only");
	ok(strstr(buf, "--meter hwmon:ina226,index=1"), "a second chip of the same name gets index=1");
	ok(strstr(buf, "--meter power_supply:BAT0"), "scan lists power supplies");
	ok(strstr(buf, "--meter rapl:package-0"), "scan lists RAPL domains");
	ok(strstr(buf, "ina219:/dev/i2c-1@0x40"), "scan lists i2c buses with a spec");
}

int main(void)
{
	const char *srcdir = getenv("IOWATT_SRCDIR") ? getenv("IOWATT_SRCDIR") : ".";
	char cmd[1024];

	snprintf(root, sizeof(root), "/tmp/iowatt-sysfs.XXXXXX");
	if (!mkdtemp(root))
		return 1;
	snprintf(cmd, sizeof(cmd), "cp -r %s/tests/data/sysfs-meters/sys %s/", srcdir, root);
	if (system(cmd) != 0) {
		printf("Bail out! cannot copy the fake sysfs tree\n");
		return 1;
	}
	test_hwmon();
	test_hwmon_energy();
	test_hwmon_garbage();
	test_power_supply();
	test_rapl();
	test_pmic(srcdir);
	test_scan();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", root);
	return done_testing();
}

/* SPDX-License-Identifier: MIT */
/* INA219/226/260 driver against an emulated chip on /dev/i2c-1 (umockdev); --rate for bench. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core/clock.h"
#include "events_util.h"
#include "board_util.h"
#include "core/events.h"
#include "ina_emul.h"
#include "meters/transport/i2c.h"
#include "tap.h"
#include "umock_asan.h"
#include "umock_env.h"

/* stderr of the call under test, to check its messages */
static struct capture cap;

static struct ina_chip chip;

#define LOCKED(expr)                                                                       \
	({                                                                                 \
		long long v_;                                                              \
		pthread_mutex_lock(&chip.lock);                                                  \
		v_ = (long long)(expr);                                                    \
		pthread_mutex_unlock(&chip.lock);                                                \
		v_;                                                                        \
	})

static int read1(struct meter_dev *dev, struct meter_sample *s)
{
	int ret, i;

	for (i = 0; i < 20; i++) {
		ret = dev->drv->read(dev, s, 1, 200);
		if (ret)
			return ret;
	}
	return 0;
}

static int count_events(int kind)
{
	struct run_event ev[16];
	size_t n, i;
	int c = 0;

	n = test_events_pop(ev, 16);
	for (i = 0; i < n; i++)
		c += ev[i].kind == kind;
	return c;
}

/*
 * INA219, 0.1 Ohm, 3.2 A: Cal 4096, 100 uA and 2 mW per LSB (see test_ina_calc.c).
 * Shunt 5000 x 10 uV = 50 mV -> 0.5 A; bus 1250 x 4 mV = 5.0 V; P = 2.5 W.
 */
static void test_ina219(void)
{
	const struct meter_info *in;
	struct meter_dev *dev;
	struct meter_sample s;
	uint64_t bad;
	int i, ret;

	emu_set(&chip, INA219, 5000, 1250);
	if (!ok(!tdev_open("ina219:/dev/i2c-1@0x40,shunt=0.1,max_current=3.2", "", &dev),
		"ina219 opens on the emulated bus"))
		return;
	emu_count_reset(&chip);
	is_int(LOCKED(chip.reg[INA_REG_CONFIG]), 0x399F, "config written: 32 V, 320 mV, 12-bit, continuous");
	is_int(LOCKED(chip.reg[INA_REG_CAL]), 4096, "calibration written: 4096");
	in = meter_info(dev);
	ok(strstr(in->model, "INA219") && strstr(in->model, "0.1 mA/LSB"), "model says resolution: %s",
	   in->model);
	is_dbl(in->range.a_max, 0.320 / 0.1, 1e-9, "range: +-320 mV (pga auto) over 0.1 Ohm = 3.2 A");
	is_dbl(in->range.v_max, 26.0, 1e-12, "range: 26 V, the datasheet's bus limit under brng=32");
	ret = read1(dev, &s);
	is_int(ret, 1, "a sample");
	is_dbl(s.v, 5.0, 1e-9, "bus 5.000 V");
	is_dbl(s.a, 0.5, 1e-9, "current 0.500 A");
	is_dbl(s.w, 2.5, 1e-9, "power 2.500 W from the power register");
	ok(!(s.flags & SAMPLE_W_COMPUTED), "power is the chip's, not v*a");

	emu_set(&chip, INA219, -1000, 1250);
	read1(dev, &s);
	is_dbl(s.a, -0.1, 1e-9, "negative shunt -> -0.100 A");
	is_dbl(s.w, 0.5, 1e-9, "power register is unsigned: 0.5 W");

	for (i = 0; i < 10; i++)
		read1(dev, &s);
	is_int(LOCKED(chip.stale_reads), 0, "never read current/power before CNVR was set");
	ok(LOCKED(chip.flag_reads) >= LOCKED(chip.samples_cleared),
	   "polled the bus register for CNVR (%u polls, %u samples)", chip.flag_reads,
	   chip.samples_cleared);

	/* OVF: the next conversion's maths overflowed: dropped and counted */
	bad = dev->frames_bad;
	emu_set(&chip, INA219, 5000, 1250);
	pthread_mutex_lock(&chip.lock);
	chip.ovf_once = 1;
	pthread_mutex_unlock(&chip.lock);
	ret = read1(dev, &s);
	is_int(dev->frames_bad - bad, 1, "OVF sample dropped and counted as bad");
	ok(ret == 1 && fabs(s.a - 0.5) < 1e-9, "the next sample is delivered");

	/* brown-out: Cal back to 0, config to its default */
	test_events_drain();
	pthread_mutex_lock(&chip.lock);
	emu_reset(&chip);
	chip.cal_writes = 0;
	pthread_mutex_unlock(&chip.lock);
	ret = read1(dev, &s);
	is_int(LOCKED(chip.reg[INA_REG_CAL]), 4096, "calibration read back 0: reprogrammed");
	is_int(LOCKED(chip.cal_writes), 1, "... with one calibration write");
	is_int(count_events(EV_METER_RESET), 1, "EV_METER_RESET pushed");
	ok(ret == 1 && fabs(s.w - 2.5) < 1e-9, "readings right again after the reset");

	/* the bus NACKs: link lost, then the core's reopen recovers */
	pthread_mutex_lock(&chip.lock);
	chip.nack = 1;
	pthread_mutex_unlock(&chip.lock);
	capture_begin(&cap, 2);
	ret = read1(dev, &s);
	capture_end(&cap);
	is_int(ret, -EREMOTEIO, "NACK -> -EREMOTEIO (link lost, core makes a gap)");
	meter_close(dev);
	pthread_mutex_lock(&chip.lock);
	chip.nack = 0;
	pthread_mutex_unlock(&chip.lock);
	ret = meter_open(dev);
	if (!ret)
		ret = dev->drv->start(dev);
	is_int(ret, 0, "reopen after the bus comes back");
	ok(read1(dev, &s) == 1 && fabs(s.v - 5.0) < 1e-9, "sampling recovered");
	tdev_free(dev);
}

static void test_open_errors(void)
{
	unsigned long x0;
	struct meter_dev *dev;
	const char *log;
	int ret;

	emu_set(&chip, INA219, 0, 0);
	pthread_mutex_lock(&chip.lock);
	chip.busy = 1;
	pthread_mutex_unlock(&chip.lock);
	capture_begin(&cap, 2);
	ret = tdev_open("ina219:/dev/i2c-1@0x40,shunt=0.1,max_current=3.2", "", &dev);
	log = capture_end(&cap);
	is_int(ret, -EBUSY, "address claimed by a kernel driver -> -EBUSY");
	ok(strstr(log, "0x40 on /dev/i2c-1 is claimed by a kernel driver (ina219); use --meter hwmon:ina219 instead") != NULL,
	   "message points to the hwmon source");
	pthread_mutex_lock(&chip.lock);
	chip.busy = 0;
	pthread_mutex_unlock(&chip.lock);

	capture_begin(&cap, 2);
	ret = tdev_open("ina219:/dev/i2c-1@0x41,shunt=0.1,max_current=3.2", "", &dev);
	capture_end(&cap);
	ok(ret < 0 && !dev, "nothing at 0x41: open fails (%d)", ret);

	/* Checked before the bus is opened: the emulated bus sees no transfer. */
	x0 = LOCKED(chip.xfers);
	capture_begin(&cap, 2);
	ret = tdev_open("ina219:/dev/i2c-1@0x40,shunt=0.1,max_current=5", "", &dev);
	log = capture_end(&cap);
	ok(ret == -ERANGE && strstr(log, "ina219:/dev/i2c-1@0x40,shunt=0.1,max_current=5") &&
		   strstr(log, "smaller shunt"),
	   "out-of-range setup names the spec and what to change");
	is_int(LOCKED(chip.xfers) - x0, 0, "... before any transfer on the bus");

	capture_begin(&cap, 2);
	ret = tdev_open("ina260:/dev/i2c-1,shunt=0.1", "", &dev);
	log = capture_end(&cap);
	ok(ret == -EINVAL && strstr(log, "'shunt' does not apply to ina260") &&
		   strstr(log, "ina219,ina226"),
	   "ina260 refuses shunt=, saying which chips take it");
	capture_begin(&cap, 2);
	ret = tdev_open("ina226:/dev/i2c-1,shunt=0.1,max_current=0.5,brng=16", "", &dev);
	log = capture_end(&cap);
	ok(ret == -EINVAL && strstr(log, "'brng' does not apply to ina226"), "brng= is the INA219's");
	capture_begin(&cap, 2);
	ret = tdev_open("ina219:/dev/i2c-1,shunt=0.1", "", &dev);
	log = capture_end(&cap);
	ok(ret == -EINVAL && strstr(log, "max_current= is required"), "a missing required key");
	capture_begin(&cap, 2);
	ret = tdev_open("ina226:/dev/i2c-1,shunt=0.1,max_current=0.5,adc=12bit", "", &dev);
	log = capture_end(&cap);
	ok(ret == -EINVAL && strstr(log, "adc=12bit") && strstr(log, "avg1, avg4"),
	   "the INA226 row of adc= has its own choices");
	capture_begin(&cap, 2);
	ret = tdev_open("ina226:/dev/i2c-1,shunt=0.1,max_current=0.5,ct=3ms", "", &dev);
	log = capture_end(&cap);
	ok(ret == -EINVAL && strstr(log, "ct=3ms"), "ct= off the datasheet's list is refused");
	capture_begin(&cap, 2);
	ret = tdev_open("ina219:/dev/i2c-1@0x99,shunt=0.1,max_current=1", "", &dev);
	log = capture_end(&cap);
	ok(ret == -EINVAL && strstr(log, "/dev/i2c-1@0x40"), "a bad address is refused");

	emu_set(&chip, INA260, 0, 0);
	capture_begin(&cap, 2);
	ret = tdev_open("ina226:/dev/i2c-1@0x40,shunt=0.002,max_current=20", "", &dev);
	log = capture_end(&cap);
	ok(ret == 0 && strstr(log, "reports INA260"), "spec says ina226, chip IDs say INA260: warned");
	tdev_free(dev);
}

/*
 * INA226, 2 mOhm, 20 A, avg4, 588 us: config 0x4000 | 001<<9 | 011<<6 | 011<<3 | 111 =
 * 0x42DF; Cal 2560, 1 mA / 25 mW per LSB. Shunt 4000 x 2.5 uV = 10 mV -> 5 A; bus 4000 x
 * 1.25 mV = 5 V; 25 W.
 */
static void test_ina226(void)
{
	struct meter_dev *dev;
	struct meter_sample s;
	uint64_t bad;
	int ret, i;

	emu_set(&chip, INA226, 4000, 4000);
	if (!ok(!tdev_open("ina226:/dev/i2c-1@0x40,shunt=0.002,max_current=20,adc=avg4,ct=588us",
			   "", &dev), "ina226 opens"))
		return;
	is_dbl(meter_info(dev)->range.a_max, 0.08192 / 0.002, 1e-9,
	       "range: 81.92 mV over 2 mOhm = 40.96 A");
	emu_count_reset(&chip);
	is_int(LOCKED(chip.reg[INA_REG_CONFIG]), 0x42DF, "config 0x42DF");
	is_int(LOCKED(chip.reg[INA_REG_CAL]), 2560, "calibration 2560");
	ret = read1(dev, &s);
	ok(ret == 1 && fabs(s.v - 5.0) < 1e-9 && fabs(s.a - 5.0) < 1e-9 && fabs(s.w - 25.0) < 1e-9,
	   "5 V, 5 A, 25 W (got %.4g V %.4g A %.4g W)", s.v, s.a, s.w);
	for (i = 0; i < 5; i++)
		read1(dev, &s);
	is_int(LOCKED(chip.stale_reads), 0, "data read only after CVRF");
	bad = dev->frames_bad;
	pthread_mutex_lock(&chip.lock);
	chip.ovf_once = 1;
	pthread_mutex_unlock(&chip.lock);
	read1(dev, &s);
	is_int(dev->frames_bad - bad, 1, "Mask/Enable OVF: dropped and counted");
	test_events_drain();
	pthread_mutex_lock(&chip.lock);
	emu_reset(&chip);
	pthread_mutex_unlock(&chip.lock);
	ret = read1(dev, &s);
	ok(ret == 1 && LOCKED(chip.reg[INA_REG_CAL]) == 2560 && LOCKED(chip.reg[INA_REG_CONFIG]) == 0x42DF,
	   "reset: calibration and config reprogrammed");
	is_int(count_events(EV_METER_RESET), 1, "EV_METER_RESET pushed");
	tdev_free(dev);
}

/* INA260: current 800 x 1.25 mA = 1 A; bus 9600 x 1.25 mV = 12 V; power 1200 x 10 mW. */
static void test_ina260(void)
{
	struct meter_dev *dev;
	struct meter_sample s;
	int ret;

	emu_set(&chip, INA260, 800, 9600);
	if (!ok(!tdev_open("ina260:/dev/i2c-1@0x40,adc=avg4", "", &dev),
		"ina260 opens without shunt keys"))
		return;
	ok(meter_info(dev)->range.a_max == 15 && meter_info(dev)->range.v_max == 36,
	   "range: the datasheet's 36 V and 15 A");
	ok(!meter_info(dev)->board_level, "on the drive's rail unless supply= says otherwise");
	is_int(LOCKED(chip.reg[INA_REG_CONFIG]), 0x6327, "config 0x6327 (avg4, 1.1 ms)");
	ret = read1(dev, &s);
	ok(ret == 1 && fabs(s.v - 12.0) < 1e-9 && fabs(s.a - 1.0) < 1e-9 && fabs(s.w - 12.0) < 1e-9,
	   "12 V, 1 A, 12 W (got %.4g V %.4g A %.4g W)", s.v, s.a, s.w);
	test_events_drain();
	pthread_mutex_lock(&chip.lock);
	emu_reset(&chip);
	pthread_mutex_unlock(&chip.lock);
	/* no calibration register: the periodic config read-back finds the reset */
	sleep_ns(NS_PER_SEC + 10 * NS_PER_MS);
	read1(dev, &s);
	ret = read1(dev, &s);
	ok(LOCKED(chip.reg[INA_REG_CONFIG]) == 0x6327, "INA260 reset seen in config, reprogrammed");
	is_int(count_events(EV_METER_RESET), 1, "EV_METER_RESET pushed");
	tdev_free(dev);

	/* On the board's supply its figures include the CPU running iowatt: the run says so. */
	emu_set(&chip, INA260, 800, 9600);
	if (ok(!tdev_open("ina260:/dev/i2c-1@0x40,supply=board", "", &dev),
	       "ina260 opens with supply=board"))
		ok(meter_info(dev)->board_level == 1, "supply=board: a board-level meter");
	else
		skip("not opened");
	tdev_free(dev);
}

/* Round trip of one emulated register read (umockdev's socket), on a separate fd. */
static double xfer_cost_us(void)
{
	uint64_t t0;
	uint16_t v;
	int fd, i;

	fd = i2c_open("/dev/i2c-1", 0x40, "ina219");
	if (fd < 0)
		return NAN;
	t0 = now_ns();
	for (i = 0; i < 200; i++)
		i2c_read16(fd, 0x40, INA_REG_CONFIG, &v);
	i2c_close(fd);
	return (double)(now_ns() - t0) / 200 / 1e3;
}

/* Rate mode for bench/i2c-rate.sh: samples/s at one ADC setting versus its limit. */
static int rate(const char *model, const char *adc, double secs)
{
	char spec[200];
	struct meter_dev *dev;
	struct meter_sample s;
	struct rusage ru0, ru1;
	uint64_t t0, t1, n = 0;
	double cpu, limit, xfer_us;
	unsigned long x0;
	int m = !strcmp(model, "ina219") ? INA219 : !strcmp(model, "ina226") ? INA226 : INA260;

	if (m == INA219)
		snprintf(spec, sizeof(spec), "ina219:/dev/i2c-1,shunt=0.1,max_current=3.2,adc=%s", adc);
	else
		snprintf(spec, sizeof(spec), "%s:/dev/i2c-1%s,%s", model,
			 m == INA226 ? ",shunt=0.002,max_current=20" : "", adc);
	emu_set(&chip, m, 5000, 1250);
	if (tdev_open(spec, "", &dev) < 0)
		return 1;
	limit = 1e9 / (double)LOCKED(chip.conv_ns);
	xfer_us = xfer_cost_us();
	x0 = (unsigned long)LOCKED(chip.xfers);
	getrusage(RUSAGE_THREAD, &ru0);
	t0 = now_ns();
	while (now_ns() - t0 < (uint64_t)(secs * 1e9))
		if (dev->drv->read(dev, &s, 1, 100) == 1)
			n++;
	t1 = now_ns();
	getrusage(RUSAGE_THREAD, &ru1);
	cpu = (double)(ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec + ru1.ru_stime.tv_sec -
		       ru0.ru_stime.tv_sec) +
	      (double)(ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec + ru1.ru_stime.tv_usec -
		       ru0.ru_stime.tv_usec) / 1e6;
	/* the emulated transfer's round trip bounds the rate too: report it */
	printf("%s %s samples/s %.1f limit %.1f ratio %.3f cpu %.1f%% xfer_us %.1f xfers/sample %.2f\n",
	       model, adc, (double)n / ((double)(t1 - t0) / 1e9), limit,
	       (double)n / ((double)(t1 - t0) / 1e9) / limit, 100 * cpu / ((double)(t1 - t0) / 1e9),
	       xfer_us,
	       (double)(LOCKED(chip.xfers) - x0) / (double)(n ? n : 1));
	tdev_free(dev);
	return 0;
}

int main(int argc, char **argv)
{
	UMockdevTestbed *tb;
	char why[160];
	int ret;

	if (umock_unusable(why, sizeof(why))) {
		printf("1..0 # skip %s\n", why);
		return 0;
	}
	tb = emu_start(&chip, INA219);
	if (argc >= 4 && !strcmp(argv[1], "--rate")) {
		ret = rate(argv[2], argv[3], argc > 4 ? atof(argv[4]) : 1.0);
		g_object_unref(tb);
		return ret;
	}
	test_ina219();
	test_open_errors();
	test_ina226();
	test_ina260();
	g_object_unref(tb);
	return done_testing();
}

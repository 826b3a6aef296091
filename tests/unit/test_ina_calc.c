/* SPDX-License-Identifier: MIT */
/* INA219/226/260 configuration and calibration maths against values worked from the datasheets. */
#include <errno.h>
#include <string.h>

#include "core/clock.h"
#include "meters/ina2xx/ina2xx_protocol.h"
#include "tap.h"

static int setup(struct ina_request *r, struct ina_setup *s, char *err)
{
	return ina_setup_compute(r, s, err, 200);
}

/*
 * Worked examples (Cal = trunc(K / (Current_LSB * R)); K = 0.04096 INA219, 0.00512 INA226):
 *  A. INA219 R=0.1, Imax=3.2: 3.2/32768 = 97.7 uA -> 100 uA; Cal = 0.04096/1e-5 = 4096;
 *     Power_LSB = 2 mW; Imax*R = 320 mV -> PG 11; 32 V, 12-bit: config 0x399F (the
 *     power-on default, which is what Adafruit's 32 V / 2 A setup also writes).
 *  B. INA219 R=0.1, Imax=0.4, brng=16, adc=9bit: 12.2 uA -> 20 uA; Cal 20480; 40 mV -> PG 00;
 *     config = MODE 111 only = 0x0007; a pair converts in 2 x 84 us.
 *  C. INA219 R=0.11, Imax=1: 30.5 uA -> 50 uA; 0.04096/5.5e-6 = 7447.27 -> 7447, bit 0 is
 *     read-only so 7446; the LSB really delivered is 0.04096/(7446*0.11) = 50.008 uA.
 *  D. INA226 R=0.002, Imax=20: 610 uA -> 1 mA; Cal = 0.00512/2e-6 = 2560; Power_LSB 25 mW;
 *     avg1, 1.1 ms each: config 0x4127 (the power-on default), 2.2 ms per sample.
 *  E. INA226 adc=avg16, ct=140us: AVG 010, CTs 000: 0x4407; 16 x 2 x 140 us = 4.48 ms.
 */
static void test_calibration(void)
{
	struct ina_request r;
	struct ina_setup s;
	char err[200];

	r = (struct ina_request){ .model = INA219, .shunt_ohm = 0.1, .max_current_a = 3.2 };
	is_int(setup(&r, &s, err), 0, "A: INA219 0.1 Ohm 3.2 A accepted");
	is_int(s.cal, 4096, "A: Cal 4096");
	is_dbl(s.current_lsb_a, 100e-6, 1e-12, "A: 100 uA per LSB");
	is_dbl(s.power_lsb_w, 2e-3, 1e-12, "A: power LSB 20 x current LSB = 2 mW");
	is_int(s.config, 0x399F, "A: config 0x399F");
	is_int(s.pga_mv, 320, "A: PGA 320 mV chosen automatically");
	is_int(s.conv_ns, 2 * 532 * NS_PER_US, "A: 12-bit pair converts in 1.064 ms");

	r = (struct ina_request){ .model = INA219, .shunt_ohm = 0.1, .max_current_a = 0.4,
				  .brng = "16", .adc = "9bit" };
	is_int(setup(&r, &s, err), 0, "B: accepted");
	is_int(s.cal, 20480, "B: Cal 20480");
	is_int(s.config, 0x0007, "B: config 0x0007 (16 V, 40 mV, 9-bit, continuous)");
	is_int(s.conv_ns, 168 * NS_PER_US, "B: 168 us per pair");

	r = (struct ina_request){ .model = INA219, .shunt_ohm = 0.11, .max_current_a = 1 };
	is_int(setup(&r, &s, err), 0, "C: accepted");
	is_int(s.cal, 7446, "C: odd Cal 7447 loses its read-only bit 0");
	is_dbl(s.current_lsb_a, 0.04096 / (7446 * 0.11), 1e-15, "C: effective LSB from the written Cal");
	is_int(s.pga_mv, 160, "C: 110 mV needs the 160 mV range");
	is_int((s.config >> 11) & 3, 2, "C: PG bits 10");

	r = (struct ina_request){ .model = INA226, .shunt_ohm = 0.002, .max_current_a = 20 };
	is_int(setup(&r, &s, err), 0, "D: INA226 accepted");
	is_int(s.cal, 2560, "D: Cal 2560");
	is_dbl(s.current_lsb_a, 1e-3, 1e-12, "D: 1 mA per LSB");
	is_dbl(s.power_lsb_w, 25e-3, 1e-12, "D: power LSB 25 x current LSB");
	is_int(s.config, 0x4127, "D: config 0x4127");
	is_int(s.conv_ns, 2200 * NS_PER_US, "D: 2.2 ms per sample");

	r.adc = "avg16";
	r.ct = "140us";
	is_int(setup(&r, &s, err), 0, "E: accepted");
	is_int(s.config, 0x4407, "E: config 0x4407");
	is_int(s.conv_ns, 4480 * NS_PER_US, "E: 4.48 ms per sample");
	r.ct = "1.1ms";
	r.adc = NULL;
	setup(&r, &s, err);
	is_int(s.config, 0x4127, "ct=1.1ms matches the 1100 us code");

	r = (struct ina_request){ .model = INA260, .adc = "avg4", .ct = "8.244ms" };
	is_int(setup(&r, &s, err), 0, "INA260 needs no shunt");
	is_int(s.cal, 0, "INA260: no calibration register");
	is_int(s.config, 0x6000 | 1 << 9 | 7 << 6 | 7 << 3 | 7, "INA260 config keeps bits 14:13");
	is_dbl(s.current_lsb_a, 1.25e-3, 1e-12, "INA260 1.25 mA LSB");
	is_dbl(s.power_lsb_w, 10e-3, 1e-12, "INA260 10 mW LSB");
}

static void test_refusals(void)
{
	struct ina_request r;
	struct ina_setup s;
	char err[200];

	r = (struct ina_request){ .model = INA219, .shunt_ohm = 0.001, .max_current_a = 0.01 };
	ok(setup(&r, &s, err) == -ERANGE && strstr(err, "raise max_current"),
	   "Cal above 0xFFFE: says to raise max_current (%s)", err);
	r = (struct ina_request){ .model = INA219, .shunt_ohm = 0.1, .max_current_a = 5 };
	ok(setup(&r, &s, err) == -ERANGE && strstr(err, "320 mV"), "500 mV over the INA219 range");
	r = (struct ina_request){ .model = INA219, .shunt_ohm = 0.1, .max_current_a = 1, .pga = "40" };
	ok(setup(&r, &s, err) == -ERANGE && strstr(err, "pga=40"), "pga below Imax*R refused");
	r.pga = "50";
	ok(setup(&r, &s, err) == -EINVAL && strstr(err, "pga=50"), "pga=50 is not a range");
	r.pga = NULL;
	r.brng = "24";
	ok(setup(&r, &s, err) == -EINVAL && strstr(err, "brng=24"), "brng=24 refused");
	r.brng = NULL;
	r.adc = "13bit";
	ok(setup(&r, &s, err) == -EINVAL && strstr(err, "adc=13bit"), "adc=13bit refused");
	r.adc = NULL;
	r.ct = "1.1ms";
	ok(setup(&r, &s, err) == -EINVAL && strstr(err, "ct="), "ct= is not an INA219 key");
	r = (struct ina_request){ .model = INA226, .shunt_ohm = 0.1, .max_current_a = 1 };
	ok(setup(&r, &s, err) == -ERANGE && strstr(err, "81.92"), "100 mV over the INA226 range");
	r = (struct ina_request){ .model = INA226, .shunt_ohm = 0.01, .max_current_a = 0.1 };
	ok(setup(&r, &s, err) == -ERANGE && strstr(err, "32767"), "INA226 Cal above 0x7FFF");
	r = (struct ina_request){ .model = INA226, .shunt_ohm = 0.002, .max_current_a = 20,
				  .ct = "1ms" };
	ok(setup(&r, &s, err) == -EINVAL && strstr(err, "ct=1ms"), "ct=1ms is no conversion time");
	r.ct = NULL;
	r.adc = "avg8";
	ok(setup(&r, &s, err) == -EINVAL && strstr(err, "adc=avg8"), "avg8 is not an INA226 count");
	r = (struct ina_request){ .model = INA219 };
	ok(setup(&r, &s, err) == -EINVAL && strstr(err, "shunt="), "shunt and max_current required");
}

static void test_decode(void)
{
	struct ina_request r = { .model = INA219, .shunt_ohm = 0.1, .max_current_a = 3.2 };
	struct ina_setup s;
	char err[200];

	setup(&r, &s, err);
	is_dbl(ina_bus_v(&s, 0x1F40 | INA219_BUS_CNVR), 4.0, 1e-12,
	       "INA219 bus 0x1F42: (8002 >> 3) x 4 mV = 4.000 V, flags ignored");
	is_dbl(ina_current_a(&s, 0xFF38), -0.02, 1e-12, "current 0xFF38 = -200 x 100 uA");
	is_dbl(ina_power_w(&s, 1000), 2.0, 1e-12, "power 1000 x 2 mW");
	is_dbl(ina_shunt_v(&s, 0x0FA0), 0.04, 1e-12, "shunt 4000 x 10 uV = 40 mV");
	r = (struct ina_request){ .model = INA226, .shunt_ohm = 0.002, .max_current_a = 20 };
	setup(&r, &s, err);
	is_dbl(ina_bus_v(&s, 4000), 5.0, 1e-12, "INA226 bus 4000 x 1.25 mV, no shift");
	is_dbl(ina_shunt_v(&s, 0x8000), -0.08192, 1e-12, "INA226 shunt full negative scale");

	is_dbl(ina_round_lsb(3.2 / 32768), 1e-4, 1e-15, "LSB 97.7 uA -> 100 uA");
	is_dbl(ina_round_lsb(1e-4), 1e-4, 1e-15, "LSB 100 uA stays");
	is_dbl(ina_round_lsb(1.5e-4), 2e-4, 1e-15, "LSB 150 uA -> 200 uA");
	is_dbl(ina_round_lsb(3e-4), 5e-4, 1e-15, "LSB 300 uA -> 500 uA");
	is_dbl(ina_round_lsb(6e-4), 1e-3, 1e-15, "LSB 600 uA -> 1 mA");
}

int main(void)
{
	test_calibration();
	test_refusals();
	test_decode();
	return done_testing();
}

/* SPDX-License-Identifier: MIT */
/* meter_sample_check: readings no meter can give (0xFFFF fields, 65 V on a 26 V chip, current flowing back). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "meters/meter-internal.h"
#include "meters/um/um_protocol.h"
#include "tap.h"

/* What the UM driver publishes for a model at open. */
static void um_info(struct meter_info *in, const struct um_model *m)
{
	memset(in, 0, sizeof(*in));
	snprintf(in->model, sizeof(in->model), "%s", m->meta.name);
	in->range = m->meta.range;
	in->accuracy = m->meta.accuracy;
	in->frame_vaw = 1;
}

/* A UM frame with V, A (u16 BE at 2, 4) and W (u32 BE at 6), decoded as the driver does. */
static void um_frame(const struct um_model *m, unsigned v, unsigned a, uint32_t w,
		     struct meter_sample *s)
{
	uint8_t f[UM_FRAME_LEN] = { 0 };

	f[2] = (uint8_t)(v >> 8), f[3] = (uint8_t)v;
	f[4] = (uint8_t)(a >> 8), f[5] = (uint8_t)a;
	f[6] = (uint8_t)(w >> 24), f[7] = (uint8_t)(w >> 16), f[8] = (uint8_t)(w >> 8);
	f[9] = (uint8_t)w;
	memset(s, 0, sizeof(*s));
	um_decode(m, f, s);
}

static void test_um(void)
{
	const struct um_model *m25 = um_model_by_driver("um25c"), *m24 = um_model_by_driver("um24c");
	struct meter_info in;
	struct meter_sample s;
	char why[160];

	um_info(&in, m25);
	um_frame(m25, 5100, 3000, 1530, &s); /* 5.1 V, 0.3 A, 1.53 W */
	is_int(meter_sample_check(&in, &s, why, sizeof(why)), 0, "UM25C 5.1 V 0.3 A 1.53 W is a reading");
	um_frame(m25, 0xFFFF, 0xFFFF, 0xFFFFFFFFu, &s);
	is_int(meter_sample_check(&in, &s, why, sizeof(why)), -1,
	       "UM25C frame of 0xFFFF fields (%.4g V, %.4g A, %.4g W) is dropped", s.v, s.a, s.w);
	ok(strstr(why, "65.53 V above the UM25C's 24 V") != NULL, "naming the value and the limit: %s", why);
	um_frame(m25, 5000, 0xFFFF, 2500, &s);
	ok(meter_sample_check(&in, &s, why, sizeof(why)) && strstr(why, "6.554 A above the UM25C's 5 A"),
	   "0xFFFF current alone: %s", why);
	um_frame(m25, 5000, 1000, 0xFFFFFFFFu, &s);
	ok(meter_sample_check(&in, &s, why, sizeof(why)) && strstr(why, "W above"),
	   "0xFFFFFFFF power alone: %s", why);
	um_frame(m25, 5000, 1000, 4000, &s); /* 5 V x 0.1 A is 0.5 W, not 4 W */
	ok(meter_sample_check(&in, &s, why, sizeof(why)) && strstr(why, "where V x A is 0.5 W"),
	   "W that is not V x A: %s", why);
	um_frame(m25, 5000, 1000, 502, &s);
	is_int(meter_sample_check(&in, &s, why, sizeof(why)), 0, "W within a few mW of V x A is kept");
	um_frame(m25, 24500, 1000, 2450, &s);
	is_int(meter_sample_check(&in, &s, why, sizeof(why)), 0,
	       "24.5 V on a 24 V tester is kept (within the 5 %% margin)");
	um_frame(m25, 3600, 1000, 360, &s);
	is_int(meter_sample_check(&in, &s, why, sizeof(why)), 0,
	       "3.6 V (a sagging bus, below the 4 V rating) is kept: undervoltage is data");
	um_info(&in, m24);
	um_frame(m24, 0xFFFF, 0xFFFF, 0xFFFFFFFFu, &s);
	ok(meter_sample_check(&in, &s, why, sizeof(why)) && strstr(why, "655.4 V above the UM24C's 24 V"),
	   "UM24C 0xFFFF (the issue's 655 V): %s", why);
}

/* 65 V at 6 A (390 W) on an INA219 (0-26 V; 3.2 A through a 0.1 ohm shunt at PGA /8). */
static void test_ina(void)
{
	struct meter_info in;
	struct meter_sample s = { .v = 65, .a = 6, .w = 390 };
	char why[160];

	memset(&in, 0, sizeof(in));
	snprintf(in.model, sizeof(in.model), "INA219");
	in.range = (struct meter_range){ 0, 26, -3.2, 3.2, 26 * 3.2 };
	ok(meter_sample_check(&in, &s, why, sizeof(why)) && strstr(why, "65 V above the INA219's 26 V"),
	   "65 V x 6 A on an INA219: %s", why);
	s = (struct meter_sample){ .v = 12, .a = 6, .w = 72 };
	ok(meter_sample_check(&in, &s, why, sizeof(why)) && strstr(why, "6 A above"),
	   "6 A on a 3.2 A shunt range: %s", why);
	s = (struct meter_sample){ .v = 5, .a = 0.5, .w = 2.5 };
	is_int(meter_sample_check(&in, &s, why, sizeof(why)), 0, "5 V 0.5 A is a reading");
}

/* A hwmon whose current is negative (the -122 J/GB of the issue): not a load's reading. */
static void test_negative(void)
{
	struct meter_info in;
	struct meter_sample s = { .v = 5.0, .a = -0.3, .w = NAN, .flags = SAMPLE_W_COMPUTED };
	char why[160];

	memset(&in, 0, sizeof(in));
	snprintf(in.model, sizeof(in.model), "ina226 (hwmon)");
	in.range = (struct meter_range){ 0, 36, -8.192, 8.192, 36 * 8.192 };
	s.w = s.v * s.a;
	ok(meter_sample_check(&in, &s, why, sizeof(why)) && strstr(why, "negative current (-0.3 A)"),
	   "hwmon -0.3 A: %s", why);
	s = (struct meter_sample){ .v = 5.0, .a = -0.00005, .w = -0.00025,
				   .flags = SAMPLE_W_COMPUTED };
	is_int(meter_sample_check(&in, &s, why, sizeof(why)), 0,
	       "-50 uA at idle (offset noise) is kept");
	s = (struct meter_sample){ .v = NAN, .a = NAN, .w = -2.0 };
	ok(meter_sample_check(&in, &s, why, sizeof(why)) && strstr(why, "negative power"),
	   "a power meter reading -2 W: %s", why);
	s = (struct meter_sample){ .v = INFINITY, .a = 0.1, .w = 0.5 };
	ok(meter_sample_check(&in, &s, why, sizeof(why)) != 0, "an infinite reading is dropped");
	memset(&in, 0, sizeof(in));
	in.range = (struct meter_range){ NAN, NAN, NAN, NAN, NAN };
	s = (struct meter_sample){ .v = 5.0, .a = 0.1, .w = 0.5 };
	is_int(meter_sample_check(&in, &s, why, sizeof(why)), 0,
	       "a meter with no declared range keeps a plausible reading");
}

int main(void)
{
	test_um();
	test_ina();
	test_negative();
	return done_testing();
}

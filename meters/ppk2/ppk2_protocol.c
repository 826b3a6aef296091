/* SPDX-License-Identifier: MIT */
/* Nordic PPK2: metadata and calibration, 32-bit sample words, the current formula. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "meters/ppk2/ppk2_protocol.h"

#define ADC_BITS 14
#define ADC_MASK ((1u << ADC_BITS) - 1)
#define RANGE_SHIFT 14
#define RANGE_MASK 0x7u
#define COUNTER_SHIFT 18
#define COUNTER_MASK 0x3Fu
#define LOGIC_SHIFT 24
#define ADC_SCALE 4.0		   /* the word's ADC field is a quarter of the code */
#define ADC_VOLTS (1.8 / 163840.0) /* volts per code */
#define MV_PER_V 1000.0
/* The emulator keeps a range's reading under this share of its full scale. */
#define RANGE_HEADROOM 0.9
#define LINE_MAX 96
#define META_END "END"
#define ZERO_UG_SHIFT 8

/* Nordic's documentation: 200 nA to 1 A; VDD 0.8-5 V as source or ampere meter. */
const struct meter_model ppk2_model = {
	"PPK2", { 0.8, 5.0, 0.0, 1.0, 5.0 }, "Nordic PPK2 product specification",
	.accuracy = { .source = NULL }, /* not declared: no datasheet figure was checked */
};

static const double default_r[PPK2_RANGES] = { 1031.64, 101.65, 10.15, 0.94, 0.043 };

void ppk2_cal_defaults(struct ppk2_cal *c)
{
	int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < PPK2_RANGES; i++) {
		c->r[i] = default_r[i];
		c->gs[i] = c->gi[i] = c->ug[i] = 1.0;
	}
}

/* The per-range arrays by their key's letters ("GS" for GS0..GS4). */
static double *cal_array(struct ppk2_cal *c, const char *key, size_t len)
{
	static const struct {
		const char *name;
		size_t off;
	} keys[] = {
		{ "R", offsetof(struct ppk2_cal, r) },	 { "GS", offsetof(struct ppk2_cal, gs) },
		{ "GI", offsetof(struct ppk2_cal, gi) }, { "O", offsetof(struct ppk2_cal, o) },
		{ "S", offsetof(struct ppk2_cal, s) },	 { "I", offsetof(struct ppk2_cal, i) },
		{ "UG", offsetof(struct ppk2_cal, ug) },
	};
	size_t k;

	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (strlen(keys[k].name) == len && !strncmp(keys[k].name, key, len))
			return (double *)(void *)((char *)c + keys[k].off);
	return NULL;
}

static void meta_line(struct ppk2_cal *c, char *line)
{
	char *colon = strchr(line, ':'), *end;
	size_t klen;
	double v, *arr;
	int idx;

	if (!colon)
		return;
	*colon = '\0';
	klen = strlen(line);
	v = strtod(colon + 1, &end);
	if (end == colon + 1 || !isfinite(v))
		return; /* "-nan", empty: the default stays */
	if (!strcasecmp(line, "Calibrated")) {
		c->calibrated = v != 0;
	} else if (!strcasecmp(line, "HW")) {
		c->hw = v > 0 ? (unsigned)v : 0;
	} else if (!strcasecmp(line, "VDD")) {
		c->vdd_mv = v > 0 && v < 1e5 ? (unsigned)v : 0;
	} else if (klen >= 2 && line[klen - 1] >= '0' && line[klen - 1] < '0' + PPK2_RANGES) {
		idx = line[klen - 1] - '0';
		arr = cal_array(c, line, klen - 1);
		if (arr && v == 0 && (arr == c->gi || arr == c->ug))
			c->zero_gains |= 1u << (idx + (arr == c->ug ? ZERO_UG_SHIFT : 0));
		else if (arr && !(arr == c->r && v == 0))
			arr[idx] = v;
	}
}

int ppk2_parse_meta(const char *text, struct ppk2_cal *c)
{
	char line[LINE_MAX];
	const char *p = text, *nl;
	size_t n;

	ppk2_cal_defaults(c);
	while (*p) {
		nl = strchr(p, '\n');
		n = nl ? (size_t)(nl - p) : strlen(p);
		if (n && p[n - 1] == '\r')
			n--;
		if (n < sizeof(line)) {
			memcpy(line, p, n);
			line[n] = '\0';
			if (!strcmp(line, META_END))
				return 0;
			meta_line(c, line);
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return -EBADMSG;
}

int ppk2_format_meta(const struct ppk2_cal *c, char *buf, size_t len)
{
	static const char *const names[] = { "R", "GS", "GI", "O", "S", "I", "UG" };
	const double *arrs[] = { c->r, c->gs, c->gi, c->o, c->s, c->i, c->ug };
	size_t off = 0, k;
	int i, n;

	n = snprintf(buf, len, "Calibrated: %d\n", c->calibrated);
	off += n > 0 ? (size_t)n : 0;
	for (k = 0; k < sizeof(names) / sizeof(names[0]) && off < len; k++)
		for (i = 0; i < PPK2_RANGES && off < len; i++) {
			n = snprintf(buf + off, len - off, "%s%d: %.9g\n", names[k], i, arrs[k][i]);
			off += n > 0 ? (size_t)n : 0;
		}
	if (off < len) {
		n = snprintf(buf + off, len - off, "VDD: %u\nHW: %u\nmode: 1\nIA: 0\n" META_END "\n",
			     c->vdd_mv, c->hw);
		off += n > 0 ? (size_t)n : 0;
	}
	return off < len ? 0 : -ENOSPC;
}

void ppk2_word_decode(uint32_t w, struct ppk2_word *out)
{
	out->adc = w & ADC_MASK;
	out->range = (w >> RANGE_SHIFT) & RANGE_MASK;
	if (out->range >= PPK2_RANGES)
		out->range = PPK2_RANGES - 1;
	out->counter = (w >> COUNTER_SHIFT) & COUNTER_MASK;
	out->logic = (uint8_t)(w >> LOGIC_SHIFT);
}

uint32_t ppk2_word_encode(const struct ppk2_word *w)
{
	return (w->adc & ADC_MASK) | (w->range & RANGE_MASK) << RANGE_SHIFT |
	       (w->counter & COUNTER_MASK) << COUNTER_SHIFT | (uint32_t)w->logic << LOGIC_SHIFT;
}

double ppk2_amps(const struct ppk2_cal *c, unsigned r, unsigned adc, double vdd_mv)
{
	double x = (adc * ADC_SCALE - c->o[r]) * ADC_VOLTS / c->r[r];

	return c->ug[r] * (x * (c->gs[r] * x + c->gi[r]) + c->s[r] * vdd_mv / MV_PER_V + c->i[r]);
}

/* x for amps in range r: the root of gs x^2 + gi x + (s vdd + i - amps/ug) = 0. */
static double x_for(const struct ppk2_cal *c, unsigned r, double amps, double vdd_mv)
{
	double k = c->s[r] * vdd_mv / MV_PER_V + c->i[r] - amps / c->ug[r];
	double disc;

	if (fabs(c->gs[r]) < 1e-12)
		return -k / c->gi[r];
	disc = c->gi[r] * c->gi[r] - 4 * c->gs[r] * k;
	return disc < 0 ? 0 : (-c->gi[r] + sqrt(disc)) / (2 * c->gs[r]);
}

static double code_for(const struct ppk2_cal *c, unsigned r, double amps, double vdd_mv)
{
	return (x_for(c, r, amps, vdd_mv) * c->r[r] / ADC_VOLTS + c->o[r]) / ADC_SCALE;
}

static unsigned adc_clamp(double code)
{
	return code <= 0 ? 0 : code >= ADC_MASK ? ADC_MASK : (unsigned)lround(code);
}

void ppk2_adc_for(const struct ppk2_cal *c, double amps, double vdd_mv, unsigned *range,
		  unsigned *adc)
{
	double code = 0;
	unsigned r;

	for (r = 0; r < PPK2_RANGES; r++) {
		code = code_for(c, r, amps, vdd_mv);
		if (code <= ADC_MASK * RANGE_HEADROOM)
			break;
	}
	if (r == PPK2_RANGES)
		r = PPK2_RANGES - 1;
	*range = r;
	*adc = adc_clamp(code);
}

unsigned ppk2_adc_in_range(const struct ppk2_cal *c, unsigned range, double amps,
			   double vdd_mv)
{
	return adc_clamp(code_for(c, range, amps, vdd_mv));
}

unsigned ppk2_counter_gap(unsigned prev, unsigned cur)
{
	return (cur - prev - 1) & (PPK2_COUNTER_MOD - 1);
}

void ppk2_seq_reset(struct ppk2_seq *s)
{
	memset(s, 0, sizeof(*s));
}

enum ppk2_seq_event ppk2_seq_next(struct ppk2_seq *s, unsigned counter, unsigned *lost)
{
	enum ppk2_seq_event ev = PPK2_SEQ_IN;
	unsigned first;

	*lost = 0;
	if (!s->have) {
		s->have = 1;
		s->expected = counter;
	} else if (ppk2_counter_gap(s->prev, counter)) {
		s->jumps++;
	}
	s->prev = counter;
	if (s->held && counter == s->expected) {
		s->held = 0;
		ev = PPK2_SEQ_RECOVERED;
	} else if (s->held > PPK2_SEQ_TOLERANCE) {
		/* The hole began at the first held sample: its counter was expected - held. */
		first = (s->expected - s->held) & (PPK2_COUNTER_MOD - 1);
		*lost = (counter - s->held - first) & (PPK2_COUNTER_MOD - 1);
		s->expected = counter;
		s->held = 0;
		ev = PPK2_SEQ_LOSS;
	} else if (counter != s->expected) {
		s->held++;
		ev = PPK2_SEQ_HELD;
	}
	s->expected = (s->expected + 1) & (PPK2_COUNTER_MOD - 1);
	return ev;
}

/* SPDX-License-Identifier: MIT */
/* SCPI instruments as data: the model rows with their makers' accuracy, queries, reply parsing. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "meters/scpi/scpi_protocol.h"

/* SCPI-99 section 7.2.1: 9.91E37 is "not a number", 9.9E37 an overload. */
#define SCPI_OVERLOAD 9.9e37

#define ACC_Q(g, o) { .gain = (g), .offset = (o) }
#define ACC_NONE { .gain = NAN, .offset = NAN }
/* Power is V x A: its bounds follow from theirs (core/accuracy.h). */
#define ACC_W_FROM_VA .w = { .gain = NAN, .offset = NAN }
#define NO_ACCURACY { .source = NULL }

/* Keysight E364xA User's and Service Guide, Table 7-2, "Readback accuracy, 12 months over
 * GPIB and RS-232, 25 C +-5 C": output 1 (output 2 of the E3646A-E3649A is worse). */
#define E364X_DUAL_SRC "Keysight E364xA User's and Service Guide, table 7-2 (readback, output 1)"
#define E364X_DUAL_ACC { .v = ACC_Q(0.0005, 0.005), .a = ACC_Q(0.0015, 0.005), ACC_W_FROM_VA, \
			 .source = E364X_DUAL_SRC }
/* Rigol DP800 Performance Verification Manual, "CC Programming and Readback Accuracy":
 * readback of current only; no voltage readback figure was found. */
#define DP800_SRC "Rigol DP800 Performance Verification Manual, CC readback accuracy"
#define DP800_ACC(g, o) { .v = ACC_NONE, .a = ACC_Q(g, o), ACC_W_FROM_VA, .source = DP800_SRC }
/* Keithley 2450 datasheet SPEC-2450 Rev. A (July 2013), measure accuracy, 1 year, 23 C
 * +-5 C, 1 PLC: the six highest current ranges (autorange picks one per reading); voltage
 * on the 20 V range. */
#define K2450_SRC "Keithley 2450 datasheet SPEC-2450 Rev. A, measure accuracy (1 PLC, 1 year)"
#define K2450_ACC                                                                             \
	{ .v = ACC_Q(0.00015, 0.001), .a = ACC_Q(0.0003, 500e-6), ACC_W_FROM_VA,              \
	  .ranges = { { 10e-6, ACC_Q(0.00025, 700e-12) }, { 100e-6, ACC_Q(0.0002, 6e-9) },    \
		      { 1e-3, ACC_Q(0.0002, 60e-9) },	  { 10e-3, ACC_Q(0.0002, 600e-9) },   \
		      { 100e-3, ACC_Q(0.00025, 6e-6) },	  { 1.0, ACC_Q(0.0003, 500e-6) } },   \
	  .nranges = 6, .source = K2450_SRC }

/* No lower current bound: a supply's readback at no load is its offset, either side of 0. */
#define M(name, v0, v1, a1, w1, src, acc) \
	{ name, { v0, v1, NAN, a1, w1 }, src, acc }
#define MEAS_I "MEAS:CURR?"
#define MEAS_V "MEAS:VOLT?"

/*
 * The N6700 mainframes' digitizer (Keysight N6705 programming reference, SENSe:SWEep,
 * SENSe:FUNCtion, TRIGger:ACQuire, INITiate:ACQuire, FETCh:ARRay): 20.48 us is the
 * shortest interval for the modules other than the N678xA SMUs.
 */
static const struct scpi_array_set n6700_array = {
	{ [SCPI_ARR_POINTS] = "SENS:SWE:POIN %u,(@%u)",
	  [SCPI_ARR_TINT] = "SENS:SWE:TINT %.9g,(@%u)",
	  [SCPI_ARR_TINT_Q] = "SENS:SWE:TINT? (@%u)",
	  [SCPI_ARR_FUNC_I] = "SENS:FUNC:CURR ON,(@%u)",
	  [SCPI_ARR_FUNC_V] = "SENS:FUNC:VOLT ON,(@%u)",
	  [SCPI_ARR_TRIG_SRC] = "TRIG:ACQ:SOUR BUS,(@%u)",
	  [SCPI_ARR_INIT] = "INIT:ACQ (@%u)",
	  [SCPI_ARR_TRIGGER] = "*TRG",
	  [SCPI_ARR_FETCH_I] = "FETC:ARR:CURR? (@%u)",
	  [SCPI_ARR_FETCH_V] = "FETC:ARR:VOLT? (@%u)" },
	20.48e-6,
};

/*
 * Ranges are the outputs' ratings (the largest output's volts and amps, the sum of the
 * outputs' watts); accuracy where the maker's datasheet or manual was found (the source
 * names it), else none: the figures' uncertainty is then unknown, not guessed.
 */
const struct scpi_model scpi_models[SCPI_NMODELS] = {
	{ M("E36312A", 0, 25, 5, 80, "Keysight E36300 series: 6 V/5 A, 2 x 25 V/1 A", NO_ACCURACY),
	  "E3631", 3, SCPI_CH_LIST, MEAS_I, MEAS_V, NULL },
	{ M("E3631A", 0, 25, 5, 80, "Keysight E3631A: 6 V/5 A, +-25 V/1 A", NO_ACCURACY),
	  "E3631A", 3, SCPI_CH_NSEL, MEAS_I, MEAS_V, NULL },
	{ M("E3646A", 0, 20, 3, 60, "Keysight E364xA guide, table 7-2", E364X_DUAL_ACC),
	  "E3646A", 2, SCPI_CH_NSEL, MEAS_I, MEAS_V, NULL },
	{ M("E3647A", 0, 60, 0.8, 60, "Keysight E364xA guide, table 7-2", E364X_DUAL_ACC),
	  "E3647A", 2, SCPI_CH_NSEL, MEAS_I, MEAS_V, NULL },
	{ M("E3648A", 0, 20, 5, 100, "Keysight E364xA guide, table 7-2", E364X_DUAL_ACC),
	  "E3648A", 2, SCPI_CH_NSEL, MEAS_I, MEAS_V, NULL },
	{ M("E3649A", 0, 60, 1.4, 100, "Keysight E364xA guide, table 7-2", E364X_DUAL_ACC),
	  "E3649A", 2, SCPI_CH_NSEL, MEAS_I, MEAS_V, NULL },
	/* The mainframe's accuracy is its modules' (N6781A, N6762A...), which *IDN? does not
	 * name: unknown here. */
	{ M("N6705C", NAN, NAN, NAN, 600, "Keysight N6705C: 600 W over up to 4 modules", NO_ACCURACY),
	  "N6705", 4, SCPI_CH_LIST, MEAS_I, MEAS_V, &n6700_array },
	{ M("DP832", 0, 30, 3, 195, "Rigol DP832/DP832A: 2 x 30 V/3 A, 5 V/3 A",
	    DP800_ACC(0.0015, 0.005)), "DP832", 3, SCPI_CH_SUFFIX, MEAS_I, MEAS_V, NULL },
	/* DP831A: CH1's readback (0.2 % + 10 mA), the worst of its three. */
	{ M("DP831A", -30, 30, 5, 160, "Rigol DP831A: 8 V/5 A, +-30 V/2 A",
	    DP800_ACC(0.002, 0.010)), "DP831", 3, SCPI_CH_SUFFIX, MEAS_I, MEAS_V, NULL },
	{ M("DP821A", 0, 60, 10, 140, "Rigol DP821A: 60 V/1 A, 8 V/10 A",
	    DP800_ACC(0.0015, 0.010)), "DP821", 2, SCPI_CH_SUFFIX, MEAS_I, MEAS_V, NULL },
	{ M("DP811A", 0, 40, 10, 200, "Rigol DP811A: 20 V/10 A or 40 V/5 A",
	    DP800_ACC(0.001, 0.010)), "DP811", 1, SCPI_CH_NONE, MEAS_I, MEAS_V, NULL },
	{ M("SPD3303X", 0, 32, 3.2, 220, "Siglent SPD3303X: 2 x 32 V/3.2 A", NO_ACCURACY),
	  "SPD3303", 2, SCPI_CH_SUFFIX, MEAS_I, MEAS_V, NULL },
	{ M("SDM3045X", NAN, NAN, 10, NAN, "Siglent SDM3045X DMM: current only", NO_ACCURACY),
	  "SDM30", 1, SCPI_CH_NONE, "MEAS:CURR:DC?", NULL, NULL },
	{ M("NGE100", 0, 32, 3, 100, "R&S NGE100 series: 2 or 3 x 32 V/3 A", NO_ACCURACY),
	  "NGE1", 3, SCPI_CH_NSEL, MEAS_I, MEAS_V, NULL },
	{ M("HMC804x", 0, 32, 10, 100, "R&S HMC8041/2/3: 1 to 3 outputs, 32 V", NO_ACCURACY),
	  "HMC804", 3, SCPI_CH_NSEL, MEAS_I, MEAS_V, NULL },
	{ M("2450", -200, 200, 1.05, 22, "Keithley 2450 SourceMeter: +-200 V, +-1.05 A",
	    K2450_ACC), "2450", 1, SCPI_CH_NONE, MEAS_I, MEAS_V, NULL },
	{ M("SCPI", NAN, NAN, NAN, NAN, "an instrument iowatt has no row for", NO_ACCURACY),
	  "", 1, SCPI_CH_NONE, MEAS_I, MEAS_V, NULL },
};

static void copy_field(char *dst, size_t cap, const char *src, size_t n)
{
	while (n && isspace((unsigned char)*src)) {
		src++;
		n--;
	}
	while (n && isspace((unsigned char)src[n - 1]))
		n--;
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

int scpi_idn_parse(const char *line, struct scpi_idn *idn)
{
	char *const out[4] = { idn->maker, idn->model, idn->serial, idn->firmware };
	const size_t cap[4] = { sizeof(idn->maker), sizeof(idn->model), sizeof(idn->serial),
				sizeof(idn->firmware) };
	const char *p = line, *comma;
	int i;

	for (i = 0; i < 4; i++) {
		comma = strchr(p, ',');
		if (i < 3 && !comma)
			return -EBADMSG;
		copy_field(out[i], cap[i], p, i < 3 ? (size_t)(comma - p) : strlen(p));
		if (i < 3)
			p = comma + 1;
	}
	if (!strncasecmp(idn->model, "MODEL ", 6))
		memmove(idn->model, idn->model + 6, strlen(idn->model + 6) + 1);
	return idn->model[0] ? 0 : -EBADMSG;
}

const struct scpi_model *scpi_model_find(const char *model)
{
	const struct scpi_model *best = &scpi_models[SCPI_NMODELS - 1];
	size_t i, n, best_n = 0;

	for (i = 0; i + 1 < SCPI_NMODELS; i++) {
		n = strlen(scpi_models[i].match);
		if (n > best_n && !strncasecmp(model, scpi_models[i].match, n)) {
			best = &scpi_models[i];
			best_n = n;
		}
	}
	return best;
}

int scpi_query(const struct scpi_model *m, char q, unsigned ch, char *buf, size_t len)
{
	const char *base = q == 'I' ? m->curr_q : m->volt_q;
	int n;

	if (!base || !ch || ch > m->channels)
		return -EINVAL;
	if (m->ch_style == SCPI_CH_SUFFIX)
		n = snprintf(buf, len, "%s CH%u", base, ch);
	else if (m->ch_style == SCPI_CH_LIST)
		n = snprintf(buf, len, "%s (@%u)", base, ch);
	else
		n = snprintf(buf, len, "%s", base);
	return n < 0 || (size_t)n >= len ? -EINVAL : n;
}

int scpi_select(const struct scpi_model *m, unsigned ch, char *buf, size_t len)
{
	int n;

	buf[0] = '\0';
	if (!ch || ch > m->channels)
		return -EINVAL;
	if (m->ch_style != SCPI_CH_NSEL)
		return 0;
	n = snprintf(buf, len, "INST:NSEL %u", ch);
	return n < 0 || (size_t)n >= len ? -EINVAL : n;
}

int scpi_array_cmd(const struct scpi_model *m, enum scpi_array_step step, unsigned ch,
		   unsigned points, double tint_s, char *buf, size_t len)
{
	const char *fmt = m->array ? m->array->fmt[step] : NULL;
	int n;

	if (!fmt || !ch || ch > m->channels)
		return -EINVAL;
	if (step == SCPI_ARR_POINTS)
		n = snprintf(buf, len, fmt, points, ch);
	else if (step == SCPI_ARR_TINT)
		n = snprintf(buf, len, fmt, tint_s, ch);
	else if (step == SCPI_ARR_TRIGGER)
		n = snprintf(buf, len, "%s", fmt);
	else
		n = snprintf(buf, len, fmt, ch);
	return n < 0 || (size_t)n >= len ? -EINVAL : n;
}

int scpi_numbers(const char *line, double *out, unsigned max)
{
	char field[64];
	const char *p = line, *comma;
	unsigned n = 0;
	size_t len;

	for (;;) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (n == max || len >= sizeof(field))
			return -EBADMSG;
		memcpy(field, p, len);
		field[len] = '\0';
		if (scpi_number(field, &out[n]))
			return -EBADMSG;
		n++;
		if (!comma)
			return (int)n;
		p = comma + 1;
	}
}

int scpi_number(const char *line, double *val)
{
	char *end;
	double v;

	while (isspace((unsigned char)*line))
		line++;
	if (!*line)
		return -EBADMSG;
	errno = 0;
	v = strtod(line, &end);
	if (end == line || errno == ERANGE || isnan(v) || isinf(v))
		return -EBADMSG;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -EBADMSG;
	if (fabs(v) >= SCPI_OVERLOAD)
		return -ERANGE;
	*val = v;
	return 0;
}

int scpi_error(const char *line, int *code, char *text, size_t len)
{
	const char *p, *q;
	char *end;
	long c;

	errno = 0;
	c = strtol(line, &end, 10);
	if (end == line || errno || c < -32768 || c > 32767)
		return -EBADMSG;
	while (isspace((unsigned char)*end))
		end++;
	*code = (int)c;
	text[0] = '\0';
	if (!*end)
		return 0;
	if (*end != ',')
		return -EBADMSG;
	p = end + 1;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '"') {
		p++;
		q = strrchr(p, '"');
		copy_field(text, len, p, q ? (size_t)(q - p) : strlen(p));
	} else {
		copy_field(text, len, p, strlen(p));
	}
	return 0;
}

void scpi_rx_reset(struct scpi_rx *rx, size_t max)
{
	rx->len = 0;
	rx->max = max < SCPI_ARRAY_LINE_MAX ? max : SCPI_ARRAY_LINE_MAX;
	rx->line[0] = '\0';
}

int scpi_rx_take(struct scpi_rx *rx, const char *in, size_t n, size_t *used)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (in[i] == '\n') {
			if (rx->len && rx->line[rx->len - 1] == '\r')
				rx->len--;
			rx->line[rx->len] = '\0';
			*used = i + 1;
			return 1;
		}
		if (rx->len >= rx->max) {
			*used = i;
			return -EMSGSIZE;
		}
		rx->line[rx->len++] = in[i];
	}
	*used = n;
	return 0;
}

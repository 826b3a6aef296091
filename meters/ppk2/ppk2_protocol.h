/* SPDX-License-Identifier: MIT */
/* Nordic PPK2 wire format: commands, metadata and calibration, sample words, current. */
#ifndef IOWATT_PPK2_PROTOCOL_H
#define IOWATT_PPK2_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "meters/meter-internal.h"

#define PPK2_VID 0x1915
#define PPK2_PID 0xC00A
#define PPK2_RATE_HZ 100000
#define PPK2_PERIOD_NS (1000000000ULL / PPK2_RATE_HZ)
#define PPK2_RANGES 5
#define PPK2_WORD_LEN 4
#define PPK2_COUNTER_MOD 64
#define PPK2_VDD_MIN_MV 800
#define PPK2_VDD_MAX_MV 5000

enum ppk2_cmd {
	PPK2_AVERAGE_START = 0x06,
	PPK2_AVERAGE_STOP = 0x07,
	PPK2_DEVICE_RUNNING_SET = 0x0C, /* + 1/0: the DUT's power switch */
	PPK2_REGULATOR_SET = 0x0D,	/* + mV as u16 BE */
	PPK2_SET_POWER_MODE = 0x11,	/* + 1 ampere meter, 2 source meter */
	PPK2_GET_META_DATA = 0x19,
	PPK2_RESET = 0x20,
};

#define PPK2_MODE_AMPERE 1
#define PPK2_MODE_SOURCE 2

extern const struct meter_model ppk2_model;

/* Calibration per range, as GET_META_DATA gives it (defaults where it says nothing). */
struct ppk2_cal {
	double r[PPK2_RANGES], gs[PPK2_RANGES], gi[PPK2_RANGES], o[PPK2_RANGES];
	double s[PPK2_RANGES], i[PPK2_RANGES], ug[PPK2_RANGES];
	int calibrated; /* "Calibrated: 1" */
	unsigned hw;
	unsigned vdd_mv; /* "VDD:" line, 0 if absent */
	unsigned zero_gains; /* bit r (GI) or 8 + r (UG): a zero read as 1 */
};

/* One decoded sample word. */
struct ppk2_word {
	unsigned adc;	  /* 14 bits */
	unsigned range;	  /* 0..4 (5..7 clamped to 4) */
	unsigned counter; /* 6 bits, +1 per sample */
	uint8_t logic;	  /* D0..D7 */
};

void ppk2_cal_defaults(struct ppk2_cal *c);
/*
 * The metadata reply: "key: value" lines ended by "END". Unknown keys are ignored, a
 * value that is not a number ("-nan") keeps the default, a zero R too (a division). A
 * zero GI or UG (a gain) is read as 1, as Nordic's software does (zero_gains says
 * which): with it every reading of that range would be the same constant. A zero GS is
 * kept, as IRNAS and ppk2-rs keep it: it is the quadratic term, and Nordic's 1 would add
 * x squared (up to 1 A in range 4). 0, or -EBADMSG without "END".
 */
int ppk2_parse_meta(const char *text, struct ppk2_cal *c);
/* The metadata text for a calibration (the emulator). */
int ppk2_format_meta(const struct ppk2_cal *c, char *buf, size_t len);
void ppk2_word_decode(uint32_t w, struct ppk2_word *out);
uint32_t ppk2_word_encode(const struct ppk2_word *w);
/* Amps of a word's ADC value in its range (Nordic's formula; vdd_mv as last set). */
double ppk2_amps(const struct ppk2_cal *c, unsigned range, unsigned adc, double vdd_mv);
/* The range and ADC value that read closest to amps (the emulator). */
void ppk2_adc_for(const struct ppk2_cal *c, double amps, double vdd_mv, unsigned *range,
		  unsigned *adc);
/* The ADC value that reads closest to amps in a given range (clamped to full scale). */
unsigned ppk2_adc_in_range(const struct ppk2_cal *c, unsigned range, double amps,
			   double vdd_mv);
/* Samples lost between two counters (mod 64: larger holes look smaller). */
unsigned ppk2_counter_gap(unsigned prev, unsigned cur);

/*
 * The counter as Nordic's software reads it (serialDevice.ts handleRawDataSet): a sample
 * whose counter is not the expected one is held as out of sequence, not yet a loss; one
 * back in sequence means the held ones were corrupt words (no loss); a loss is counted
 * only once more than PPK2_SEQ_TOLERANCE samples in a row were out of sequence, when the
 * next one is too. The expected counter goes on by one per sample throughout.
 */
#define PPK2_SEQ_TOLERANCE 4
enum ppk2_seq_event {
	PPK2_SEQ_IN,	    /* in sequence */
	PPK2_SEQ_HELD,	    /* out of sequence: held (the first of a run starts a hold) */
	PPK2_SEQ_RECOVERED, /* in sequence again: the held samples were not a loss */
	PPK2_SEQ_LOSS,	    /* the loss is confirmed: *lost samples before the first held one */
};
struct ppk2_seq {
	int have;
	unsigned expected; /* the counter the next sample should carry */
	unsigned held;	   /* out-of-sequence samples in a row so far */
	unsigned prev;	   /* the last sample's counter */
	uint64_t jumps;	   /* samples whose counter did not follow the previous one's */
};
void ppk2_seq_reset(struct ppk2_seq *s);
enum ppk2_seq_event ppk2_seq_next(struct ppk2_seq *s, unsigned counter, unsigned *lost);

#endif

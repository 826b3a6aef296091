/* SPDX-License-Identifier: MIT */
/* A meter's declared accuracy and one reading's standard uncertainty from it (GUM type B). */
#ifndef IOWATT_ACCURACY_H
#define IOWATT_ACCURACY_H

/*
 * One quantity's accuracy as a datasheet states it, "+-(gain % of reading + offset)", with
 * the reading's step. gain and offset are bounds of errors that stay the same for a whole
 * run; noise is the standard deviation of the random error of one reading (0 where the
 * datasheet gives none). Units are the quantity's: V for v, A for a, W for w. NAN: not
 * stated. docs/energy.md turns these bounds into standard uncertainties.
 */
struct meter_acc_q {
	double gain;	   /* fraction of the reading: 0.001 for 0.1 % */
	double offset;	   /* in the quantity's unit ("4 digits" of 0.1 mA: 0.0004 A) */
	double resolution; /* the reading's step; 0: continuous */
	double noise;	   /* standard deviation of one reading's random error */
};

/* A current range: readings up to a_max amps use this accuracy (meters with ranges). */
struct meter_acc_range {
	double a_max;
	struct meter_acc_q a;
};

#define METER_ACC_RANGES 6

/*
 * What a meter's figures are worth. source NULL: the driver declares nothing (every
 * uncertainty of its figures is unknown). w.gain NAN: power is computed from V and A or
 * by the meter from them, so its gain and offset follow from theirs; w.resolution is the
 * step of a power register the meter reports itself (0: none). With nranges, a reading's
 * current accuracy is the first range whose a_max holds it.
 */
struct meter_accuracy {
	struct meter_acc_q v, a, w;
	struct meter_acc_range ranges[METER_ACC_RANGES];
	unsigned nranges;
	const char *source; /* where the figures come from ("RDTech UM25C manual") */
};

/*
 * One reading's standard uncertainty in one quantity (its unit), split by how the parts
 * behave over a run: gain and offset stay the same for the whole run (they do not average
 * out), res is the quantisation of the reading, noise its random scatter. step is the
 * reading's resolution (0: continuous), for telling whether quantisation averages out.
 */
struct meter_u {
	double gain, offset, res, noise, step;
};

/* The accuracy that applies to a current of a amps (its range's, or acc->a). */
const struct meter_acc_q *accuracy_current(const struct meter_accuracy *acc, double a);
/*
 * A reading's standard uncertainties (docs/energy.md): a +-bound b of a rectangular
 * distribution is b / sqrt(3), a resolution q is q / sqrt(12). w_own: the meter reports
 * its power itself (rounded to its register's step), else W is V x A. Members are NAN
 * where the reading lacks the quantity or the accuracy is unknown (source NULL); any of
 * uv, ua, uw may be NULL.
 */
void accuracy_reading_u(const struct meter_accuracy *acc, double v, double a, double w, int w_own,
			struct meter_u *uv, struct meter_u *ua, struct meter_u *uw);
/* sqrt(gain^2 + offset^2 + res^2 + noise^2): one reading's combined standard uncertainty. */
double accuracy_u_combined(const struct meter_u *u);

struct meter_sample;
/*
 * The standard uncertainty of s's V, A and W from the meter's declared accuracy
 * (above). Members are NAN where s lacks the quantity or the accuracy is unknown
 * (acc->source NULL). Any of v, a, w may be NULL.
 */
void meter_sample_u(const struct meter_accuracy *acc, const struct meter_sample *s,
		    struct meter_u *v, struct meter_u *a, struct meter_u *w);

#endif

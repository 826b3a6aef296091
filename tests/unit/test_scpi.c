/* SPDX-License-Identifier: MIT */
/* SCPI: *IDN? answers as makers document them pick their rows; queries per channel style; replies, errors, lines. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "core/accuracy.h"
#include "meters/scpi/scpi_protocol.h"
#include "tap.h"

static void test_idn(void)
{
	/* The forms the makers' manuals show for *IDN? (serials and firmware vary). */
	static const struct {
		const char *idn, *row, *model;
	} cases[] = {
		{ "KEITHLEY INSTRUMENTS,MODEL 2450,04096331,1.6.4c", "2450", "2450" },
		{ "RIGOL TECHNOLOGIES,DP832A,DP8A000000000,00.01.14", "DP832", "DP832A" },
		{ "RIGOL TECHNOLOGIES,DP831A,DP8B153400499,00.01.11", "DP831A", "DP831A" },
		{ "Keysight Technologies,E36312A,MY57010125,2.1.0-1.0.4-1.12", "E36312A", "E36312A" },
		{ "HEWLETT-PACKARD,E3631A,0,2.1-5.0-1.0", "E3631A", "E3631A" },
		{ "Agilent Technologies,N6705C,MY50001234,D.02.01.1126", "N6705C", "N6705C" },
		{ "Siglent Technologies,SPD3303X,SPD3XGB4150080,1.01.01.02.05,V3.0", "SPD3303X",
		  "SPD3303X" },
		{ "Rohde&Schwarz,NGE103B,5601.3800k03/101234,02.100 05.001", "NGE100", "NGE103B" },
		{ "Rohde&Schwarz,HMC8043,020512345,05.400", "HMC804x", "HMC8043" },
		{ "ACME,PSU-9000,1,1.0", "SCPI", "PSU-9000" },
	};
	struct scpi_idn idn;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		is_int(scpi_idn_parse(cases[i].idn, &idn), 0, "%s parses", cases[i].idn);
		is_str(idn.model, cases[i].model, "its model field");
		is_str(scpi_model_find(idn.model)->meta.name, cases[i].row, "%s: the %s row",
		       cases[i].model, cases[i].row);
	}
	is_int(scpi_idn_parse("RIGOL TECHNOLOGIES,DP832", &idn), -EBADMSG, "two fields: refused");
	is_int(scpi_idn_parse("a,,b,c", &idn), -EBADMSG, "an empty model: refused");
	is_int(scpi_idn_parse(" RIGOL , DP832 ,X, 1 ", &idn), 0, "blanks around fields");
	is_str(idn.maker, "RIGOL", "taken off the maker");
}

static void test_queries(void)
{
	char buf[SCPI_CMD_MAX];
	const struct scpi_model *rigol = scpi_model_find("DP832"), *ks = scpi_model_find("E36312A");
	const struct scpi_model *nsel = scpi_model_find("E3646A"), *k = scpi_model_find("2450");
	const struct scpi_model *dmm = scpi_model_find("SDM3045X");

	ok(scpi_query(rigol, 'I', 2, buf, sizeof(buf)) > 0 && !strcmp(buf, "MEAS:CURR? CH2"),
	   "Rigol: MEAS:CURR? CH2 (got '%s')", buf);
	ok(scpi_query(ks, 'V', 3, buf, sizeof(buf)) > 0 && !strcmp(buf, "MEAS:VOLT? (@3)"),
	   "Keysight E36300: MEAS:VOLT? (@3) (got '%s')", buf);
	ok(scpi_query(nsel, 'I', 2, buf, sizeof(buf)) > 0 && !strcmp(buf, "MEAS:CURR?"),
	   "E3646A: a bare MEAS:CURR? ...");
	ok(scpi_select(nsel, 2, buf, sizeof(buf)) > 0 && !strcmp(buf, "INST:NSEL 2"),
	   "... after INST:NSEL 2");
	ok(!scpi_select(rigol, 2, buf, sizeof(buf)) && !buf[0], "Rigol: no selection command");
	is_int(scpi_query(rigol, 'I', 4, buf, sizeof(buf)), -EINVAL, "the DP832 has no CH4");
	is_int(scpi_query(k, 'I', 2, buf, sizeof(buf)), -EINVAL, "the 2450 has one output");
	is_int(scpi_query(rigol, 'I', 0, buf, sizeof(buf)), -EINVAL, "channel 0: refused");
	is_int(scpi_query(dmm, 'V', 1, buf, sizeof(buf)), -EINVAL, "a DMM row reads no volts");
	ok(scpi_query(dmm, 'I', 1, buf, sizeof(buf)) > 0 && !strcmp(buf, "MEAS:CURR:DC?"),
	   "a DMM: MEAS:CURR:DC?");
	ok(scpi_array_cmd(scpi_model_find("N6705C"), SCPI_ARR_FETCH_I, 2, 0, 0, buf,
			  sizeof(buf)) > 0 && !strcmp(buf, "FETC:ARR:CURR? (@2)"),
	   "N6705C: the array fetch FETC:ARR:CURR? (@2)");
	ok(scpi_array_cmd(scpi_model_find("N6705C"), SCPI_ARR_TINT, 1, 0, 40.96e-6, buf,
			  sizeof(buf)) > 0 && !strcmp(buf, "SENS:SWE:TINT 4.096e-05,(@1)"),
	   "its interval between points (got '%s')", buf);
	ok(scpi_array_cmd(scpi_model_find("N6705C"), SCPI_ARR_POINTS, 1, 512, 0, buf,
			  sizeof(buf)) > 0 && !strcmp(buf, "SENS:SWE:POIN 512,(@1)"), "its points");
	is_int(scpi_array_cmd(rigol, SCPI_ARR_FETCH_I, 1, 0, 0, buf, sizeof(buf)), -EINVAL,
	       "the DP832 has no array fetch");
}

static void test_numbers(void)
{
	double v = 0;

	ok(!scpi_number("+2.500000E-01", &v) && fabs(v - 0.25) < 1e-12, "NR3");
	ok(!scpi_number(" 12.000 \r", &v) && fabs(v - 12.0) < 1e-12, "NR2 with blanks");
	ok(!scpi_number("-3", &v) && v == -3.0, "NR1, negative");
	is_int(scpi_number("9.9E37", &v), -ERANGE, "SCPI's overload");
	is_int(scpi_number("9.91E37", &v), -ERANGE, "SCPI's not-a-number");
	is_int(scpi_number("", &v), -EBADMSG, "empty");
	is_int(scpi_number("0.25A", &v), -EBADMSG, "a suffix");
	is_int(scpi_number("0.25,0.30", &v), -EBADMSG, "two values");
	is_int(scpi_number("nan", &v), -EBADMSG, "nan");
}

static void test_arrays(void)
{
	double v[4];

	is_int(scpi_numbers("+1.0E-01,+2.0E-01,3", v, 4), 3, "three values");
	ok(fabs(v[1] - 0.2) < 1e-12 && v[2] == 3.0, "in order");
	is_int(scpi_numbers("1,2,3,4,5", v, 4), -EBADMSG, "more than room: refused");
	is_int(scpi_numbers("1,,3", v, 4), -EBADMSG, "an empty field: refused");
	is_int(scpi_numbers("1,9.9E37", v, 4), -EBADMSG, "an overload inside: refused");
}

static void test_errors(void)
{
	char text[64];
	int code = 1;

	ok(!scpi_error("-113,\"Undefined header\"", &code, text, sizeof(text)) && code == -113 &&
		   !strcmp(text, "Undefined header"), "-113 and its text");
	ok(!scpi_error("+0,\"No error\"", &code, text, sizeof(text)) && code == 0, "+0 is none");
	ok(!scpi_error("0", &code, text, sizeof(text)) && code == 0 && !text[0], "a bare 0");
	ok(!scpi_error("-222,\"Data out of range;CH4\"", &code, text, sizeof(text)) &&
		   !strcmp(text, "Data out of range;CH4"), "a text with device detail");
	is_int(scpi_error("No error", &code, text, sizeof(text)), -EBADMSG, "no code: refused");
	is_int(scpi_error("-113 Undefined", &code, text, sizeof(text)), -EBADMSG, "no comma");
}

static void test_lines(void)
{
	struct scpi_rx rx;
	char big[SCPI_LINE_MAX + 10];
	size_t used;

	scpi_rx_reset(&rx, SCPI_LINE_MAX);
	is_int(scpi_rx_take(&rx, "+1.2", 4, &used), 0, "half a line: more needed");
	is_int(scpi_rx_take(&rx, "5E-01\r\nX", 8, &used), 1, "the rest: a line");
	is_str(rx.line, "+1.25E-01", "joined, CR and LF off");
	is_int((int)used, 7, "what follows it is left");
	scpi_rx_reset(&rx, SCPI_LINE_MAX);
	memset(big, '7', sizeof(big));
	is_int(scpi_rx_take(&rx, big, sizeof(big), &used), -EMSGSIZE, "an endless line is refused");
	is_int((int)used, SCPI_LINE_MAX, "after the bound, not later");
	scpi_rx_reset(&rx, SCPI_LINE_MAX);
	is_int(scpi_rx_take(&rx, "\n", 1, &used), 1, "an empty line is a line");
	is_str(rx.line, "", "empty");
}

static void test_accuracy(void)
{
	const struct meter_accuracy *k = &scpi_model_find("2450")->meta.accuracy;
	const struct meter_accuracy *rigol = &scpi_model_find("DP832")->meta.accuracy;

	ok(k->source && k->nranges == 6, "the 2450 declares six current ranges");
	is_dbl(accuracy_current(k, 5e-3)->offset, 600e-9, 1e-15, "5 mA: the 10 mA range's 600 nA");
	is_dbl(accuracy_current(k, 0.5)->gain, 0.0003, 1e-12, "0.5 A: the 1 A range's 0.03 %%");
	ok(rigol->source && fabs(rigol->a.offset - 0.005) < 1e-12 && isnan(rigol->v.gain),
	   "DP832: current readback 0.15 %% + 5 mA, voltage not stated");
	ok(!scpi_model_find("SPD3303X")->meta.accuracy.source, "SPD3303X: none found, none declared");
}

int main(void)
{
	test_idn();
	test_queries();
	test_numbers();
	test_arrays();
	test_errors();
	test_lines();
	test_accuracy();
	return done_testing();
}

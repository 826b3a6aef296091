/* SPDX-License-Identifier: MIT */
/* The SCPI side of `iowatt emulate`: a Rigol DP832 answering *IDN?, MEAS:CURR?/VOLT? per output, SYST:ERR?. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/clock.h"
#include "meters/emu/emu.h"
#include "meters/scpi/scpi.h"
#include "meters/scpi/scpi_protocol.h"

#define IDN "RIGOL TECHNOLOGIES,DP832,DP8EMU0000001,00.01.16"
#define ERRQ_MAX 8 /* SCPI-99 lets the queue be short; a full one keeps -350 last */
#define ERR_UNDEFINED -113
#define ERR_RANGE -222
#define ERR_OVERFLOW -350

static const struct scpi_model *const row = &scpi_models[SCPI_EMU_ROW];

struct scpi_emu {
	char line[SCPI_LINE_MAX + 1];
	size_t len;
	unsigned nsel; /* INST:NSEL's output, the default of a query without CHn */
	int errq[ERRQ_MAX];
	unsigned nerr;
};

static void push_error(struct scpi_emu *st, int code)
{
	if (st->nerr < ERRQ_MAX)
		st->errq[st->nerr++] = code;
	else
		st->errq[ERRQ_MAX - 1] = ERR_OVERFLOW;
}

static const char *error_text(int code)
{
	return code == ERR_UNDEFINED ? "Undefined header" :
	       code == ERR_RANGE     ? "Data out of range" :
	       code == ERR_OVERFLOW  ? "Queue overflow" : "Error";
}

static void reply(struct emu *e, const char *text, int corrupt)
{
	char buf[SCPI_LINE_MAX + 2];
	int n = snprintf(buf, sizeof(buf), "%s\n", text);

	/* A broken reply: the line cut short, its end run into the next reply's. */
	emu_write(e, buf, corrupt ? (size_t)n / 2 : (size_t)n);
}

/* "MEAS:CURR? CH2" / "MEAS:CURR? (@2)" / "MEAS:CURR?": the output asked, 0 for a bad one. */
static unsigned channel_arg(const char *arg, unsigned dflt)
{
	unsigned ch;

	while (isspace((unsigned char)*arg))
		arg++;
	if (!*arg)
		return dflt;
	if (sscanf(arg, "CH%u", &ch) == 1 || sscanf(arg, "(@%u)", &ch) == 1)
		return ch >= 1 && ch <= row->channels ? ch : 0;
	return 0;
}

static int is_cmd(const char *cmd, const char *s, const char *l, const char **arg)
{
	size_t n = strlen(s), m = strlen(l);

	if (!strncasecmp(cmd, l, m)) {
		*arg = cmd + m;
		return 1;
	}
	if (!strncasecmp(cmd, s, n)) {
		*arg = cmd + n;
		return 1;
	}
	return 0;
}

static void measure(struct emu *e, struct scpi_emu *st, char q, const char *arg, uint64_t now)
{
	struct emu_reading r;
	unsigned ch = channel_arg(arg, st->nsel);
	char text[48];
	int corrupt;

	if (!ch) {
		push_error(st, ERR_RANGE);
		return; /* a query in error has no reply (IEEE 488.2 6.3.2) */
	}
	emu_reading(e, now, &r);
	corrupt = emu_corrupt(e);
	snprintf(text, sizeof(text), "%.6f", q == 'I' ? r.a : r.v);
	reply(e, text, corrupt);
	if (q == 'I')
		emu_truth(e, now_ns(), r.v, r.a, r.v * r.a, corrupt ? "corrupt" : "reply");
}

static void command(struct emu *e, struct scpi_emu *st, char *cmd, uint64_t now)
{
	const char *arg;
	char text[64];
	unsigned ch;

	while (isspace((unsigned char)*cmd) || *cmd == ':')
		cmd++;
	if (!*cmd)
		return;
	if (!strcasecmp(cmd, "*IDN?")) {
		reply(e, IDN, 0);
	} else if (!strcasecmp(cmd, "*CLS")) {
		st->nerr = 0;
	} else if (!strcasecmp(cmd, "*RST")) {
		st->nsel = 1;
	} else if (is_cmd(cmd, "SYST:ERR?", "SYSTEM:ERROR?", &arg)) {
		if (st->nerr) {
			snprintf(text, sizeof(text), "%d,\"%s\"", st->errq[0], error_text(st->errq[0]));
			memmove(st->errq, st->errq + 1, --st->nerr * sizeof(st->errq[0]));
		} else {
			snprintf(text, sizeof(text), "0,\"No error\"");
		}
		reply(e, text, 0);
	} else if (is_cmd(cmd, "INST:NSEL", "INSTRUMENT:NSELECT", &arg)) {
		ch = (unsigned)strtoul(arg, NULL, 10);
		if (ch >= 1 && ch <= row->channels)
			st->nsel = ch;
		else
			push_error(st, ERR_RANGE);
	} else if (is_cmd(cmd, "MEAS:CURR?", "MEASURE:CURRENT?", &arg)) {
		measure(e, st, 'I', arg, now);
	} else if (is_cmd(cmd, "MEAS:VOLT?", "MEASURE:VOLTAGE?", &arg)) {
		measure(e, st, 'V', arg, now);
	} else {
		push_error(st, ERR_UNDEFINED);
	}
}

/* Lines end in LF; commands within one are separated by ';'. */
static void scpi_input(struct emu *e, const uint8_t *buf, size_t n, uint64_t now)
{
	struct scpi_emu *st = emu_priv(e, sizeof(*st));
	char *cmd, *save;
	size_t i;

	if (!st->nsel)
		st->nsel = 1;
	for (i = 0; i < n; i++) {
		if (buf[i] != '\n') {
			if (st->len < SCPI_LINE_MAX)
				st->line[st->len++] = (char)buf[i];
			continue;
		}
		if (st->len && st->line[st->len - 1] == '\r')
			st->len--;
		st->line[st->len] = '\0';
		for (cmd = strtok_r(st->line, ";", &save); cmd; cmd = strtok_r(NULL, ";", &save))
			command(e, st, cmd, now);
		st->len = 0;
	}
}

const struct emu_protocol emu_scpi = {
	.name = "scpi",
	.title = "DP832",
	.summary = "a Rigol DP832 over SCPI: *IDN?, MEAS:CURR?/MEAS:VOLT? [CHn], INST:NSEL, "
		   "SYST:ERR?",
	.input = scpi_input,
	.data = &scpi_models[SCPI_EMU_ROW],
	.accuracy = &scpi_models[SCPI_EMU_ROW].meta.accuracy,
};

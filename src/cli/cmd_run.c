/* SPDX-License-Identifier: MIT */
/* `iowatt run` and `iowatt measure`: parse the command line, run, map how it ended to a status. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/run_args.h"
#include "core/mem.h"
#include "core/text.h"
#include "run/run_loop.h"

/* The command line as the result records it: each word shell-quoted where it needs it, so a
 * target or a port with a space in its name reads back whole (and report --redact cuts it
 * whole). */
static char *command_line(int argc, char **argv, int measure)
{
	char *s = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&s, &len);
	int i;

	if (!fp) /* only when memory is short: the command's name, not its words */
		return xstrdup(measure ? "iowatt measure" : "iowatt run");
	fprintf(fp, "iowatt %s", measure ? "measure" : "run");
	for (i = 1; i < argc; i++) {
		fputc(' ', fp);
		text_shell_word(fp, argv[i]);
	}
	fclose(fp);
	return s;
}

/*
 * A signal wins (the user's stop, also during set-up), then a set-up failure's errno, then
 * a failed job; with --strict, then a job whose figures should not be published.
 */
static int exit_code(int err, const struct run_outcome *o, int strict)
{
	if (o->signal == SIGINT)
		return EXIT_SIGINT;
	if (o->signal)
		return 128 + o->signal; /* 143 for SIGTERM, 129 for SIGHUP */
	if (err && !o->ran)
		return exit_code_for_errno(err);
	if (o->undervoltage || o->any_failed || err)
		return EXIT_FAIL;
	if (strict && o->any_invalid)
		return EXIT_INVALID;
	if (strict && o->any_uncertain)
		return EXIT_UNCERTAIN;
	return EXIT_OK;
}

static int run_main(int argc, char **argv, int measure)
{
	struct run_config cfg;
	struct run_outcome out;
	char *cmd;
	int err, strict;

	memset(&cfg, 0, sizeof(cfg));
	err = run_config_parse(argc, argv, &cfg, measure);
	if (err) {
		run_config_free(&cfg);
		return err == 1 ? EXIT_OK : EXIT_USAGE;
	}
	cmd = command_line(argc, argv, measure);
	memset(&out, 0, sizeof(out));
	err = run_execute(&cfg, cmd, measure, &out);
	strict = cfg.run.strict;
	free(cmd);
	run_config_free(&cfg);
	return exit_code(err, &out, strict);
}

int cmd_run(int argc, char **argv)
{
	return run_main(argc, argv, 0);
}

int cmd_measure(int argc, char **argv)
{
	return run_main(argc, argv, 1);
}

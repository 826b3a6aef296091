/* SPDX-License-Identifier: MIT */
/* `iowatt help`: the commands, the man page and bash completion's answers, from the tables. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "core/cmdline.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/version.h"
#include "meters/emu/emu.h"
#include "meters/meter.h"
#include "meters/registry/registry.h"
#include "meters/transport/serial.h"
#include "run/profile.h"

#define LIST_LEN 1024

void commands_usage(FILE *fp)
{
	size_t i;

	fprintf(fp, "iowatt %s: storage benchmark and power meter in one run\n\n"
		    "usage: iowatt COMMAND [OPTIONS]\n\ncommands:\n", iowatt_version);
	for (i = 0; i < ncommands; i++)
		fprintf(fp, "  %-9s %s\n", commands[i].name,
			commands[i].line()->summary);
	fprintf(fp, "\n'iowatt COMMAND --help' shows a command's options.\n");
}

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < ncommands; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* Comma-separated names as one word a line, each with suffix, for the shell. */
static void print_words(FILE *fp, const char *list, const char *suffix)
{
	const char *p = list;
	size_t n;

	while (*p) {
		p += strspn(p, ", ");
		n = strcspn(p, ", ");
		if (n)
			fprintf(fp, "%.*s%s\n", (int)n, p, suffix);
		p += n;
	}
}

/*
 * After "DRIVER:CONNECTION,": the driver's keys as "key=" (no space after), or after
 * "key=" the choices its row lists.
 */
static void complete_meter_key(FILE *fp, const char *cur, const char *colon, const char *item)
{
	const char *eq = strchr(item, '=');
	const struct opt_choice *c;
	const struct opt_desc *keys, *d;
	char drv[64], key[64];
	size_t n, i;

	snprintf(drv, sizeof(drv), "%.*s", (int)(colon - cur), cur);
	keys = meter_driver_keys(meter_registry, drv, &n);
	if (!eq) {
		for (i = 0; i < n; i++)
			fprintf(fp, "%.*s%s=\n", (int)(item - cur), cur, keys[i].name);
		fprintf(fp, "@nospace\n");
		return;
	}
	snprintf(key, sizeof(key), "%.*s", (int)(eq - item), item);
	d = keys ? opt_find(keys, n, key) : NULL;
	for (c = d ? d->choices : NULL; c && c->name; c++)
		fprintf(fp, "%.*s%s\n", (int)(eq + 1 - cur), cur, c->name);
}

/*
 * A meter spec, DRIVER:CONNECTION[,key=value...]: the drivers (no space after the colon),
 * after "DRIVER:" the serial ports `iowatt meters` lists and rfc2217:// and tcp:// for a
 * serial driver, else the serial and HID devices this machine has; the driver's keys after
 * a comma.
 */
static void complete_meter(FILE *fp, const char *cur)
{
	/* A serial driver's ports come from libserialport, [2] (RFCOMM) is one it may miss. */
	static const char *const ports[] = { "/dev/ttyUSB*", "/dev/ttyACM*", "/dev/rfcomm*",
					     "/dev/hidraw*" };
	static const char *const net_prefixes[] = { "rfc2217://", "tcp://" };
	const char *colon = strchr(cur, ':');
	char list[LIST_LEN], *drv;
	glob_t g;
	size_t i, k;
	int serial;

	if (!colon) {
		meter_driver_names(meter_registry, list, sizeof(list));
		print_words(fp, list, ":");
		fprintf(fp, "@nospace\n");
		return;
	}
	if (strrchr(colon, ',')) {
		complete_meter_key(fp, cur, colon, strrchr(colon, ',') + 1);
		return;
	}
	drv = xasprintf("%.*s", (int)(colon - cur), cur);
	serial = meter_driver_serial(meter_registry, drv);
	free(drv);
	if (serial) {
		/* The ports `iowatt meters` lists, the RFCOMM ones it may leave out, ser2net. */
		serial_port_names(fp, cur, (int)(colon + 1 - cur));
		for (i = 0; i < ARRAY_SIZE(net_prefixes); i++)
			fprintf(fp, "%.*s%s\n", (int)(colon + 1 - cur), cur, net_prefixes[i]);
		fprintf(fp, "@nospace\n");
	}
	for (i = serial ? 2 : 0; i < (serial ? 3 : ARRAY_SIZE(ports)); i++) {
		if (glob(ports[i], 0, NULL, &g))
			continue;
		for (k = 0; k < g.gl_pathc; k++)
			fprintf(fp, "%.*s%s\n", (int)(colon + 1 - cur), cur, g.gl_pathv[k]);
		globfree(&g);
	}
}

/* The word lists options and operands name in their `complete` (core/cmdline.h). */
static void complete_list(FILE *fp, const char *name, const char *cur)
{
	const struct emu_protocol *p;
	char list[LIST_LEN];
	size_t i;

	if (!strcmp(name, "profiles")) {
		profile_names(list, sizeof(list));
		print_words(fp, list, "");
	} else if (!strcmp(name, "meters")) {
		complete_meter(fp, cur);
	} else if (!strcmp(name, "emulators")) {
		for (i = 0; (p = meter_emulator(meter_registry, i)); i++)
			fprintf(fp, "%s\n", p->name);
	} else if (!strcmp(name, "commands")) {
		for (i = 0; i < ncommands; i++)
			fprintf(fp, "%s\n", commands[i].name);
	}
}

/* `help --complete-words CWORD WORD...`: what bash's completion asks at each TAB. */
static int complete_words(int cword, char **words, int nwords)
{
	const struct command *c;

	if (cword <= 1) {
		complete_list(stdout, "commands", "");
		printf("--help\n--version\n");
		return EXIT_OK;
	}
	c = nwords > 1 ? find_command(words[1]) : NULL;
	if (!c)
		printf("@file\n");
	else
		cmdline_complete(stdout, c->line(), cword, words, nwords, complete_list);
	return EXIT_OK;
}

int cmd_help(int argc, char **argv)
{
	const struct command *c;

	if (argc >= 2 && !strcmp(argv[1], "--man")) {
		man_page(stdout);
		return EXIT_OK;
	}
	if (argc >= 3 && !strcmp(argv[1], "--complete-words"))
		return complete_words(atoi(argv[2]), argv + 3, argc - 3);
	if (argc >= 3 && !strcmp(argv[1], "--complete")) {
		if (strcmp(argv[2], "commands") && strcmp(argv[2], "profiles") &&
		    strcmp(argv[2], "meters") && strcmp(argv[2], "emulators")) {
			log_err(NULL, "help --complete: commands, profiles, meters or emulators, "
				"not '%s'", argv[2]);
			return EXIT_USAGE;
		}
		if (!strcmp(argv[2], "meters")) {
			char list[LIST_LEN];

			meter_driver_names(meter_registry, list, sizeof(list));
			print_words(stdout, list, "");
		} else {
			complete_list(stdout, argv[2], "");
		}
		return EXIT_OK;
	}
	c = argc >= 2 ? find_command(argv[1]) : NULL;
	if (c) {
		cmdline_help(stdout, c->line()); /* iowatt help CMD: iowatt CMD --help */
		return EXIT_OK;
	}
	if (argc >= 2) {
		log_err(NULL, "help: no command '%s'", argv[1]);
		commands_usage(stderr);
		return EXIT_USAGE;
	}
	commands_usage(stdout);
	return EXIT_OK;
}

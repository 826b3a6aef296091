/* SPDX-License-Identifier: MIT */
/* Fuzz target: `iowatt run` and `measure` command lines (NUL-separated words) to a config. */
#include "cli/run_args.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char run_word[] = "run", measure_word[] = "measure";
	struct run_config cfg;
	char *buf, **argv;
	int argc, measure = size && (data[0] & 1);

	/* The first byte picks run or measure; the rest are the words after the command. */
	argv = fuzz_argv(size ? data + 1 : data, size ? size - 1 : 0, measure ? measure_word : run_word,
			 &buf, &argc);
	if (!run_config_parse(argc, argv, &cfg, measure))
		run_config_free(&cfg);
	log_set_level(-1);
	free(argv);
	free(buf);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/* Fuzz target: a result file through the reader, then compare (every format) and size. */
#include "cli/commands.h"
#include "fuzz.h"

static void run(int (*cmd)(int, char **), char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	(void)cmd(argc, argv);
	log_set_level(-1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = fuzz_file(data, size, "result.json", path, sizeof(path));
	char *table[] = { "compare", path, path, NULL };
	char *md[] = { "compare", "--format", "md", "--by", "j_per_gb", path, NULL };
	char *csv[] = { "compare", "--format", "csv", path, NULL };
	char *size_cmd[] = { "size", "--battery", "3000mAh@3.7V", "--write", "200MB/day", path, NULL };
	char *records[] = { "size", "--battery", "11.1Wh", "--records", "4KiB@1/min", path, NULL };

	if (fd < 0)
		return 0;
	run(cmd_compare, table);
	run(cmd_compare, md);
	run(cmd_compare, csv);
	run(cmd_size, size_cmd);
	run(cmd_size, records);
	close(fd);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/* Fuzz target: INI job profiles ([global], sections, every job key) through the reader. */
#include "fuzz.h"
#include "run/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct job_opts *jobs = NULL;
	size_t njobs = 0;
	char path[64];
	int fd = fuzz_file(data, size, "profile.ini", path, sizeof(path));

	if (fd < 0)
		return 0;
	if (!profile_load(path, &jobs, &njobs, NULL))
		free(jobs);
	close(fd);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/* For umockdev tests: whether umockdev's preload sees the calls this build makes. */
#ifndef IOWATT_TEST_UMOCK_ENV_H
#define IOWATT_TEST_UMOCK_ENV_H

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * 0 when the emulation can work, else 1 with why set. Two things stop it: no
 * umockdev-wrapper (no preload), and a 32-bit build with 64-bit time_t (-D_TIME_BITS=64)
 * against a preload older than umockdev's time64 support (Debian 12's 0.17): glibc routes such
 * a build's ioctl() to __ioctl_time64, which that preload does not wrap, so the emulated
 * device's ioctls reach the kernel and fail (EOPNOTSUPP, ENOTTY).
 */
static inline int umock_unusable(char *why, size_t len)
{
	const char *pre = getenv("LD_PRELOAD");

	if (!pre || !strstr(pre, "umockdev")) {
		snprintf(why, len, "needs umockdev-wrapper (LD_PRELOAD of libumockdev-preload)");
		return 1;
	}
#if defined(__USE_TIME_BITS64) && defined(__TIMESIZE) && __TIMESIZE == 32
	{
		void *fn = dlsym(RTLD_DEFAULT, "__ioctl_time64");
		Dl_info info;

		if (!fn || !dladdr(fn, &info) || !info.dli_fname || !strstr(info.dli_fname, "umockdev")) {
			snprintf(why, len, "umockdev's preload does not wrap __ioctl_time64, where this "
					   "32-bit build with 64-bit time_t sends ioctl()");
			return 1;
		}
	}
#endif
	return 0;
}

#endif

/* SPDX-License-Identifier: MIT */
/* For tests: whether this process runs under a user-mode CPU emulator (qemu-user). */
#ifndef IOWATT_TEST_EMULATION_H
#define IOWATT_TEST_EMULATION_H

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "core/files.h"

#define KERNEL_ARCH "/proc/sys/kernel/arch"

/* x86 and arm kernels also run their 32-bit user space natively (i686, armv7l on aarch64). */
static inline const char *cpu_family(const char *machine)
{
	if (!strcmp(machine, "x86_64") || (machine[0] == 'i' && strstr(machine, "86")))
		return "x86";
	if (!strncmp(machine, "aarch64", 7) || !strncmp(machine, "arm", 3))
		return "arm";
	return machine;
}

/*
 * 1 when the machine uname() reports is of another CPU family than the kernel's own
 * (/proc/sys/kernel/arch, Linux 6.1): qemu-user answers uname() for the guest but passes
 * that file through. Timing assertions mean nothing there; why says so.
 */
static inline int under_emulation(char *why, size_t len)
{
	struct utsname u;
	char arch[64];

	if (uname(&u) || read_text_file(KERNEL_ARCH, arch, sizeof(arch)))
		return 0;
	if (!strcmp(cpu_family(u.machine), cpu_family(arch)))
		return 0;
	snprintf(why, len, "under CPU emulation (qemu-user): %.16s user space on a %.16s kernel",
		 u.machine, arch);
	return 1;
}

#endif

/* SPDX-License-Identifier: MIT */
/* For tests: whether this process runs under a user-mode CPU emulator (qemu-user). */
#ifndef IOWATT_TEST_EMULATION_H
#define IOWATT_TEST_EMULATION_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#define ELF_MACHINE_OFFSET 18

static inline int elf_machine(const char *path)
{
	uint8_t h[ELF_MACHINE_OFFSET + 2];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, h, sizeof(h)) : -1;

	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)sizeof(h) || h[0] != 0x7f || h[1] != 'E')
		return -1;
	return h[ELF_MACHINE_OFFSET] | h[ELF_MACHINE_OFFSET + 1] << 8; /* little-endian hosts */
}

/*
 * 1 when our own executable is for another CPU than init's: qemu-user shows the guest's
 * binary as /proc/self/exe, while /proc/1/exe is the host's (a chroot with the host's
 * /proc, as tests/distros.sh sets up). Timing assertions are meaningless there; why says so.
 */
static inline int under_emulation(char *why, size_t len)
{
	int self = elf_machine("/proc/self/exe"), init = elf_machine("/proc/1/exe");

	if (self < 0 || init < 0 || self == init)
		return 0;
	snprintf(why, len, "under CPU emulation (qemu-user: ELF machine %d on a host of %d)",
		 self, init);
	return 1;
}

#endif

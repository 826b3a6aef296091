/* SPDX-License-Identifier: MIT */
/* Registry of live iowatt emulators, so a run can label their readings as emulated. */
#ifndef IOWATT_EMU_REGISTRY_H
#define IOWATT_EMU_REGISTRY_H

#include <stdio.h>
#include <sys/types.h>

#define EMU_PTS_PREFIX "/dev/pts/"
#define EMU_PTS_PREFIX_LEN (sizeof(EMU_PTS_PREFIX) - 1)

/* Records that this process serves pts ("/dev/pts/N") as driver model (um25c) at link. */
int emureg_add(const char *pts, const char *link, const char *model);
void emureg_remove(const char *pts);
/* Pid of the live emulator serving the pty that path resolves to; 0 if none. */
pid_t emureg_owner(const char *path);
/* One line per live emulator with a spec to paste; returns how many. */
int emureg_list(FILE *out);

#endif

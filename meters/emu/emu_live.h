/* SPDX-License-Identifier: MIT */
/* The live iowatt emulators on this machine, so a run can label their readings as emulated. */
#ifndef IOWATT_EMU_LIVE_H
#define IOWATT_EMU_LIVE_H

#include <stdio.h>
#include <sys/types.h>

#define EMU_PTS_PREFIX "/dev/pts/"
#define EMU_PTS_PREFIX_LEN (sizeof(EMU_PTS_PREFIX) - 1)

/* Records that this process serves pts ("/dev/pts/N") as driver model (um25c) at link. */
int emu_live_add(const char *pts, const char *link, const char *model);
void emu_live_remove(const char *pts);
/* Pid of the live emulator serving the pty that path resolves to; 0 if none. */
pid_t emu_live_owner(const char *path);
/* One line per live emulator with a spec to paste; returns how many. */
int emu_live_list(FILE *out);

#endif

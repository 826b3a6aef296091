/* SPDX-License-Identifier: MIT */
/* The phases of one metered job: idle baseline, the fixed-size active phase, the tail. */
#ifndef IOWATT_PHASE_H
#define IOWATT_PHASE_H

enum phase { PHASE_IDLE, PHASE_ACTIVE, PHASE_TAIL, PHASE_COUNT };

#endif

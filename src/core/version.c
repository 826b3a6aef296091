/* SPDX-License-Identifier: MIT */
/* The one place the version and prefix enter the code, from the generated config.h. */
#include "config.h"
#include "core/version.h"

const char iowatt_version[] = IOWATT_VERSION;
const char iowatt_prefix[] = IOWATT_PREFIX;

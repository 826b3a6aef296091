/* SPDX-License-Identifier: MIT */
/* The GPIO undervoltage line source (--uv-gpio), for the registry. */
#ifndef IOWATT_SOURCES_GPIO_UV_H
#define IOWATT_SOURCES_GPIO_UV_H

#include "sources/source-internal.h"

extern const struct source_driver source_gpio_uv;

#endif

/* SPDX-License-Identifier: MIT */
/* The event sources iowatt knows, one row each: the table the run and the commands pass down. */
#ifndef IOWATT_SOURCES_REGISTRY_H
#define IOWATT_SOURCES_REGISTRY_H

#include "sources/sources.h"

/*
 * Every event source in the order they are opened and described, ended by a row whose
 * driver is NULL. Only the layers above the source folders (run, cli) use it: the
 * watcher (sources.c) takes it as an argument of sources_open and sources_describe.
 */
extern const struct source_entry source_registry[];

#endif

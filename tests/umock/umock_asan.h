/* SPDX-License-Identifier: MIT */
/* Lets ASan builds of umockdev tests start although umockdev's preload comes first. */
#ifndef IOWATT_TEST_UMOCK_ASAN_H
#define IOWATT_TEST_UMOCK_ASAN_H

/*
 * umockdev-wrapper puts its library in LD_PRELOAD ahead of the ASan runtime; ASan would
 * abort at start-up. The preload only wraps libc calls, so checking the link order buys
 * nothing here. Read by ASan at init; ignored in other builds.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "verify_asan_link_order=0";
}

#endif

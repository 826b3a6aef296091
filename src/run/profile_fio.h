/* SPDX-License-Identifier: MIT */
/* fio job files read as profiles: the keys whose meaning differs, fio's defaults, fio's sizes. */
#ifndef IOWATT_PROFILE_FIO_H
#define IOWATT_PROFILE_FIO_H

#include <stddef.h>

enum fio_key_action {
	FIO_KEY_TARGET, /* filename=, directory=: the run's target */
	FIO_KEY_RENAME, /* iowatt's key `to` does it; `why` says how it differs */
	FIO_KEY_IGNORE, /* nothing to do in iowatt; `why` says why */
	FIO_KEY_REFUSE, /* iowatt cannot honour it; `why` says why and what to do */
};

struct fio_key {
	const char *name;
	enum fio_key_action action;
	const char *to;
	const char *why;
	const char *fine; /* REFUSE: a value that is fio's default, read as nothing to do */
};

struct fio_default {
	const char *key, *value;
};

/* direct=0, end_fsync=0, ioengine=psync: set on [global] before a fio file is read. */
extern const struct fio_default fio_defaults[];

/* A path that ends in ".fio". */
int profile_fio_is(const char *path);
/* The row of a key whose meaning differs from iowatt's (its index in *index), or NULL. */
const struct fio_key *profile_fio_key(const char *key, size_t *index);
size_t profile_fio_nkeys(void);
/* A value in iowatt's syntax (sizes as fio reads them, ioengine=sync as psync); 0 or
 * -EINVAL with the reason in err. */
int profile_fio_value(const char *key, const char *value, char *out, size_t len, char *err,
		      size_t errlen);

#endif

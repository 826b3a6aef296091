/* SPDX-License-Identifier: MIT */
/* The result document's key tables: the one place that pairs JSON keys with result fields. */
#ifndef IOWATT_RESULT_SCHEMA_H
#define IOWATT_RESULT_SCHEMA_H

#include <stddef.h>

enum rf_type {
	RF_STR,	  /* char *: NULL is null */
	RF_U64,	  /* uint64_t */
	RF_UINT,  /* unsigned */
	RF_I64,	  /* int64_t: RESULT_NULL_INT is null */
	RF_INT,	  /* int */
	RF_BOOL,  /* int 0/1 */
	RF_TRI,	  /* int: RESULT_NULL_BOOL is null */
	RF_REAL,  /* double: not finite is null */
	RF_ENUM,  /* int index into names[] */
	RF_EVKIND, /* int enum event_kind, by event_kind_name() */
	RF_OBJ,	  /* struct embedded at off, described by sub */
	RF_PTR,	  /* pointer to one struct (sub): NULL is null */
	RF_ARRAY, /* pointer to count structs (sub); count: size_t at aux */
	RF_STRS,  /* char ** with a size_t count at aux */
	RF_PCT,	  /* struct result_pct[RESULT_MAX_PCT], count at aux: {"99.000000": ns} */
	RF_OPTS,  /* struct result_opt *, count at aux: {"key": value} */
};

/* When a key is left out of the document. */
enum rf_absent {
	RF_ALWAYS,   /* always written (null where the value is null) */
	RF_OMIT,     /* left out when NULL / RESULT_NULL_INT */
	RF_OMIT_ZERO, /* RF_U64: left out when 0 (and absent reads as 0) */
	RF_EMPTY_OBJ /* RF_PTR: NULL is written {} and {} reads as NULL */
};

struct result_schema;

struct result_field {
	const char *key;
	enum rf_type type;
	size_t off;
	size_t aux;
	enum rf_absent absent;
	const struct result_schema *sub;
	const char *const *names; /* RF_ENUM */
	size_t nnames;
};

struct result_schema {
	const char *name;
	size_t size; /* of the struct, for arrays and pointers */
	const struct result_field *fields;
	size_t nfields;
};

extern const struct result_schema result_run_schema;
extern const struct result_schema result_job_schema;
extern const struct result_schema result_meter_schema;
extern const struct result_schema result_device_model_schema;
extern const struct result_schema result_power_schema;
extern const struct result_schema result_efficiency_schema;
extern const struct result_schema result_validity_schema;

#endif

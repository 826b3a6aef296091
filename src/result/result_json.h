/* SPDX-License-Identifier: MIT */
/* The result as a JSON document and back, for the code that handles the document itself. */
#ifndef IOWATT_RESULT_JSON_H
#define IOWATT_RESULT_JSON_H

#include <jansson.h>

#include "result/result.h"

/* The document; NULL (logged) on failure. */
json_t *result_to_json(const struct run_result *r);
/*
 * Fill `out` from a document; `origin` (a file name) starts every error message, which
 * names the key: "r.json: jobs[2].power.active_w: expected a number". 0 or -EINVAL.
 * `out` is left empty on failure.
 */
int result_from_json(json_t *root, const char *origin, struct run_result *out);
/* Write a document atomically: temp file, fsync, rename; creates the directory. 0 or
 * -errno (logged). */
int result_file_write(const char *path, json_t *root);

#endif

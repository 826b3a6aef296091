/* SPDX-License-Identifier: MIT */
/* How the key tables (result_schema*.c) write their rows; not for readers of the tables. */
#ifndef IOWATT_RESULT_SCHEMA_ROWS_H
#define IOWATT_RESULT_SCHEMA_ROWS_H

#include <stddef.h>

#include "result/result_schema.h"

/* A member of struct T written under key K; order in a table is order in the document. */
#define FIELD(T, K, M, TYPE, ...) { .key = K, .type = TYPE, .off = offsetof(T, M), __VA_ARGS__ }
#define LIST(T, K, M, N, TYPE, ...) FIELD(T, K, M, TYPE, .aux = offsetof(T, N), __VA_ARGS__)
/* A row of the figure table (result_figures.h): its key, and its _u95 beside it. */
#define FIGURE(M, KIND) \
	FIELD(T, #M, M, RF_REAL), RESULT_IF_U95(KIND, FIELD(T, #M "_u95", M##_u95, RF_REAL), )
#define SCHEMA(VAR, T, TABLE) \
	const struct result_schema VAR = { #T, sizeof(T), TABLE, ARRAY_SIZE(TABLE) }

/* The tool's and the context's tables (result_schema_context.c). */
extern const struct result_schema result_tool_schema, result_context_schema;

#endif

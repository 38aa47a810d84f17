/* SPDX-License-Identifier: Apache-2.0 */
/*
 * precomputed.c: the base-point tables (precomputed.h) defined once for the extension,
 * whose per-backend builds of the core declare them with P256_TABLES_EXTERN, so the
 * module carries one copy (213 KiB) however many backends it has.
 */
/* group.h declares the layer's static functions, which this unit neither defines nor uses. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#define P256_TABLE_STORAGE /* external (hidden: -fvisibility=hidden) */
#include "precomputed.h"

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ctime.h: what the constant-time checks (tests/c/ctime_*.c, make ctime) share.
 *
 * A check marks its secrets undefined (secret) and what becomes public declassified
 * (public); valgrind memcheck then reports every branch and memory address computed from
 * a secret. A negative control is a deliberate leak on a check's path behind a public
 * flag, ctime_canary: 0 in a check's run, set by run_ctime -c NAME, so that the control
 * runs the very code the check runs.
 */
#ifndef P256_TEST_CTIME_H
#define P256_TEST_CTIME_H

#include "p256.c"

#include <stdio.h>

#define CTIME_UNUSED __attribute__((unused))

static CTIME_UNUSED void secret(void *p, size_t n)
{
    P256_SECRET(p, n);
}

static CTIME_UNUSED void public(void *p, size_t n)
{
    P256_DECLASSIFY(p, n);
}

enum {
    CTIME_CANARY_NONE,
    CTIME_CANARY_SCALAR_MUL,
    CTIME_CANARY_SCALAR_SCAN,
    CTIME_CANARY_PUBTABLE_INDEX,
    CTIME_CANARY_BATCH_GEN_INDEX,
    CTIME_CANARY_BATCH_CONST_INDEX,
    CTIME_CANARY_GROUP_MAP,
    CTIME_CANARY_GROUP_MULT,
    CTIME_CANARY_GROUP_MULTI,
    CTIME_CANARY_GROUP_MODN,
    CTIME_CANARY_GROUP_TABLE
};
static CTIME_UNUSED int ctime_canary = CTIME_CANARY_NONE;

#endif /* P256_TEST_CTIME_H */

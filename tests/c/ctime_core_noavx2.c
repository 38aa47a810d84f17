/* SPDX-License-Identifier: Apache-2.0 */
/* ctime_core.c with the baseline (non-AVX2) table scan, so both lookup paths are checked. */
#define P256_NO_AVX2
#include "ctime_core.c"

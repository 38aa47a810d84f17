/* SPDX-License-Identifier: Apache-2.0 */
/* The tests of test_hash.c with the SHA-256 instruction-set paths compiled out, so the portable
 * compression function is checked against every known answer even on CPUs with SHA-NI. */
#define P256_NO_SHA_EXT 1
#include "test_hash.c"

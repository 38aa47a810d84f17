/* SPDX-License-Identifier: Apache-2.0 */
/*
 * field_x86_64_mulx.S: field_x86_64.S assembled with the Montgomery step by MULX, the
 * schedule Intel cores run faster (x86_64_mont.h says why; cpu.h's P256_CPU_MULX_STEP
 * chooses it at run time). The same functions and contracts, their symbols ending in
 * _x86_64_adx_mulx.
 */
#define P256_X86_64_MULX_STEP 1
#include "field_x86_64.S"

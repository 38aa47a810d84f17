/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scalar_asm.h: the assembly twins of the arithmetic mod n (asm.h's scheme), declared
 * only for the build that links them: x86-64 with BMI2 and ADX (the backend's own CPU
 * check), csrc/asm/scalar_x86_64.S; AArch64, csrc/asm/scalar_aarch64.S.
 *
 * p256_scalar_mont_mul / _sqr: the Montgomery product a*b/R mod n and square a^2/R mod
 * n, R = 2^256, exactly scalar_impl.h's p256_scalar_mont_mul_c / _sqr_c: 4 little-endian
 * 64-bit limbs, inputs < n, output < n, r may alias a or b. Constant time in every
 * input: no branch, memory index or variable-time instruction depends on it.
 */
#ifndef P256_SCALAR_ASM_H
#define P256_SCALAR_ASM_H

#include <stdint.h>

#include "asm.h"

#if defined(P256_ASM_FN)
#define P256_ASM_HAS_SCALAR_MONT_MUL 1
#define P256_ASM_HAS_SCALAR_MONT_SQR 1
void P256_ASM_FN(scalar_mont_mul)(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
void P256_ASM_FN(scalar_mont_sqr)(uint64_t r[4], const uint64_t a[4]);
#endif

#endif /* P256_SCALAR_ASM_H */

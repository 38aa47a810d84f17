/* SPDX-License-Identifier: Apache-2.0 */
/*
 * field_asm.h: the assembly twins of the field layer (asm.h's scheme), declared only for
 * the build that links them: x86-64 with BMI2 (MULX) and ADX (ADCX/ADOX),
 * csrc/asm/field_x86_64.S; AArch64, csrc/asm/field_aarch64.S. Each has exactly the
 * contract of its C twin in field_impl.h (p256_fe_mul_c, p256_fe_sqr_c): 4 little-endian
 * 64-bit limbs, inputs fully reduced (< p), output fully reduced, r may alias a or b,
 * constant time in every input.
 */
#ifndef P256_FIELD_ASM_H
#define P256_FIELD_ASM_H

#include <stdint.h>

#include "asm.h"

#if defined(P256_ASM_FN)
#define P256_ASM_HAS_FE_MUL 1
#define P256_ASM_HAS_FE_SQR 1
void P256_ASM_FN(fe_mul)(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
void P256_ASM_FN(fe_sqr)(uint64_t r[4], const uint64_t a[4]);
#endif
#if defined(P256_ASM_MULX_FN) /* x86-64: the same with the MULX step (asm.h) */
void P256_ASM_MULX_FN(fe_mul)(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
void P256_ASM_MULX_FN(fe_sqr)(uint64_t r[4], const uint64_t a[4]);
#endif

#endif /* P256_FIELD_ASM_H */

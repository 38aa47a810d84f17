/* SPDX-License-Identifier: Apache-2.0 */
/*
 * field_asm.h: the assembly backends' entry points (the .S files in csrc/asm), declared only for
 * the build that links them. Each has exactly the contract of its portable twin in
 * field_impl.h / scalar_impl.h: 4 little-endian 64-bit limbs, inputs fully reduced
 * (< p, or < n for the scalar product), output fully reduced, r may alias a or b,
 * constant time in every input.
 */
#ifndef P256_FIELD_ASM_H
#define P256_FIELD_ASM_H

#include <stdint.h>

#if defined(P256_ASM_X86_64_ADX)
/* x86-64 with BMI2 (MULX) and ADX (ADCX/ADOX): csrc/asm/field_x86_64.S. */
void p256_fe_mul_x86_64_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
void p256_fe_sqr_x86_64_adx(uint64_t r[4], const uint64_t a[4]);
#elif defined(P256_ASM_AARCH64)
/* AArch64: csrc/asm/field_aarch64.S. */
void p256_fe_mul_aarch64(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
void p256_fe_sqr_aarch64(uint64_t r[4], const uint64_t a[4]);
#endif

#endif /* P256_FIELD_ASM_H */

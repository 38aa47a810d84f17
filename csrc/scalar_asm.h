/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scalar_asm.h: the assembly backends' arithmetic mod n and table scan (the .S files
 * csrc/asm/scalar_*.S and csrc/asm/ecmult_*.S), declared only for the build that links
 * them.
 *
 * A backend that has them defines P256_SCALAR_ASM_MUL / P256_SCALAR_ASM_SQR (the
 * Montgomery product a*b/R mod n and square a^2/R mod n, R = 2^256: exactly
 * scalar_impl.h's p256_scalar_mont_mul_c, 4 little-endian 64-bit limbs, inputs < n,
 * output < n, r may alias a or b) and, where it has them, the table scans
 * P256_AFF_LOOKUP_ASM_* (r = the 8 words of table entry idx - 1, 8 words per entry, or 0
 * when idx is 0 or > entries; entries >= 0 is public (fixed by the name for the
 * NEON16/NEON64 ones), idx secret: every entry is read and masked). All constant time
 * in every secret input: no branch, memory index or variable-time instruction depends
 * on it.
 */
#ifndef P256_SCALAR_ASM_H
#define P256_SCALAR_ASM_H

#include <stdint.h>

#if defined(P256_ASM_X86_64_ADX)
/* csrc/asm/scalar_x86_64.S: BMI2 + ADX (the backend's own CPU check) ... */
void p256_scalar_mont_mul_x86_64_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
void p256_scalar_mont_sqr_x86_64_adx(uint64_t r[4], const uint64_t a[4]);
/* csrc/asm/ecmult_x86_64.S: AVX2, which the caller checks at run time (ecmult_impl.h). */
void p256_aff_lookup_x86_64_avx2(uint64_t *r, const uint64_t *table, int64_t entries, uint64_t idx);
#define P256_SCALAR_ASM_MUL p256_scalar_mont_mul_x86_64_adx
#define P256_SCALAR_ASM_SQR p256_scalar_mont_sqr_x86_64_adx
#define P256_AFF_LOOKUP_ASM_AVX2 p256_aff_lookup_x86_64_avx2
#elif defined(P256_ASM_AARCH64)
/* csrc/asm/scalar_aarch64.S. */
void p256_scalar_mont_mul_aarch64(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
void p256_scalar_mont_sqr_aarch64(uint64_t r[4], const uint64_t a[4]);
/* csrc/asm/ecmult_aarch64.S: the scan for the two table sizes the core uses (NEON,
 * unrolled: no loop branch). */
void p256_aff_lookup_aarch64_16(uint64_t *r, const uint64_t *table, uint64_t idx);
void p256_aff_lookup_aarch64_64(uint64_t *r, const uint64_t *table, uint64_t idx);
#define P256_SCALAR_ASM_MUL p256_scalar_mont_mul_aarch64
#define P256_SCALAR_ASM_SQR p256_scalar_mont_sqr_aarch64
#define P256_AFF_LOOKUP_ASM_NEON16 p256_aff_lookup_aarch64_16
#define P256_AFF_LOOKUP_ASM_NEON64 p256_aff_lookup_aarch64_64
#endif

#endif /* P256_SCALAR_ASM_H */

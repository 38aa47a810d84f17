/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ecmult_asm.h: the assembly twins of the scalar multiplications' table scan (asm.h's
 * scheme), declared only for the build that links them.
 *
 * r = the 8 words of table entry idx - 1, 8 words per entry, or 0 when idx is 0 or
 * > entries, as ecmult_impl.h's p256_aff_lookup_c. entries is public, idx secret: every
 * entry is read and masked, no branch, memory index or variable-time instruction
 * depends on idx.
 *
 *   aff_lookup_avx2   x86-64 AVX2 (csrc/asm/ecmult_x86_64.S), any entries >= 0; the
 *                     twin of p256_aff_lookup_avx2_c. The caller checks AVX2 at run time
 *                     (cpu.h).
 *   aff_lookup_16,    AArch64 NEON (csrc/asm/ecmult_aarch64.S), unrolled (no loop
 *   aff_lookup_64     branch) for the two table sizes the core uses: p256_aff_lookup_c
 *                     with entries = 16, 64.
 */
#ifndef P256_ECMULT_ASM_H
#define P256_ECMULT_ASM_H

#include <stdint.h>

#include "asm.h"

#if defined(P256_ASM_X86_64_ADX)
#define P256_ASM_HAS_AFF_LOOKUP_AVX2 1
void P256_ASM_FN(aff_lookup_avx2)(uint64_t *r, const uint64_t *table, int64_t entries, uint64_t idx);
#elif defined(P256_ASM_AARCH64)
#define P256_ASM_HAS_AFF_LOOKUP_16 1
#define P256_ASM_HAS_AFF_LOOKUP_64 1
void P256_ASM_FN(aff_lookup_16)(uint64_t *r, const uint64_t *table, uint64_t idx);
void P256_ASM_FN(aff_lookup_64)(uint64_t *r, const uint64_t *table, uint64_t idx);
#endif

#endif /* P256_ECMULT_ASM_H */

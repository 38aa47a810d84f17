/* SPDX-License-Identifier: Apache-2.0 */
/* ecmult_common_impl.h: what the scalar multiplications share: window bits,
 * Booth recoding, the constant-time table scan (with its AVX2 and assembly twins) and the
 * test hook of the partial additions. */
#ifndef P256_ECMULT_COMMON_IMPL_H
#define P256_ECMULT_COMMON_IMPL_H

#include <string.h>

#include "group_impl.h"
#include "scalar_impl.h"
#include "cpu.h"
#include "ecmult_asm.h"

/*
 * Bits [start, start + width) of k, width <= 57, start >= -1 (bit -1 reads as 0, as
 * Booth recoding wants). The position is public; only the value is secret.
 */
P256_INLINE uint64_t p256_scalar_bits(const p256_scalar *k, int start, int width)
{
    uint64_t w;
    if (start < 0)
        return (k->v[0] << 1) & ((1ULL << width) - 1);
    w = k->v[start / 64] >> (start % 64);
    if (start % 64 + width > 64 && start / 64 < 3)
        w |= k->v[start / 64 + 1] << (64 - start % 64);
    return w & ((1ULL << width) - 1);
}

/*
 * Signed Booth digit of a (bits+1)-bit window w (bit 0 is the top bit of the previous
 * window): d = floor(w/2) + (w & 1) - 2^bits * (w >> bits), in [-2^(bits-1), 2^(bits-1)].
 * Sums of d_i * 2^(bits*i) telescope back to k. Returns |d|, sets *neg to all-ones when
 * d < 0. Constant time.
 */
P256_INLINE uint64_t p256_booth(uint64_t w, int bits, uint64_t *neg)
{
    const uint64_t top = w >> bits;
    const uint64_t v = (w >> 1) + (w & 1);          /* the digit before the sign */
    const uint64_t m = p256_mask_from_bit(top);
    *neg = m;
    return (v & ~m) | (((1ULL << bits) - v) & m);
}

/*
 * Constant-time r = table[idx - 1], or r = (0, 0) for idx = 0: every entry is read and
 * masked, so the memory trace does not depend on idx. Written with the compiler's
 * vector extension (an entry is two 32-byte vectors), which becomes SSE2 code in the
 * baseline build and AVX2 code in the clone below, chosen once at run time.
 */
typedef uint64_t p256_v4 __attribute__((vector_size(32)));
/* An entry is 8 words, no padding: what the assembly scans (ecmult_asm.h) assume. */
typedef char p256_aff_is_8_words[sizeof(p256_aff) == 64 ? 1 : -1];

#define P256_AFF_LOOKUP_BODY                                                   \
    {                                                                          \
        const p256_v4 one = {1, 1, 1, 1}, want = {idx, idx, idx, idx};         \
        p256_v4 acc0 = {0, 0, 0, 0}, acc1 = {0, 0, 0, 0}, j = one, e0, e1, m;  \
        for (int i = 0; i < entries; i++, j += one) {                          \
            m = (p256_v4)(j == want); /* lanewise compare: all-ones or 0 */   \
            memcpy(&e0, &table[i], 32);                                        \
            memcpy(&e1, (const uint8_t *)&table[i] + 32, 32);                  \
            acc0 |= e0 & m;                                                    \
            acc1 |= e1 & m;                                                    \
        }                                                                      \
        memcpy(r, &acc0, 32);                                                  \
        memcpy((uint8_t *)r + 32, &acc1, 32);                                  \
    }

static void p256_aff_lookup_c(p256_aff *r, const p256_aff *table, int entries, uint64_t idx)
    P256_AFF_LOOKUP_BODY

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(P256_NO_AVX2)
/* Unused where the backend has the scan in assembly (ecmult_asm.h): the harness's reference. */
__attribute__((target("avx2"))) P256_UNUSED static void
p256_aff_lookup_avx2_c(p256_aff *r, const p256_aff *table, int entries, uint64_t idx)
    P256_AFF_LOOKUP_BODY

P256_INLINE void p256_aff_lookup(p256_aff *r, const p256_aff *table, int entries, uint64_t idx)
{
    if (p256_cpu_has(P256_CPU_AVX2)) /* the answer is not secret */
#if defined(P256_ASM_HAS_AFF_LOOKUP_AVX2)
        /* The same scan in assembly, eight entries an iteration (faster: docs/performance.md). */
        P256_ASM_FN(aff_lookup_avx2)((uint64_t *)r, (const uint64_t *)table, entries, idx);
#else
        p256_aff_lookup_avx2_c(r, table, entries, idx);
#endif
    else
        p256_aff_lookup_c(r, table, entries, idx);
}
#elif defined(P256_ASM_HAS_AFF_LOOKUP_16) && defined(P256_ASM_HAS_AFF_LOOKUP_64)
/* The NEON scans of ecmult_asm.h for the sizes they have (entries is public). */
P256_INLINE void p256_aff_lookup(p256_aff *r, const p256_aff *table, int entries, uint64_t idx)
{
    if (entries == 16)
        P256_ASM_FN(aff_lookup_16)((uint64_t *)r, (const uint64_t *)table, idx);
    else if (entries == 64)
        P256_ASM_FN(aff_lookup_64)((uint64_t *)r, (const uint64_t *)table, idx);
    else
        p256_aff_lookup_c(r, table, entries, idx);
}
#else
#define p256_aff_lookup p256_aff_lookup_c
#endif
#undef P256_AFF_LOOKUP_BODY

/*
 * The additions of k*G and k*P that involve k use the incomplete mixed formula
 * p256_jac_add_aff_partial (8M + 3S against the complete one's 7M + 6S and its masked
 * fallback). It is right when either side is infinity (masked) and whenever x(acc) !=
 * x(addend); the arguments next to each loop show that acc == +-addend, both finite,
 * never happens for a reduced k (0 <= k < n, what p256_scalar holds). A test hook
 * (P256_ECMULT_ADD_PARTIAL) lets tests/c/test_ecmult.c watch every such addition.
 */
#ifndef P256_ECMULT_ADD_PARTIAL
#define P256_ECMULT_ADD_PARTIAL p256_jac_add_aff_partial
#endif

#endif /* P256_ECMULT_COMMON_IMPL_H */

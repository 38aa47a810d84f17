/* SPDX-License-Identifier: Apache-2.0 */
/*
 * modules/batch/ifma_emu.h: a portable C99 emulation of exactly the AVX-512 F/IFMA intrinsics
 * and types the batch engine (ifma_impl.h) uses, so that the engine also builds and
 * runs on any CPU and under valgrind (which has no AVX-512). Tests and `make ctime` only:
 * ifma.h takes it under -DP256_IFMA_EMULATE, which a production build of the
 * extension (-DP256_VARIANT) refuses.
 *
 * A vector is 8 lanes of 64 bits in memory order (lane i = element i of the real
 * register), a mask 8 bits (bit i = lane i). Every operation is branch-free and touches
 * memory at addresses independent of lane values, except the gather, whose lane values
 * are addresses on the real instruction too: so valgrind's constant-time check sees the
 * data flow the hardware has. Semantics from the Intel SDM vol. 2 (VPMADD52LUQ/HUQ,
 * VPGATHERQQ, VPSRAQ, VPABSQ, VPCMPQ, VPBLENDMQ) and the Intrinsics Guide's argument
 * orders; tests/c/test_ifma_emu.c compares each function with the instruction.
 *
 * Under P256_IFMA_EMULATE the intrinsics' names are macros for these functions; without
 * it only the p256_emu_* names exist (the comparison harness uses both side by side).
 * P256_PLANT=ifma_emu:1/2 (common.h) arms a bug that test_ifma_emu.c must catch (1: bit 52
 * of a vpmadd52 operand counts; 2: an arithmetic shift by more than 63 wraps).
 */
#ifndef P256_MODULE_BATCH_IFMA_EMU_H
#define P256_MODULE_BATCH_IFMA_EMU_H

#include "../../common.h"

typedef struct {
    uint64_t lane[8];
} p256_emu_m512i;
typedef uint8_t p256_emu_mmask8;

#define P256_EMU_M52 0xfffffffffffffULL
/* The bits of a vpmadd52 operand that count: the low 52. */
#define P256_EMU_OPERAND (P256_PLANT(ifma_emu, 1) ? 0x1fffffffffffffULL /* a control: bit 52 too */ \
                                                : P256_EMU_M52)
/* stmt once per lane i = 0..7, unrolled by hand (gcc -O2 would keep the loop). */
#define P256_EMU_LANE(n, stmt) { const int i = n; stmt; }
#define P256_EMU_EACH(stmt)                                                        \
    do {                                                                           \
        P256_EMU_LANE(0, stmt) P256_EMU_LANE(1, stmt) P256_EMU_LANE(2, stmt)       \
        P256_EMU_LANE(3, stmt) P256_EMU_LANE(4, stmt) P256_EMU_LANE(5, stmt)       \
        P256_EMU_LANE(6, stmt) P256_EMU_LANE(7, stmt)                              \
    } while (0)
/* Lane i of a mask as all-ones or 0, hidden from the optimizer (no branch, no cmov). */
#define P256_EMU_BIT(k) p256_mask_from_bit(((uint64_t)(k) >> i) & 1)

/* vpmadd52luq: a + the low 52 bits of (b mod 2^52) * (c mod 2^52), mod 2^64. */
static inline p256_emu_m512i p256_emu_madd52lo_epu64(p256_emu_m512i a, p256_emu_m512i b,
                                                     p256_emu_m512i c)
{
    P256_EMU_EACH(a.lane[i] += (uint64_t)((p256_u128)(b.lane[i] & P256_EMU_OPERAND) *
                                          (c.lane[i] & P256_EMU_OPERAND)) & P256_EMU_M52);
    return a;
}

/* vpmadd52huq: a + bits 52..103 of the same 104-bit product, mod 2^64. */
static inline p256_emu_m512i p256_emu_madd52hi_epu64(p256_emu_m512i a, p256_emu_m512i b,
                                                     p256_emu_m512i c)
{
    P256_EMU_EACH(a.lane[i] += (uint64_t)(((p256_u128)(b.lane[i] & P256_EMU_OPERAND) *
                                           (c.lane[i] & P256_EMU_OPERAND)) >> 52));
    return a;
}

static inline p256_emu_m512i p256_emu_add_epi64(p256_emu_m512i a, p256_emu_m512i b)
{
    P256_EMU_EACH(a.lane[i] += b.lane[i]);
    return a;
}

static inline p256_emu_m512i p256_emu_sub_epi64(p256_emu_m512i a, p256_emu_m512i b)
{
    P256_EMU_EACH(a.lane[i] -= b.lane[i]);
    return a;
}

static inline p256_emu_m512i p256_emu_and_si512(p256_emu_m512i a, p256_emu_m512i b)
{
    P256_EMU_EACH(a.lane[i] &= b.lane[i]);
    return a;
}

static inline p256_emu_m512i p256_emu_or_si512(p256_emu_m512i a, p256_emu_m512i b)
{
    P256_EMU_EACH(a.lane[i] |= b.lane[i]);
    return a;
}

static inline p256_emu_m512i p256_emu_xor_si512(p256_emu_m512i a, p256_emu_m512i b)
{
    P256_EMU_EACH(a.lane[i] ^= b.lane[i]);
    return a;
}

/* Immediate shifts: a count above 63 gives 0 (logical) or the sign in every bit
 * (arithmetic), as the instructions do. The count is an immediate: public. */
static inline p256_emu_m512i p256_emu_slli_epi64(p256_emu_m512i a, unsigned int n)
{
    uint64_t keep = 0 - (uint64_t)(n < 64);
    P256_EMU_EACH(a.lane[i] = (a.lane[i] << (n & 63)) & keep);
    return a;
}

static inline p256_emu_m512i p256_emu_srli_epi64(p256_emu_m512i a, unsigned int n)
{
    uint64_t keep = 0 - (uint64_t)(n < 64);
    P256_EMU_EACH(a.lane[i] = (a.lane[i] >> (n & 63)) & keep);
    return a;
}

/* Without a signed right shift (implementation-defined in C99): the logical shift, with
 * the top n bits set from the sign. */
static inline p256_emu_m512i p256_emu_srai_epi64(p256_emu_m512i a, unsigned int n)
{
    unsigned int s = (n & 63) | (63 & (0u - (unsigned int)(n > 63)));
    if (P256_PLANT(ifma_emu, 2))
        s = n & 63; /* negative control: a count above 63 wraps */
    P256_EMU_EACH(a.lane[i] = (a.lane[i] >> s) | (~(~0ULL >> s) & (0 - (a.lane[i] >> 63))));
    return a;
}

/* |a| in two's complement; -2^63 stays -2^63. */
static inline p256_emu_m512i p256_emu_abs_epi64(p256_emu_m512i a)
{
    P256_EMU_EACH(uint64_t s = 0 - (a.lane[i] >> 63); a.lane[i] = (a.lane[i] ^ s) - s);
    return a;
}

static inline p256_emu_m512i p256_emu_set1_epi64(long long x)
{
    p256_emu_m512i r;
    P256_EMU_EACH(r.lane[i] = (uint64_t)x);
    return r;
}

static inline p256_emu_m512i p256_emu_setzero_si512(void)
{
    return p256_emu_set1_epi64(0);
}

/* The highest lane first, as _mm512_set_epi64 takes them. */
static inline p256_emu_m512i p256_emu_set_epi64(long long e7, long long e6, long long e5,
                                                long long e4, long long e3, long long e2,
                                                long long e1, long long e0)
{
    p256_emu_m512i r;
    r.lane[0] = (uint64_t)e0, r.lane[1] = (uint64_t)e1, r.lane[2] = (uint64_t)e2;
    r.lane[3] = (uint64_t)e3, r.lane[4] = (uint64_t)e4, r.lane[5] = (uint64_t)e5;
    r.lane[6] = (uint64_t)e6, r.lane[7] = (uint64_t)e7;
    return r;
}

static inline p256_emu_m512i p256_emu_loadu_si512(const void *p)
{
    p256_emu_m512i r;
    memcpy(r.lane, p, sizeof r.lane);
    return r;
}

static inline void p256_emu_storeu_si512(void *p, p256_emu_m512i a)
{
    memcpy(p, a.lane, sizeof a.lane);
}

/* Bit i of the mask: signed a < b (Hacker's Delight 2-12: the sign of a - b, corrected
 * where a - b overflows), a == b, a != b. */
static inline p256_emu_mmask8 p256_emu_cmplt_epi64_mask(p256_emu_m512i a, p256_emu_m512i b)
{
    unsigned k = 0;
    P256_EMU_EACH(uint64_t d = a.lane[i] - b.lane[i];
                  k |= (unsigned)((d ^ ((a.lane[i] ^ b.lane[i]) & (d ^ a.lane[i]))) >> 63) << i);
    return (p256_emu_mmask8)k;
}

static inline p256_emu_mmask8 p256_emu_cmpeq_epi64_mask(p256_emu_m512i a, p256_emu_m512i b)
{
    unsigned k = 0;
    P256_EMU_EACH(k |= (unsigned)(p256_mask_eq(a.lane[i], b.lane[i]) & 1) << i);
    return (p256_emu_mmask8)k;
}

static inline p256_emu_mmask8 p256_emu_cmpneq_epi64_mask(p256_emu_m512i a, p256_emu_m512i b)
{
    return (p256_emu_mmask8)~p256_emu_cmpeq_epi64_mask(a, b);
}

/* Lane i = b's where bit i of k is set, else a's. */
static inline p256_emu_m512i p256_emu_mask_blend_epi64(p256_emu_mmask8 k, p256_emu_m512i a,
                                                       p256_emu_m512i b)
{
    P256_EMU_EACH(uint64_t m = P256_EMU_BIT(k); a.lane[i] = (a.lane[i] & ~m) | (b.lane[i] & m));
    return a;
}

/* vpgatherqq: lane i = the 8 bytes at base + idx[i] * scale (idx signed; scale 1, 2, 4 or
 * 8). The index is an address, here as on the hardware. */
static inline p256_emu_m512i p256_emu_i64gather_epi64(p256_emu_m512i idx, const void *base,
                                                      int scale)
{
    p256_emu_m512i r;
    P256_EMU_EACH(memcpy(&r.lane[i],
                         (const unsigned char *)base + (int64_t)idx.lane[i] * (int64_t)scale,
                         sizeof r.lane[i]));
    return r;
}

#undef P256_EMU_BIT
#undef P256_EMU_EACH
#undef P256_EMU_LANE
#undef P256_EMU_OPERAND

/* The engine's spelling, for the engine and its harness built on the emulation. The
 * #undefs drop <immintrin.h>'s macro forms (gathers, and immediates without -O). */
#if defined(P256_IFMA_EMULATE)
#define __m512i p256_emu_m512i
#define __mmask8 p256_emu_mmask8
#undef _mm512_madd52lo_epu64
#undef _mm512_madd52hi_epu64
#undef _mm512_add_epi64
#undef _mm512_sub_epi64
#undef _mm512_and_si512
#undef _mm512_or_si512
#undef _mm512_xor_si512
#undef _mm512_slli_epi64
#undef _mm512_srli_epi64
#undef _mm512_srai_epi64
#undef _mm512_abs_epi64
#undef _mm512_set1_epi64
#undef _mm512_setzero_si512
#undef _mm512_set_epi64
#undef _mm512_loadu_si512
#undef _mm512_storeu_si512
#undef _mm512_cmplt_epi64_mask
#undef _mm512_cmpeq_epi64_mask
#undef _mm512_cmpneq_epi64_mask
#undef _mm512_mask_blend_epi64
#undef _mm512_i64gather_epi64
#define _mm512_madd52lo_epu64 p256_emu_madd52lo_epu64
#define _mm512_madd52hi_epu64 p256_emu_madd52hi_epu64
#define _mm512_add_epi64 p256_emu_add_epi64
#define _mm512_sub_epi64 p256_emu_sub_epi64
#define _mm512_and_si512 p256_emu_and_si512
#define _mm512_or_si512 p256_emu_or_si512
#define _mm512_xor_si512 p256_emu_xor_si512
#define _mm512_slli_epi64 p256_emu_slli_epi64
#define _mm512_srli_epi64 p256_emu_srli_epi64
#define _mm512_srai_epi64 p256_emu_srai_epi64
#define _mm512_abs_epi64 p256_emu_abs_epi64
#define _mm512_set1_epi64 p256_emu_set1_epi64
#define _mm512_setzero_si512 p256_emu_setzero_si512
#define _mm512_set_epi64 p256_emu_set_epi64
#define _mm512_loadu_si512 p256_emu_loadu_si512
#define _mm512_storeu_si512 p256_emu_storeu_si512
#define _mm512_cmplt_epi64_mask p256_emu_cmplt_epi64_mask
#define _mm512_cmpeq_epi64_mask p256_emu_cmpeq_epi64_mask
#define _mm512_cmpneq_epi64_mask p256_emu_cmpneq_epi64_mask
#define _mm512_mask_blend_epi64 p256_emu_mask_blend_epi64
#define _mm512_i64gather_epi64 p256_emu_i64gather_epi64
#endif

#endif /* P256_MODULE_BATCH_IFMA_EMU_H */

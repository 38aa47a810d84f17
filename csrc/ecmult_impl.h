/* SPDX-License-Identifier: Apache-2.0 */
/* ecmult_impl.h: the three scalar multiplications of ecmult.h. */
#ifndef P256_ECMULT_IMPL_H
#define P256_ECMULT_IMPL_H

#include "ecmult.h"
#include "group_impl.h"
#include "scalar_impl.h"
#include "precomputed.h"
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
        /* The same scan in assembly, two entries per iteration (faster: docs/performance.md). */
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

/*
 * Fixed-base comb: k = sum_i d_i 2^(7i) with Booth digits |d_i| <= 64, and
 * p256_comb_table[i] holds 1..64 times 2^(7i) G, so k*G is 37 table lookups and 36
 * additions, no doublings.
 *
 * Why no addition meets acc == +-T (both finite). Booth digits telescope: before window
 * i, acc = S_i G with S_i = sum_{j<i} d_j 2^(7j) = (k mod 2^(7i)) - 2^(7i) k_(7i-1)
 * (k_b: bit b of k), so -2^(7i-1) <= S_i < 2^(7i-1) (as integers); T = d_i 2^(7i) G.
 *  - d_i = 0: T is masked (b_inf). S_i = 0 means k's low 7i bits are 0, so every earlier
 *    digit was 0 and acc is still window 0's Z = 0: masked (a_inf). No other S_i is 0 mod
 *    n (|S_i| <= 2^251 < n), so acc is infinity exactly when its Z is 0.
 *  - d_i != 0: |T| >= 2^(7i) > |S_i|, so 2^(7i-1) <= |S_i -+ d_i 2^(7i)| <= 2^(7i-1) +
 *    |d_i| 2^(7i). For i <= 35 that is <= 2^251 + 2^244 < n: S_i != +-d_i 2^(7i) mod n.
 *  - The last window, i = 36, has d_36 = (bits 252..255) + k_251 in [0, 16] (k < 2^256),
 *    so 0 < |S_36 -+ T| <= 2^251 + 2^256 < 2n: a meeting needs S_36 -+ T = +-n. S_36 + T
 *    = k is in (0, n). S_36 - T < 0, so S_36 = T - n = d_36 2^252 - n, within 2^251 of
 *    0 only for d_36 = 16, which makes k = S_36 + T = 2^257 - n > 2^256.
 * tests/test_ecmult_bounds.py checks this for every window and digit of both ladders.
 */
P256_FN void p256_ecmult_gen(p256_jac *r, const p256_scalar *k)
{
    p256_jac acc;
    p256_aff t;
    uint64_t neg, idx;

    /* Window 0 starts the sum (digit 0 gives the point at infinity, Z = 0). */
    idx = p256_booth(p256_scalar_bits(k, -1, P256_COMB_BITS + 1), P256_COMB_BITS, &neg);
    p256_aff_lookup(&t, p256_comb_table[0], P256_COMB_ENTRIES, idx);
    p256_aff_cneg(&t, &t, neg);
    p256_jac_from_aff(&acc, &t);
    p256_fe_cmov(&acc.z, &p256_fe_zero, p256_mask_is_zero(idx));

    for (int i = 1; i < P256_COMB_WINDOWS; i++) {
        idx = p256_booth(p256_scalar_bits(k, P256_COMB_BITS * i - 1, P256_COMB_BITS + 1),
                         P256_COMB_BITS, &neg);
        p256_aff_lookup(&t, p256_comb_table[i], P256_COMB_ENTRIES, idx);
        p256_aff_cneg(&t, &t, neg);
        P256_ECMULT_ADD_PARTIAL(&acc, &acc, &t, p256_mask_is_zero(idx));
    }
    *r = acc;
    p256_memzero(&acc, sizeof acc);
    p256_memzero(&t, sizeof t);
}

/*
 * Variable base, constant time in k: signed 5-bit Booth windows over an affine table
 * of 1..16 times P, top window first, 5 doublings (complete) between additions. P is
 * public (an ECDH peer key), so the table is built with variable-time co-Z arithmetic.
 *
 * Why no addition meets acc == +-T (both finite). Before the addition of window i, acc
 * = A_i P with A_i = sum_{j>i} d_j 2^(5(j-i)) = 32 (floor(k / 2^(5i+5)) + k_(5i+4)) (the
 * Booth sums telescope), an integer >= 0 and a multiple of 32; T = d_i P, |d_i| <= 16.
 *  - d_i = 0: T is masked. A_i = 0: every higher digit was 0, and acc is still the top
 *    window's Z = 0 (doubling keeps Z = 0): masked. A_i != 0 is never 0 mod n: for i >= 1
 *    A_i <= 32 (k / 2^10 + 1) < n; for i = 0, A_0 = k - d_0 < n + 16 and A_0 != n (n is
 *    odd).
 *  - A_i >= 32 and d_i != 0: A_i -+ d_i >= 16 > 0. For i >= 1, A_i + 16 < n. For i = 0,
 *    A_0 + d_0 = k < n; A_0 - d_0 = k - 2 d_0 < n + 32 is 0 mod n only if it is n, i.e.
 *    A_0 = n + d_0, a multiple of 32: d_0 = 15 (n = 17 mod 32), k = n + 30 >= n.
 * (Out of contract, k = n + 30 meets acc == T and k = n meets acc == -T: the tests use
 * them as negative controls.)
 */
#define P256_CONST_BITS 5
#define P256_CONST_ENTRIES (1 << (P256_CONST_BITS - 1))
#define P256_CONST_WINDOWS ((256 + P256_CONST_BITS - 1) / P256_CONST_BITS) /* 52 */

P256_FN void p256_ecmult_const(p256_jac *r, const p256_scalar *k, const p256_aff *p)
{
    p256_jac acc;
    p256_aff table[P256_CONST_ENTRIES], t;
    uint64_t neg, idx;

    /* table[j] = (j + 1) P; P is public, none of them is infinity (n > 16). */
    p256_aff_multiples_vartime(table, p, P256_CONST_ENTRIES, 1);

    /* Top window first: bits 254..259, 0 above bit 255, so its digit is 0, 1 or 2. */
    idx = p256_booth(p256_scalar_bits(k, P256_CONST_BITS * (P256_CONST_WINDOWS - 1) - 1,
                                      P256_CONST_BITS + 1),
                     P256_CONST_BITS, &neg);
    p256_aff_lookup(&t, table, P256_CONST_ENTRIES, idx);
    p256_jac_from_aff(&acc, &t);
    p256_fe_cmov(&acc.z, &p256_fe_zero, p256_mask_is_zero(idx)); /* digit 0: infinity */
    for (int i = P256_CONST_WINDOWS - 2; i >= 0; i--) {
        for (int d = 0; d < P256_CONST_BITS; d++)
            p256_jac_double(&acc, &acc);
        idx = p256_booth(p256_scalar_bits(k, P256_CONST_BITS * i - 1, P256_CONST_BITS + 1),
                         P256_CONST_BITS, &neg);
        p256_aff_lookup(&t, table, P256_CONST_ENTRIES, idx);
        p256_aff_cneg(&t, &t, neg);
        P256_ECMULT_ADD_PARTIAL(&acc, &acc, &t, p256_mask_is_zero(idx));
    }
    *r = acc;
    p256_memzero(&acc, sizeof acc);
    p256_memzero(&t, sizeof t);
}

/*
 * Width-w NAF of a public scalar: digits in {0, +-1, +-3, ..., +-(2^(w-1) - 1)}, at most
 * one nonzero in any w consecutive positions. Scanning up, a window whose value (with
 * the carry from the previous digit) is odd becomes a digit; a value >= 2^(w-1) is
 * taken as value - 2^w and carries 1 upward. Returns the number of digits (<= 257).
 */
P256_FN int p256_wnaf_vartime(int16_t digits[257], const p256_scalar *k, int w)
{
    const uint64_t v[6] = {k->v[0], k->v[1], k->v[2], k->v[3], 0, 0};
    int bit = 0, len = 0;
    uint64_t carry = 0;

    memset(digits, 0, 257 * sizeof digits[0]);
    while (bit < 257) {
        uint64_t word = v[bit / 64] >> (bit % 64);
        if (bit % 64)
            word |= v[bit / 64 + 1] << (64 - bit % 64);
        if ((word & 1) == carry) {
            bit++;
            continue;
        }
        word = (word & ((1ULL << w) - 1)) + carry;      /* odd, < 2^w */
        carry = (word >> (w - 1)) & 1;
        digits[bit] = (int16_t)((int64_t)word - (int64_t)(carry << w));
        len = bit + 1;
        bit += w;
    }
    return len;
}

#define P256_WNAF_Q_BITS 5
#define P256_WNAF_Q_ENTRIES (1 << (P256_WNAF_Q_BITS - 2))

/* acc += d * P for a wNAF digit d (odd or 0), table[j] = (2j + 1) P. */
P256_INLINE void p256_add_wnaf_digit_vartime(p256_jac *acc, const p256_aff *table, int d)
{
    p256_aff pt;
    if (d > 0) {
        p256_jac_add_aff_vartime(acc, acc, &table[d / 2]);
    } else if (d < 0) {
        pt = table[-d / 2];
        p256_fe_neg(&pt.y, &pt.y);
        p256_jac_add_aff_vartime(acc, acc, &pt);
    }
}

/*
 * Straus/Shamir: one shared chain of doublings for u1*G + u2*Q, adding wNAF digits of
 * u1 from the precomputed odd multiples of G (affine, width P256_WNAF_G_BITS) and of u2
 * from odd multiples of Q made affine here (width 5), so every addition is mixed.
 */
P256_FN void p256_ecmult_vartime(p256_jac *r, const p256_scalar *u1, const p256_scalar *u2,
                                const p256_aff *q)
{
    int16_t n1[257], n2[257];
    p256_jac acc;
    p256_aff qtab[P256_WNAF_Q_ENTRIES];
    int len1, len2, len;

    len1 = p256_wnaf_vartime(n1, u1, P256_WNAF_G_BITS);
    len2 = p256_wnaf_vartime(n2, u2, P256_WNAF_Q_BITS);
    if (len2 > 0)
        p256_aff_multiples_vartime(qtab, q, P256_WNAF_Q_ENTRIES, 2); /* (2j + 1) Q */

    acc = (p256_jac){p256_fe_one, p256_fe_one, p256_fe_zero};
    len = len1 > len2 ? len1 : len2;
    for (int i = len - 1; i >= 0; i--) {
        p256_jac_double(&acc, &acc);
        p256_add_wnaf_digit_vartime(&acc, p256_wnaf_g_table, n1[i]);
        p256_add_wnaf_digit_vartime(&acc, qtab, n2[i]);
    }
    *r = acc;
}

/* ---- Per-key tables (ecmult.h): public Q, variable time ---------------------------- */

P256_INLINE int p256_pubtable_rows(int bits)
{
    return (257 + bits - 1) / bits;
}

P256_FN size_t p256_pubtable_size_of(int bits)
{
    if (bits < P256_PUBTABLE_MIN_BITS || bits > P256_PUBTABLE_MAX_BITS)
        return 0;
    return sizeof(p256_pubtable) +
           (size_t)p256_pubtable_rows(bits) * ((size_t)1 << (bits - 1)) * sizeof(p256_aff);
}

/*
 * Row by row: the row's base B (Jacobian) is doubled co-Z (DBLU), then the running sum
 * j B and the addend B stay co-Z (ZADDU, 5M + 2S) up to 2^(bits-1) B; one inversion per
 * row, walked back down the Z ratios, makes the row affine. The next base is 2 * (the
 * last entry) = 2^bits B. No entry is infinity and no ZADDU meets +-B: an entry is
 * m 2^k Q with 0 < m <= 128 < n, n prime.
 */
P256_FN void p256_pubtable_build_core_vartime(p256_pubtable *tab, int bits, const p256_aff *q)
{
    enum { MAXE = 1 << (P256_PUBTABLE_MAX_BITS - 1) };
    p256_fe x[MAXE], y[MAXE], ratio[MAXE], ax, ay, z, zinv, zi2;
    const int entries = 1 << (bits - 1), rows = p256_pubtable_rows(bits);
    p256_jac base, last;
    p256_aff *row;

    tab->magic = 0;
    tab->bits = (uint32_t)bits;
    tab->rows = (uint32_t)rows;
    p256_jac_from_aff(&base, q);
    for (int i = 0; i < rows; i++) {
        row = tab->t + (size_t)i * (size_t)entries;
        x[0] = base.x;
        y[0] = base.y;
        p256_dblu_jac_vartime(&x[1], &y[1], &ax, &ay, &ratio[1], &base);
        z = base.z;
        p256_fe_mul(&z, &z, &ratio[1]);
        for (int j = 2; j < entries; j++) {
            p256_zaddu_vartime(&x[j], &y[j], &ax, &ay, &x[j - 1], &y[j - 1], &ratio[j]);
            p256_fe_mul(&z, &z, &ratio[j]);
        }
        last.x = x[entries - 1];
        last.y = y[entries - 1];
        last.z = z;
        p256_jac_double(&base, &last);

        p256_fe_inv_vartime(&zinv, &z);
        for (int j = entries - 1; j >= 0; j--) {
            p256_fe_sqr(&zi2, &zinv);
            p256_fe_mul(&row[j].x, &x[j], &zi2);
            p256_fe_mul(&zi2, &zi2, &zinv);
            p256_fe_mul(&row[j].y, &y[j], &zi2);
            if (j > 0)
                p256_fe_mul(&zinv, &zinv, &ratio[j]);
        }
    }
    tab->magic = P256_PUBTABLE_MAGIC;
}

/* acc += d * row[|d| - 1] (y negated for d < 0) for the Booth digit of window i of k. */
P256_INLINE void p256_comb_add_vartime(p256_jac *acc, const p256_aff *row, const p256_scalar *k,
                                       int i, int bits)
{
    uint64_t neg, idx;
    p256_aff pt;
    idx = p256_booth(p256_scalar_bits(k, bits * i - 1, bits + 1), (int)bits, &neg);
    if (idx == 0)
        return;
    pt = row[idx - 1];
    if (neg)
        p256_fe_neg(&pt.y, &pt.y);
    p256_jac_add_aff_vartime(acc, acc, &pt);
}

P256_FN void p256_ecmult_pubtable_vartime(p256_jac *r, const p256_scalar *u1,
                                         const p256_scalar *u2, const p256_pubtable *tab)
{
    const int bits = (int)tab->bits, rows = p256_pubtable_rows(bits), entries = 1 << (bits - 1);
    p256_jac acc = {p256_fe_one, p256_fe_one, p256_fe_zero};

    /* Booth digits are in [-2^(bits-1), 2^(bits-1)]: idx - 1 < entries, always in the row. */
    for (int i = 0; i < P256_COMB_WINDOWS; i++)
        p256_comb_add_vartime(&acc, p256_comb_table[i], u1, i, P256_COMB_BITS);
    for (int i = 0; i < rows; i++)
        p256_comb_add_vartime(&acc, tab->t + (size_t)i * (size_t)entries, u2, i, bits);
    *r = acc;
}

#endif /* P256_ECMULT_IMPL_H */

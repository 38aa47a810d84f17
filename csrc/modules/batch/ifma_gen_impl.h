/* SPDX-License-Identifier: Apache-2.0 */
/*
 * modules/batch/ifma_gen_impl.h: k*G for 8 secret scalars on the IFMA engine (ifma.h),
 * constant time: the fixed-base comb of ecmult_gen_impl.h, one lane per scalar. Included
 * by ifma_impl.h inside its P256_HAVE_IFMA section (it uses the engine's primitives and
 * its copy of the comb, p256_ifma_comb).
 *
 * Nothing here branches on or indexes memory with k: the Booth digits come from the
 * core's branch-free p256_booth, every lookup reads all 64 entries of its row for every
 * lane and keeps the wanted one with a mask, and digit 0 and the accumulator at infinity
 * are lane masks and blends. The multi-buffer layout follows Drucker and Gueron, eprint
 * 2018/335.
 */
#ifndef P256_MODULE_BATCH_IFMA_GEN_IMPL_H
#define P256_MODULE_BATCH_IFMA_GEN_IMPL_H

/* 4 words of 64 bits (an integer < 2^256) per lane -> 5 limbs of 52. */
P256_IFMA_INLINE void p256_fe8_from_words(p256_fe8 *r, const __m512i w[4])
{
    const __m512i m52 = P256_V(P256_M52);
    r->v[0] = _mm512_and_si512(w[0], m52);
    r->v[1] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[0], 52),
                                               _mm512_slli_epi64(w[1], 12)), m52);
    r->v[2] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[1], 40),
                                               _mm512_slli_epi64(w[2], 24)), m52);
    r->v[3] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[2], 28),
                                               _mm512_slli_epi64(w[3], 36)), m52);
    r->v[4] = _mm512_srli_epi64(w[3], 16);
}

/*
 * r = row[|d| - 1] per lane (|d| in absd, 0..64), or (0, 0) where |d| = 0: every entry is
 * broadcast and merged under the mask of the lanes that want it, so the memory trace and
 * the instructions do not depend on the digits.
 */
P256_IFMA_INLINE void p256_ifma_gen_lookup(p256_aff8 *r, const uint64_t (*row)[8], __m512i absd)
{
    const __m512i one = P256_V(1);
    __m512i w[8], j = one;
    for (int k = 0; k < 8; k++)
        w[k] = _mm512_setzero_si512();
    if (P256_PLANT(ifma, 4)) /* negative control: the last window reads the row before */
        row -= row == p256_ifma_comb[P256_COMB_WINDOWS - 1];
    for (int e = 0; e < P256_COMB_ENTRIES; e++, j = _mm512_add_epi64(j, one)) {
        __mmask8 m = _mm512_cmpeq_epi64_mask(absd, j);
        if (P256_PLANT(ifma, 3)) /* negative control: lane 6 never takes entry 64 */
            m &= (__mmask8)(e == P256_COMB_ENTRIES - 1 ? 0xbf : 0xff);
        for (int k = 0; k < 8; k++)
            w[k] = _mm512_mask_blend_epi64(m, w[k], P256_V(row[e][k]));
    }
    p256_fe8_from_words(&r->x, w);
    p256_fe8_from_words(&r->y, w + 4);
}

/* Window i's entries for the 8 lanes: t = d_i 2^(7i) G (garbage where d_i = 0, nz clear). */
P256_IFMA_INLINE void p256_ifma_gen_window(p256_aff8 *t, __mmask8 *nz, const uint64_t absd[8],
                                           const uint64_t negd[8], int i)
{
    const __m512i d = _mm512_loadu_si512((const void *)absd);
    *nz = _mm512_cmpneq_epi64_mask(d, _mm512_setzero_si512());
    p256_ifma_gen_lookup(t, (const uint64_t(*)[8])p256_ifma_comb[i], d);
    p256_fe8_cneg(&t->y, _mm512_cmpneq_epi64_mask(_mm512_loadu_si512((const void *)negd),
                                                   _mm512_setzero_si512()));
}

/*
 * acc = k*G per lane (Jacobian, Z = 0 where k = 0); returns the lanes where an addition
 * whose result is kept met H == 0, which the argument below rules out: always 0 for
 * k < n (test_batch_ifma.c checks it).
 *
 * As in p256_ecmult_gen: k = sum_i d_i 2^(7i) with Booth digits |d_i| <= 64, and row i
 * of the comb holds 1..64 times 2^(7i) G, so k*G is 37 lookups and mixed additions, no
 * doublings. Here the sum runs as two chains, interleaved operation by operation (one
 * chain would wait on its own latency): A over windows 0..17, B over windows 18..35,
 * then A + B, then window 36. S_i = sum_{j<i} d_j 2^(7j) satisfies -2^(7i-1) <= S_i <
 * 2^(7i-1) (ecmult_gen_impl.h), and a sum of digits from window m up whose lowest digit
 * d_m is not 0 is a nonzero multiple of 2^(7m) (0 < |d_m| < 2^7). So, for every k < n:
 *  - A before window i <= 17 is S_i G: ecmult_gen_impl.h's argument, unchanged.
 *  - B before window i (19..35) is S' G, S' = S_i - S_18, |S'| < 2^(7i-1) + 2^125 <
 *    2^(7i) <= |d_i 2^(7i)| for d_i != 0; and |S' -+ d_i 2^(7i)| < 2^244 + 2^125 + 2^251
 *    < n, so B != +-T. S' = 0 exactly when B's digits so far are all 0 (|S'| < n).
 *  - A + B with both finite: S_18 != 0 and S' != 0, so |S'| >= 2^126 > 2^125 >= |S_18|
 *    and 0 < |S_18 -+ S'| < n: A != +-B.
 *  - Window 36 adds to S_36 G: ecmult_gen_impl.h's last case, unchanged.
 * So the incomplete additions (p256_jac8_add_aff, p256_jac8_add) are right in every lane
 * where their result is kept. The other lanes are masks: "inf" (a sum still at
 * infinity: all its digits so far 0) takes the other operand, digit 0 keeps the sum.
 */
P256_IFMA_INLINE __mmask8 p256_ifma_gen8_lanes(p256_jac8 *acc, const p256_scalar k[8])
{
    enum { HALF = (P256_COMB_WINDOWS - 1) / 2 }; /* windows per chain: 18 */
    uint64_t absd[P256_COMB_WINDOWS][8], negd[P256_COMB_WINDOWS][8], w[5];
    p256_aff8 t[2];
    p256_jac8 ab[2], s[2];
    p256_fe8 one;
    __mmask8 inf[2] = {0xff, 0xff}, nz[2], hz[2], bad = 0;

    p256_ifma_gtab_init();
    for (int l = 0; l < 8; l++)
        for (int i = 0; i < P256_COMB_WINDOWS; i++)
            absd[i][l] = p256_booth(p256_scalar_bits(&k[l], P256_COMB_BITS * i - 1,
                                                     P256_COMB_BITS + 1),
                                    P256_COMB_BITS, &negd[i][l]);
    p256_ifma_from_fe(w, &p256_fe_one);
    for (int m = 0; m < 5; m++)
        one.v[m] = P256_V(w[m]);

    /* Chains A (g = 0: windows 0..17) and B (g = 1: windows 18..35), step by step. */
    for (int i = 0; i < HALF; i++) {
        for (int g = 0; g < 2; g++)
            p256_ifma_gen_window(&t[g], &nz[g], absd[HALF * g + i], negd[HALF * g + i],
                                 HALF * g + i);
        if (i == 0) { /* the first window starts each sum; digit 0 leaves it at infinity */
            for (int g = 0; g < 2; g++) {
                ab[g].x = t[g].x;
                ab[g].y = t[g].y;
                ab[g].z = one;
                inf[g] = (__mmask8)~nz[g];
            }
            continue;
        }
        p256_jac8_add_n(s, ab, NULL, t, hz, NULL, 2);
        for (int g = 0; g < 2; g++)
            p256_ifma_accumulate(&ab[g], &s[g], &t[g].x, &t[g].y, &one, nz[g], hz[g], &inf[g],
                                 &bad);
    }
    /* acc = A + B: the sum where both are finite, else the finite one (or either). */
    hz[0] = p256_jac8_add(acc, &ab[0], &ab[1]);
    bad |= hz[0] & (__mmask8)~(inf[0] | inf[1]);
    p256_fe8_blend(&acc->x, inf[0], &ab[1].x);
    p256_fe8_blend(&acc->y, inf[0], &ab[1].y);
    p256_fe8_blend(&acc->z, inf[0], &ab[1].z);
    p256_fe8_blend(&acc->x, inf[1], &ab[0].x);
    p256_fe8_blend(&acc->y, inf[1], &ab[0].y);
    p256_fe8_blend(&acc->z, inf[1], &ab[0].z);
    inf[0] &= inf[1];
    /* the last window */
    p256_ifma_gen_window(&t[0], &nz[0], absd[2 * HALF], negd[2 * HALF], 2 * HALF);
    hz[0] = p256_jac8_add_aff(&s[0], acc, &t[0]);
    p256_ifma_accumulate(acc, &s[0], &t[0].x, &t[0].y, &one, nz[0], hz[0], &inf[0], &bad);
    /* k = 0: every digit was 0, and the point at infinity is Z = 0. */
    if (!P256_PLANT(ifma, 5)) /* negative control: Z = 1 */
        for (int m = 0; m < 5; m++)
            acc->z.v[m] = _mm512_mask_blend_epi64(inf[0], acc->z.v[m], _mm512_setzero_si512());
    p256_memzero(absd, sizeof absd);
    p256_memzero(negd, sizeof negd);
    p256_memzero(t, sizeof t);
    p256_memzero(ab, sizeof ab);
    p256_memzero(s, sizeof s);
    return bad;
}

/* p256_ifma_ecmult_gen8, and the mask of lanes where a kept addition met H == 0 (never:
 * the harness checks it). */
P256_IFMA_FN unsigned p256_ifma_ecmult_gen8_checked(p256_fe x[8], p256_fe y[8], p256_fe z[8],
                                                    const p256_scalar k[8])
{
    p256_jac8 acc;
    __mmask8 bad = p256_ifma_gen8_lanes(&acc, k);
    p256_jac8_get_lanes(x, y, z, &acc, 1);
    p256_memzero(&acc, sizeof acc);
    return bad;
}

P256_IFMA_FN void p256_ifma_ecmult_gen8(p256_fe x[8], p256_fe y[8], p256_fe z[8],
                                        const p256_scalar k[8])
{
    (void)p256_ifma_ecmult_gen8_checked(x, y, z, k);
}

#endif /* P256_MODULE_BATCH_IFMA_GEN_IMPL_H */

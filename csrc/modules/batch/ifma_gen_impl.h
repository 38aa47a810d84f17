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

/*
 * r = row[|d| - 1] per lane (|d| in absd, 0..64), or (0, 0) where |d| = 0: every entry is
 * broadcast and merged under the mask of the lanes that want it, so the memory trace and
 * the instructions do not depend on the digits.
 */
P256_IFMA_INLINE void p256_ifma_gen_lookup(p256_aff8 *r, const uint64_t (*row)[10], __m512i absd)
{
    const __m512i one = P256_V(1);
    __m512i x[5], y[5], j = one;
    for (int k = 0; k < 5; k++)
        x[k] = y[k] = _mm512_setzero_si512();
#if defined(P256_PLANT_IFMA_BUG) && P256_PLANT_IFMA_BUG == 4
    row -= row == p256_ifma_comb[P256_COMB_WINDOWS - 1]; /* negative control: the last
                                                          * window reads the row before */
#endif
    for (int e = 0; e < P256_COMB_ENTRIES; e++, j = _mm512_add_epi64(j, one)) {
        __mmask8 m = _mm512_cmpeq_epi64_mask(absd, j);
#if defined(P256_PLANT_IFMA_BUG) && P256_PLANT_IFMA_BUG == 3
        m &= (__mmask8)(e == P256_COMB_ENTRIES - 1 ? 0xbf : 0xff); /* negative control: lane
                                                                    * 6 never takes 64 */
#endif
        for (int k = 0; k < 5; k++) {
            x[k] = _mm512_mask_blend_epi64(m, x[k], P256_V(row[e][k]));
            y[k] = _mm512_mask_blend_epi64(m, y[k], P256_V(row[e][5 + k]));
        }
    }
    for (int k = 0; k < 5; k++) {
        r->x.v[k] = x[k];
        r->y.v[k] = y[k];
    }
}

/*
 * acc = k*G per lane (Jacobian, Z = 0 where k = 0); returns the lanes where an addition
 * that counts met H == 0, which the comb's argument below rules out: always 0 for k < n
 * (test_batch_ifma.c checks it).
 *
 * As in p256_ecmult_gen: k = sum_i d_i 2^(7i) with Booth digits |d_i| <= 64, and row i
 * of the comb holds 1..64 times 2^(7i) G, so k*G is 37 lookups and 36 mixed additions,
 * no doublings. ecmult_gen_impl.h proves, for every k < n, that when acc is finite and
 * d_i != 0, acc != +-d_i 2^(7i) G: the incomplete mixed addition p256_jac8_add_aff is
 * right in every lane where its result is kept. The other lanes are masks: "inf" (acc
 * still infinity: every digit so far was 0, i.e. exactly where its sum is 0) takes the
 * entry itself (Z = 1), digit 0 keeps acc, and only the lanes "nz & ~inf" take the sum.
 */
P256_IFMA_INLINE __mmask8 p256_ifma_gen8_lanes(p256_jac8 *acc, const p256_scalar k[8])
{
    uint64_t absd[P256_COMB_WINDOWS][8], negd[P256_COMB_WINDOWS][8], w[5];
    p256_aff8 t;
    p256_jac8 s;
    p256_fe8 one;
    __mmask8 inf = 0xff, nz, neg, hz, bad = 0;

    p256_ifma_gtab_init();
    for (int l = 0; l < 8; l++)
        for (int i = 0; i < P256_COMB_WINDOWS; i++)
            absd[i][l] = p256_booth(p256_scalar_bits(&k[l], P256_COMB_BITS * i - 1,
                                                     P256_COMB_BITS + 1),
                                    P256_COMB_BITS, &negd[i][l]);
    p256_ifma_from_fe(w, &p256_fe_one);
    for (int m = 0; m < 5; m++)
        one.v[m] = P256_V(w[m]);

    for (int i = 0; i < P256_COMB_WINDOWS; i++) {
        const __m512i d = _mm512_loadu_si512((const void *)absd[i]);
        nz = _mm512_cmpneq_epi64_mask(d, _mm512_setzero_si512());
        neg = _mm512_cmpneq_epi64_mask(_mm512_loadu_si512((const void *)negd[i]),
                                       _mm512_setzero_si512());
        p256_ifma_gen_lookup(&t, (const uint64_t(*)[10])p256_ifma_comb[i], d);
        p256_fe8_cneg(&t.y, neg);
        if (i == 0) { /* window 0 starts the sum; its digit 0 leaves acc at infinity */
            acc->x = t.x;
            acc->y = t.y;
            acc->z = one;
            inf = (__mmask8)~nz;
            continue;
        }
        hz = p256_jac8_add_aff(&s, acc, &t);
        p256_ifma_accumulate(acc, &s, &t.x, &t.y, &one, nz, hz, &inf, &bad);
    }
    /* k = 0: every digit was 0, and the point at infinity is Z = 0. */
#if !(defined(P256_PLANT_IFMA_BUG) && P256_PLANT_IFMA_BUG == 5) /* negative control: Z = 1 */
    for (int m = 0; m < 5; m++)
        acc->z.v[m] = _mm512_mask_blend_epi64(inf, acc->z.v[m], _mm512_setzero_si512());
#endif
    p256_memzero(absd, sizeof absd);
    p256_memzero(negd, sizeof negd);
    p256_memzero(&t, sizeof t);
    p256_memzero(&s, sizeof s);
    return bad;
}

/* p256_ifma_ecmult_gen8, and the mask of lanes where a kept addition met H == 0 (never:
 * the harness checks it). */
P256_IFMA_FN unsigned p256_ifma_ecmult_gen8_checked(p256_fe x[8], p256_fe y[8], p256_fe z[8],
                                                    const p256_scalar k[8])
{
    p256_jac8 acc;
    __mmask8 bad = p256_ifma_gen8_lanes(&acc, k);
    for (int l = 0; l < 8; l++) {
        p256_fe8_get_lane(&x[l], &acc.x, l);
        p256_fe8_get_lane(&y[l], &acc.y, l);
        p256_fe8_get_lane(&z[l], &acc.z, l);
    }
    p256_memzero(&acc, sizeof acc);
    return bad;
}

P256_IFMA_FN void p256_ifma_ecmult_gen8(p256_fe x[8], p256_fe y[8], p256_fe z[8],
                                        const p256_scalar k[8])
{
    (void)p256_ifma_ecmult_gen8_checked(x, y, z, k);
}

#endif /* P256_MODULE_BATCH_IFMA_GEN_IMPL_H */

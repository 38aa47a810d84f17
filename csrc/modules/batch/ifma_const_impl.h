/* SPDX-License-Identifier: Apache-2.0 */
/*
 * modules/batch/ifma_const_impl.h: p256_ifma_ecmult_const8 (ifma.h), k*q in 8 lanes,
 * constant time in k and q: the secret side of the IFMA engine, for multi-buffer ECDH.
 * Included by ifma_impl.h inside its P256_HAVE_IFMA section, whose primitives it uses
 * (all branch-free in the lane values: masks and blends).
 *
 * Technique: ecmult_const_impl.h's signed windows, one scalar per lane (the multi-buffer
 * layout of Drucker and Gueron, eprint 2018/335). p256_ifma_recode with w = 5 gives 52
 * digits in [-15, 16] without a branch on k; each lane builds its own table of 1..16
 * times q[l] (Jacobian); then from the top window 5 doublings and one addition of the
 * entry |d|, read by a scan of all 16 entries with a lane mask (index == j) and a masked
 * move each, its y negated by a masked blend where d < 0. Digit 0 and an accumulator
 * still at infinity are lane masks and blends (p256_ifma_accumulate), never branches.
 *
 * The table: tq[0] = q, tq[1] = 2q (the doubling is right for every finite point) and
 * tq[j] = tq[j-1] + q (j = 2..15) by the incomplete mixed addition. H == 0 there would
 * mean jq = +-q, i.e. n | j -+ 1 with 1 <= j -+ 1 <= 16: never, as q has prime order n
 * (and no entry is infinity, for the same reason). The H == 0 mask is checked anyway.
 *
 * Which addition can meet acc == +-T (a doubling or a sum at infinity, where the formula
 * is wrong). With the digits d_j, sum d_j 32^j = k, the accumulator before the addition
 * of window i is A_i q with A_i = sum_{j>i} d_j 32^(j-i) = 32 (floor(k / 32^(i+1)) + c),
 * c the carry into window i + 1 (0 or 1), and T = d_i q, 1 <= |d_i| <= 16 (d_i = 0 is
 * masked). A_i >= 0, and A_i = 0 exactly while every higher digit is 0, which is the
 * infinity mask (acc takes T). Otherwise A_i >= 32:
 *  - i >= 1: A_i <= 32 (2^256 / 2^10 + 1) < n - 16, so A_i -+ d_i lies in [16, n): never
 *    0 mod n, and acc is never infinity. No exceptional addition, for any k < 2^256.
 *  - i = 0: A_0 = k - d_0 < 2^256 + 16 < 2n, a multiple of 32. acc == T needs A_0 = n +
 *    d_0, so d_0 = -n = 15 mod 32 and k = n + 30; acc == -T needs A_0 = n - d_0, so
 *    d_0 = -15 and k = n (and acc at infinity, A_0 = n, cannot be: n is odd). So for
 *    k < n no addition is exceptional at all; k = n + 30 and k = n (out of contract,
 *    used by the tests through p256_ifma_ecmult_const_n) are the only k < 2^256 that meet
 *    one. The last window still computes 2 acc and blends it in where H == 0 and R == 0,
 *    and infinity where H == 0 and R != 0, so the result is exact for every k < 2^256;
 *    an H == 0 in any other window, or in the table, is reported as unexpected (the
 *    harness asserts there is none).
 * P256_PLANT=ifma:6/7/8 (common.h) arms a bug test_batch_ifma.c must catch (6: the last
 * window's doubling blend dropped; 7: lane 4's mask for entry 12 of the scan cleared;
 * 8: the last window's handled lanes reported as unexpected).
 */
#ifndef P256_MODULE_BATCH_IFMA_CONST_IMPL_H
#define P256_MODULE_BATCH_IFMA_CONST_IMPL_H

#define P256_IFMA_CONST_ENTRIES 16

/* e = tab[idx] lane by lane (idx in [0, 16), each lane its own table): every entry is
 * read, and moved into the lanes whose index it is. */
P256_IFMA_INLINE void p256_ifma_const_scan(p256_jac8 *e, const p256_jac8 *tab, __m512i idx)
{
    *e = tab[0];
    for (int j = 1; j < P256_IFMA_CONST_ENTRIES; j++) {
        __mmask8 m = _mm512_cmpeq_epi64_mask(idx, P256_V(j));
        if (P256_PLANT(ifma, 7) && j == 11)
            m &= 0xef; /* negative control: lane 4 never takes entry 12 (12 q) */
        p256_fe8_blend(&e->x, m, &tab[j].x);
        p256_fe8_blend(&e->y, m, &tab[j].y);
        p256_fe8_blend(&e->z, m, &tab[j].z);
    }
}

/*
 * p256_ifma_ecmult_const8 on ng groups of 8 lanes (lane 8g + l of x, y, z, k, q in group
 * g), interleaved operation by operation as p256_ifma_ecmult_n does. Returns the lanes
 * (bit 8g + l) where an addition the comment above excludes met H == 0: always 0, or
 * the results are wrong. *last gets the lanes whose last addition was exceptional (and
 * blended: k = n + 30 or n).
 */
P256_IFMA_INLINE unsigned p256_ifma_ecmult_const_n(p256_fe *x, p256_fe *y, p256_fe *z,
                                                   const p256_scalar *k, const p256_aff *q,
                                                   unsigned *last, int ng)
{
    int64_t d[P256_IFMA_WINDOWS][8 * P256_IFMA_NG], t[P256_IFMA_WINDOWS];
    p256_jac8 tq[P256_IFMA_NG][P256_IFMA_CONST_ENTRIES], acc[P256_IFMA_NG], s[P256_IFMA_NG],
        e[P256_IFMA_NG], dbl[P256_IFMA_NG];
    p256_aff8 qa[P256_IFMA_NG];
    p256_fe8 one, zero;
    __mmask8 inf[P256_IFMA_NG], odd[P256_IFMA_NG], exc[P256_IFMA_NG], hz[P256_IFMA_NG],
        rz[P256_IFMA_NG], neg[P256_IFMA_NG], nz[P256_IFMA_NG];
    __m512i idx[P256_IFMA_NG];
    unsigned out = 0;

    memset(&zero, 0, sizeof zero);
    memset(&one, 0, sizeof one);
    memset(qa, 0, sizeof qa);
    for (int l = 0; l < 8; l++)
        p256_fe8_set_lane(&one, l, &p256_fe_one);
    for (int l = 0; l < 8 * ng; l++) {
        p256_ifma_recode(t, &k[l], 5);
        for (int i = 0; i < P256_IFMA_WINDOWS; i++)
            d[i][l] = t[i];
        p256_fe8_set_lane(&qa[l / 8].x, l % 8, &q[l].x);
        p256_fe8_set_lane(&qa[l / 8].y, l % 8, &q[l].y);
    }

    /* tq[g][j] = (j + 1) q, exact (the comment above). */
    P256_EACH(tq[g][0].x = qa[g].x; tq[g][0].y = qa[g].y; tq[g][0].z = one; odd[g] = 0);
    P256_EACH(p256_jac8_double(&tq[g][1], &tq[g][0]));
    for (int j = 2; j < P256_IFMA_CONST_ENTRIES; j++) {
        P256_EACH(s[g] = tq[g][j - 1]);
        p256_jac8_add_n(s, s, NULL, qa, hz, NULL, ng);
        P256_EACH(tq[g][j] = s[g]; odd[g] |= hz[g]);
    }

    /* acc = infinity (all limbs 0, which every formula keeps at 0) in every lane. */
    memset(acc, 0, sizeof acc);
    P256_EACH(inf[g] = 0xff);
    for (int i = P256_IFMA_WINDOWS - 1; i >= 0; i--) {
        if (i != P256_IFMA_WINDOWS - 1) /* inlined: one group's doublings run back to back */
            for (int b = 0; b < 5; b++)
                p256_jac8_double_body(acc, acc, ng);
        P256_EACH(idx[g] = p256_ifma_digit(&d[i][8 * g], &neg[g], &nz[g], 15);
                  p256_ifma_const_scan(&e[g], tq[g], idx[g]); p256_fe8_cneg(&e[g].y, neg[g]));
        if (i == 0)
            p256_jac8_double_n(dbl, acc, ng);
        p256_jac8_add_n(s, acc, e, NULL, hz, rz, ng);
        P256_EACH(exc[g] = 0; p256_ifma_accumulate(&acc[g], &s[g], &e[g].x, &e[g].y, &e[g].z,
                                                   nz[g], hz[g], &inf[g], &exc[g]));
        if (i != 0) {
            P256_EACH(odd[g] |= exc[g]);
        } else {
            /* acc == T: 2 acc; acc == -T: infinity (the sum's Z = Z1 H is 0 mod p already). */
            if (!P256_PLANT(ifma, 6)) { /* negative control: the doubling blend dropped */
                P256_EACH(p256_fe8_blend(&acc[g].x, exc[g] & rz[g], &dbl[g].x);
                          p256_fe8_blend(&acc[g].y, exc[g] & rz[g], &dbl[g].y);
                          p256_fe8_blend(&acc[g].z, exc[g] & rz[g], &dbl[g].z));
            }
            P256_EACH(p256_fe8_blend(&acc[g].z, exc[g] & (__mmask8)~rz[g], &zero));
            if (P256_PLANT(ifma, 8)) {
                P256_EACH(odd[g] |= exc[g]); /* negative control: handled lanes reported */
            }
        }
    }
    *last = 0;
    P256_EACH(p256_fe8_blend(&acc[g].z, inf[g], &zero); out |= (unsigned)odd[g] << (8 * g);
              *last |= (unsigned)exc[g] << (8 * g));
    p256_jac8_get_lanes(x, y, z, acc, ng);
    p256_memzero(d, sizeof d);
    p256_memzero(t, sizeof t);
    p256_memzero(acc, sizeof acc);
    p256_memzero(s, sizeof s);
    p256_memzero(e, sizeof e);
    p256_memzero(dbl, sizeof dbl);
    p256_memzero(idx, sizeof idx);
    p256_memzero(tq, sizeof tq);
    return out;
}

P256_IFMA_FN void p256_ifma_ecmult_const8(p256_fe x[8], p256_fe y[8], p256_fe z[8],
                                          const p256_scalar k[8], const p256_aff q[8])
{
    unsigned last;
    (void)p256_ifma_ecmult_const_n(x, y, z, k, q, &last, 1);
}

#endif /* P256_MODULE_BATCH_IFMA_CONST_IMPL_H */

/* SPDX-License-Identifier: Apache-2.0 */
/* ecmult_const_impl.h: r = k*P by signed windows over a table of P, constant time
 * in k. Contract: ecmult_const.h. */
#ifndef P256_ECMULT_CONST_IMPL_H
#define P256_ECMULT_CONST_IMPL_H

#include "ecmult_const.h"
#include "ecmult_common_impl.h"

/*
 * Variable base, constant time in k: signed 5-bit Booth windows over an affine table
 * of 1..16 times P, top window first, 5 doublings (complete) between additions (252 in
 * all: see the top digit below). For a public P (an ECDH peer key) the table is built
 * with variable-time co-Z arithmetic; for a secret one, in constant time
 * (p256_ecmult_const_jac). The argument below needs only that P has order n.
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
 *
 * The top digit d is 0, 1 or 2, and its first 3 doublings are free: 8d P (infinity, 8P
 * or 16P) is a table entry, read by the same masked scan. The additions then meet the
 * same multiples A_i P as above, so the argument holds unchanged.
 */
#define P256_CONST_BITS 5
#define P256_CONST_ENTRIES (1 << (P256_CONST_BITS - 1))
#define P256_CONST_WINDOWS ((256 + P256_CONST_BITS - 1) / P256_CONST_BITS) /* 52 */
/* The top digit's doublings that its lookup replaces: 2^3 * 2 P is still in the table. */
#define P256_CONST_TOP_DOUBLINGS 3
typedef char p256_const_top_in_table[(2 << P256_CONST_TOP_DOUBLINGS) <= P256_CONST_ENTRIES &&
                                     P256_CONST_TOP_DOUBLINGS < P256_CONST_BITS ? 1 : -1];

/* The windows above over table[j] = (j + 1) P, P of order n. */
P256_FN void p256_ecmult_const_table(p256_jac *r, const p256_scalar *k, const p256_aff *table)
{
    p256_jac acc;
    p256_aff t;
    uint64_t neg, idx;

    /* Top window first: bits 254..259, 0 above bit 255, so its digit d is 0, 1 or 2;
     * acc = 2^3 d P, d P after the first 3 of its doublings. */
    idx = p256_booth(p256_scalar_bits(k, P256_CONST_BITS * (P256_CONST_WINDOWS - 1) - 1,
                                      P256_CONST_BITS + 1),
                     P256_CONST_BITS, &neg);
    p256_aff_lookup(&t, table, P256_CONST_ENTRIES, idx << P256_CONST_TOP_DOUBLINGS);
    p256_jac_from_aff(&acc, &t);
    p256_fe_cmov(&acc.z, &p256_fe_zero, p256_mask_is_zero(idx)); /* digit 0: infinity */
    for (int i = P256_CONST_WINDOWS - 2; i >= 0; i--) {
        const int first = i == P256_CONST_WINDOWS - 2 ? P256_CONST_TOP_DOUBLINGS : 0;
        p256_jac_double_n(&acc, &acc, P256_CONST_BITS - first);
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

P256_FN void p256_ecmult_const(p256_jac *r, const p256_scalar *k, const p256_aff *p)
{
    p256_aff table[P256_CONST_ENTRIES];

    /* table[j] = (j + 1) P; P is public, none of them is infinity (n > 16). */
    p256_aff_multiples_vartime(table, p, P256_CONST_ENTRIES, 1);
    p256_ecmult_const_table(r, k, table);
}

/*
 * The same for a secret P in any Jacobian form. The table is the co-Z chain of P
 * (group.h), made affine by one constant-time inversion. The identity has no such table
 * (nor a multiple that is not the identity): G stands in for it, a point of order n on
 * which every step above is right, and the result's Z is cleared at the end under the
 * same mask, so that no branch and no address tells the identity apart.
 */
P256_FN void p256_ecmult_const_jac(p256_jac *r, const p256_scalar *k, const p256_jac *p)
{
    p256_fe ratio[P256_CONST_ENTRIES], z, zinv;
    p256_aff table[P256_CONST_ENTRIES];
    const uint64_t inf = p256_fe_mask_is_zero(&p->z);
    p256_jac q = *p;

    p256_fe_cmov(&q.x, &p256_generator.x, inf);
    p256_fe_cmov(&q.y, &p256_generator.y, inf);
    p256_fe_cmov(&q.z, &p256_fe_one, inf);
    p256_coz_multiples(table, ratio, &z, &q, P256_CONST_ENTRIES, 1);
    p256_fe_inv(&zinv, &z);
    p256_coz_to_aff(table, table, ratio, &zinv, 0, P256_CONST_ENTRIES);
    p256_ecmult_const_table(r, k, table);
    if (!P256_PLANT(group, 2)) /* test_group's control: k O = k G */
        p256_fe_cmov(&r->z, &p256_fe_zero, inf);
    p256_memzero(ratio, sizeof ratio);
    p256_memzero(table, sizeof table);
    p256_memzero(&q, sizeof q);
}

#endif /* P256_ECMULT_CONST_IMPL_H */

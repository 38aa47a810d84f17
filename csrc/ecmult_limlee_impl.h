/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ecmult_limlee_impl.h: the four-tooth comb of ecmult_limlee.h. Built on the group layer
 * and the table scan of ecmult_common_impl.h.
 */
#ifndef P256_ECMULT_LIMLEE_IMPL_H
#define P256_ECMULT_LIMLEE_IMPL_H

#include "ecmult_limlee.h"
#include "ecmult_common_impl.h"

/*
 * The teeth T_j = 2^(64 j) P by 192 doublings, then entry e = T_j + entry (e - 2^j) for
 * 2^j < e < 2^(j+1) (11 complete additions), all made affine (P too) by one
 * inversion (Montgomery's trick). No entry is infinity: each is m P with 0 < m < 2^193 < n.
 */
P256_FN void p256_limlee_build_vartime(p256_limlee_table *tab, const p256_jac *p)
{
    p256_jac e[P256_LIMLEE_ENTRIES];
    p256_fe zi[P256_LIMLEE_ENTRIES], tmp[P256_LIMLEE_ENTRIES];

    e[0] = *p;
    for (int j = 1; j < P256_LIMLEE_TEETH; j++) {
        const int tooth = (1 << j) - 1; /* entry 2^j: T_j */
        p256_jac_double_n(&e[tooth], &e[(1 << (j - 1)) - 1], P256_LIMLEE_SPACING);
        for (int m = 1; m < (1 << j); m++)
            p256_jac_add(&e[tooth + m], &e[tooth], &e[m - 1]);
    }
    for (int i = 0; i < P256_LIMLEE_ENTRIES; i++)
        zi[i] = e[i].z;
    p256_fe_inv_many_vartime(zi, tmp, P256_LIMLEE_ENTRIES);
    for (int i = 0; i < P256_LIMLEE_ENTRIES; i++)
        p256_jac_to_aff_zinv(&tab->t[i], &e[i], &zi[i]);
}

/* Column i of k: bit i of each limb, limb j's as bit j of the table index. */
P256_INLINE uint64_t p256_limlee_column(const p256_scalar *k, int i)
{
    uint64_t idx = 0;
    for (int j = 0; j < P256_LIMLEE_TEETH; j++)
        idx |= ((k->v[j] >> i) & 1) << j;
    return idx;
}

/*
 * Columns from the top: acc = 2 acc + (column i's entry) for i = 63 .. 0, the doubling
 * skipped at the top (acc is still infinity there).
 *
 * Why no addition meets acc == +-T (both finite). Write k_j for limb j of k and A_i =
 * sum_j floor(k_j / 2^i) 2^(64 j): after column i, acc = A_i P, since floor(k_j / 2^i) =
 * 2 floor(k_j / 2^(i+1)) + (bit i of k_j). At the addition of column i, acc = 2 A_(i+1) P
 * and T = E P with E = sum_j (bit i of k_j) 2^(64 j), both nonzero (else masked: E = 0 is
 * the zero index, A_(i+1) = 0 leaves acc at infinity).
 *  - acc == -T would need 2 A_(i+1) + E = A_i = 0 mod n. But 0 < A_i < n: each of its
 *    base-2^64 digits floor(k_j / 2^i) is below 2^(64 - i), so for i >= 1, A_i < 2^255 <
 *    n; and A_0 = k < n.
 *  - acc == T would need 2 A_(i+1) = E mod n, and |2 A_(i+1) - E| < n (both lie in [0,
 *    n)), so 2 A_(i+1) = E as integers. Their base-2^64 digits are unique: those of
 *    2 A_(i+1) are 2 floor(k_j / 2^(i+1)) < 2^64, even; those of E are bits, so all of
 *    them would be 0, E = 0.
 * (Out of contract, k = n meets acc == -T at column 0, and k = n + 2 (1 + 2^128 + 2^192),
 * whose column 0 is 1 + 2^128 + 2^192, meets acc == T there: the tests' negative
 * controls.)
 */
P256_FN void p256_ecmult_limlee(p256_jac *r, const p256_scalar *k, const p256_limlee_table *tab)
{
    p256_jac acc = {p256_fe_one, p256_fe_one, p256_fe_zero};
    p256_aff t;
    uint64_t idx;
    const int last = P256_PLANT(group, 11) ? 1 : 0; /* test_group's control: column 0 left out */

    for (int i = P256_LIMLEE_SPACING - 1; i >= last; i--) {
        if (i != P256_LIMLEE_SPACING - 1)
            p256_jac_double(&acc, &acc);
        idx = p256_limlee_column(k, i);
        p256_aff_lookup(&t, tab->t, P256_LIMLEE_ENTRIES, idx);
        P256_ECMULT_ADD_PARTIAL(&acc, &acc, &t, p256_mask_is_zero(idx));
    }
    *r = acc;
    p256_memzero(&acc, sizeof acc);
    p256_memzero(&t, sizeof t);
}

#endif /* P256_ECMULT_LIMLEE_IMPL_H */

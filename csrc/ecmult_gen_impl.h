/* SPDX-License-Identifier: Apache-2.0 */
/* ecmult_gen_impl.h: r = k*G by the fixed-base comb, constant time. Contract:
 * ecmult_gen.h. */
#ifndef P256_ECMULT_GEN_IMPL_H
#define P256_ECMULT_GEN_IMPL_H

#include "ecmult_gen.h"
#include "ecmult_common_impl.h"
#include "precomputed.h"

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

#endif /* P256_ECMULT_GEN_IMPL_H */

/* SPDX-License-Identifier: Apache-2.0 */
/* ecmult_gen_impl.h: r = k*G by the fixed-base comb, constant time. Contract:
 * ecmult_gen.h. */
#ifndef P256_ECMULT_GEN_IMPL_H
#define P256_ECMULT_GEN_IMPL_H

#include "ecmult_gen.h"
#include "ecmult_common_impl.h"
#include "precomputed.h"

/*
 * Fixed-base comb over any table of `rows` rows of 2^(bits-1) affine entries, row i holding
 * 1..2^(bits-1) times 2^(bits i) P: k = sum_i d_i 2^(bits i) with Booth digits |d_i| <=
 * 2^(bits-1), so k*P is `rows` table lookups and rows - 1 additions, no doublings. The
 * generator's table (bits 7, 37 rows) and the per-key tables of ecmult_pubtable.h (bits
 * 4..8, rows = ceil(257 / bits)) both run it. The table is public, k secret: every
 * lookup scans its whole row with masks (p256_aff_lookup). Inlined with constant bits
 * and rows at each caller, so that every call site gets its own unrolled shifts.
 *
 * Why no addition meets acc == +-T (both finite), for 4 <= bits <= 8 and rows with
 * bits (rows - 1) < 257 <= bits rows (so every digit window ends at or above bit 256).
 * Write s = bits (rows - 1), the top window's start: 257 - bits <= s <= 256. Booth digits
 * telescope: before window i, acc = S_i P with S_i = sum_{j<i} d_j 2^(bits j) = (k mod
 * 2^(bits i)) - 2^(bits i) k_(bits i - 1) (k_b: bit b of k), so -2^(bits i - 1) <= S_i <
 * 2^(bits i - 1) (as integers); T = d_i 2^(bits i) P.
 *  - d_i = 0: T is masked (b_inf). S_i = 0 means k's bits below bits i are 0, so every
 *    earlier digit was 0 and acc is still window 0's Z = 0: masked (a_inf). No other S_i
 *    is 0 mod n (|S_i| <= 2^(s-1) <= 2^255 < n), so acc is infinity exactly when Z = 0.
 *  - d_i != 0, i < rows - 1: |T| >= 2^(bits i) > |S_i|, so 2^(bits i - 1) <= |S_i -+ T| <=
 *    2^(bits i - 1) + 2^(bits (i + 1) - 1) <= 2^(s - bits - 1) + 2^(s-1) <= 2^251 + 2^255 <
 *    n: S_i != +-T mod n.
 *  - The last window, i = rows - 1: k < 2^256 has no bit at or above 256, so d = d_i =
 *    floor(k / 2^s) + k_(s-1) is in [0, 2^(256-s)] (for bits 4 and 8, s = 256: d = k_255,
 *    0 or 1) and 0 < |S_i -+ T| <= 2^255 + 2^256 < 2n: a meeting needs S_i -+ T = +-n.
 *    S_i + T = k is in (0, n) (d != 0 makes k != 0). S_i - T < 0, so S_i = T - n and k =
 *    2T - n: k < n needs d 2^s < n and S_i >= -2^(s-1) needs d 2^s >= n - 2^(s-1), so
 *    d 2^s would be the multiple of 2^s just below n, within 2^(s-1) of it: bit s - 1 of
 *    n would be 0. For s = 256 (bits 4, 8) no d >= 1 has d 2^256 < n; for s = 252 (bits
 *    6, 7) and 255 (bits 5) bit s - 1 of n is 1 (bits 224..255 of n are all ones). So no
 *    width meets, and the last row needs no handling the other rows do not get.
 * tests/test_ecmult_bounds.py checks this for every window and digit of each table.
 */
P256_INLINE void p256_ecmult_comb(p256_jac *r, const p256_scalar *k, const p256_aff *table,
                                  int bits, int rows)
{
    const int entries = 1 << (bits - 1);
    p256_jac acc;
    p256_aff t, u;
    uint64_t neg, idx;

    /* Window 0 starts the sum (digit 0 gives the point at infinity, Z = 0). */
    idx = p256_booth(p256_scalar_bits(k, -1, bits + 1), bits, &neg);
    p256_aff_lookup(&t, table, entries, idx);
    p256_aff_cneg(&t, &t, neg);
    p256_jac_from_aff(&acc, &t);
    p256_fe_cmov(&acc.z, &p256_fe_zero, p256_mask_is_zero(idx));

    /* The scans run one row ahead: row i's is issued before row i - 1's addition, which
     * it does not depend on, so it runs beside that addition instead of after it. */
    idx = p256_booth(p256_scalar_bits(k, bits - 1, bits + 1), bits, &neg);
    p256_aff_lookup(&t, table + (size_t)entries, entries, idx);
    for (int i = 1; i < rows; i++) {
        const uint64_t u_neg = neg, u_inf = p256_mask_is_zero(idx);
        u = t;
        if (i + 1 < rows) { /* public */
            idx = p256_booth(p256_scalar_bits(k, bits * (i + 1) - 1, bits + 1), bits, &neg);
            p256_aff_lookup(&t, table + (size_t)(i + 1) * (size_t)entries, entries, idx);
        }
        p256_aff_cneg(&u, &u, u_neg);
        P256_ECMULT_ADD_PARTIAL(&acc, &acc, &u, u_inf);
    }
    *r = acc;
    p256_memzero(&acc, sizeof acc);
    p256_memzero(&t, sizeof t);
    p256_memzero(&u, sizeof u);
}

/* The comb of G: p256_comb_table, P256_COMB_BITS = 7 bits, 37 rows (s = 252 above). */
typedef char p256_comb_table_is_a_comb[P256_COMB_ENTRIES == 1 << (P256_COMB_BITS - 1) &&
                                       P256_COMB_BITS * (P256_COMB_WINDOWS - 1) < 257 &&
                                       P256_COMB_BITS * P256_COMB_WINDOWS >= 257 ? 1 : -1];
P256_FN void p256_ecmult_gen(p256_jac *r, const p256_scalar *k)
{
    p256_ecmult_comb(r, k, (const p256_aff *)p256_comb_table, P256_COMB_BITS, P256_COMB_WINDOWS);
}

#endif /* P256_ECMULT_GEN_IMPL_H */

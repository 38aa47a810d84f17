/* SPDX-License-Identifier: Apache-2.0 */
/* ecmult_vartime_impl.h: r = u1*G + u2*Q by Straus/Shamir over wNAF digits,
 * variable time (public inputs only). Contract: ecmult_vartime.h. */
#ifndef P256_ECMULT_VARTIME_IMPL_H
#define P256_ECMULT_VARTIME_IMPL_H

#include <string.h>

#include "ecmult_vartime.h"
#include "group_impl.h"
#include "scalar_impl.h"
#include "precomputed.h"

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
    int len1, len2, len, owed = 0;

    len1 = p256_wnaf_vartime(n1, u1, P256_WNAF_G_BITS);
    len2 = p256_wnaf_vartime(n2, u2, P256_WNAF_Q_BITS);
    if (len2 > 0)
        p256_aff_multiples_vartime(qtab, q, P256_WNAF_Q_ENTRIES, 2); /* (2j + 1) Q */

    acc = (p256_jac){p256_fe_one, p256_fe_one, p256_fe_zero};
    len = len1 > len2 ? len1 : len2;
    /* The doublings between two nonzero digits go as one run (p256_jac_double_n). */
    for (int i = len - 1; i >= 0; i--) {
        if (i < len - 1) /* acc is still infinity before the top digit: no doubling */
            owed++;
        if (n1[i] == 0 && n2[i] == 0)
            continue;
        p256_jac_double_n(&acc, &acc, owed);
        owed = 0;
        p256_add_wnaf_digit_vartime(&acc, p256_wnaf_g_table, n1[i]);
        p256_add_wnaf_digit_vartime(&acc, qtab, n2[i]);
    }
    p256_jac_double_n(&acc, &acc, owed); /* the zero digits below the last nonzero one */
    *r = acc;
}

#endif /* P256_ECMULT_VARTIME_IMPL_H */

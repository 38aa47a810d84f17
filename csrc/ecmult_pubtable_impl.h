/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ecmult_pubtable_impl.h: the per-key tables of ecmult_pubtable.h: built from a public Q
 * and verified with in variable time; ECDH's d*Q over one in constant time (the comb of
 * ecmult_gen_impl.h). Built on the group layer and the comb of G (precomputed.h); Booth
 * digits as in ecmult_common_impl.h.
 */
#ifndef P256_ECMULT_PUBTABLE_IMPL_H
#define P256_ECMULT_PUBTABLE_IMPL_H

#include "ecmult_pubtable.h"
#include "ecmult_common_impl.h"
#include "group_impl.h"
#include "ecmult_gen_impl.h"
#include "precomputed.h"

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
 * Row by row: the co-Z chain of the row's base B (Jacobian; group.h's p256_coz_multiples:
 * DBLU, then a running sum j B and the addend B kept co-Z by ZADDU, 5M + 2S) up to
 * 2^(bits-1) B; one inversion per row, walked back down the Z ratios, makes the row affine. The next base is 2 * (the
 * last entry) = 2^bits B. No entry is infinity and no ZADDU meets +-B: an entry is
 * m 2^k Q with 0 < m <= 128 < n, n prime.
 */
P256_FN void p256_pubtable_build_core_vartime(p256_pubtable *tab, int bits, const p256_aff *q)
{
    enum { MAXE = 1 << (P256_PUBTABLE_MAX_BITS - 1) };
    p256_fe ratio[MAXE], z, zinv;
    const int entries = 1 << (bits - 1), rows = p256_pubtable_rows(bits);
    p256_jac base, last;
    p256_aff *row;

    tab->magic = 0;
    tab->bits = (uint32_t)bits;
    tab->rows = (uint32_t)rows;
    p256_jac_from_aff(&base, q);
    for (int i = 0; i < rows; i++) {
        row = tab->t + (size_t)i * (size_t)entries;
        p256_coz_multiples(row, ratio, &z, &base, entries, 1);
        last.x = row[entries - 1].x;
        last.y = row[entries - 1].y;
        last.z = z;
        p256_jac_double(&base, &last);
        p256_fe_inv_vartime(&zinv, &z);
        p256_coz_to_aff(row, row, ratio, &zinv, 0, entries);
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

/*
 * The rows the constant-time comb reads. A negative control of tests/c/test_precompute.c
 * (P256_PLANT=pubtable:1) drops the last row, whose digit is k's top bits: the
 * harness's edge scalars must see it.
 */
#define P256_PUBTABLE_COMB_ROWS(bits) (p256_pubtable_rows(bits) - (P256_PLANT(pubtable, 1) ? 1 : 0))

/*
 * r = k*Q, constant time in k: the comb of ecmult_gen_impl.h over tab's rows, one inlined
 * instance per width (the width is public), so that each gets constant shifts as the comb
 * of G does. Every width 4..8 meets the comb's condition bits (rows - 1) < 257 <= bits
 * rows, so no addition is exceptional (the argument there covers each).
 */
P256_FN void p256_ecmult_pubtable(p256_jac *r, const p256_scalar *k, const p256_pubtable *tab)
{
    switch (tab->bits) {
#define P256_PUBTABLE_COMB_CASE(b)                                                      \
    case b:                                                                             \
        p256_ecmult_comb(r, k, tab->t, b, P256_PUBTABLE_COMB_ROWS(b));                  \
        break;
        P256_PUBTABLE_COMB_CASE(4)
        P256_PUBTABLE_COMB_CASE(5)
        P256_PUBTABLE_COMB_CASE(6)
        P256_PUBTABLE_COMB_CASE(7)
        P256_PUBTABLE_COMB_CASE(8)
#undef P256_PUBTABLE_COMB_CASE
    default: /* unreachable: callers check the header (p256.c's p256_pubtable_checked) */
        *r = (p256_jac){p256_fe_one, p256_fe_one, p256_fe_zero};
        break;
    }
}
typedef char p256_pubtable_widths_have_cases[P256_PUBTABLE_MIN_BITS == 4 &&
                                             P256_PUBTABLE_MAX_BITS == 8 ? 1 : -1];

#endif /* P256_ECMULT_PUBTABLE_IMPL_H */

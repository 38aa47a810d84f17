/* SPDX-License-Identifier: Apache-2.0 */
/* modules/halflen/main_impl.h: half-length verification (halflen.h). Include after p256.c. */
#ifndef P256_MODULE_HALFLEN_MAIN_IMPL_H
#define P256_MODULE_HALFLEN_MAIN_IMPL_H

#include "halflen.h"
#include "../../ecdsa_impl.h"
#include "../../ecmult_vartime_impl.h"

P256_FN void p256_halflen_table_init(p256_halflen_table *t)
{
    p256_jac acc, p2;
    p256_aff p, twice;

    p256_jac_from_aff(&acc, &p256_generator);
    p256_jac_double_n(&acc, &acc, 128);
    p256_jac_to_aff(&p, &acc);
    p256_jac_from_aff(&p2, &p);
    p256_jac_double(&p2, &p2);
    p256_jac_to_aff(&twice, &p2);
    t->g128[0] = p;
    p256_jac_from_aff(&acc, &p);
    for (int j = 1; j < P256_HALFLEN_G128_ENTRIES; j++) {
        p256_jac_add_aff_vartime(&acc, &acc, &twice);
        p256_jac_to_aff(&t->g128[j], &acc);
    }
}

/* Multi-word helpers on four little-endian limbs (public values; __builtin_clzll, as
 * the core's other gcc/clang-only parts such as __int128). */
P256_FN int halflen_bitlen(const uint64_t a[4])
{
    for (int i = 3; i >= 0; i--)
        if (a[i] != 0)
            return 64 * i + 64 - __builtin_clzll(a[i]);
    return 0;
}

P256_FN int halflen_cmp(const uint64_t a[4], const uint64_t b[4])
{
    for (int i = 3; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* Bits sh .. sh + 63 of a. */
P256_FN uint64_t halflen_bits_at(const uint64_t a[4], int sh)
{
    int w = sh / 64, b = sh % 64;
    uint64_t x = w < 4 ? a[w] >> b : 0;
    if (b != 0 && w + 1 < 4)
        x |= a[w + 1] << (64 - b);
    return x;
}

/* r -= q a (no borrow out: the caller ensures q a <= r). */
P256_FN void halflen_submul(uint64_t r[4], const uint64_t a[4], uint64_t q)
{
    uint64_t mulc = 0, borrow = 0;
    for (int i = 0; i < 4; i++) {
        p256_u128 p = (p256_u128)a[i] * q + mulc;
        p256_u128 d = (p256_u128)r[i] - (uint64_t)p - borrow;
        mulc = (uint64_t)(p >> 64);
        r[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
}

/* r += q a (the caller ensures no carry out). */
P256_FN void halflen_addmul(uint64_t r[4], const uint64_t a[4], uint64_t q)
{
    uint64_t carry = 0;
    for (int i = 0; i < 4; i++) {
        p256_u128 s = (p256_u128)a[i] * q + r[i] + carry;
        r[i] = (uint64_t)s;
        carry = (uint64_t)(s >> 64);
    }
}

/* r = a << k, for 0 <= k < 256, bits above 2^256 dropped. */
P256_FN void halflen_shl(uint64_t r[4], const uint64_t a[4], int k)
{
    int w = k / 64, b = k % 64;
    for (int i = 3; i >= 0; i--) {
        uint64_t x = i - w >= 0 ? a[i - w] << b : 0;
        if (b != 0 && i - w - 1 >= 0)
            x |= a[i - w - 1] >> (64 - b);
        r[i] = x;
    }
}

/*
 * Extended Euclid with remainders r_i = t_i u (mod n): r_0 = n, t_0 = 0; r_1 = u, t_1 = 1;
 * r_{i+1} = r_{i-1} - q r_i, t_{i+1} = t_{i-1} - q t_i. The t_i alternate in sign, so
 * their magnitudes add: |t_{i+1}| = |t_{i-1}| + q |t_i|, and t_i's sign is (-1)^(i+1).
 * Stopped at the first r_{i+1} < 2^128; then r_i >= 2^128 and |t_{i+1}| r_i <= n (a
 * property of the algorithm: |t_{i+1} r_i| + |t_i r_{i+1}| = n), so |t_{i+1}| < 2^128.
 *
 * Each quotient is taken in pieces that never overshoot: with sh = len(r_{i-1}) - 64,
 * q' = floor((r_{i-1} >> sh) / ((r_i >> sh) + 1)) <= r_{i-1} / r_i, while the top 64 bits
 * of r_i keep 34 or more significant bits (the lengths differ by at most 30), so one or
 * two pieces finish a quotient; a longer gap subtracts r_i 2^(gap - 1) first.
 */
P256_FN void p256_halfgcd_vartime(uint64_t v[2], int *v_neg, uint64_t w[2], const p256_scalar *u)
{
    uint64_t r0[4] = {p256_n[0], p256_n[1], p256_n[2], p256_n[3]};
    uint64_t r1[4] = {u->v[0], u->v[1], u->v[2], u->v[3]};
    uint64_t t0[4] = {0, 0, 0, 0}, t1[4] = {1, 0, 0, 0}, tmp[4];
    int neg = 0;

    while ((r1[2] | r1[3]) != 0) {
        while (halflen_cmp(r0, r1) >= 0) {
            int l0 = halflen_bitlen(r0), gap = l0 - halflen_bitlen(r1);
            if (gap <= 30) {
                uint64_t a = halflen_bits_at(r0, l0 - 64), b = halflen_bits_at(r1, l0 - 64);
                uint64_t q = b == UINT64_MAX ? 1 : a / (b + 1);
                if (q == 0)
                    q = 1; /* r0 >= r1: one subtraction is still exact */
                halflen_submul(r0, r1, q);
                halflen_addmul(t0, t1, q);
            } else {
                halflen_shl(tmp, r1, gap - 1);
                halflen_submul(r0, tmp, 1);
                halflen_shl(tmp, t1, gap - 1);
                halflen_addmul(t0, tmp, 1);
            }
        }
        memcpy(tmp, r0, sizeof tmp), memcpy(r0, r1, sizeof tmp), memcpy(r1, tmp, sizeof tmp);
        memcpy(tmp, t0, sizeof tmp), memcpy(t0, t1, sizeof tmp), memcpy(t1, tmp, sizeof tmp);
        neg ^= 1;
    }
    v[0] = t1[0], v[1] = t1[1];
    w[0] = r1[0], w[1] = r1[1];
    *v_neg = neg;
}

/*
 * One pass: 1 if a0 G + a1 (2^128 G) + w Q + rsign * v R is the point at infinity, the
 * four wNAFs (digits n[k], lengths <= 129) added from their tables in one chain.
 */
P256_FN int halflen_pass_is_zero(int16_t n[4][257], int len, const p256_aff *const tabs[4],
                                int rsign)
{
    p256_jac acc = {p256_fe_one, p256_fe_one, p256_fe_zero};
    int owed = 0;
    for (int i = len - 1; i >= 0; i--) {
        if (i < len - 1)
            owed++;
        if ((n[0][i] | n[1][i] | n[2][i] | n[3][i]) == 0)
            continue;
        p256_jac_double_n(&acc, &acc, owed);
        owed = 0;
        for (int k = 0; k < 3; k++)
            p256_add_wnaf_digit_vartime(&acc, tabs[k], n[k][i]);
        p256_add_wnaf_digit_vartime(&acc, tabs[3], rsign * n[3][i]);
    }
    /* The doublings still owed cannot change whether acc is infinity. */
    return p256_fe_mask_is_zero(&acc.z) != 0;
}

P256_FN int p256_ecdsa_verify_halflen_vartime(const p256_halflen_table *t, const p256_aff *q,
                                             const uint8_t rs[64], const uint8_t *digest,
                                             size_t digest_len, int parity)
{
    p256_scalar r, u1, u2, a, k;
    p256_aff qtab[P256_WNAF_Q_ENTRIES], rtab[P256_WNAF_Q_ENTRIES];
    const p256_aff *const tabs[4] = {p256_wnaf_g_table, t->g128, qtab, rtab};
    int16_t n[4][257];
    uint64_t v[2], w[2];
    int v_neg, len = 0, lens[4];

    if (!p256_ecdsa_verify_scalars_vartime(&r, &u1, &u2, rs, digest, digest_len))
        return 0;

    /* v u2 = w, and a = v u1 (mod n), split at 2^128 */
    p256_halfgcd_vartime(v, &v_neg, w, &u2);
    k = (p256_scalar){{v[0], v[1], 0, 0}};
    p256_scalar_mul(&a, &k, &u1);
    if (v_neg && !P256_PLANT(halflen, 3)) /* plant: v's sign dropped */
        p256_scalar_negate(&a, &a);
    k = (p256_scalar){{a.v[0], a.v[1], 0, 0}};
    lens[0] = p256_wnaf_vartime(n[0], &k, P256_WNAF_G_BITS);
    k = (p256_scalar){{a.v[2], a.v[3], 0, 0}};
    lens[1] = p256_wnaf_vartime(n[1], &k, P256_WNAF_G_BITS);
    k = (p256_scalar){{w[0], w[1], 0, 0}};
    lens[2] = p256_wnaf_vartime(n[2], &k, P256_WNAF_Q_BITS);
    k = (p256_scalar){{v[0], v[1], 0, 0}};
    lens[3] = p256_wnaf_vartime(n[3], &k, P256_WNAF_Q_BITS);
    for (int i = 0; i < 4; i++)
        len = lens[i] > len ? lens[i] : len;
    p256_aff_multiples_vartime(qtab, q, P256_WNAF_Q_ENTRIES, 2);

    /* x(R) = r, then r + n if that is below p; the y of the parity asked, or both. */
    for (int plus_n = 0; plus_n < 2; plus_n++) {
        p256_aff big_r;
        int st;
        if (plus_n && P256_PLANT(halflen, 1))
            break; /* plant: r + n never tried */
        st = p256_ecdsa_r_point_vartime(&big_r, &r, 2 * plus_n + (parity == 1));
        if (st == P256_ECDSA_R_PLUS_N)
            break;
        if (st != P256_ECDSA_R_OK)
            continue; /* no curve point has this x */
        p256_aff_multiples_vartime(rtab, &big_r, P256_WNAF_Q_ENTRIES, 2);
        /* the chain adds v R' with R' = -R for v > 0 (the equation's -v R) */
        if (halflen_pass_is_zero(n, len, tabs, v_neg ? 1 : -1))
            return 1;
        if (parity == P256_HALFLEN_ANY_Y && !P256_PLANT(halflen, 2) /* plant: one y */ &&
            halflen_pass_is_zero(n, len, tabs, v_neg ? -1 : 1))
            return 1;
    }
    return 0;
}

#endif /* P256_MODULE_HALFLEN_MAIN_IMPL_H */

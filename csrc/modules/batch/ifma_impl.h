/* SPDX-License-Identifier: Apache-2.0 */
/*
 * modules/batch/ifma_impl.h: the 8-lane AVX-512 IFMA verification engine of ifma.h.
 * Technique: radix-2^52 Montgomery arithmetic on vpmadd52luq/huq as in Gueron and
 * Krasnov, "Accelerating big integer arithmetic using Intel IFMA extensions" (ARITH
 * 2016) and Drucker and Gueron, eprint 2018/335 (multi-buffer ECDSA/P-256); point
 * formulas: the core's doubling with the slope halved (group_impl.h) and the
 * Explicit-Formulas Database's add-1998-cmo-2 and madd.
 */
#ifndef P256_MODULE_BATCH_IFMA_IMPL_H
#define P256_MODULE_BATCH_IFMA_IMPL_H

#include "ifma.h"
#include "../../cpu.h"
#include "../../ecdsa_impl.h"

#if defined(P256_HAVE_IFMA)

#define P256_M52 0xfffffffffffffULL
/* p and 2p in radix 2^52 (p0 = 2^52 - 1 and p2 = 0: the reduction uses both). */
static const uint64_t p256_ifma_p[5] = {0xfffffffffffffULL, 0xfffffffffffULL, 0, 0x1000000000ULL,
                                        0xffffffff0000ULL};
static const uint64_t p256_ifma_2p[5] = {0xffffffffffffeULL, 0x1fffffffffffULL, 0,
                                         0x2000000000ULL, 0x1fffffffe0000ULL};

#define P256_V(x) _mm512_set1_epi64((long long)(x))
#define P256_LO(acc, a, b) _mm512_madd52lo_epu64((acc), (a), (b))
#define P256_HI(acc, a, b) _mm512_madd52hi_epu64((acc), (a), (b))

/* Montgomery reduction of the 10 columns t (each < 2^60) by R = 2^260 into r (< 2p). */
P256_IFMA_INLINE void p256_fe8_redc(p256_fe8 *r, __m512i t[10])
{
    const __m512i m52 = P256_V(P256_M52), p1 = P256_V(p256_ifma_p[1]),
                  p3 = P256_V(p256_ifma_p[3]), p4 = P256_V(p256_ifma_p[4]);
    /* -p^-1 = 1 mod 2^52, so m = t_i mod 2^52; m*p0 = m*2^52 - m clears t_i's low bits
     * and carries m + (t_i >> 52) into t_{i+1}; p2 = 0 contributes nothing. */
#define P256_REDC_STEP(i)                                                                \
    do {                                                                                 \
        __m512i m = _mm512_and_si512(t[i], m52);                                         \
        t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_add_epi64(_mm512_srli_epi64(t[i], 52), m)); \
        t[i + 1] = P256_LO(t[i + 1], m, p1);                                             \
        t[i + 2] = P256_HI(t[i + 2], m, p1);                                             \
        t[i + 3] = P256_LO(t[i + 3], m, p3);                                             \
        t[i + 4] = P256_HI(t[i + 4], m, p3);                                             \
        t[i + 4] = P256_LO(t[i + 4], m, p4);                                             \
        t[i + 5] = P256_HI(t[i + 5], m, p4);                                             \
    } while (0)
    P256_REDC_STEP(0);
    P256_REDC_STEP(1);
    P256_REDC_STEP(2);
    P256_REDC_STEP(3);
    P256_REDC_STEP(4);
#undef P256_REDC_STEP
    /* (ab + mp)/2^260 < 16p^2/2^260 + p < 2p: normalize the limbs, no subtraction. */
    t[6] = _mm512_add_epi64(t[6], _mm512_srli_epi64(t[5], 52));
    t[7] = _mm512_add_epi64(t[7], _mm512_srli_epi64(t[6], 52));
    t[8] = _mm512_add_epi64(t[8], _mm512_srli_epi64(t[7], 52));
    t[9] = _mm512_add_epi64(t[9], _mm512_srli_epi64(t[8], 52));
    r->v[0] = _mm512_and_si512(t[5], m52);
    r->v[1] = _mm512_and_si512(t[6], m52);
    r->v[2] = _mm512_and_si512(t[7], m52);
    r->v[3] = _mm512_and_si512(t[8], m52);
    r->v[4] = t[9];
}

/* Products into two sets of columns, low halves in t and high halves in h, so that no
 * column's chain of dependent vpmadd52 is longer than 5; summed before the reduction. */
P256_IFMA_INLINE void p256_fe8_mul(p256_fe8 *r, const p256_fe8 *a, const p256_fe8 *b)
{
    __m512i t[10], h[10];
    const __m512i z = _mm512_setzero_si512();
    for (int k = 0; k < 10; k++)
        t[k] = h[k] = z;
#define P256_MAC(i, j)                                     \
    do {                                                   \
        t[i + j] = P256_LO(t[i + j], a->v[i], b->v[j]);     \
        h[i + j + 1] = P256_HI(h[i + j + 1], a->v[i], b->v[j]); \
    } while (0)
#define P256_MAC_ROW(i) \
    P256_MAC(i, 0);     \
    P256_MAC(i, 1);     \
    P256_MAC(i, 2);     \
    P256_MAC(i, 3);     \
    P256_MAC(i, 4)
    P256_MAC_ROW(0);
    P256_MAC_ROW(1);
    P256_MAC_ROW(2);
    P256_MAC_ROW(3);
    P256_MAC_ROW(4);
#undef P256_MAC_ROW
#undef P256_MAC
    for (int k = 1; k < 10; k++)
        t[k] = _mm512_add_epi64(t[k], h[k]);
    p256_fe8_redc(r, t);
}

/* The cross products once, doubled by a shift (each column stays < 2^60), then the squares. */
P256_IFMA_INLINE void p256_fe8_sqr(p256_fe8 *r, const p256_fe8 *a)
{
    __m512i t[10], h[10];
    const __m512i z = _mm512_setzero_si512();
    for (int k = 0; k < 10; k++)
        t[k] = h[k] = z;
#define P256_MAC(i, j)                                     \
    do {                                                   \
        t[i + j] = P256_LO(t[i + j], a->v[i], a->v[j]);     \
        h[i + j + 1] = P256_HI(h[i + j + 1], a->v[i], a->v[j]); \
    } while (0)
    P256_MAC(0, 1);
    P256_MAC(0, 2);
    P256_MAC(0, 3);
    P256_MAC(0, 4);
    P256_MAC(1, 2);
    P256_MAC(1, 3);
    P256_MAC(1, 4);
    P256_MAC(2, 3);
    P256_MAC(2, 4);
    P256_MAC(3, 4);
    for (int k = 1; k < 10; k++) {
        t[k] = _mm512_add_epi64(t[k], h[k]);
        t[k] = _mm512_add_epi64(t[k], t[k]);
        h[k] = z;
    }
    P256_MAC(0, 0);
    P256_MAC(1, 1);
    P256_MAC(2, 2);
    P256_MAC(3, 3);
    P256_MAC(4, 4);
#undef P256_MAC
    for (int k = 1; k < 10; k++)
        t[k] = _mm512_add_epi64(t[k], h[k]);
    p256_fe8_redc(r, t);
}

/* Carry propagation of signed limbs (arithmetic shifts); the top limb keeps the sign. */
P256_IFMA_INLINE void p256_fe8_carry(__m512i d[5])
{
    const __m512i m52 = P256_V(P256_M52);
    for (int k = 0; k < 4; k++) {
        d[k + 1] = _mm512_add_epi64(d[k + 1], _mm512_srai_epi64(d[k], 52));
        d[k] = _mm512_and_si512(d[k], m52);
    }
}

/* r = keep if keep >= 0, else other: both carried (two independent chains), where
 * other = keep + 2p (sub) or keep = other - 2p (add). */
P256_IFMA_INLINE void p256_fe8_pick(p256_fe8 *r, __m512i keep[5], __m512i other[5])
{
    p256_fe8_carry(keep);
    p256_fe8_carry(other);
    __mmask8 neg = _mm512_cmplt_epi64_mask(keep[4], _mm512_setzero_si512());
    if (P256_PLANT(ifma, 2))
        neg &= 0x7f; /* negative control: lane 7 never takes the other value */
    for (int k = 0; k < 5; k++)
        r->v[k] = _mm512_mask_blend_epi64(neg, keep[k], other[k]);
}

/* s = a + b < 4p and d = s - 2p; d where d >= 0. */
P256_IFMA_INLINE void p256_fe8_add(p256_fe8 *r, const p256_fe8 *a, const p256_fe8 *b)
{
    __m512i s[5], d[5];
    for (int k = 0; k < 5; k++) {
        s[k] = _mm512_add_epi64(a->v[k], b->v[k]);
        d[k] = _mm512_sub_epi64(s[k], P256_V(p256_ifma_2p[k]));
    }
    p256_fe8_pick(r, d, s);
}

/* d = a - b in (-2p, 2p) and e = d + 2p; e where d < 0. */
P256_IFMA_INLINE void p256_fe8_sub(p256_fe8 *r, const p256_fe8 *a, const p256_fe8 *b)
{
    __m512i d[5], e[5];
    for (int k = 0; k < 5; k++) {
        d[k] = _mm512_sub_epi64(a->v[k], b->v[k]);
        e[k] = _mm512_add_epi64(d[k], P256_V(p256_ifma_2p[k]));
    }
    p256_fe8_pick(r, d, e);
}

/*
 * r = a/2 mod p for a < 2p: a + p where a is odd (a's parity is limb 0's), even and < 3p,
 * carried to normalized limbs, then shifted right by one bit across them: r < 1.5p.
 * The mask comes from the data, no branch.
 */
P256_IFMA_INLINE void p256_fe8_half(p256_fe8 *r, const p256_fe8 *a)
{
    const __m512i one = P256_V(1);
    const __m512i odd = _mm512_sub_epi64(_mm512_setzero_si512(), _mm512_and_si512(a->v[0], one));
    __m512i t[5];
    for (int k = 0; k < 5; k++)
        t[k] = _mm512_add_epi64(a->v[k], _mm512_and_si512(odd, P256_V(p256_ifma_p[k])));
    p256_fe8_carry(t);
    for (int k = 0; k < 4; k++)
        r->v[k] = _mm512_or_si512(_mm512_srli_epi64(t[k], 1),
                                  _mm512_slli_epi64(_mm512_and_si512(t[k + 1], one), 51));
    r->v[4] = _mm512_srli_epi64(t[4], 1);
}

/* a < 2p is 0 mod p iff its (unique, normalized) limbs are those of 0 or of p. */
P256_IFMA_INLINE __mmask8 p256_fe8_mask_is_zero(const p256_fe8 *a)
{
    __m512i o = a->v[0], x = _mm512_xor_si512(a->v[0], P256_V(p256_ifma_p[0]));
    for (int k = 1; k < 5; k++) {
        o = _mm512_or_si512(o, a->v[k]);
        x = _mm512_or_si512(x, _mm512_xor_si512(a->v[k], P256_V(p256_ifma_p[k])));
    }
    return (__mmask8)(_mm512_cmpeq_epi64_mask(o, _mm512_setzero_si512()) |
                      _mm512_cmpeq_epi64_mask(x, _mm512_setzero_si512()));
}

/*
 * field.h holds v*2^256 mod p; the engine v*2^260 mod p. Since both are linear in v,
 * multiplying the field.h element by 16 gives the engine's integer, and halving the
 * engine's integer (read as a field.h element) four times gives v back.
 */
P256_FN void p256_ifma_from_fe(uint64_t w[5], const p256_fe *a)
{
    p256_fe t;
    p256_fe_mul_small(&t, a, 16);
    w[0] = t.v[0] & P256_M52;
    w[1] = ((t.v[0] >> 52) | (t.v[1] << 12)) & P256_M52;
    w[2] = ((t.v[1] >> 40) | (t.v[2] << 24)) & P256_M52;
    w[3] = ((t.v[2] >> 28) | (t.v[3] << 36)) & P256_M52;
    w[4] = t.v[3] >> 16;
}

/* Constant time (the lanes of k*G are secret). */
P256_FN void p256_ifma_to_fe(p256_fe *r, const uint64_t w[5])
{
    uint64_t x[4], d[4];
    x[0] = w[0] | (w[1] << 52);
    x[1] = (w[1] >> 12) | (w[2] << 40);
    x[2] = (w[2] >> 24) | (w[3] << 28);
    x[3] = (w[3] >> 36) | (w[4] << 16); /* w < 2p < 2^257: bit 256 is w[4] >> 48 */
    static const uint64_t p64[4] = {0xffffffffffffffffULL, 0x00000000ffffffffULL, 0,
                                    0xffffffff00000001ULL};
    unsigned char b = 0;
    for (int i = 0; i < 4; i++)
        d[i] = p256_sbb(x[i], p64[i], &b);
    /* d where w >= p (bit 256 set, or no borrow): masks, as k*G's lanes are secret. */
    const uint64_t ge = p256_mask_from_bit((w[4] >> 48) | (uint64_t)(b ^ 1));
    for (int i = 0; i < 4; i++)
        r->v[i] = (d[i] & ge) | (x[i] & ~ge);
    for (int i = 0; i < 4; i++)
        p256_fe_half(r, r);
}

/* Lane access through explicit stores and loads (no type punning of the vectors). */
P256_IFMA_FN void p256_fe8_set_lane(p256_fe8 *r, int lane, const p256_fe *a)
{
    uint64_t w[5], v[8];
    p256_ifma_from_fe(w, a);
    for (int k = 0; k < 5; k++) {
        _mm512_storeu_si512((void *)v, r->v[k]);
        v[lane] = w[k];
        r->v[k] = _mm512_loadu_si512((const void *)v);
    }
}

P256_IFMA_FN void p256_fe8_get_lane(p256_fe *r, const p256_fe8 *a, int lane)
{
    uint64_t w[5], v[8];
    for (int k = 0; k < 5; k++) {
        _mm512_storeu_si512((void *)v, a->v[k]);
        w[k] = v[lane];
    }
    p256_ifma_to_fe(r, w);
}

/* Lane l < 8 ng of the ng groups a[] as field.h elements (a[l / 8]'s lane l % 8): the
 * constant-time multiplications' results. */
P256_IFMA_FN void p256_jac8_get_lanes(p256_fe *x, p256_fe *y, p256_fe *z, const p256_jac8 *a,
                                      int ng)
{
    for (int l = 0; l < 8 * ng; l++) {
        p256_fe8_get_lane(&x[l], &a[l / 8].x, l % 8);
        p256_fe8_get_lane(&y[l], &a[l / 8].y, l % 8);
        p256_fe8_get_lane(&z[l], &a[l / 8].z, l % 8);
    }
}

P256_IFMA_INLINE void p256_fe8_blend(p256_fe8 *r, __mmask8 m, const p256_fe8 *a)
{
    for (int k = 0; k < 5; k++)
        r->v[k] = _mm512_mask_blend_epi64(m, r->v[k], a->v[k]);
}

/*
 * The point formulas work on ng independent groups of 8 lanes (ng <= P256_IFMA_NG) one
 * field operation at a time across the groups: consecutive operations are independent,
 * so the core overlaps their latency (a lone product waits on its own carries).
 */
#define P256_IFMA_NG 2
#define P256_EACH(stmt)                 \
    for (int g = 0; g < ng; g++) {      \
        stmt;                           \
    }

P256_IFMA_INLINE void p256_jac8_double_body(p256_jac8 *r, const p256_jac8 *a, int ng)
{
    /* The core's doubling with the slope halved (group_impl.h, p256_jac_double_c, says
     * why it is right): S = Y^2, T = X S, L = 3/2 (X - Z^2)(X + Z^2), X3 = L^2 - 2T,
     * Y3 = L (T - X3) - S^2, Z3 = Y Z; every read of a before the first write of r. */
    p256_fe8 zz[P256_IFMA_NG], s[P256_IFMA_NG], t[P256_IFMA_NG], l[P256_IFMA_NG],
        u[P256_IFMA_NG];
    P256_EACH(p256_fe8_sqr(&zz[g], &a[g].z));
    P256_EACH(p256_fe8_sqr(&s[g], &a[g].y));
    P256_EACH(p256_fe8_mul(&t[g], &a[g].x, &s[g]));         /* T = X S */
    P256_EACH(p256_fe8_sub(&l[g], &a[g].x, &zz[g]));
    P256_EACH(p256_fe8_add(&u[g], &a[g].x, &zz[g]));
    P256_EACH(p256_fe8_mul(&l[g], &l[g], &u[g]));           /* X^2 - Z^4 */
    P256_EACH(p256_fe8_mul(&r[g].z, &a[g].y, &a[g].z));     /* Z3 = Y Z: a's last read */
    P256_EACH(p256_fe8_half(&u[g], &l[g]));
    P256_EACH(p256_fe8_add(&l[g], &l[g], &u[g]));           /* L = 3/2 (X^2 - Z^4) */
    P256_EACH(p256_fe8_sqr(&u[g], &l[g]));
    P256_EACH(p256_fe8_sqr(&s[g], &s[g]));                  /* S^2 */
    P256_EACH(p256_fe8_sub(&u[g], &u[g], &t[g]));
    P256_EACH(p256_fe8_sub(&r[g].x, &u[g], &t[g]));         /* X3 = L^2 - 2T */
    P256_EACH(p256_fe8_sub(&t[g], &t[g], &r[g].x));
    P256_EACH(p256_fe8_mul(&t[g], &l[g], &t[g]));
    P256_EACH(p256_fe8_sub(&r[g].y, &t[g], &s[g]));         /* Y3 = L (T - X3) - S^2 */
}

/*
 * a + b (add-1998-cmo-2), or a + (bx, by, 1) when b is NULL (the mixed form, from bx, by):
 * hz[g] gets group g's lanes with H == 0, and rz[g] (unless rz is NULL) those with
 * R = S2 - S1 == 0 (with H == 0: a == b, a doubling; without: a == -b). r may alias a.
 */
P256_IFMA_INLINE void p256_jac8_add_body(p256_jac8 *r, const p256_jac8 *a, const p256_jac8 *b,
                                         const p256_aff8 *ba, __mmask8 *hz, __mmask8 *rz, int ng)
{
    p256_fe8 z1z1[P256_IFMA_NG], z2z2[P256_IFMA_NG], u1[P256_IFMA_NG], u2[P256_IFMA_NG],
        s1[P256_IFMA_NG], s2[P256_IFMA_NG], h[P256_IFMA_NG], rr[P256_IFMA_NG],
        z3[P256_IFMA_NG], hh[P256_IFMA_NG], hhh[P256_IFMA_NG], v[P256_IFMA_NG],
        t[P256_IFMA_NG];
    P256_EACH(p256_fe8_sqr(&z1z1[g], &a[g].z));
    if (b != NULL) {
        P256_EACH(p256_fe8_sqr(&z2z2[g], &b[g].z));
        P256_EACH(p256_fe8_mul(&u1[g], &a[g].x, &z2z2[g]));
        P256_EACH(p256_fe8_mul(&u2[g], &b[g].x, &z1z1[g]));
        P256_EACH(p256_fe8_mul(&s1[g], &a[g].y, &b[g].z));
        P256_EACH(p256_fe8_mul(&s2[g], &b[g].y, &a[g].z));
        P256_EACH(p256_fe8_mul(&s1[g], &s1[g], &z2z2[g]));
        P256_EACH(p256_fe8_mul(&s2[g], &s2[g], &z1z1[g]));
        P256_EACH(p256_fe8_mul(&z3[g], &a[g].z, &b[g].z));
    } else {
        P256_EACH(p256_fe8_mul(&u2[g], &ba[g].x, &z1z1[g]));
        P256_EACH(p256_fe8_mul(&s2[g], &ba[g].y, &a[g].z));
        P256_EACH(p256_fe8_mul(&s2[g], &s2[g], &z1z1[g]));
        P256_EACH(u1[g] = a[g].x);
        P256_EACH(s1[g] = a[g].y);
        P256_EACH(z3[g] = a[g].z);
    }
    P256_EACH(p256_fe8_sub(&h[g], &u2[g], &u1[g]));
    P256_EACH(p256_fe8_sub(&rr[g], &s2[g], &s1[g]));
    P256_EACH(hz[g] = p256_fe8_mask_is_zero(&h[g]));
    if (rz != NULL)
        P256_EACH(rz[g] = p256_fe8_mask_is_zero(&rr[g]));
    P256_EACH(p256_fe8_mul(&z3[g], &z3[g], &h[g]));
    P256_EACH(p256_fe8_sqr(&hh[g], &h[g]));
    P256_EACH(p256_fe8_mul(&hhh[g], &hh[g], &h[g]));
    P256_EACH(p256_fe8_mul(&v[g], &u1[g], &hh[g]));
    P256_EACH(p256_fe8_sqr(&t[g], &rr[g]));
    P256_EACH(p256_fe8_sub(&t[g], &t[g], &hhh[g]));
    P256_EACH(p256_fe8_sub(&t[g], &t[g], &v[g]));
    P256_EACH(p256_fe8_sub(&r[g].x, &t[g], &v[g])); /* X3 = R^2 - H^3 - 2 U1 H^2 */
    P256_EACH(p256_fe8_sub(&v[g], &v[g], &r[g].x));
    P256_EACH(p256_fe8_mul(&v[g], &rr[g], &v[g]));
    P256_EACH(p256_fe8_mul(&t[g], &s1[g], &hhh[g]));
    P256_EACH(p256_fe8_sub(&r[g].y, &v[g], &t[g])); /* Y3 = R (U1 H^2 - X3) - S1 H^3 */
    P256_EACH(r[g].z = z3[g]);
}

/* One instance of each point formula per group count (P256_IFMA_POINT, ifma.h);
 * p256_jac8_double_n / p256_jac8_add_n pick the instance for a constant ng. */
P256_IFMA_POINT void p256_jac8_double_1(p256_jac8 *r, const p256_jac8 *a)
{
    p256_jac8_double_body(r, a, 1);
}

P256_IFMA_POINT void p256_jac8_double_2(p256_jac8 *r, const p256_jac8 *a)
{
    p256_jac8_double_body(r, a, 2);
}

P256_IFMA_POINT void p256_jac8_add_1(p256_jac8 *r, const p256_jac8 *a, const p256_jac8 *b,
                                     const p256_aff8 *ba, __mmask8 *hz, __mmask8 *rz)
{
    p256_jac8_add_body(r, a, b, ba, hz, rz, 1);
}

P256_IFMA_POINT void p256_jac8_add_2(p256_jac8 *r, const p256_jac8 *a, const p256_jac8 *b,
                                     const p256_aff8 *ba, __mmask8 *hz, __mmask8 *rz)
{
    p256_jac8_add_body(r, a, b, ba, hz, rz, 2);
}

P256_IFMA_INLINE void p256_jac8_double_n(p256_jac8 *r, const p256_jac8 *a, int ng)
{
    if (ng == 1)
        p256_jac8_double_1(r, a);
    else
        p256_jac8_double_2(r, a);
}

P256_IFMA_INLINE void p256_jac8_add_n(p256_jac8 *r, const p256_jac8 *a, const p256_jac8 *b,
                                      const p256_aff8 *ba, __mmask8 *hz, __mmask8 *rz, int ng)
{
    if (ng == 1)
        p256_jac8_add_1(r, a, b, ba, hz, rz);
    else
        p256_jac8_add_2(r, a, b, ba, hz, rz);
}

P256_IFMA_INLINE void p256_jac8_double(p256_jac8 *r, const p256_jac8 *a)
{
    p256_jac8_double_n(r, a, 1);
}

P256_IFMA_INLINE __mmask8 p256_jac8_add(p256_jac8 *r, const p256_jac8 *a, const p256_jac8 *b)
{
    __mmask8 hz;
    p256_jac8_add_n(r, a, b, NULL, &hz, NULL, 1);
    return hz;
}

P256_IFMA_INLINE __mmask8 p256_jac8_add_aff(p256_jac8 *r, const p256_jac8 *a, const p256_aff8 *b)
{
    __mmask8 hz;
    p256_jac8_add_n(r, a, NULL, b, &hz, NULL, 1);
    return hz;
}

P256_FN void p256_ifma_recode(int64_t *d, const p256_scalar *u, int w)
{
    const int windows = (256 + w - 1) / w;
    const int64_t half = (int64_t)1 << (w - 1), mask = ((int64_t)1 << w) - 1;
    int64_t carry = 0;
    for (int i = 0; i < windows; i++) {
        int bit = w * i, limb = bit >> 6, sh = bit & 63;
        uint64_t v = u->v[limb] >> sh;
        if (sh > 64 - w && limb < 3)
            v |= u->v[limb + 1] << (64 - sh);
        int64_t x = (int64_t)(v & (uint64_t)mask) + carry;
        carry = (int64_t)((uint64_t)(half - x) >> 63); /* x > half, without a branch */
        d[i] = x - (carry << w);
    }
    /* u < 2^256: the top window holds at most w - 1 bits of u (w = 5, 7), so the last
     * carry is 0. Branch-free in u (a secret for p256_ifma_ecmult_const8): only the
     * window positions, which are public, choose the shifts. */
}

/*
 * ecmult_gen_impl.h's comb in the engine's Montgomery form: p256_ifma_comb[i][j] = (j + 1)
 * 2^(7 i) G as x then y, each the integer a*2^260 mod p (< p) in 4 words of 64 bits: 64
 * bytes an entry (148 KB), so that k*G's scan (ifma_gen_impl.h) merges 8 words per entry
 * rather than 10 limbs; it splits the chosen entry into limbs once. p256_ifma_gtab: its
 * row 0 (1G..64G) in limbs, one row (x, y) of 10 per entry, for the verification's gathers.
 */
typedef char p256_ifma_comb_matches_gw[P256_COMB_BITS == P256_IFMA_GW &&
                                               P256_COMB_WINDOWS == P256_IFMA_GWINDOWS &&
                                               P256_COMB_ENTRIES == P256_IFMA_GTAB ? 1 : -1];
static uint64_t p256_ifma_comb[P256_COMB_WINDOWS][P256_COMB_ENTRIES][8];
static uint64_t p256_ifma_gtab[P256_IFMA_GTAB][10];
/* 0: not built, 1: one thread is building them, 2: ready (published with release order). */
static int p256_ifma_gtab_state;

/*
 * Builds both tables once, on first use, from the core's p256_comb_table (public data):
 * the first thread to claim them writes them, any other waits (well under a millisecond,
 * once per process) until they are published, so no thread ever reads or writes them
 * while another writes them.
 */
P256_FN void p256_ifma_gtab_init(void)
{
    int expect = 0;
    if (__atomic_load_n(&p256_ifma_gtab_state, __ATOMIC_ACQUIRE) == 2)
        return;
    if (!__atomic_compare_exchange_n(&p256_ifma_gtab_state, &expect, 1, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        while (__atomic_load_n(&p256_ifma_gtab_state, __ATOMIC_ACQUIRE) != 2) {
#if defined(__x86_64__)
            __builtin_ia32_pause();
#endif
        }
        return;
    }
    for (int i = 0; i < P256_COMB_WINDOWS; i++)
        for (int j = 0; j < P256_COMB_ENTRIES; j++) {
            p256_fe x, y;
            p256_fe_mul_small(&x, &p256_comb_table[i][j].x, 16); /* a*2^256 -> a*2^260 */
            p256_fe_mul_small(&y, &p256_comb_table[i][j].y, 16);
            memcpy(p256_ifma_comb[i][j], x.v, 32);
            memcpy(p256_ifma_comb[i][j] + 4, y.v, 32);
        }
    for (int j = 0; j < P256_IFMA_GTAB; j++) {
        p256_ifma_from_fe(p256_ifma_gtab[j], &p256_comb_table[0][j].x);
        p256_ifma_from_fe(p256_ifma_gtab[j] + 5, &p256_comb_table[0][j].y);
    }
    __atomic_store_n(&p256_ifma_gtab_state, 2, __ATOMIC_RELEASE);
}

/* Digit vector -> its table index (|d| - 1) & mask (any d: in bounds for a table of
 * mask + 1 entries), sign and nonzero masks. */
P256_IFMA_INLINE __m512i p256_ifma_digit(const int64_t *d, __mmask8 *neg, __mmask8 *nz,
                                         int64_t mask)
{
    __m512i v = _mm512_loadu_si512((const void *)d);
    *neg = _mm512_cmplt_epi64_mask(v, _mm512_setzero_si512());
    *nz = _mm512_cmpneq_epi64_mask(v, _mm512_setzero_si512());
    v = _mm512_abs_epi64(v);
    return _mm512_and_si512(_mm512_sub_epi64(v, P256_V(1)), P256_V(mask));
}

P256_IFMA_INLINE void p256_fe8_cneg(p256_fe8 *y, __mmask8 neg)
{
    p256_fe8 zero, t;
    for (int k = 0; k < 5; k++)
        zero.v[k] = _mm512_setzero_si512();
    p256_fe8_sub(&t, &zero, y);
    p256_fe8_blend(y, neg, &t);
}

/*
 * One table addition's outcome per lane: digit 0 (not nz) keeps acc; acc still infinite
 * (inf) takes the entry (ex, ey, ez); otherwise the sum s, which is wrong where hz
 * (operands sharing x): those lanes go into bad.
 */
P256_IFMA_INLINE void p256_ifma_accumulate(p256_jac8 *acc, const p256_jac8 *s, const p256_fe8 *ex,
                                           const p256_fe8 *ey, const p256_fe8 *ez, __mmask8 nz,
                                           __mmask8 hz, __mmask8 *inf, __mmask8 *bad)
{
    __mmask8 add = nz & (__mmask8)~*inf, take = nz & *inf;
    *bad |= hz & add;
    p256_fe8_blend(&acc->x, add, &s->x);
    p256_fe8_blend(&acc->y, add, &s->y);
    p256_fe8_blend(&acc->z, add, &s->z);
    p256_fe8_blend(&acc->x, take, ex);
    p256_fe8_blend(&acc->y, take, ey);
    p256_fe8_blend(&acc->z, take, ez);
    *inf &= (__mmask8)~nz;
}

/* Lanes 8g..8g+7 in group g < ng; see p256_ifma_ecmult8_vartime. */
P256_IFMA_INLINE unsigned p256_ifma_ecmult_n(p256_fe *x, p256_fe *z, const p256_scalar *u1,
                                             const p256_scalar *u2, const p256_aff *q, int ng)
{
    int64_t d1[P256_IFMA_GWINDOWS][8 * P256_IFMA_NG], d2[P256_IFMA_WINDOWS][8 * P256_IFMA_NG],
        t[P256_IFMA_WINDOWS];
    p256_jac8 tq[P256_IFMA_NG][16], acc[P256_IFMA_NG], s[P256_IFMA_NG], e[P256_IFMA_NG];
    p256_aff8 qa[P256_IFMA_NG], ea[P256_IFMA_NG];
    p256_fe8 one;
    __mmask8 inf[P256_IFMA_NG], bad[P256_IFMA_NG], hz[P256_IFMA_NG], neg[P256_IFMA_NG],
        nz[P256_IFMA_NG];
    __m512i idx[P256_IFMA_NG];
    unsigned out = 0;

    p256_ifma_gtab_init();
    memset(&one, 0, sizeof one);
    memset(qa, 0, sizeof qa);
    for (int l = 0; l < 8; l++)
        p256_fe8_set_lane(&one, l, &p256_fe_one);
    for (int l = 0; l < 8 * ng; l++) {
        p256_ifma_recode(t, &u1[l], P256_IFMA_GW);
        for (int i = 0; i < P256_IFMA_GWINDOWS; i++)
            d1[i][l] = t[i];
        p256_ifma_recode(t, &u2[l], 5);
        for (int i = 0; i < P256_IFMA_WINDOWS; i++)
            d2[i][l] = t[i];
        p256_fe8_set_lane(&qa[l / 8].x, l % 8, &q[l].x);
        p256_fe8_set_lane(&qa[l / 8].y, l % 8, &q[l].y);
    }

    /* tq[g][j] = (j+1) q per lane; jq != +-q for j < 17 (q has prime order n), so exact. */
    P256_EACH(tq[g][0].x = qa[g].x; tq[g][0].y = qa[g].y; tq[g][0].z = one; inf[g] = 0xff;
              bad[g] = 0);
    P256_EACH(p256_jac8_double(&tq[g][1], &tq[g][0]));
    for (int j = 2; j < 16; j++) {
        P256_EACH(s[g] = tq[g][j - 1]);
        p256_jac8_add_n(s, s, NULL, qa, hz, NULL, ng);
        P256_EACH(tq[g][j] = s[g]);
    }

    memset(acc, 0, sizeof acc);
    /* Horner over the bits from 255 down: q's digits sit at multiples of 5, G's at
     * multiples of 7; the schedule is the same for every lane. */
    for (int b = 255; b >= 0; b--) {
        if (b != 255)
            p256_jac8_double_n(acc, acc, ng);
        if (b % 5 == 0) {
        const int i = b / 5;
        /* acc += d2[i] q: entry idx of each lane's own table (index 120 idx + lane). */
        P256_EACH(idx[g] = p256_ifma_digit(&d2[i][8 * g], &neg[g], &nz[g], 15);
                  idx[g] = _mm512_add_epi64(
                      _mm512_sub_epi64(_mm512_slli_epi64(idx[g], 7), _mm512_slli_epi64(idx[g], 3)),
                      _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0));
                  const long long *base = (const long long *)tq[g];
                  for (int k = 0; k < 5; k++) {
                      e[g].x.v[k] = _mm512_i64gather_epi64(idx[g], base + 8 * k, 8);
                      e[g].y.v[k] = _mm512_i64gather_epi64(idx[g], base + 8 * (5 + k), 8);
                      e[g].z.v[k] = _mm512_i64gather_epi64(idx[g], base + 8 * (10 + k), 8);
                  } p256_fe8_cneg(&e[g].y, neg[g]));
        p256_jac8_add_n(s, acc, e, NULL, hz, NULL, ng);
        P256_EACH(p256_ifma_accumulate(&acc[g], &s[g], &e[g].x, &e[g].y, &e[g].z, nz[g], hz[g],
                                       &inf[g], &bad[g]));

        }
        if (b % P256_IFMA_GW == 0) {
        const int i = b / P256_IFMA_GW;
        /* acc += d1[i] G from the shared table (index 10 idx). */
        P256_EACH(idx[g] = p256_ifma_digit(&d1[i][8 * g], &neg[g], &nz[g], P256_IFMA_GTAB - 1);
                  idx[g] = _mm512_add_epi64(_mm512_slli_epi64(idx[g], 3),
                                            _mm512_slli_epi64(idx[g], 1));
                  const long long *base = (const long long *)p256_ifma_gtab;
                  for (int k = 0; k < 5; k++) {
                      ea[g].x.v[k] = _mm512_i64gather_epi64(idx[g], base + k, 8);
                      ea[g].y.v[k] = _mm512_i64gather_epi64(idx[g], base + 5 + k, 8);
                  } p256_fe8_cneg(&ea[g].y, neg[g]));
        p256_jac8_add_n(s, acc, NULL, ea, hz, NULL, ng);
        P256_EACH(p256_ifma_accumulate(&acc[g], &s[g], &ea[g].x, &ea[g].y, &one, nz[g], hz[g],
                                       &inf[g], &bad[g]));
        }
    }
    P256_EACH(bad[g] |= inf[g] | p256_fe8_mask_is_zero(&acc[g].z);
              out |= (unsigned)bad[g] << (8 * g));
    for (int l = 0; l < 8 * ng; l++) {
        p256_fe8_get_lane(&x[l], &acc[l / 8].x, l % 8);
        p256_fe8_get_lane(&z[l], &acc[l / 8].z, l % 8);
    }
    return out;
}

P256_IFMA_FN unsigned p256_ifma_ecmult8_vartime(p256_fe x[8], p256_fe z[8],
                                                const p256_scalar u1[8], const p256_scalar u2[8],
                                                const p256_aff q[8])
{
    return p256_ifma_ecmult_n(x, z, u1, u2, q, 1);
}

P256_IFMA_FN unsigned p256_ifma_ecmult16_vartime(p256_fe x[16], p256_fe z[16],
                                                 const p256_scalar u1[16],
                                                 const p256_scalar u2[16], const p256_aff q[16])
{
    return p256_ifma_ecmult_n(x, z, u1, u2, q, 2);
}

/* The secret side: k*q in 8 lanes, constant time (p256_ifma_ecmult_const8). */
#include "ifma_const_impl.h"

#undef P256_EACH

/* k*G in 8 lanes, constant time. */
#include "ifma_gen_impl.h"

#undef P256_LO
#undef P256_HI
#endif /* P256_HAVE_IFMA */

P256_FN int p256_ifma_available(void)
{
#if defined(P256_IFMA_EMULATE)
    return 1;
#elif defined(P256_HAVE_IFMA)
    return p256_cpu_has(P256_CPU_AVX512_IFMA); /* cpu.h caches the answer */
#else
    return 0;
#endif
}

P256_FN void p256_ifma_prepare(void)
{
#if defined(P256_HAVE_IFMA)
    p256_ifma_gtab_init();
#endif
}

P256_FN void p256_ifma_verify_batch_vartime(uint8_t *results, const p256_batch_point_item *items,
                                            size_t n)
{
#if defined(P256_HAVE_IFMA)
    size_t g = 0;
    while (n - g >= P256_IFMA_MIN_GROUP) {
        /* 16 lanes (two interleaved groups) for at least P256_IFMA_MIN_16 items, else 8. */
        size_t cnt = n - g < 16 ? n - g : 16, lanes;
        if (cnt < P256_IFMA_MIN_16 && cnt > 8)
            cnt = 8;
        lanes = cnt > 8 ? 16 : 8;
        const p256_batch_point_item *it = items + g;
        p256_scalar r[16], s[16], u1[16], u2[16], pre[16], inv;
        p256_aff q[16];
        p256_fe x[16], z[16];
        int ok[16], nok = 0;
        unsigned bad;

        for (size_t l = 0; l < lanes; l++) {
            ok[l] = l < cnt && p256_scalar_set_bytes_checked(&r[l], it[l].rs) &&
                    !p256_scalar_mask_is_zero(&r[l]) &&
                    p256_scalar_set_bytes_checked(&s[l], it[l].rs + 32) &&
                    !p256_scalar_mask_is_zero(&s[l]);
            if (ok[l]) {
                q[l] = *it[l].q;
            } else { /* a harmless dummy lane: 1 G + 2 G */
                q[l] = p256_generator;
                memset(&s[l], 0, sizeof s[l]);
                s[l].v[0] = 1;
                memset(&r[l], 0, sizeof r[l]);
                r[l].v[0] = 2;
            }
            nok += ok[l];
        }
        if (nok == 0) {
            for (size_t l = 0; l < cnt; l++)
                results[g + l] = 0;
            g += cnt;
            continue;
        }
        /* s^-1 of all lanes by one inversion (Montgomery's trick). */
        pre[0] = s[0];
        for (size_t l = 1; l < lanes; l++)
            p256_scalar_mul(&pre[l], &pre[l - 1], &s[l]);
        p256_scalar_inv_vartime(&inv, &pre[lanes - 1]);
        for (size_t l = lanes; l-- > 0;) {
            p256_scalar w;
            if (l > 0) {
                p256_scalar_mul(&w, &inv, &pre[l - 1]);
                p256_scalar_mul(&inv, &inv, &s[l]);
            } else {
                w = inv;
            }
            if (ok[l])
                p256_scalar_from_digest(&u1[l], it[l].digest, it[l].digest_len);
            else {
                memset(&u1[l], 0, sizeof u1[l]);
                u1[l].v[0] = 1;
            }
            p256_scalar_mul(&u1[l], &u1[l], &w);
            p256_scalar_mul(&u2[l], &r[l], &w);
        }
        if (lanes == 16)
            bad = p256_ifma_ecmult16_vartime(x, z, u1, u2, q);
        else
            bad = p256_ifma_ecmult8_vartime(x, z, u1, u2, q);
        if (P256_PLANT(ifma, 1))
            bad = 0; /* negative control: exceptional lanes are not re-verified */
        for (size_t l = 0; l < cnt; l++) {
            if (!ok[l])
                results[g + l] = 0;
            else if ((bad >> l) & 1)
                results[g + l] = (uint8_t)p256_ecdsa_verify_vartime(&q[l], it[l].rs,
                                                                    it[l].digest,
                                                                    it[l].digest_len);
            else
                results[g + l] = (uint8_t)p256_ecdsa_x_matches_vartime(&x[l], &z[l], &r[l]);
        }
        g += cnt;
    }
    for (; g < n; g++)
        results[g] = (uint8_t)p256_ecdsa_verify_vartime(items[g].q, items[g].rs, items[g].digest,
                                                        items[g].digest_len);
#else
    (void)results, (void)items, (void)n;
#endif
}

#endif /* P256_MODULE_BATCH_IFMA_IMPL_H */

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * batch_ifma_impl.h: the 8-lane AVX-512 IFMA verification engine of batch_ifma.h.
 * Technique: radix-2^52 Montgomery arithmetic on vpmadd52luq/huq as in Gueron and
 * Krasnov, "Accelerating big integer arithmetic using Intel IFMA extensions" (ARITH
 * 2016) and Drucker and Gueron, eprint 2018/335 (multi-buffer ECDSA/P-256); point
 * formulas from the Explicit-Formulas Database (dbl-2001-b, add-1998-cmo-2, madd).
 */
#ifndef P256_BATCH_IFMA_IMPL_H
#define P256_BATCH_IFMA_IMPL_H

#include "batch_ifma.h"
#include "cpu.h"
#include "ecdsa_impl.h"

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

P256_IFMA_INLINE void p256_fe8_mul(p256_fe8 *r, const p256_fe8 *a, const p256_fe8 *b)
{
    __m512i t[10];
    const __m512i z = _mm512_setzero_si512();
    for (int k = 0; k < 10; k++)
        t[k] = z;
#define P256_MAC(i, j)                                     \
    do {                                                   \
        t[i + j] = P256_LO(t[i + j], a->v[i], b->v[j]);     \
        t[i + j + 1] = P256_HI(t[i + j + 1], a->v[i], b->v[j]); \
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
    p256_fe8_redc(r, t);
}

/* The cross products once, doubled by a shift (each column stays < 2^60), then the squares. */
P256_IFMA_INLINE void p256_fe8_sqr(p256_fe8 *r, const p256_fe8 *a)
{
    __m512i t[10];
    const __m512i z = _mm512_setzero_si512();
    for (int k = 0; k < 10; k++)
        t[k] = z;
#define P256_MAC(i, j)                                     \
    do {                                                   \
        t[i + j] = P256_LO(t[i + j], a->v[i], a->v[j]);     \
        t[i + j + 1] = P256_HI(t[i + j + 1], a->v[i], a->v[j]); \
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
    for (int k = 1; k < 9; k++)
        t[k] = _mm512_add_epi64(t[k], t[k]);
    P256_MAC(0, 0);
    P256_MAC(1, 1);
    P256_MAC(2, 2);
    P256_MAC(3, 3);
    P256_MAC(4, 4);
#undef P256_MAC
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
#if defined(P256_PLANT_IFMA_BUG) && P256_PLANT_IFMA_BUG == 2
    neg &= 0x7f; /* negative control: lane 7 never takes the other value */
#endif
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
    if ((w[4] >> 48) || !b)
        memcpy(x, d, sizeof x); /* w >= p */
    memcpy(r->v, x, sizeof x);
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

P256_IFMA_INLINE void p256_fe8_blend(p256_fe8 *r, __mmask8 m, const p256_fe8 *a)
{
    for (int k = 0; k < 5; k++)
        r->v[k] = _mm512_mask_blend_epi64(m, r->v[k], a->v[k]);
}

P256_IFMA_INLINE void p256_jac8_double(p256_jac8 *r, const p256_jac8 *a)
{
    p256_fe8 delta, gamma, beta, alpha, t1, t2, z3;
    p256_fe8_sqr(&delta, &a->z);
    p256_fe8_sqr(&gamma, &a->y);
    p256_fe8_mul(&beta, &a->x, &gamma);
    p256_fe8_sub(&t1, &a->x, &delta);
    p256_fe8_add(&t2, &a->x, &delta);
    p256_fe8_mul(&t1, &t1, &t2);
    p256_fe8_add(&alpha, &t1, &t1);
    p256_fe8_add(&alpha, &alpha, &t1); /* alpha = 3 (X - delta)(X + delta) */
    p256_fe8_mul(&z3, &a->y, &a->z);
    p256_fe8_add(&r->z, &z3, &z3); /* Z3 = 2 Y Z */
    p256_fe8_add(&beta, &beta, &beta);
    p256_fe8_add(&beta, &beta, &beta); /* 4 beta */
    p256_fe8_sqr(&t1, &alpha);
    p256_fe8_add(&t2, &beta, &beta);
    p256_fe8_sub(&r->x, &t1, &t2); /* X3 = alpha^2 - 8 beta */
    p256_fe8_sub(&t1, &beta, &r->x);
    p256_fe8_sqr(&gamma, &gamma);
    p256_fe8_add(&gamma, &gamma, &gamma);
    p256_fe8_add(&gamma, &gamma, &gamma);
    p256_fe8_add(&gamma, &gamma, &gamma); /* 8 gamma^2 */
    p256_fe8_mul(&t1, &alpha, &t1);
    p256_fe8_sub(&r->y, &t1, &gamma); /* Y3 = alpha (4 beta - X3) - 8 gamma^2 */
}

/* The common tail of both additions: from U1, S1, H = U2 - U1, R = S2 - S1 and Z3. */
P256_IFMA_INLINE void p256_jac8_add_tail(p256_jac8 *r, const p256_fe8 *u1, const p256_fe8 *s1,
                                         const p256_fe8 *h, const p256_fe8 *rr)
{
    p256_fe8 hh, hhh, v, t;
    p256_fe8_sqr(&hh, h);
    p256_fe8_mul(&hhh, &hh, h);
    p256_fe8_mul(&v, u1, &hh);
    p256_fe8_sqr(&t, rr);
    p256_fe8_sub(&t, &t, &hhh);
    p256_fe8_sub(&t, &t, &v);
    p256_fe8_sub(&r->x, &t, &v); /* X3 = R^2 - H^3 - 2 U1 H^2 */
    p256_fe8_sub(&v, &v, &r->x);
    p256_fe8_mul(&v, rr, &v);
    p256_fe8_mul(&t, s1, &hhh);
    p256_fe8_sub(&r->y, &v, &t); /* Y3 = R (U1 H^2 - X3) - S1 H^3 */
}

P256_IFMA_INLINE __mmask8 p256_jac8_add(p256_jac8 *r, const p256_jac8 *a, const p256_jac8 *b)
{
    p256_fe8 z1z1, z2z2, u1, u2, s1, s2, h, rr, z3;
    p256_fe8_sqr(&z1z1, &a->z);
    p256_fe8_sqr(&z2z2, &b->z);
    p256_fe8_mul(&u1, &a->x, &z2z2);
    p256_fe8_mul(&u2, &b->x, &z1z1);
    p256_fe8_mul(&s1, &a->y, &b->z);
    p256_fe8_mul(&s1, &s1, &z2z2);
    p256_fe8_mul(&s2, &b->y, &a->z);
    p256_fe8_mul(&s2, &s2, &z1z1);
    p256_fe8_sub(&h, &u2, &u1);
    p256_fe8_sub(&rr, &s2, &s1);
    p256_fe8_mul(&z3, &a->z, &b->z);
    p256_fe8_mul(&z3, &z3, &h);
    __mmask8 hz = p256_fe8_mask_is_zero(&h);
    p256_jac8_add_tail(r, &u1, &s1, &h, &rr);
    r->z = z3;
    return hz;
}

P256_IFMA_INLINE __mmask8 p256_jac8_add_aff(p256_jac8 *r, const p256_jac8 *a, const p256_aff8 *b)
{
    p256_fe8 z1z1, u1, u2, s1, s2, h, rr, z3;
    p256_fe8_sqr(&z1z1, &a->z);
    p256_fe8_mul(&u2, &b->x, &z1z1);
    p256_fe8_mul(&s2, &b->y, &a->z);
    p256_fe8_mul(&s2, &s2, &z1z1);
    u1 = a->x;
    s1 = a->y;
    p256_fe8_sub(&h, &u2, &u1);
    p256_fe8_sub(&rr, &s2, &s1);
    p256_fe8_mul(&z3, &a->z, &h);
    __mmask8 hz = p256_fe8_mask_is_zero(&h);
    p256_jac8_add_tail(r, &u1, &s1, &h, &rr);
    r->z = z3;
    return hz;
}

P256_FN void p256_ifma_recode(int64_t d[P256_IFMA_WINDOWS], const p256_scalar *u)
{
    int64_t carry = 0;
    for (int i = 0; i < P256_IFMA_WINDOWS; i++) {
        int bit = 5 * i, limb = bit >> 6, sh = bit & 63;
        uint64_t w = u->v[limb] >> sh;
        if (sh > 59 && limb < 3)
            w |= u->v[limb + 1] << (64 - sh);
        int64_t x = (int64_t)(w & 31) + carry;
        carry = x > 16;
        d[i] = x - (carry << 5);
    }
    /* u < 2^256: the top window is bit 255 alone, so the last carry is 0. */
}

/* The affine multiples 1G..16G in the engine's representation, one row per entry. */
static uint64_t p256_ifma_gtab[16][10];
static int p256_ifma_gtab_ready;

P256_FN void p256_ifma_gtab_init(void)
{
    if (__atomic_load_n(&p256_ifma_gtab_ready, __ATOMIC_ACQUIRE))
        return;
    p256_aff mult[16];
    uint64_t tab[16][10];
    p256_aff_multiples_vartime(mult, &p256_generator, 16, 1);
    for (int j = 0; j < 16; j++) {
        p256_ifma_from_fe(tab[j], &mult[j].x);
        p256_ifma_from_fe(tab[j] + 5, &mult[j].y);
    }
    /* Racing threads write the same bytes; the flag publishes them. */
    memcpy(p256_ifma_gtab, tab, sizeof tab);
    __atomic_store_n(&p256_ifma_gtab_ready, 1, __ATOMIC_RELEASE);
}

/* Digit vector -> its table index (|d| - 1) & 15 (any d: in bounds), sign and nonzero masks. */
P256_IFMA_INLINE __m512i p256_ifma_digit(const int64_t *d, __mmask8 *neg, __mmask8 *nz)
{
    __m512i v = _mm512_loadu_si512((const void *)d);
    *neg = _mm512_cmplt_epi64_mask(v, _mm512_setzero_si512());
    *nz = _mm512_cmpneq_epi64_mask(v, _mm512_setzero_si512());
    v = _mm512_abs_epi64(v);
    return _mm512_and_si512(_mm512_sub_epi64(v, P256_V(1)), P256_V(15));
}

P256_IFMA_INLINE void p256_fe8_cneg(p256_fe8 *y, __mmask8 neg)
{
    p256_fe8 zero, t;
    for (int k = 0; k < 5; k++)
        zero.v[k] = _mm512_setzero_si512();
    p256_fe8_sub(&t, &zero, y);
    p256_fe8_blend(y, neg, &t);
}

P256_IFMA_FN unsigned p256_ifma_ecmult8_vartime(p256_fe x[8], p256_fe z[8],
                                                const p256_scalar u1[8], const p256_scalar u2[8],
                                                const p256_aff q[8])
{
    int64_t d1[P256_IFMA_WINDOWS][8], d2[P256_IFMA_WINDOWS][8], t[P256_IFMA_WINDOWS];
    p256_jac8 tq[16], acc, s;
    p256_aff8 qa;
    p256_fe8 one;
    __mmask8 inf = 0xff, bad = 0;

    p256_ifma_gtab_init();
    for (int l = 0; l < 8; l++) {
        p256_ifma_recode(t, &u1[l]);
        for (int i = 0; i < P256_IFMA_WINDOWS; i++)
            d1[i][l] = t[i];
        p256_ifma_recode(t, &u2[l]);
        for (int i = 0; i < P256_IFMA_WINDOWS; i++)
            d2[i][l] = t[i];
        p256_fe8_set_lane(&qa.x, l, &q[l].x);
        p256_fe8_set_lane(&qa.y, l, &q[l].y);
        p256_fe8_set_lane(&one, l, &p256_fe_one);
    }

    /* tq[j] = (j+1) q per lane; jq != +-q for j < 17 (q has prime order n), so exact. */
    tq[0].x = qa.x;
    tq[0].y = qa.y;
    tq[0].z = one;
    p256_jac8_double(&tq[1], &tq[0]);
    for (int j = 2; j < 16; j++)
        (void)p256_jac8_add_aff(&tq[j], &tq[j - 1], &qa);

    memset(&acc, 0, sizeof acc);
    for (int i = P256_IFMA_WINDOWS - 1; i >= 0; i--) {
        __mmask8 neg, nz, hz;
        __m512i idx;
        if (i != P256_IFMA_WINDOWS - 1)
            for (int k = 0; k < 5; k++)
                p256_jac8_double(&acc, &acc);

        /* acc += d2[i] q: gather entry idx of each lane's own table (lane offset l). */
        idx = p256_ifma_digit(d2[i], &neg, &nz);
        idx = _mm512_add_epi64(_mm512_sub_epi64(_mm512_slli_epi64(idx, 7), _mm512_slli_epi64(idx, 3)),
                               _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0));
        {
            p256_jac8 e;
            const long long *base = (const long long *)tq;
            p256_fe8 *c[3] = {&e.x, &e.y, &e.z};
            for (int f = 0; f < 3; f++)
                for (int k = 0; k < 5; k++)
                    c[f]->v[k] = _mm512_i64gather_epi64(idx, base + 8 * (5 * f + k), 8);
            p256_fe8_cneg(&e.y, neg);
            hz = p256_jac8_add(&s, &acc, &e);
            bad |= hz & nz & ~inf;
            p256_fe8_blend(&acc.x, nz & ~inf, &s.x);
            p256_fe8_blend(&acc.y, nz & ~inf, &s.y);
            p256_fe8_blend(&acc.z, nz & ~inf, &s.z);
            p256_fe8_blend(&acc.x, nz & inf, &e.x);
            p256_fe8_blend(&acc.y, nz & inf, &e.y);
            p256_fe8_blend(&acc.z, nz & inf, &e.z);
            inf &= (__mmask8)~nz;
        }

        /* acc += d1[i] G from the shared table. */
        idx = p256_ifma_digit(d1[i], &neg, &nz);
        idx = _mm512_add_epi64(_mm512_slli_epi64(idx, 3), _mm512_slli_epi64(idx, 1)); /* 10 idx */
        {
            p256_aff8 e;
            const long long *base = (const long long *)p256_ifma_gtab;
            for (int k = 0; k < 5; k++) {
                e.x.v[k] = _mm512_i64gather_epi64(idx, base + k, 8);
                e.y.v[k] = _mm512_i64gather_epi64(idx, base + 5 + k, 8);
            }
            p256_fe8_cneg(&e.y, neg);
            hz = p256_jac8_add_aff(&s, &acc, &e);
            bad |= hz & nz & ~inf;
            p256_fe8_blend(&acc.x, nz & ~inf, &s.x);
            p256_fe8_blend(&acc.y, nz & ~inf, &s.y);
            p256_fe8_blend(&acc.z, nz & ~inf, &s.z);
            p256_fe8_blend(&acc.x, nz & inf, &e.x);
            p256_fe8_blend(&acc.y, nz & inf, &e.y);
            p256_fe8_blend(&acc.z, nz & inf, &one);
            inf &= (__mmask8)~nz;
        }
    }
    bad |= inf | p256_fe8_mask_is_zero(&acc.z);
    for (int l = 0; l < 8; l++) {
        p256_fe8_get_lane(&x[l], &acc.x, l);
        p256_fe8_get_lane(&z[l], &acc.z, l);
    }
    return bad;
}

#undef P256_LO
#undef P256_HI
#endif /* P256_HAVE_IFMA */

P256_FN int p256_ifma_available(void)
{
#if defined(P256_HAVE_IFMA)
    static int cached = -1;
    return p256_cpu_cached(&cached, p256_cpu_has_avx512_ifma);
#else
    return 0;
#endif
}

P256_FN void p256_ifma_verify_batch_vartime(uint8_t *results, const p256_verify_item *items,
                                            size_t n)
{
#if defined(P256_HAVE_IFMA)
    size_t g = 0;
    while (n - g >= P256_IFMA_MIN_GROUP) {
        size_t cnt = n - g < 8 ? n - g : 8;
        const p256_verify_item *it = items + g;
        p256_scalar r[8], s[8], u1[8], u2[8], pre[8], inv;
        p256_aff q[8];
        p256_fe x[8], z[8];
        int ok[8], nok = 0;
        unsigned bad;

        for (size_t l = 0; l < 8; l++) {
            ok[l] = l < cnt && p256_aff_decode_vartime(&q[l], it[l].pub, it[l].pub_len) &&
                    p256_scalar_set_bytes_checked(&r[l], it[l].rs) &&
                    !p256_scalar_mask_is_zero(&r[l]) &&
                    p256_scalar_set_bytes_checked(&s[l], it[l].rs + 32) &&
                    !p256_scalar_mask_is_zero(&s[l]);
            if (!ok[l]) { /* a harmless dummy lane: 1 G + 2 G */
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
        /* s^-1 of all eight lanes by one inversion (Montgomery's trick). */
        pre[0] = s[0];
        for (int l = 1; l < 8; l++)
            p256_scalar_mul(&pre[l], &pre[l - 1], &s[l]);
        p256_scalar_inv_vartime(&inv, &pre[7]);
        for (int l = 7; l >= 0; l--) {
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
        bad = p256_ifma_ecmult8_vartime(x, z, u1, u2, q);
#if defined(P256_PLANT_IFMA_BUG) && P256_PLANT_IFMA_BUG == 1
        bad = 0; /* negative control: exceptional lanes are not re-verified */
#endif
        for (size_t l = 0; l < cnt; l++) {
            if (!ok[l])
                results[g + l] = 0;
            else if ((bad >> l) & 1)
                results[g + l] = (uint8_t)p256_verify(it[l].pub, it[l].pub_len, it[l].rs,
                                                      it[l].digest, it[l].digest_len);
            else
                results[g + l] = (uint8_t)p256_ecdsa_x_matches_vartime(&x[l], &z[l], &r[l]);
        }
        g += cnt;
    }
    for (; g < n; g++)
        results[g] = (uint8_t)p256_verify(items[g].pub, items[g].pub_len, items[g].rs,
                                          items[g].digest, items[g].digest_len);
#else
    (void)results, (void)items, (void)n;
#endif
}

#endif /* P256_BATCH_IFMA_IMPL_H */

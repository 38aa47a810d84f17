/* SPDX-License-Identifier: Apache-2.0 */
/*
 * field_impl.h: portable 64-bit implementation of field.h (unsigned __int128 products).
 *
 * Montgomery reduction for this p is cheap because p = -1 mod 2^64, so the per-word
 * factor m = -t0 * p^-1 mod 2^64 is just t0, and m*p = m*2^256 - m*2^224 + m*2^192 +
 * m*2^96 - m needs only one real multiplication (by the top limb of p).
 */
#ifndef P256_FIELD_IMPL_H
#define P256_FIELD_IMPL_H

#include "field.h"
#include "modinv_impl.h"
#include "field_asm.h"

#define P256_P0 0xffffffffffffffffULL
#define P256_P1 0x00000000ffffffffULL
#define P256_P2 0x0000000000000000ULL
#define P256_P3 0xffffffff00000001ULL

static const p256_fe p256_fe_zero = {{0, 0, 0, 0}};
/* R mod p = 2^224 - 2^192 - 2^96 + 1. */
static const p256_fe p256_fe_one = {{0x0000000000000001ULL, 0xffffffff00000000ULL,
                                     0xffffffffffffffffULL, 0x00000000fffffffeULL}};
/* b*R mod p, b = 0x5ac635d8...27d2604b (FIPS 186-5 / SEC 2). */
static const p256_fe p256_fe_b = {{0xd89cdf6229c4bddfULL, 0xacf005cd78843090ULL,
                                   0xe5a220abf7212ed6ULL, 0xdc30061d04874834ULL}};
/* R^2 mod p, for entering the domain. */
static const p256_fe p256_fe_r2 = {{0x0000000000000003ULL, 0xfffffffbffffffffULL,
                                    0xfffffffffffffffeULL, 0x00000004fffffffdULL}};
/* R^3 mod p: turns a plain inverse of a*R into the domain form of a^-1. */
static const p256_fe p256_fe_r3 = {{0xfffffffd0000000aULL, 0xffffffedfffffff7ULL,
                                    0x00000005fffffffcULL, 0x0000001800000001ULL}};

/* m * p3 = m*2^64 - m*2^32 + m as mh:ml, by shifts and a subtraction (cheaper than mul). */
P256_INLINE void p256_fe_mul_p3(uint64_t m, uint64_t *ml, uint64_t *mh)
{
    unsigned char b = 0;
    *ml = p256_sbb(m, m << 32, &b);
    *mh = p256_sbb(m, m >> 32, &b);
}

/* r = (t4*2^256 + t) mod p for a value < 2p. Output < p. */
P256_INLINE void p256_fe_reduce_once(p256_fe *r, uint64_t t0, uint64_t t1, uint64_t t2,
                                     uint64_t t3, uint64_t t4)
{
    p256_words_reduce_once(r->v, t0, t1, t2, t3, t4, P256_P0, P256_P1, P256_P2, P256_P3);
}

/*
 * Montgomery multiplication, interleaved (CIOS): for each word b_i, t += a*b_i, then
 * t = (t + m*p) / 2^64 with m = t mod 2^64. With a, b < p the running t stays < 2p
 * (t' < (2p + (2^64-1)(p-1) + (2^64-1)p) / 2^64 < 2p), so it fits in 4 words and a bit,
 * and one final subtraction gives r < p.
 *
 * The reduction step: word 0 of t + m*p is t0 + m*(2^64-1) = m*2^64 (zero, carry m);
 * word 1 gets m*(2^32-1) + m = m*2^32, split as m<<32 into word 1 and m>>32 into
 * word 2 (p2 = 0); words 3-4 get m*p3.
 */
P256_INLINE void p256_fe_mul_c(p256_fe *r, const p256_fe *a, const p256_fe *b)
{
    uint64_t t0, t1, t2, t3, t4, t5, row[5], m, ml, mh;
    unsigned char c;

/* t = (t + m*p) / 2^64 with m = t0 (see above). */
#define P256_REDUCE_STEP()             \
    m = t0;                            \
    p256_fe_mul_p3(m, &ml, &mh);       \
    c = 0;                             \
    t0 = p256_adc(t1, m << 32, &c);    \
    t1 = p256_adc(t2, m >> 32, &c);    \
    t2 = p256_adc(t3, ml, &c);         \
    t3 = p256_adc(t4, mh, &c);         \
    t4 = t5 + c

    /* First row: t = a*b_0, nothing to accumulate. */
    p256_words_mul_word(row, a->v, b->v[0]);
    t0 = row[0], t1 = row[1], t2 = row[2], t3 = row[3], t4 = row[4], t5 = 0;
    P256_REDUCE_STEP();
    for (int i = 1; i < 4; i++) {
        p256_words_mul_word(row, a->v, b->v[i]);
        /* t += row; t < 2p + p*2^64 may reach 2^320, hence t5. */
        c = 0;
        t0 = p256_adc(t0, row[0], &c);
        t1 = p256_adc(t1, row[1], &c);
        t2 = p256_adc(t2, row[2], &c);
        t3 = p256_adc(t3, row[3], &c);
        t4 = p256_adc(t4, row[4], &c);
        t5 = c;
        P256_REDUCE_STEP();
    }
#undef P256_REDUCE_STEP
    p256_fe_reduce_once(r, t0, t1, t2, t3, t4);
}

/*
 * Squaring: the six cross products a_i*a_j (i < j) once, doubled, plus the four squares,
 * then four Montgomery reduction rounds on the 512-bit square.
 */
P256_INLINE void p256_fe_sqr_c(p256_fe *r, const p256_fe *a)
{
    const uint64_t a0 = a->v[0], a1 = a->v[1], a2 = a->v[2], a3 = a->v[3];
    uint64_t t0, t1, t2, t3, t4, t5, t6, t7, x1, x2, x3, x4, x5, x6, x7;
    uint64_t l, h, h01, h02, h03, h12, h13, h23;
    unsigned char c = 0;

    /* Cross products into x1..x6 (x_k at weight 2^(64k)). */
    x1 = p256_mulw(a0, a1, &h01);
    x2 = p256_mulw(a0, a2, &h02);
    x3 = p256_mulw(a0, a3, &h03);
    x2 = p256_adc(x2, h01, &c);
    x3 = p256_adc(x3, h02, &c);
    x4 = h03 + c; /* a0*(a1..a3) < 2^256 */
    l = p256_mulw(a1, a2, &h12);
    c = 0;
    x3 = p256_adc(x3, l, &c);
    x4 = p256_adc(x4, h12, &c);
    x5 = c;
    l = p256_mulw(a1, a3, &h13);
    c = 0;
    x4 = p256_adc(x4, l, &c);
    x5 = p256_adc(x5, h13, &c);
    x6 = c;
    l = p256_mulw(a2, a3, &h23);
    c = 0;
    x5 = p256_adc(x5, l, &c);
    x6 = p256_adc(x6, h23, &c);

    /* Double them: the cross sum is < 2^448, so twice it fits in x1..x6 and x7. */
    x7 = x6 >> 63;
    x6 = (x6 << 1) | (x5 >> 63);
    x5 = (x5 << 1) | (x4 >> 63);
    x4 = (x4 << 1) | (x3 >> 63);
    x3 = (x3 << 1) | (x2 >> 63);
    x2 = (x2 << 1) | (x1 >> 63);
    x1 = x1 << 1;

    /* Add the squares a_i^2 at weight 2^(128i). */
    c = 0;
    t0 = p256_mulw(a0, a0, &h);
    t1 = p256_adc(x1, h, &c);
    l = p256_mulw(a1, a1, &h);
    t2 = p256_adc(x2, l, &c);
    t3 = p256_adc(x3, h, &c);
    l = p256_mulw(a2, a2, &h);
    t4 = p256_adc(x4, l, &c);
    t5 = p256_adc(x5, h, &c);
    l = p256_mulw(a3, a3, &h);
    t6 = p256_adc(x6, l, &c);
    t7 = p256_adc(x7, h, &c); /* the square is < 2^512: no carry out */

    /*
     * Reduction: round i adds m*p*2^(64i), m = t_i (see p256_fe_mul), touching words
     * i+1..i+4. Its carry out of word i+4 rides along with the next round's top
     * addend (mh + carry cannot wrap: mh <= p3 - 1). The total stays < 2p*2^256.
     */
    {
        uint64_t m, ml, mh, carry;
#define P256_REDUCE_ROUND(ti, w1, w2, w3, w4, carry_in, carry_out) \
        m = ti;                                                     \
        p256_fe_mul_p3(m, &ml, &mh);                                \
        c = 0;                                                      \
        w1 = p256_adc(w1, m << 32, &c);                             \
        w2 = p256_adc(w2, m >> 32, &c);                             \
        w3 = p256_adc(w3, ml, &c);                                  \
        w4 = p256_adc(w4, mh + (carry_in), &c);                     \
        carry_out = c
        P256_REDUCE_ROUND(t0, t1, t2, t3, t4, 0, carry);
        P256_REDUCE_ROUND(t1, t2, t3, t4, t5, carry, carry);
        P256_REDUCE_ROUND(t2, t3, t4, t5, t6, carry, carry);
        P256_REDUCE_ROUND(t3, t4, t5, t6, t7, carry, carry);
#undef P256_REDUCE_ROUND
        p256_fe_reduce_once(r, t4, t5, t6, t7, carry);
    }
}

/*
 * The backend: the assembly twin (field_asm.h, asm.h's scheme) in an assembly variant,
 * the portable C above otherwise. The C is always compiled so the harnesses can compare
 * the two. P256_FIELD_OUT_OF_LINE tells the formulas (group_impl.h) that products are
 * calls.
 */
#if defined(P256_ASM_HAS_FE_MUL)
#define P256_FIELD_OUT_OF_LINE 1
#endif
P256_INLINE void p256_fe_mul(p256_fe *r, const p256_fe *a, const p256_fe *b)
{
#if defined(P256_ASM_HAS_FE_MUL)
    P256_ASM_MONT_CALL(fe_mul, r->v, a->v, b->v);
#else
    p256_fe_mul_c(r, a, b);
#endif
}

P256_INLINE void p256_fe_sqr(p256_fe *r, const p256_fe *a)
{
#if defined(P256_ASM_HAS_FE_SQR)
    P256_ASM_MONT_CALL(fe_sqr, r->v, a->v);
#else
    p256_fe_sqr_c(r, a);
#endif
}

P256_FN void p256_fe_sqr_n(p256_fe *r, const p256_fe *a, int n)
{
    p256_fe_sqr(r, a);
    for (int i = 1; i < n; i++)
        p256_fe_sqr(r, r);
}

/*
 * r = k*a for a small constant 1 <= k <= 1024 with one reduction instead of a chain of
 * additions. The product is t + h*2^256 (h < k); subtracting h*p, i.e. adding
 * h*(2^256 - p) = h*(2^224 - 2^192 - 2^96 + 1) = [h, -(h << 32), 0, h*(2^32 - 1)] by
 * words, leaves a value in [0, 2p): at least t >= 0, at most 2^256 + k*2^224.
 */
P256_INLINE void p256_fe_mul_small(p256_fe *r, const p256_fe *a, uint64_t k)
{
    uint64_t t[5], h;
    unsigned char c = 0;

    p256_words_mul_word(t, a->v, k);
    t[0] = p256_adc(t[0], t[4], &c);
    t[1] = p256_adc(t[1], 0, &c);
    t[2] = p256_adc(t[2], 0, &c);
    t[3] = p256_adc(t[3], (t[4] << 32) - t[4], &c);
    h = c;
    c = 0;
    t[1] = p256_sbb(t[1], t[4] << 32, &c);
    t[2] = p256_sbb(t[2], 0, &c);
    t[3] = p256_sbb(t[3], 0, &c);
    h -= c; /* the total is >= 0, so this word cannot underflow */
    p256_fe_reduce_once(r, t[0], t[1], t[2], t[3], h);
}

P256_INLINE void p256_fe_add(p256_fe *r, const p256_fe *a, const p256_fe *b)
{
    p256_words_add_mod(r->v, a->v, b->v, P256_P0, P256_P1, P256_P2, P256_P3);
}

/* r = a - b: subtract, then add p back under the borrow mask. */
P256_INLINE void p256_fe_sub(p256_fe *r, const p256_fe *a, const p256_fe *b)
{
    unsigned char c = 0;
    uint64_t t0, t1, t2, t3, mask;

    t0 = p256_sbb(a->v[0], b->v[0], &c);
    t1 = p256_sbb(a->v[1], b->v[1], &c);
    t2 = p256_sbb(a->v[2], b->v[2], &c);
    t3 = p256_sbb(a->v[3], b->v[3], &c);
    mask = p256_mask_from_bit(c);
    c = 0;
    r->v[0] = p256_adc(t0, P256_P0 & mask, &c);
    r->v[1] = p256_adc(t1, P256_P1 & mask, &c);
    r->v[2] = p256_adc(t2, P256_P2 & mask, &c);
    r->v[3] = p256_adc(t3, P256_P3 & mask, &c);
}

P256_FN void p256_fe_neg(p256_fe *r, const p256_fe *a)
{
    p256_fe_sub(r, &p256_fe_zero, a);
}

/* r = a/2: if a is odd add p (making it even, < 2p), then shift right by one. */
P256_FN void p256_fe_half(p256_fe *r, const p256_fe *a)
{
    const uint64_t mask = p256_mask_from_bit(a->v[0] & 1);
    unsigned char c = 0;
    uint64_t t0, t1, t2, t3;

    t0 = p256_adc(a->v[0], P256_P0 & mask, &c);
    t1 = p256_adc(a->v[1], P256_P1 & mask, &c);
    t2 = p256_adc(a->v[2], P256_P2 & mask, &c);
    t3 = p256_adc(a->v[3], P256_P3 & mask, &c);
    r->v[0] = (t0 >> 1) | (t1 << 63);
    r->v[1] = (t1 >> 1) | (t2 << 63);
    r->v[2] = (t2 >> 1) | (t3 << 63);
    r->v[3] = (t3 >> 1) | ((uint64_t)c << 63);
}

P256_FN void p256_fe_cmov(p256_fe *r, const p256_fe *a, uint64_t mask)
{
    for (int i = 0; i < 4; i++)
        r->v[i] = (r->v[i] & ~mask) | (a->v[i] & mask);
}

P256_FN uint64_t p256_fe_mask_is_zero(const p256_fe *a)
{
    return p256_mask_is_zero(a->v[0] | a->v[1] | a->v[2] | a->v[3]);
}

P256_FN uint64_t p256_fe_mask_eq(const p256_fe *a, const p256_fe *b)
{
    return p256_mask_is_zero((a->v[0] ^ b->v[0]) | (a->v[1] ^ b->v[1]) |
                             (a->v[2] ^ b->v[2]) | (a->v[3] ^ b->v[3]));
}

/* t[j] = t[j]^(2^n) for j < k, the k chains interleaved squaring by squaring. */
P256_INLINE void p256_fe_sqr_n_k(p256_fe *t, int n, int k)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < k; j++)
            p256_fe_sqr(&t[j], &t[j]);
}

/* r[j] = a[j] b[j] for j < k. */
P256_INLINE void p256_fe_mul_k(p256_fe *r, const p256_fe *a, const p256_fe *b, int k)
{
    for (int j = 0; j < k; j++)
        p256_fe_mul(&r[j], &a[j], &b[j]);
}

/*
 * x_m = a^(2^m - 1) building blocks shared by the inversion and square-root chains:
 * x2, x30 and x32 (8 M, 31 S) of each of k <= 2 inputs, the k chains interleaved.
 */
P256_INLINE void p256_fe_pow_x32_k(p256_fe *x32, p256_fe *x2, p256_fe *x30, const p256_fe *a, int k)
{
    p256_fe x4[2], x8[2], t[2];

    memcpy(x2, a, (size_t)k * sizeof *a);
    p256_fe_sqr_n_k(x2, 1, k);
    p256_fe_mul_k(x2, x2, a, k);       /* 2^2 - 1 */
    memcpy(x4, x2, (size_t)k * sizeof *x2);
    p256_fe_sqr_n_k(x4, 2, k);
    p256_fe_mul_k(x4, x4, x2, k);      /* 2^4 - 1 */
    memcpy(x8, x4, (size_t)k * sizeof *x4);
    p256_fe_sqr_n_k(x8, 4, k);
    p256_fe_mul_k(x8, x8, x4, k);      /* 2^8 - 1 */
    memcpy(t, x8, (size_t)k * sizeof *x8);
    p256_fe_sqr_n_k(t, 8, k);
    p256_fe_mul_k(t, t, x8, k);        /* 2^16 - 1 */
    p256_fe_sqr_n_k(t, 8, k);
    p256_fe_mul_k(t, t, x8, k);        /* 2^24 - 1 */
    p256_fe_sqr_n_k(t, 4, k);
    p256_fe_mul_k(t, t, x4, k);        /* 2^28 - 1 */
    p256_fe_sqr_n_k(t, 2, k);
    p256_fe_mul_k(x30, t, x2, k);      /* 2^30 - 1 */
    memcpy(x32, x30, (size_t)k * sizeof *x30);
    p256_fe_sqr_n_k(x32, 2, k);
    p256_fe_mul_k(x32, x32, x2, k);    /* 2^32 - 1 */
}

P256_INLINE void p256_fe_pow_x32(p256_fe *x32, p256_fe *x2_out, p256_fe *x30_out, const p256_fe *a)
{
    p256_fe x2, x30;
    p256_fe_pow_x32_k(x32, &x2, &x30, a, 1);
    if (x2_out)
        *x2_out = x2;
    if (x30_out)
        *x30_out = x30;
}

/*
 * p - 2 = 0xffffffff 00000001 00000000 00000000 00000000 ffffffff ffffffff fffffffd:
 * from the top, 32 ones, 31 zeros and a one, 96 zeros, 94 ones, a zero, a one.
 */
P256_FN void p256_fe_inv_fermat(p256_fe *r, const p256_fe *a)
{
    p256_fe x32, x30, t;

    p256_fe_pow_x32(&x32, NULL, &x30, a);
    p256_fe_sqr_n(&t, &x32, 32);
    p256_fe_mul(&t, &t, a);            /* ...1, 31 zeros, 1 */
    p256_fe_sqr_n(&t, &t, 96);         /* 96 zeros */
    p256_fe_sqr_n(&t, &t, 32);
    p256_fe_mul(&t, &t, &x32);         /* 32 ones */
    p256_fe_sqr_n(&t, &t, 32);
    p256_fe_mul(&t, &t, &x32);         /* 32 ones */
    p256_fe_sqr_n(&t, &t, 30);
    p256_fe_mul(&t, &t, &x30);         /* 30 ones */
    p256_fe_sqr_n(&t, &t, 2);
    p256_fe_mul(r, &t, a);             /* 0, 1 */
}

/*
 * (p + 1)/4 = 2^254 - 2^222 + 2^190 + 2^94: from the top, 32 ones, 31 zeros and a one,
 * 95 zeros and a one, 94 zeros.
 */
P256_FN uint64_t p256_fe_sqrt(p256_fe *r, const p256_fe *a)
{
    p256_fe x32, t, check;

    p256_fe_pow_x32(&x32, NULL, NULL, a);
    p256_fe_sqr_n(&t, &x32, 32);
    p256_fe_mul(&t, &t, a);
    p256_fe_sqr_n(&t, &t, 96);
    p256_fe_mul(&t, &t, a);
    p256_fe_sqr_n(&t, &t, 94);
    p256_fe_sqr(&check, &t);
    *r = t;
    return p256_fe_mask_eq(&check, a);
}

/*
 * (p - 3)/4 = 2^254 - 2^222 + 2^190 + 2^94 - 1: from the top, 32 ones, 31 zeros and a one,
 * 96 zeros, 94 ones. The x_m = a^(2^m - 1) of p256_fe_pow_x32's chain up to x32; then
 * x32^(2^32) serves twice: times a it is the top 64 bits' pattern, times x32 it is x64,
 * from which x94 = x64^(2^30) x30. For k = 2 inputs the two chains run interleaved, step
 * by step: each squaring waits for the one before it, and two independent ones overlap
 * in the CPU (hash_to_curve maps two field elements; ~1.5x the throughput, measured).
 */
P256_INLINE void p256_fe_pow_p3d4_k(p256_fe *r, const p256_fe *a, int k)
{
    p256_fe x2[2], x30[2], x32[2], s[2], t[2], u[2];

    p256_fe_pow_x32_k(x32, x2, x30, a, k);
    memcpy(s, x32, (size_t)k * sizeof *x32);
    p256_fe_sqr_n_k(s, 32, k);
    p256_fe_mul_k(t, s, a, k);         /* 32 ones, 31 zeros, 1 */
    p256_fe_mul_k(u, s, x32, k);       /* 2^64 - 1 */
    p256_fe_sqr_n_k(u, 30, k);
    p256_fe_mul_k(u, u, x30, k);       /* x94 = 2^94 - 1 */
    p256_fe_sqr_n_k(t, 96 + 94, k);    /* 96 zeros, then room for 94 bits */
    p256_fe_mul_k(r, t, u, k);         /* 94 ones */
}

P256_FN void p256_fe_pow_p3d4(p256_fe *r, const p256_fe *a)
{
    p256_fe_pow_p3d4_k(r, a, 1);
}

P256_FN void p256_fe_pow_p3d4_pair(p256_fe r[2], const p256_fe a[2])
{
    p256_fe_pow_p3d4_k(r, a, 2);
}

/*
 * Horner's rule over 16-byte chunks (a shorter first one read as zero-padded): acc =
 * acc 2^128 + chunk, each chunk < 2^128 < p. acc stays a plain value (not in the domain):
 * the Montgomery product of plain acc and C = 2^384 mod p is acc 2^384 / 2^256 = acc 2^128
 * mod p. One product by R^2 enters the domain at the end.
 */
P256_FN void p256_fe_from_bytes_reduce(p256_fe *r, const uint8_t *b, size_t len)
{
    static const p256_fe c = {{0xfffffffefffffffeULL, 0x00000002ffffffffULL,
                               0x0000000000000002ULL, 0xfffffffe00000001ULL}}; /* 2^384 mod p */
    p256_fe acc = p256_fe_zero, chunk = p256_fe_zero;

    for (size_t at = 0; at < len; at += 16) {
        p256_limbs_from_be_chunk16(chunk.v, b, len, at);
        if (!P256_PLANT(group, 9)) /* test_group's control: the chunks not shifted */
            p256_fe_mul(&acc, &acc, &c);
        p256_fe_add(&acc, &acc, &chunk);
    }
    p256_fe_from_limbs(r, acc.v);
    p256_memzero(&acc, sizeof acc);
    p256_memzero(&chunk, sizeof chunk);
}

P256_FN void p256_fe_from_limbs(p256_fe *r, const uint64_t a[4])
{
    p256_fe t;
    memcpy(t.v, a, sizeof t.v);
    p256_fe_mul(r, &t, &p256_fe_r2);
}

P256_FN void p256_fe_to_limbs(uint64_t r[4], const p256_fe *a)
{
    static const p256_fe plain_one = {{1, 0, 0, 0}};
    p256_fe t;
    p256_fe_mul(&t, a, &plain_one);
    memcpy(r, t.v, sizeof t.v);
}

P256_FN uint64_t p256_fe_from_bytes(p256_fe *r, const uint8_t b[32])
{
    static const uint64_t p[4] = {P256_P0, P256_P1, P256_P2, P256_P3};
    uint64_t t[4];
    p256_limbs_from_be32(t, b);
    uint64_t ok = p256_limbs_mask_lt(t, p);
    p256_fe_from_limbs(r, t);
    return ok;
}

P256_FN void p256_fe_to_bytes(uint8_t b[32], const p256_fe *a)
{
    uint64_t t[4];
    p256_fe_to_limbs(t, a);
    p256_limbs_to_be32(b, t);
}

/*
 * Inversion through safegcd on the plain value: inverting aR gives a^-1 R^-1, and one
 * Montgomery product with R^3 brings it to a^-1 R, the domain form of a^-1.
 */
P256_FN void p256_fe_from_plain_inverse(p256_fe *r, const p256_fe *t)
{
    p256_fe_mul(r, t, &p256_fe_r3);
}

P256_FN void p256_fe_inv(p256_fe *r, const p256_fe *a)
{
    p256_fe t;
    p256_modinv(t.v, a->v, &p256_modinv_p);
    p256_fe_from_plain_inverse(r, &t);
}

P256_FN void p256_fe_inv_vartime(p256_fe *r, const p256_fe *a)
{
    p256_fe t;
    p256_modinv_vartime(t.v, a->v, &p256_modinv_p);
    p256_fe_mul(r, &t, &p256_fe_r3);
}

/*
 * tmp[j] = z[0] ... z[j]; one inversion of the whole product; then walking down, tmp[j-1]
 * times the inverse of tmp[j] is z[j]^-1, and the inverse of tmp[j] times z[j] is that of
 * tmp[j-1]. The walk is the same for every input: only the inversion differs.
 */
P256_INLINE void p256_fe_inv_many_with(p256_fe *z, p256_fe *tmp, size_t m, int vartime)
{
    p256_fe inv, t;
    tmp[0] = z[0];
    for (size_t j = 1; j < m; j++)
        p256_fe_mul(&tmp[j], &tmp[j - 1], &z[j]);
    if (vartime)
        p256_fe_inv_vartime(&inv, &tmp[m - 1]);
    else
        p256_fe_inv(&inv, &tmp[m - 1]);
    for (size_t j = m - 1; j > 0; j--) {
        p256_fe_mul(&t, &inv, &tmp[j - 1]);
        p256_fe_mul(&inv, &inv, &z[j]);
        z[j] = t;
    }
    z[0] = inv;
}

P256_FN void p256_fe_inv_many(p256_fe *z, p256_fe *tmp, size_t m)
{
    p256_fe_inv_many_with(z, tmp, m, 0);
}

P256_FN void p256_fe_inv_many_vartime(p256_fe *z, p256_fe *tmp, size_t m)
{
    p256_fe_inv_many_with(z, tmp, m, 1);
}

#endif /* P256_FIELD_IMPL_H */

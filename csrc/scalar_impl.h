/* SPDX-License-Identifier: Apache-2.0 */
/* scalar_impl.h: arithmetic mod n for scalar.h. */
#ifndef P256_SCALAR_IMPL_H
#define P256_SCALAR_IMPL_H

#include "scalar.h"
#include "modinv_impl.h"
#include "scalar_asm.h"

static const uint64_t p256_n[4] = {0xf3b9cac2fc632551ULL, 0xbce6faada7179e84ULL,
                                   0xffffffffffffffffULL, 0xffffffff00000000ULL};
/* -n^-1 mod 2^64, for Montgomery reduction. */
#define P256_N0INV 0xccd1c8aaee00bc4fULL
/* R^2 mod n, R = 2^256. */
static const p256_scalar p256_scalar_r2 = {{0x83244c95be79eea2ULL, 0x4699799c49bd6fa6ULL,
                                            0x2845b2392b6bec59ULL, 0x66e12d94f3d95620ULL}};

/* r = (t4*2^256 + t) mod n for a value < 2n. */
P256_INLINE void p256_scalar_reduce_once(p256_scalar *r, uint64_t t0, uint64_t t1, uint64_t t2,
                                         uint64_t t3, uint64_t t4)
{
    p256_words_reduce_once(r->v, t0, t1, t2, t3, t4, p256_n[0], p256_n[1], p256_n[2], p256_n[3]);
}

/*
 * Montgomery product a*b/2^256 mod n (CIOS, as p256_fe_mul but with a general modulus):
 * the portable reference, always compiled; the assembly backends' twins must return
 * the same limbs (tests/c/test_scalar_asm.c).
 */
P256_FN void p256_scalar_mont_mul_c(p256_scalar *r, const p256_scalar *a, const p256_scalar *b)
{
    uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5, row[5], m;

    for (int i = 0; i < 4; i++) {
        unsigned char c = 0;

        p256_words_mul_word(row, a->v, b->v[i]);
        t0 = p256_adc(t0, row[0], &c);
        t1 = p256_adc(t1, row[1], &c);
        t2 = p256_adc(t2, row[2], &c);
        t3 = p256_adc(t3, row[3], &c);
        t4 = p256_adc(t4, row[4], &c);
        t5 = c;

        /* t += m*n with m chosen so the low word vanishes; then drop it. */
        m = t0 * P256_N0INV;
        p256_words_mul_word(row, p256_n, m);
        c = 0;
        (void)p256_adc(t0, row[0], &c); /* = 0 by the choice of m */
        t0 = p256_adc(t1, row[1], &c);
        t1 = p256_adc(t2, row[2], &c);
        t2 = p256_adc(t3, row[3], &c);
        t3 = p256_adc(t4, row[4], &c);
        t4 = t5 + c;
    }
    p256_scalar_reduce_once(r, t0, t1, t2, t3, t4);
}

/* The Montgomery square a^2/2^256 mod n: the product, the C twin of the assembly square. */
P256_INLINE void p256_scalar_mont_sqr_c(p256_scalar *r, const p256_scalar *a)
{
    p256_scalar_mont_mul_c(r, a, a);
}

/* The backend's Montgomery product and square (scalar_asm.h, asm.h's scheme), else the C. */
P256_INLINE void p256_scalar_mont_mul(p256_scalar *r, const p256_scalar *a, const p256_scalar *b)
{
#if defined(P256_ASM_HAS_SCALAR_MONT_MUL)
    P256_ASM_FN(scalar_mont_mul)(r->v, a->v, b->v);
#else
    p256_scalar_mont_mul_c(r, a, b);
#endif
}

P256_INLINE void p256_scalar_mont_sqr(p256_scalar *r, const p256_scalar *a)
{
#if defined(P256_ASM_HAS_SCALAR_MONT_SQR)
    P256_ASM_FN(scalar_mont_sqr)(r->v, a->v);
#else
    p256_scalar_mont_sqr_c(r, a);
#endif
}

P256_FN uint64_t p256_scalar_set_bytes_checked(p256_scalar *r, const uint8_t b[32])
{
    p256_limbs_from_be32(r->v, b);
    return p256_limbs_mask_lt(r->v, p256_n);
}

P256_FN void p256_scalar_set_bytes_reduce(p256_scalar *r, const uint8_t b[32])
{
    uint64_t t[4];
    p256_limbs_from_be32(t, b);
    p256_scalar_reduce_once(r, t[0], t[1], t[2], t[3], 0);
}

/*
 * Horner's rule over 16-byte chunks, as p256_fe_from_bytes_reduce: acc = acc 2^128 +
 * chunk mod n, the product by 2^128 a Montgomery product with C = 2^384 mod n (acc C /
 * 2^256), each chunk < 2^128 < n. acc is a plain value throughout, what p256_scalar holds.
 */
P256_FN void p256_scalar_set_bytes_wide(p256_scalar *r, const uint8_t *b, size_t len)
{
    static const p256_scalar c = {{0xf01cf013fc632551ULL, 0x679b73e19ad16947ULL,
                                   0x652e96b7ccca0a99ULL, 0x431905529c0166ceULL}}; /* 2^384 mod n */
    p256_scalar acc = {{0, 0, 0, 0}}, chunk = {{0, 0, 0, 0}};

    for (size_t at = 0; at < len; at += 16) {
        p256_limbs_from_be_chunk16(chunk.v, b, len, at);
        if (!P256_PLANT(group, 7)) /* test_group's control: the chunks not shifted */
            p256_scalar_mont_mul(&acc, &acc, &c);
        p256_scalar_add(&acc, &acc, &chunk);
    }
    *r = acc;
    p256_memzero(&acc, sizeof acc);
    p256_memzero(&chunk, sizeof chunk);
}

P256_FN void p256_scalar_to_bytes(uint8_t b[32], const p256_scalar *a)
{
    p256_limbs_to_be32(b, a->v);
}

P256_FN uint64_t p256_scalar_mask_is_zero(const p256_scalar *a)
{
    return p256_mask_is_zero(a->v[0] | a->v[1] | a->v[2] | a->v[3]);
}

P256_FN void p256_scalar_negate(p256_scalar *r, const p256_scalar *a)
{
    const uint64_t keep = ~p256_scalar_mask_is_zero(a); /* n - 0 = n is not < n: 0 stays 0 */
    unsigned char c = 0;
    for (int i = 0; i < 4; i++)
        r->v[i] = p256_sbb(p256_n[i], a->v[i], &c) & keep;
}

P256_FN void p256_scalar_add(p256_scalar *r, const p256_scalar *a, const p256_scalar *b)
{
    p256_words_add_mod(r->v, a->v, b->v, p256_n[0], p256_n[1], p256_n[2], p256_n[3]);
}

/* a - b = a + (n - b): the negation maps 0 to 0, so every b < n works. */
P256_FN void p256_scalar_sub(p256_scalar *r, const p256_scalar *a, const p256_scalar *b)
{
    p256_scalar nb;
    p256_scalar_negate(&nb, P256_PLANT(group, 10) ? a : b); /* plant: b - a */
    p256_scalar_add(r, P256_PLANT(group, 10) ? b : a, &nb);
}

/* a*b = mont(mont(a, b), R^2): the first product carries a factor R^-1, the second cancels it. */
P256_FN void p256_scalar_mul(p256_scalar *r, const p256_scalar *a, const p256_scalar *b)
{
    p256_scalar t;
    p256_scalar_mont_mul(&t, a, b);
    p256_scalar_mont_mul(r, &t, &p256_scalar_r2);
}

P256_FN void p256_scalar_inv_safegcd(p256_scalar *r, const p256_scalar *a)
{
    p256_modinv(r->v, a->v, &p256_modinv_n);
}

P256_INLINE void p256_scalar_mont_sqr_n(p256_scalar *r, const p256_scalar *a, int k)
{
    p256_scalar_mont_sqr(r, a);
    while (--k > 0)
        p256_scalar_mont_sqr(r, r);
}

/*
 * Fermat: a^(n-2) (FIPS 186-5 B.1 / SEC 1 allow any inversion; Fermat's little theorem,
 * n prime), in the Montgomery domain on the backend's square and product. n - 2 =
 * ffffffff 00000000 ffffffff ffffffff | bce6faada7179e84 f3b9cac2fc63254f: the top half
 * from x32 = a^(2^32 - 1); the low half by sliding windows of up to 4 bits over odd powers
 * a^1..a^15 (the exponent is public, so the window walk may branch on it). 253 S + 39 M,
 * plus 2 M in and out of the domain.
 */
P256_FN void p256_scalar_inv_fermat(p256_scalar *r, const p256_scalar *a)
{
    static const p256_scalar one = {{1, 0, 0, 0}};
    static const uint64_t low[2] = {0xf3b9cac2fc63254fULL, 0xbce6faada7179e84ULL};
    p256_scalar odd[8], x2, x8, x16, x32, t; /* odd[i] = a^(2i+1) */

    p256_scalar_mont_mul(&odd[0], a, &p256_scalar_r2);   /* aR */
    p256_scalar_mont_sqr(&x2, &odd[0]);
    for (int i = 1; i < 8; i++)
        p256_scalar_mont_mul(&odd[i], &odd[i - 1], &x2);
    p256_scalar_mont_sqr_n(&x8, &odd[7], 4);              /* odd[7] = a^(2^4 - 1) */
    p256_scalar_mont_mul(&x8, &x8, &odd[7]);
    p256_scalar_mont_sqr_n(&x16, &x8, 8);
    p256_scalar_mont_mul(&x16, &x16, &x8);
    p256_scalar_mont_sqr_n(&x32, &x16, 16);
    p256_scalar_mont_mul(&x32, &x32, &x16);
    p256_scalar_mont_sqr_n(&t, &x32, 64);                 /* 32 ones, 32 zeros */
    p256_scalar_mont_mul(&t, &t, &x32);                   /* 32 ones */
    p256_scalar_mont_sqr_n(&t, &t, 32);
    if (!P256_PLANT(scalar, 4))                           /* the harness's negative control */
        p256_scalar_mont_mul(&t, &t, &x32);               /* 32 ones */
    for (int i = 127; i >= 0;) {
        int j, w;
        if (!((low[i / 64] >> (i % 64)) & 1)) {
            p256_scalar_mont_sqr(&t, &t);
            i--;
            continue;
        }
        j = i >= 3 ? i - 3 : 0;                           /* window [j, i], odd value */
        while (!((low[j / 64] >> (j % 64)) & 1))
            j++;
        w = 0;
        for (int b = i; b >= j; b--)
            w = 2 * w + (int)((low[b / 64] >> (b % 64)) & 1);
        p256_scalar_mont_sqr_n(&t, &t, i - j + 1);
        p256_scalar_mont_mul(&t, &t, &odd[w / 2]);
        i = j - 1;
    }
    p256_scalar_mont_mul(r, &t, &one);                    /* out of the domain */
    p256_memzero(odd, sizeof odd);
    p256_memzero(&x2, sizeof x2);
    p256_memzero(&x8, sizeof x8);
    p256_memzero(&x16, sizeof x16);
    p256_memzero(&x32, sizeof x32);
    p256_memzero(&t, sizeof t);
}

P256_FN void p256_scalar_inv(p256_scalar *r, const p256_scalar *a)
{
    p256_scalar_inv_safegcd(r, a);
}

P256_FN void p256_scalar_inv_vartime(p256_scalar *r, const p256_scalar *a)
{
    p256_modinv_vartime(r->v, a->v, &p256_modinv_n);
}

P256_FN void p256_scalar_from_digest(p256_scalar *r, const uint8_t *digest, size_t len)
{
    uint8_t buf[32] = {0};
    if (len >= 32)
        memcpy(buf, digest, 32);                /* bits2int keeps the leftmost 256 bits */
    else
        memcpy(buf + 32 - len, digest, len);    /* a shorter digest is the integer itself */
    p256_scalar_set_bytes_reduce(r, buf);
}

#endif /* P256_SCALAR_IMPL_H */

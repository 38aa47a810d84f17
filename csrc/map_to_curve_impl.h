/* SPDX-License-Identifier: Apache-2.0 */
/* map_to_curve_impl.h: RFC 9380's simplified SWU map for P-256. Contract: map_to_curve.h. */
#ifndef P256_MAP_TO_CURVE_IMPL_H
#define P256_MAP_TO_CURVE_IMPL_H

#include "map_to_curve.h"
#include "field_impl.h"
#include "group_impl.h"

/* RFC 9380 8.2: Z = -10 (a non-square, and g(B / (Z A)) is a square: 6.6.2's conditions,
 * which the RFC's sage script checks); in the Montgomery domain, as every constant here. */
static const p256_fe p256_sswu_z = {{0xfffffffffffffff5ULL, 0x0000000affffffffULL,
                                     0x0000000000000000ULL, 0xfffffff50000000bULL}};
/* c2 = sqrt(-Z) = sqrt(10) = 10^((p+1)/4) = 0xda538e3b...e433c47f (either root serves:
 * sqrt_ratio's second candidate needs only its square; the map fixes y's sign itself). */
static const p256_fe p256_sswu_c2 = {{0xa1fd38ee98a195fdULL, 0x78400ad7423dcf70ULL,
                                      0x6913c88f9ea8dfeeULL, 0x9051d26e12a8f304ULL}};

/*
 * F.2.1.2 step by step, in two halves around its exponentiation (so that two maps can run
 * theirs interleaved: p256_fe_pow_p3d4_pair). With c1 = (p - 3)/4, y1 = u v (u v^3)^c1,
 * so y1^2 = u^2 v^2 (u v^3)^((p - 3)/2) = (u/v) (u v^3)^((p - 1)/2) = (u/v) chi(u v^3),
 * chi the quadratic character (Euler's criterion), and chi(u v^3) = chi(u/v) (their ratio
 * v^4 is a square). So y1^2 v = u exactly when u/v is a square (or u = 0: y1 = 0), and
 * then y1 is its root; otherwise y1^2 = -u/v and y2 = y1 sqrt(-Z) has y2^2 = Z u/v.
 */
P256_INLINE void p256_sqrt_ratio_begin(p256_fe *base, p256_fe *uv, const p256_fe *u,
                                       const p256_fe *v)
{
    p256_fe_sqr(base, v);                     /* 1. tv1 = v^2 */
    p256_fe_mul(uv, u, v);                    /* 2. tv2 = u v */
    p256_fe_mul(base, base, uv);              /* 3. tv1 = u v^3 */
}

/* pw = base^c1 (step 4); the steps after it. */
P256_INLINE uint64_t p256_sqrt_ratio_end(p256_fe *y, const p256_fe *pw, const p256_fe *uv,
                                         const p256_fe *u, const p256_fe *v)
{
    p256_fe tv3, y1, y2;
    uint64_t is_qr;

    p256_fe_mul(&y1, pw, uv);                 /* 5. y1 = y1 tv2 */
    p256_fe_mul(&y2, &y1, &p256_sswu_c2);     /* 6. y2 = y1 c2 */
    if (P256_PLANT(group, 6))                 /* test_group's control: c2 forgotten */
        y2 = y1;
    p256_fe_sqr(&tv3, &y1);                   /* 7. tv3 = y1^2 */
    p256_fe_mul(&tv3, &tv3, v);               /* 8. tv3 = tv3 v */
    is_qr = p256_fe_mask_eq(&tv3, u);         /* 9. isQR = tv3 == u */
    *y = y2;                                  /* 10. y = CMOV(y2, y1, isQR) */
    p256_fe_cmov(y, &y1, is_qr);
    p256_memzero(&y1, sizeof y1);
    p256_memzero(&y2, sizeof y2);
    return is_qr;
}

P256_FN uint64_t p256_sqrt_ratio(p256_fe *y, const p256_fe *u, const p256_fe *v)
{
    p256_fe base, uv, pw;
    uint64_t is_qr;
    p256_sqrt_ratio_begin(&base, &uv, u, v);
    p256_fe_pow_p3d4(&pw, &base);             /* 4. y1 = tv1^c1 */
    is_qr = p256_sqrt_ratio_end(y, &pw, &uv, u, v);
    p256_memzero(&pw, sizeof pw);
    return is_qr;
}

/* r = -k a for the small constants of the map: A = -3 (k = 3), Z = -10 (k = 10). */
P256_INLINE void p256_fe_mul_neg_small(p256_fe *r, const p256_fe *a, uint64_t k)
{
    p256_fe_mul_small(r, a, k);
    p256_fe_neg(r, r);
}

/* What the map carries across sqrt_ratio: its steps' tv1, tv3, tv4, x, and sqrt_ratio's
 * own operands u = tv2, v = tv6 and intermediates. */
typedef struct {
    p256_fe u, tv1, tv3, tv4, x, gu, gv, base, uv;
} p256_sswu;

/*
 * Appendix F.2's map_to_curve_simple_swu, steps 1-26, for A = -3, B = b. x1 = tv3/tv4 is
 * the candidate -B/A (1 + 1/(Z^2 u^4 + Z u^2)) with numerator and denominator kept apart
 * (tv4 = A Z where Z^2 u^4 + Z u^2 = 0, the exceptional case of 6.6.2), and g(x1) =
 * tv2/tv6 with tv6 = tv4^3; if g(x1) is not a square, x2 = Z u^2 x1 is taken, whose g is
 * then one (6.6.2), with root Z u^3 sqrt(Z g(x1)). Step 25 divides x by tv4; here the
 * division goes into Jacobian coordinates instead, Z = tv4: X = x tv4 (X/Z^2 = x/tv4) and
 * Y = y tv4^3, so the map needs no inversion at all. Steps 1-17 and sqrt_ratio's first
 * steps here; its exponentiation is the caller's; the rest in p256_sswu_end.
 */
P256_INLINE void p256_sswu_begin(p256_sswu *m, const p256_fe *u)
{
    p256_fe tv2, tv5, tv6;

    m->u = *u;
    p256_fe_sqr(&m->tv1, u);                      /* 1. tv1 = u^2 */
    p256_fe_mul_neg_small(&m->tv1, &m->tv1, 10);  /* 2. tv1 = Z tv1 */
    p256_fe_sqr(&tv2, &m->tv1);                   /* 3. tv2 = tv1^2 */
    p256_fe_add(&tv2, &tv2, &m->tv1);             /* 4. tv2 = tv2 + tv1 */
    p256_fe_add(&m->tv3, &tv2, &p256_fe_one);     /* 5. tv3 = tv2 + 1 */
    p256_fe_mul(&m->tv3, &m->tv3, &p256_fe_b);    /* 6. tv3 = B tv3 */
    p256_fe_neg(&m->tv4, &tv2);                   /* 7. tv4 = CMOV(Z, -tv2, tv2 != 0) */
    p256_fe_cmov(&m->tv4, &p256_sswu_z, p256_fe_mask_is_zero(&tv2));
    p256_fe_mul_neg_small(&m->tv4, &m->tv4, 3);   /* 8. tv4 = A tv4 */
    p256_fe_sqr(&tv2, &m->tv3);                   /* 9. tv2 = tv3^2 */
    p256_fe_sqr(&tv6, &m->tv4);                   /* 10. tv6 = tv4^2 */
    p256_fe_mul_neg_small(&tv5, &tv6, 3);         /* 11. tv5 = A tv6 */
    p256_fe_add(&tv2, &tv2, &tv5);                /* 12. tv2 = tv2 + tv5 */
    p256_fe_mul(&tv2, &tv2, &m->tv3);             /* 13. tv2 = tv2 tv3 */
    p256_fe_mul(&tv6, &tv6, &m->tv4);             /* 14. tv6 = tv6 tv4 */
    p256_fe_mul(&tv5, &tv6, &p256_fe_b);          /* 15. tv5 = B tv6 */
    p256_fe_add(&tv2, &tv2, &tv5);                /* 16. tv2 = tv2 + tv5 */
    p256_fe_mul(&m->x, &m->tv1, &m->tv3);         /* 17. x = tv1 tv3 */
    m->gu = tv2;                                  /* 18. sqrt_ratio(tv2, tv6), begun */
    m->gv = tv6;
    p256_sqrt_ratio_begin(&m->base, &m->uv, &m->gu, &m->gv);
}

/* pw = m->base^((p-3)/4): sqrt_ratio's end, then steps 19-26. */
P256_INLINE void p256_sswu_end(p256_jac *r, p256_sswu *m, const p256_fe *pw)
{
    p256_fe y, y1, t;
    uint64_t is_gx1_square, e1, ul[4], yl[4];

    is_gx1_square = p256_sqrt_ratio_end(&y1, pw, &m->uv, &m->gu, &m->gv); /* 18. */
    p256_fe_mul(&y, &m->tv1, &m->u);              /* 19. y = tv1 u */
    p256_fe_mul(&y, &y, &y1);                     /* 20. y = y y1 */
    p256_fe_cmov(&m->x, &m->tv3, is_gx1_square);  /* 21. x = CMOV(x, tv3, is_gx1_square) */
    p256_fe_cmov(&y, &y1, is_gx1_square);         /* 22. y = CMOV(y, y1, is_gx1_square) */
    /* 23. e1 = sgn0(u) == sgn0(y): sgn0 is the parity of the plain value (m = 1) */
    p256_fe_to_limbs(ul, &m->u);
    p256_fe_to_limbs(yl, &y);
    e1 = p256_mask_from_bit(1 ^ ((ul[0] ^ yl[0]) & 1));
    p256_fe_neg(&t, &y);                          /* 24. y = CMOV(-y, y, e1) */
    p256_fe_cmov(&t, &y, P256_PLANT(group, 5) ? ~e1 : e1); /* plant: the wrong sign */
    /* 25-26: (x / tv4, y) as (x tv4, y tv4^3, tv4) */
    p256_fe_mul(&r->x, &m->x, &m->tv4);
    p256_fe_sqr(&y, &m->tv4);
    p256_fe_mul(&y, &y, &m->tv4);
    p256_fe_mul(&r->y, &t, &y);
    r->z = m->tv4;
    p256_memzero(m, sizeof *m);
    p256_memzero(&y1, sizeof y1);
    p256_memzero(&t, sizeof t);
    p256_memzero(ul, sizeof ul);
    p256_memzero(yl, sizeof yl);
}

P256_FN void p256_map_to_curve_sswu(p256_jac *r, const p256_fe *u)
{
    p256_sswu m;
    p256_fe pw;
    p256_sswu_begin(&m, u);
    p256_fe_pow_p3d4(&pw, &m.base);
    p256_sswu_end(r, &m, &pw);
    p256_memzero(&pw, sizeof pw);
}

/* Two maps, their exponentiations interleaved (p256_fe_pow_p3d4_pair). */
P256_FN void p256_map_to_curve_sswu_pair(p256_jac r[2], const p256_fe u[2])
{
    p256_sswu m[2];
    p256_fe base[2], pw[2];
    p256_sswu_begin(&m[0], &u[0]);
    p256_sswu_begin(&m[1], &u[1]);
    base[0] = m[0].base;
    base[1] = m[1].base;
    p256_fe_pow_p3d4_pair(pw, base);
    p256_sswu_end(&r[0], &m[0], &pw[0]);
    p256_sswu_end(&r[1], &m[1], &pw[1]);
    p256_memzero(base, sizeof base);
    p256_memzero(pw, sizeof pw);
}

P256_FN int p256_map_uniform(p256_jac *r, const uint8_t *uniform, size_t len)
{
    p256_fe u[2];
    p256_jac q[2];

    if (len != 48 && len != 96)
        return 0;
    p256_fe_from_bytes_reduce(&u[0], uniform, 48);
    if (len == 48) {
        p256_map_to_curve_sswu(&q[0], &u[0]);
    } else {
        p256_fe_from_bytes_reduce(&u[1], uniform + 48, 48);
        p256_map_to_curve_sswu_pair(q, u);
        p256_jac_add(&q[0], &q[0], &q[1]); /* complete: Q1 = +-Q0 is rare, not impossible */
    }
    *r = q[0];
    p256_memzero(u, sizeof u);
    p256_memzero(q, sizeof q);
    return 1;
}

#endif /* P256_MAP_TO_CURVE_IMPL_H */

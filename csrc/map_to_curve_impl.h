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
 * F.2.1.2 step by step. With c1 = (p - 3)/4, y1 = u v (u v^3)^c1, so y1^2 = u^2 v^2 (u
 * v^3)^((p - 3)/2) = (u/v) (u v^3)^((p - 1)/2) = (u/v) chi(u v^3), chi the quadratic
 * character (Euler's criterion), and chi(u v^3) = chi(u/v) (their ratio v^4 is a square).
 * So y1^2 v = u exactly when u/v is a square (or u = 0: y1 = 0), and then y1 is its root;
 * otherwise y1^2 = -u/v and y2 = y1 sqrt(-Z) has y2^2 = Z u/v.
 */
P256_FN uint64_t p256_sqrt_ratio(p256_fe *y, const p256_fe *u, const p256_fe *v)
{
    p256_fe tv1, tv2, tv3, y1, y2;
    uint64_t is_qr;

    p256_fe_sqr(&tv1, v);                     /* 1. tv1 = v^2 */
    p256_fe_mul(&tv2, u, v);                  /* 2. tv2 = u v */
    p256_fe_mul(&tv1, &tv1, &tv2);            /* 3. tv1 = u v^3 */
    p256_fe_pow_p3d4(&y1, &tv1);              /* 4. y1 = tv1^c1 */
    p256_fe_mul(&y1, &y1, &tv2);              /* 5. y1 = y1 tv2 */
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

/* r = -k a for the small constants of the map: A = -3 (k = 3), Z = -10 (k = 10). */
P256_INLINE void p256_fe_mul_neg_small(p256_fe *r, const p256_fe *a, uint64_t k)
{
    p256_fe_mul_small(r, a, k);
    p256_fe_neg(r, r);
}

/*
 * Appendix F.2's map_to_curve_simple_swu, steps 1-26, for A = -3, B = b. x1 = tv3/tv4 is
 * the candidate -B/A (1 + 1/(Z^2 u^4 + Z u^2)) with numerator and denominator kept apart
 * (tv4 = A Z where Z^2 u^4 + Z u^2 = 0, the exceptional case of 6.6.2), and g(x1) =
 * tv2/tv6 with tv6 = tv4^3; if g(x1) is not a square, x2 = Z u^2 x1 is taken, whose g is
 * then one (6.6.2), with root Z u^3 sqrt(Z g(x1)). Step 25 divides x by tv4; here the
 * division goes into Jacobian coordinates instead, Z = tv4: X = x tv4 (X/Z^2 = x/tv4) and
 * Y = y tv4^3, so the map needs no inversion at all.
 */
P256_FN void p256_map_to_curve_sswu(p256_jac *r, const p256_fe *u)
{
    p256_fe tv1, tv2, tv3, tv4, tv5, tv6, x, y, y1, t;
    uint64_t is_gx1_square, e1, ul[4], yl[4];

    p256_fe_sqr(&tv1, u);                         /* 1. tv1 = u^2 */
    p256_fe_mul_neg_small(&tv1, &tv1, 10);        /* 2. tv1 = Z tv1 */
    p256_fe_sqr(&tv2, &tv1);                      /* 3. tv2 = tv1^2 */
    p256_fe_add(&tv2, &tv2, &tv1);                /* 4. tv2 = tv2 + tv1 */
    p256_fe_add(&tv3, &tv2, &p256_fe_one);        /* 5. tv3 = tv2 + 1 */
    p256_fe_mul(&tv3, &tv3, &p256_fe_b);          /* 6. tv3 = B tv3 */
    p256_fe_neg(&tv4, &tv2);                      /* 7. tv4 = CMOV(Z, -tv2, tv2 != 0) */
    p256_fe_cmov(&tv4, &p256_sswu_z, p256_fe_mask_is_zero(&tv2));
    p256_fe_mul_neg_small(&tv4, &tv4, 3);         /* 8. tv4 = A tv4 */
    p256_fe_sqr(&tv2, &tv3);                      /* 9. tv2 = tv3^2 */
    p256_fe_sqr(&tv6, &tv4);                      /* 10. tv6 = tv4^2 */
    p256_fe_mul_neg_small(&tv5, &tv6, 3);         /* 11. tv5 = A tv6 */
    p256_fe_add(&tv2, &tv2, &tv5);                /* 12. tv2 = tv2 + tv5 */
    p256_fe_mul(&tv2, &tv2, &tv3);                /* 13. tv2 = tv2 tv3 */
    p256_fe_mul(&tv6, &tv6, &tv4);                /* 14. tv6 = tv6 tv4 */
    p256_fe_mul(&tv5, &tv6, &p256_fe_b);          /* 15. tv5 = B tv6 */
    p256_fe_add(&tv2, &tv2, &tv5);                /* 16. tv2 = tv2 + tv5 */
    p256_fe_mul(&x, &tv1, &tv3);                  /* 17. x = tv1 tv3 */
    is_gx1_square = p256_sqrt_ratio(&y1, &tv2, &tv6); /* 18. */
    p256_fe_mul(&y, &tv1, u);                     /* 19. y = tv1 u */
    p256_fe_mul(&y, &y, &y1);                     /* 20. y = y y1 */
    p256_fe_cmov(&x, &tv3, is_gx1_square);        /* 21. x = CMOV(x, tv3, is_gx1_square) */
    p256_fe_cmov(&y, &y1, is_gx1_square);         /* 22. y = CMOV(y, y1, is_gx1_square) */
    /* 23. e1 = sgn0(u) == sgn0(y): sgn0 is the parity of the plain value (m = 1) */
    p256_fe_to_limbs(ul, u);
    p256_fe_to_limbs(yl, &y);
    e1 = p256_mask_from_bit(1 ^ ((ul[0] ^ yl[0]) & 1));
    p256_fe_neg(&t, &y);                          /* 24. y = CMOV(-y, y, e1) */
    p256_fe_cmov(&t, &y, P256_PLANT(group, 5) ? ~e1 : e1); /* plant: the wrong sign */
    /* 25-26: (x / tv4, y) as (x tv4, y tv4^3, tv4) */
    p256_fe_mul(&r->x, &x, &tv4);
    p256_fe_sqr(&y, &tv4);
    p256_fe_mul(&y, &y, &tv4);
    p256_fe_mul(&r->y, &t, &y);
    r->z = tv4;
    p256_memzero(&tv1, sizeof tv1);
    p256_memzero(&tv3, sizeof tv3);
    p256_memzero(&x, sizeof x);
    p256_memzero(&y1, sizeof y1);
    p256_memzero(&t, sizeof t);
    p256_memzero(ul, sizeof ul);
    p256_memzero(yl, sizeof yl);
}

P256_FN int p256_map_uniform(p256_jac *r, const uint8_t *uniform, size_t len)
{
    p256_fe u;
    p256_jac q0, q1;

    if (len != 48 && len != 96)
        return 0;
    p256_fe_from_bytes_reduce(&u, uniform, 48);
    p256_map_to_curve_sswu(&q0, &u);
    if (len == 96) {
        p256_fe_from_bytes_reduce(&u, uniform + 48, 48);
        p256_map_to_curve_sswu(&q1, &u);
        p256_jac_add(&q0, &q0, &q1); /* complete: Q1 = +-Q0 is rare, not impossible */
        p256_memzero(&q1, sizeof q1);
    }
    *r = q0;
    p256_memzero(&u, sizeof u);
    p256_memzero(&q0, sizeof q0);
    return 1;
}

#endif /* P256_MAP_TO_CURVE_IMPL_H */

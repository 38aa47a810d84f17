/* SPDX-License-Identifier: Apache-2.0 */
/*
 * group_impl.h: point arithmetic for group.h.
 *
 * Formulas (a = -3): doubling with the slope halved (below); complete constant-time
 * addition by the unified formula of Brier and Joye ("Weierstrass elliptic curves and
 * side-channel attacks", PKC 2002) with a masked fallback for its one degenerate case,
 * the construction libsecp256k1 uses for its mixed addition, worked out here for
 * general Jacobian inputs and a = -3; variable-time mixed addition "madd-2007-bl" with
 * explicit branches; co-Z additions (Meloni) for tables of multiples of a public point.
 */
#ifndef P256_GROUP_IMPL_H
#define P256_GROUP_IMPL_H

#include "group.h"
#include "field_impl.h"
#include "group_asm.h"

/* G in the Montgomery domain. */
static const p256_aff p256_generator = {
    {{0x79e730d418a9143cULL, 0x75ba95fc5fedb601ULL, 0x79fb732b77622510ULL, 0x18905f76a53755c6ULL}},
    {{0xddf25357ce95560aULL, 0x8b4ab8e4ba19e45cULL, 0xd2e88688dd21f325ULL, 0x8571ff1825885d85ULL}},
};

/*
 * Doubling with a = -3 and the slope halved:
 *     S = Y^2, T = X S, L = 3/2 (X - Z^2)(X + Z^2),
 *     X3 = L^2 - 2T, Y3 = L (T - X3) - S^2, Z3 = Y Z.
 * Why it is right: the textbook Jacobian doubling (with a = -3, 3X^2 + aZ^4 =
 * 3(X - Z^2)(X + Z^2)) is M = 2L, X3' = M^2 - 8T, Y3' = M (4T - X3') - 8 S^2,
 * Z3' = 2 Y Z, and (X3', Y3', Z3') = (4 X3, 8 Y3, 2 Z3) = (k^2 X3, k^3 Y3, k Z3) with
 * k = 2: the same point. Halving the slope once removes every other small multiple.
 * (Hankerson, Menezes and Vanstone's Guide to ECC, Algorithm 3.21, halves Y^4 instead
 * and keeps 2Y; libsecp256k1 halves the slope for a = 0.)
 * 4M + 4S and eight linear operations against dbl-2001-b's 3M + 5S and sixteen: one
 * squaring becomes a product, and the linear operations it saves cost more than that
 * (docs/performance.md has the measurements). At infinity (Z = 0) Z3 = Y Z = 0 again,
 * so no special case is needed; Y = 0 occurs only at infinity (the group has no point
 * of order 2).
 */
P256_FN void p256_jac_double_c(p256_jac *r, const p256_jac *a)
{
    p256_fe s, zz, t, l, u, z3, s2;

    /* The order is a schedule (the assembly's too): Z^2 first, since the doubling
     * before computed Z3 long before its Y3, then the chain X -> L -> L^2 -> X3 -> the
     * last product, with the independent products (Y Z, S^2) beside the dependent
     * ones. r may alias a: a's coordinates are read before r's are written. */
    p256_fe_sqr(&zz, &a->z);
    p256_fe_sub(&l, &a->x, &zz);
    p256_fe_add(&u, &a->x, &zz);
    p256_fe_sqr(&s, &a->y);
    p256_fe_mul(&l, &l, &u);                  /* X^2 - Z^4 */
    p256_fe_half(&u, &l);
    p256_fe_add(&l, &l, &u);                  /* L = 3/2 (X^2 - Z^4) */
    p256_fe_mul(&t, &a->x, &s);               /* T = X Y^2 */
    p256_fe_mul(&z3, &a->y, &a->z);           /* Z3 = Y Z */
    p256_fe_sqr(&u, &l);
    p256_fe_sub(&u, &u, &t);
    p256_fe_sub(&r->x, &u, &t);               /* X3 = L^2 - 2T */
    p256_fe_sub(&u, &t, &r->x);
    p256_fe_sqr(&s2, &s);
    p256_fe_mul(&u, &l, &u);
    p256_fe_sub(&r->y, &u, &s2);              /* Y3 = L (T - X3) - S^2 */
    r->z = z3;
}

/*
 * The unified addition core shared by the general and the mixed constant-time adds.
 *
 * With Z = Z1*Z2, x_i = U_i/Z^2 and y_i = S_i/Z^3. Brier-Joye's slope
 *     lambda = (x1^2 + x1*x2 + x2^2 + a) / (y1 + y2)
 * equals the chord slope when x1 != x2 and the tangent slope when P1 = P2, so one
 * formula covers addition and doubling. Scaled: lambda = R / (Z*M) with
 *     T = U1 + U2,  M = S1 + S2,  R = T^2 - U1*U2 + a*Z^4.
 * It fails only when M = R = 0, i.e. y1 = -y2 with x1 != x2 (then x1^3 + a x1 =
 * x2^3 + a x2 forces R = 0), or P1 = -P2 with 3x^2 + a = 0; there the chord slope
 * (S1 - S2) / (Z*(U1 - U2)) is right (and gives infinity for P1 = -P2), so R and M are
 * replaced by R' = S1 - S2, M' = U1 - U2 under a mask.
 * With Z3 = Z*M: X3 = R^2 - T*M^2, and from 2*y3 = lambda*(x1 + x2 - 2 x3) - (y1 + y2),
 *     2*Y3 = R*(T*M^2 - 2 X3) - (S1 + S2)*M^3,
 * where the last term is M^4 normally and 0 in the degenerate case (S1 + S2 = 0).
 * P1 = -P2 (not degenerate) gives M = 0, Z3 = 0: infinity, as it should.
 * Infinity inputs are not covered (they make Z = 0) and are patched by the callers.
 */
P256_INLINE void p256_jac_add_unified_core(p256_jac *r, const p256_fe *u1, const p256_fe *u2,
                                           const p256_fe *s1, const p256_fe *s2,
                                           const p256_fe *z, const p256_fe *z4)
{
    p256_fe t, m, rr, m_alt, rr_alt, tt, m2, q, n, x3, y3, z4x3;
    uint64_t degenerate;

    /* Scheduled like p256_jac_double: independent products side by side. r must not
     * alias the inputs (the callers pass a local). */
    p256_fe_add(&t, u1, u2);                  /* T = U1 + U2 */
    p256_fe_mul(&tt, u1, u2);
    p256_fe_sqr(&rr, &t);
    p256_fe_mul_small(&z4x3, z4, 3);
    p256_fe_add(&m, s1, s2);                  /* M = S1 + S2 */
    p256_fe_sub(&rr, &rr, &tt);               /* T^2 - U1 U2 */
    p256_fe_sub(&rr, &rr, &z4x3);             /* R = T^2 - U1 U2 - 3 Z^4 */

    degenerate = p256_fe_mask_is_zero(&m) & p256_fe_mask_is_zero(&rr);
    p256_fe_sub(&rr_alt, s1, s2);
    p256_fe_sub(&m_alt, u1, u2);
    p256_fe_cmov(&rr, &rr_alt, degenerate);
    p256_fe_cmov(&m, &m_alt, degenerate);

    p256_fe_sqr(&m2, &m);
    p256_fe_mul(&r->z, z, &m);                /* Z3 = Z M */
    p256_fe_sqr(&x3, &rr);
    p256_fe_mul(&q, &t, &m2);                 /* Q = T M^2 */
    p256_fe_sqr(&n, &m2);                     /* M^4 */
    p256_fe_sub(&x3, &x3, &q);                /* X3 = R^2 - Q */
    p256_fe_cmov(&n, &p256_fe_zero, degenerate);
    p256_fe_add(&tt, &x3, &x3);
    p256_fe_sub(&tt, &q, &tt);
    p256_fe_mul(&y3, &rr, &tt);
    p256_fe_sub(&y3, &y3, &n);
    p256_fe_half(&r->y, &y3);                 /* Y3 = (R (Q - 2 X3) - M^4) / 2 */
    r->x = x3;
}

P256_INLINE void p256_jac_cmov(p256_jac *r, const p256_jac *a, uint64_t mask)
{
    p256_fe_cmov(&r->x, &a->x, mask);
    p256_fe_cmov(&r->y, &a->y, mask);
    p256_fe_cmov(&r->z, &a->z, mask);
}

P256_FN void p256_jac_add_c(p256_jac *r, const p256_jac *a, const p256_jac *b)
{
    p256_fe z1z1, z2z2, u1, u2, s1, s2, z, z4;
    const uint64_t a_inf = p256_fe_mask_is_zero(&a->z);
    const uint64_t b_inf = p256_fe_mask_is_zero(&b->z);
    p256_jac out;

    p256_fe_sqr(&z1z1, &a->z);
    p256_fe_sqr(&z2z2, &b->z);
    p256_fe_mul(&u1, &a->x, &z2z2);
    p256_fe_mul(&u2, &b->x, &z1z1);
    p256_fe_mul(&s1, &a->y, &b->z);
    p256_fe_mul(&s1, &s1, &z2z2);
    p256_fe_mul(&s2, &b->y, &a->z);
    p256_fe_mul(&s2, &s2, &z1z1);
    p256_fe_mul(&z, &a->z, &b->z);
    p256_fe_mul(&z4, &z1z1, &z2z2);
    p256_fe_sqr(&z4, &z4);

    p256_jac_add_unified_core(&out, &u1, &u2, &s1, &s2, &z, &z4);
    p256_jac_cmov(&out, b, a_inf);
    p256_jac_cmov(&out, a, b_inf);
    *r = out;
}

P256_FN void p256_jac_add_aff_c(p256_jac *r, const p256_jac *a, const p256_aff *b,
                                  uint64_t b_inf)
{
    p256_fe z1z1, u2, s2, z4;
    const uint64_t a_inf = p256_fe_mask_is_zero(&a->z);
    p256_jac out, bj;

    p256_fe_sqr(&z1z1, &a->z);
    p256_fe_mul(&s2, &b->y, &a->z);
    p256_fe_mul(&u2, &b->x, &z1z1);
    p256_fe_mul(&s2, &s2, &z1z1);
    p256_fe_sqr(&z4, &z1z1);

    p256_jac_add_unified_core(&out, &a->x, &u2, &a->y, &s2, &a->z, &z4);
    bj.x = b->x;
    bj.y = b->y;
    bj.z = p256_fe_one;
    p256_jac_cmov(&out, &bj, a_inf);
    p256_jac_cmov(&out, a, b_inf);
    *r = out;
}

/*
 * madd-2007-bl (Bernstein-Lange, EFD): Z1Z1 = Z1^2, U2 = X2 Z1Z1, S2 = Y2 Z1 Z1Z1,
 * H = U2 - X1, Rr = S2 - Y1, X3 = Rr^2 - H^3 - 2 X1 H^2, Y3 = Rr (X1 H^2 - X3) - Y1 H^3,
 * Z3 = Z1 H. With a at infinity (Z1 = 0) every product collapses to 0, so the result is
 * replaced by (X2, Y2, 1) under a mask; with b at infinity, by a. For a == +-b the formula
 * gives H = 0, Z3 = 0 (infinity), which is right for a == -b only: callers must exclude a == b.
 */
P256_FN void p256_jac_add_aff_partial_c(p256_jac *r, const p256_jac *a, const p256_aff *b,
                                          uint64_t b_inf)
{
    p256_fe z1z1, u2, s2, h, rr, hh, hhh, v, t;
    const uint64_t a_inf = p256_fe_mask_is_zero(&a->z);
    p256_jac out;

    p256_fe_sqr(&z1z1, &a->z);
    p256_fe_mul(&s2, &b->y, &a->z);
    p256_fe_mul(&u2, &b->x, &z1z1);
    p256_fe_mul(&s2, &s2, &z1z1);
    p256_fe_sub(&h, &u2, &a->x);
    p256_fe_sub(&rr, &s2, &a->y);
    p256_fe_sqr(&hh, &h);
    p256_fe_mul(&out.z, &a->z, &h);
    p256_fe_mul(&hhh, &hh, &h);
    p256_fe_mul(&v, &a->x, &hh);
    p256_fe_sqr(&t, &rr);
    p256_fe_sub(&t, &t, &hhh);
    p256_fe_sub(&t, &t, &v);
    p256_fe_sub(&out.x, &t, &v);
    p256_fe_sub(&t, &v, &out.x);
    p256_fe_mul(&t, &rr, &t);
    p256_fe_mul(&hhh, &a->y, &hhh);
    p256_fe_sub(&out.y, &t, &hhh);

    p256_fe_cmov(&out.x, &b->x, a_inf);
    p256_fe_cmov(&out.y, &b->y, a_inf);
    p256_fe_cmov(&out.z, &p256_fe_one, a_inf);
    p256_jac_cmov(&out, a, b_inf);
    *r = out;
}

/*
 * The four constant-time formulas above are the reference; an assembly variant
 * (group_asm.h, asm.h's scheme) replaces them with functions that return the same limbs for every input
 * (same formulas, fully reduced outputs), which tests/c/test_point_asm.c checks.
 */
P256_FN void p256_jac_double(p256_jac *r, const p256_jac *a)
{
#if defined(P256_ASM_HAS_JAC_DOUBLE)
    P256_ASM_MONT_CALL(jac_double, r, a);
#else
    p256_jac_double_c(r, a);
#endif
}
P256_FN void p256_jac_double_n(p256_jac *r, const p256_jac *a, int n)
{
    if (n <= 0) { /* public; the assembly's loop counts from n >= 1 */
        if (r != a)
            *r = *a;
        return;
    }
#if defined(P256_ASM_HAS_JAC_DOUBLE_N)
    P256_ASM_MONT_CALL(jac_double_n, r, a, (uint64_t)n);
#else
    p256_jac_double(r, a);
    for (int i = 1; i < n; i++)
        p256_jac_double(r, r);
#endif
}
P256_FN void p256_jac_add(p256_jac *r, const p256_jac *a, const p256_jac *b)
{
#if defined(P256_ASM_HAS_JAC_ADD)
    P256_ASM_MONT_CALL(jac_add, r, a, b);
#else
    p256_jac_add_c(r, a, b);
#endif
}
P256_FN void p256_jac_add_aff(p256_jac *r, const p256_jac *a, const p256_aff *b, uint64_t b_inf)
{
#if defined(P256_ASM_HAS_JAC_ADD_AFF)
    P256_ASM_MONT_CALL(jac_add_aff, r, a, b, b_inf);
#else
    p256_jac_add_aff_c(r, a, b, b_inf);
#endif
}
P256_FN void p256_jac_add_aff_partial(p256_jac *r, const p256_jac *a, const p256_aff *b,
                                      uint64_t b_inf)
{
#if defined(P256_ASM_HAS_JAC_ADD_AFF_PARTIAL)
    P256_ASM_MONT_CALL(jac_add_aff_partial, r, a, b, b_inf);
#else
    p256_jac_add_aff_partial_c(r, a, b, b_inf);
#endif
}

/*
 * madd-2007-bl shape, for public points: H = U2 - X1, Rr = S2 - Y1; H = 0 means equal x,
 * so a doubling or infinity. X3 = Rr^2 - H^3 - 2 X1 H^2, Y3 = Rr (X1 H^2 - X3) - Y1 H^3,
 * Z3 = Z1 H. 8M + 3S.
 */
P256_FN void p256_jac_add_aff_vartime_c(p256_jac *r, const p256_jac *a, const p256_aff *b)
{
    p256_fe z1z1, u2, s2, h, rr, hh, hhh, v, t;

    if (p256_fe_mask_is_zero(&a->z)) {
        p256_jac_from_aff(r, b);
        return;
    }
    p256_fe_sqr(&z1z1, &a->z);
    p256_fe_mul(&u2, &b->x, &z1z1);
    p256_fe_mul(&s2, &b->y, &a->z);
    p256_fe_mul(&s2, &s2, &z1z1);
    p256_fe_sub(&h, &u2, &a->x);
    p256_fe_sub(&rr, &s2, &a->y);
    if (p256_fe_mask_is_zero(&h)) {
        if (p256_fe_mask_is_zero(&rr)) {
            p256_jac_double(r, a);
        } else {
            *r = (p256_jac){p256_fe_one, p256_fe_one, p256_fe_zero};
        }
        return;
    }
    p256_fe_sqr(&hh, &h);
    p256_fe_mul(&hhh, &hh, &h);
    p256_fe_mul(&v, &a->x, &hh);
    p256_fe_mul(&r->z, &a->z, &h);
    p256_fe_sqr(&t, &rr);
    p256_fe_sub(&t, &t, &hhh);
    p256_fe_sub(&t, &t, &v);
    p256_fe_sub(&r->x, &t, &v);
    p256_fe_sub(&t, &v, &r->x);
    p256_fe_mul(&t, &rr, &t);
    p256_fe_mul(&hhh, &a->y, &hhh);
    p256_fe_sub(&r->y, &t, &hhh);
}

/*
 * With assembly point formulas: the same formula through the assembly partial addition,
 * whose field values are the C's above wherever the partial formula is right: a finite
 * with H != 0 (then Z3 = Z1 H != 0), and a at infinity (masked to (X2, Y2, 1), the C's
 * p256_jac_from_aff). Z3 = 0 means H = 0 (a == +-b), which goes to the C and its
 * branches. r is written only from a finished result, so r may alias a.
 */
P256_FN void p256_jac_add_aff_vartime(p256_jac *r, const p256_jac *a, const p256_aff *b)
{
#if defined(P256_ASM_HAS_JAC_ADD_AFF_PARTIAL)
    p256_jac t;
    P256_ASM_MONT_CALL(jac_add_aff_partial, &t, a, b, 0);
    if (P256_PLANT(point, 2) || !p256_fe_mask_is_zero(&t.z)) { /* plant: test_point_asm's control */
        *r = t;
        return;
    }
#endif
    p256_jac_add_aff_vartime_c(r, a, b);
}

/*
 * Co-Z arithmetic (Meloni, "New point addition formulae for ECC applications", WAIFI
 * 2007; Goundar, Joye, Miyaji, Rivain, Venelli, JCEN 2011): two Jacobian points that
 * share Z are added in 5M + 2S, and the first operand comes back rescaled to the sum's
 * Z, so a running sum and its addend stay co-Z. Z itself is never needed, only the
 * ratio Z(sum)/Z, which is X1 - X2.
 *
 * ZADDU: (X3, Y3) = (X1, Y1) + (X2, Y2) and (X1, Y1) <- the same point at Z3 = Z (X1 - X2):
 *   C = (X1 - X2)^2, W1 = X1 C, W2 = X2 C, D = (Y1 - Y2)^2, A1 = Y1 (W1 - W2),
 *   X3 = D - W1 - W2, Y3 = (Y1 - Y2)(W1 - X3) - A1, and the update is (W1, A1).
 * Right for finite (X1, Y1) != +-(X2, Y2) (then X1 != X2). Straight-line code: constant
 * time in the points; the condition on them is the caller's to show.
 */
P256_INLINE void p256_zaddu(p256_fe *x3, p256_fe *y3, p256_fe *x1, p256_fe *y1,
                            const p256_fe *x2, const p256_fe *y2, p256_fe *ratio)
{
    p256_fe c, w1, w2, d, dy, t;
    p256_fe_sub(ratio, x1, x2);
    p256_fe_sqr(&c, ratio);
    p256_fe_mul(&w1, x1, &c);
    p256_fe_mul(&w2, x2, &c);
    p256_fe_sub(&dy, y1, y2);
    p256_fe_sqr(&d, &dy);
    p256_fe_sub(&t, &w1, &w2);
    p256_fe_mul(y1, y1, &t);                  /* A1 */
    p256_fe_sub(&t, &d, &w1);
    p256_fe_sub(x3, &t, &w2);
    p256_fe_sub(&t, &w1, x3);
    p256_fe_mul(&t, &dy, &t);
    p256_fe_sub(y3, &t, y1);
    *x1 = w1;
}

/*
 * DBLU for a Jacobian a = (X, Y, Z), a = -3: 2a = (M^2 - 2S, M (S - X3) - 8Y^4) with
 * M = 3 (X - Z^2)(X + Z^2), S = 4 X Y^2, at Z3 = 2 Y Z, and a rescaled to Z3 is (S, 8Y^4).
 * *ratio = Z3 / Z = 2Y. Right for a finite a (Y != 0: no point of order 2); straight-line.
 */
P256_INLINE void p256_dblu_jac(p256_fe *x2, p256_fe *y2, p256_fe *x1, p256_fe *y1,
                               p256_fe *ratio, const p256_jac *a)
{
    p256_fe zz, m, t, e, s, l;
    p256_fe_sqr(&zz, &a->z);
    p256_fe_sub(&m, &a->x, &zz);
    p256_fe_add(&t, &a->x, &zz);
    p256_fe_mul(&m, &m, &t);
    p256_fe_mul_small(&m, &m, 3);
    p256_fe_sqr(&e, &a->y);
    p256_fe_mul(&s, &a->x, &e);
    p256_fe_mul_small(&s, &s, 4);
    p256_fe_sqr(&l, &e);
    p256_fe_mul_small(&l, &l, 8);
    p256_fe_sqr(&t, &m);
    p256_fe_sub(&t, &t, &s);
    p256_fe_sub(x2, &t, &s);
    p256_fe_sub(&t, &s, x2);
    p256_fe_mul(&t, &m, &t);
    p256_fe_sub(y2, &t, &l);
    p256_fe_add(ratio, &a->y, &a->y);
    *x1 = s;
    *y1 = l;
}

/*
 * The chain: entry 0 is p on its own Z. DBLU gives 2p and p on Z_0 * 2Y. For step 1 the
 * running sum is then 2p (entry 1) and the addend p; for step 2 the sum is p (not an
 * entry again: its first ZADDU makes entry 1 = 3p) and the addend 2p. Each ZADDU moves
 * sum and addend to the next Z, so Z_j = Z_{j-1} ratio[j]. Every ZADDU is right: the sum
 * (j - 1) p or (2j - 1) p and the addend p or 2p are multiples m p with 0 < m < 2 count <
 * n, distinct and not opposite, and p has order n.
 */
P256_FN void p256_coz_multiples(p256_aff *chain, p256_fe *ratio, p256_fe *z, const p256_jac *p,
                                int count, int step)
{
    p256_fe ax, ay, sx, sy, r0;
    int j;

    chain[0].x = p->x;
    chain[0].y = p->y;
    if (step == 1) {
        /* entry 1 = 2p; the addend p */
        p256_dblu_jac(&chain[1].x, &chain[1].y, &ax, &ay, &ratio[1], p);
    } else {
        /* the addend 2p, the sum p; entry 1 = 3p, on Z_1 = Z_0 r0 ratio' */
        p256_dblu_jac(&ax, &ay, &sx, &sy, &r0, p);
        p256_zaddu(&chain[1].x, &chain[1].y, &ax, &ay, &sx, &sy, &ratio[1]);
        p256_fe_mul(&ratio[1], &ratio[1], &r0);
    }
    p256_fe_mul(z, &p->z, &ratio[1]);
    for (j = 2; j < count; j++) {
        p256_zaddu(&chain[j].x, &chain[j].y, &ax, &ay, &chain[j - 1].x, &chain[j - 1].y,
                   &ratio[j]);
        p256_fe_mul(z, z, &ratio[j]);
    }
}

P256_FN void p256_coz_to_aff(p256_aff *out, const p256_aff *chain, const p256_fe *ratio,
                             const p256_fe *zinv, int first, int count)
{
    p256_fe zi = *zinv, zi2;
    for (int j = count - 1; j >= first; j--) {
        p256_fe_sqr(&zi2, &zi);
        p256_fe_mul(&out[j].x, &chain[j].x, &zi2);
        p256_fe_mul(&zi2, &zi2, &zi);
        p256_fe_mul(&out[j].y, &chain[j].y, &zi2);
        if (j > first)
            p256_fe_mul(&zi, &zi, &ratio[j]);                  /* 1 / Z_{j-1} */
    }
}

/*
 * The multiples come from the co-Z chain above: one inversion of the last Z, walked back
 * down the ratios, makes every entry affine: 5M per entry instead of Montgomery's
 * trick's 7M. Entry 0 is p itself (Z = 1).
 */
P256_FN void p256_aff_multiples_vartime(p256_aff *out, const p256_aff *p, int count, int step)
{
    p256_fe ratio[16], z, zinv;
    p256_jac pj;

    p256_jac_from_aff(&pj, p);
    p256_coz_multiples(out, ratio, &z, &pj, count, step);
    p256_fe_inv_vartime(&zinv, &z);
    p256_coz_to_aff(out, out, ratio, &zinv, 1, count);
    out[0] = *p;
}

P256_INLINE void p256_aff_cneg(p256_aff *r, const p256_aff *a, uint64_t mask)
{
    p256_fe ny;
    p256_fe_neg(&ny, &a->y);
    r->x = a->x;
    r->y = a->y;
    p256_fe_cmov(&r->y, &ny, mask);
}

P256_FN void p256_jac_from_aff(p256_jac *r, const p256_aff *a)
{
    r->x = a->x;
    r->y = a->y;
    r->z = p256_fe_one;
}

P256_FN void p256_jac_to_aff_zinv(p256_aff *r, const p256_jac *a, const p256_fe *zi)
{
    p256_fe zi2;
    p256_fe_sqr(&zi2, zi);
    p256_fe_mul(&r->x, &a->x, &zi2);
    p256_fe_mul(&zi2, &zi2, zi);
    p256_fe_mul(&r->y, &a->y, &zi2);
}

P256_FN uint64_t p256_jac_to_aff(p256_aff *r, const p256_jac *a)
{
    p256_fe zi;
    p256_fe_inv(&zi, &a->z);                  /* 0 at infinity, so r = (0, 0) there */
    p256_jac_to_aff_zinv(r, a, &zi);
    return p256_fe_mask_is_zero(&a->z);
}

P256_FN void p256_jac_neg(p256_jac *r, const p256_jac *a)
{
    r->x = a->x;
    p256_fe_neg(&r->y, &a->y);
    r->z = a->z;
}

/*
 * (X1, Y1, Z1) and (X2, Y2, Z2) are one point when X1/Z1^2 = X2/Z2^2 and Y1/Z1^3 =
 * Y2/Z2^3, i.e. (both Z nonzero) X1 Z2^2 = X2 Z1^2 and Y1 Z2^3 = Y2 Z1^3. With exactly one
 * Z zero both sides may agree (X1 Z2^2 = 0 = X2 Z1^2 when X1 = 0): the masks decide then.
 */
P256_FN uint64_t p256_jac_mask_eq(const p256_jac *a, const p256_jac *b)
{
    p256_fe z1z1, z2z2, u1, u2, s1, s2;
    const uint64_t a_inf = p256_fe_mask_is_zero(&a->z), b_inf = p256_fe_mask_is_zero(&b->z);
    p256_fe_sqr(&z1z1, &a->z);
    p256_fe_sqr(&z2z2, &b->z);
    p256_fe_mul(&u1, &a->x, &z2z2);
    p256_fe_mul(&u2, &b->x, &z1z1);
    p256_fe_mul(&s1, &a->y, &z2z2);
    p256_fe_mul(&s1, &s1, &b->z);
    p256_fe_mul(&s2, &b->y, &z1z1);
    p256_fe_mul(&s2, &s2, &a->z);
    if (P256_PLANT(group, 1)) /* test_group's control: P == -P */
        s2 = s1;
    return (p256_fe_mask_eq(&u1, &u2) & p256_fe_mask_eq(&s1, &s2) & ~a_inf & ~b_inf) |
           (a_inf & b_inf);
}

/* y^2 == x^3 - 3x + b. */
P256_FN uint64_t p256_aff_mask_on_curve(const p256_aff *a)
{
    p256_fe lhs, rhs, t;
    p256_fe_sqr(&lhs, &a->y);
    p256_fe_sqr(&rhs, &a->x);
    p256_fe_mul(&rhs, &rhs, &a->x);
    p256_fe_add(&t, &a->x, &a->x);
    p256_fe_add(&t, &t, &a->x);
    p256_fe_sub(&rhs, &rhs, &t);
    p256_fe_add(&rhs, &rhs, &p256_fe_b);
    return p256_fe_mask_eq(&lhs, &rhs);
}

P256_FN int p256_aff_decode_status_vartime(p256_aff *r, const uint8_t *in, size_t len)
{
    if (len == 65 && in[0] == 0x04) {
        if (!p256_fe_from_bytes(&r->x, in + 1))
            return P256_SEC1_X_RANGE;
        if (!p256_fe_from_bytes(&r->y, in + 33))
            return P256_SEC1_Y_RANGE;
        return p256_aff_mask_on_curve(r) ? P256_SEC1_OK : P256_SEC1_NOT_ON_CURVE;
    }
    if (len == 33 && (in[0] == 0x02 || in[0] == 0x03)) {
        p256_fe rhs, t;
        uint8_t ybytes[32];
        if (!p256_fe_from_bytes(&r->x, in + 1))
            return P256_SEC1_COMPRESSED_RANGE;
        /* y^2 = x^3 - 3x + b; y = rhs^((p+1)/4) when rhs is a square. */
        p256_fe_sqr(&rhs, &r->x);
        p256_fe_mul(&rhs, &rhs, &r->x);
        p256_fe_add(&t, &r->x, &r->x);
        p256_fe_add(&t, &t, &r->x);
        p256_fe_sub(&rhs, &rhs, &t);
        p256_fe_add(&rhs, &rhs, &p256_fe_b);
        if (!p256_fe_sqrt(&r->y, &rhs))
            return P256_SEC1_NO_POINT;
        /* Pick the root whose parity matches the prefix (on the plain value). */
        p256_fe_to_bytes(ybytes, &r->y);
        if ((ybytes[31] & 1) != (in[0] & 1))
            p256_fe_neg(&r->y, &r->y);
        /* y = 0 has no odd twin: rhs = 0 never happens on P-256 (no 2-torsion). */
        return P256_SEC1_OK;
    }
    if (len == 1 && in[0] == 0x00)
        return P256_SEC1_INFINITY;
    if (len == 65 && (in[0] == 0x06 || in[0] == 0x07))
        return P256_SEC1_HYBRID;
    return P256_SEC1_ENCODING;
}

P256_FN int p256_aff_decode_vartime(p256_aff *r, const uint8_t *in, size_t len)
{
    return p256_aff_decode_status_vartime(r, in, len) == P256_SEC1_OK;
}

P256_FN void p256_aff_encode(uint8_t out[65], const p256_aff *a)
{
    out[0] = 0x04;
    p256_fe_to_bytes(out + 1, &a->x);
    p256_fe_to_bytes(out + 33, &a->y);
}

#endif /* P256_GROUP_IMPL_H */

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * group.h: points of P-256, y^2 = x^3 - 3x + b over GF(p).
 *
 * p256_jac is a point in Jacobian coordinates (X, Y, Z) standing for (X/Z^2, Y/Z^3);
 * any Z = 0 is the point at infinity. p256_aff is an affine point that is never the
 * point at infinity; where an affine operand may be "nothing" (a zero table digit) a
 * separate mask says so. Coordinates are field elements (field.h: Montgomery domain,
 * fully reduced).
 *
 * The group has prime order n and no point of order 2, so doubling never meets y = 0
 * except at infinity. The constant-time additions are complete: they return the right
 * point for every pair of inputs (equal, opposite, infinity), selecting between formula
 * branches with masks, so a scalar multiplication never branches on where its partial
 * sums happen to land (the CVE-2023-24533 class of bug).
 */
#ifndef P256_GROUP_H
#define P256_GROUP_H

#include "field.h"

typedef struct {
    p256_fe x, y, z;
} p256_jac;

typedef struct {
    p256_fe x, y;
} p256_aff;

/* The generator G (FIPS 186-5 / SEC 2), affine. */
static const p256_aff p256_generator;

/* r = 2a. Complete for this curve (infinity doubles to infinity). 4M + 4S. Constant time. */
P256_FN void p256_jac_double(p256_jac *r, const p256_jac *a);
/*
 * r = 2^n a for a public count n >= 0 (0: r = a): n doublings, where a backend may keep
 * the point in one frame between them. Constant time in a (its time depends on n alone).
 */
P256_FN void p256_jac_double_n(p256_jac *r, const p256_jac *a, int n);
/* r = a + b for any a, b. Constant time. 11M + 7S. */
P256_FN void p256_jac_add(p256_jac *r, const p256_jac *a, const p256_jac *b);
/*
 * r = a + b for any a and affine b, where b_inf (all-ones or 0) says b is the point at
 * infinity instead (its coordinates are then ignored). Constant time. 7M + 6S.
 */
P256_FN void p256_jac_add_aff(p256_jac *r, const p256_jac *a, const p256_aff *b, uint64_t b_inf);

/*
 * r = a + b for affine b (b_inf: b is infinity instead), constant time, by the cheaper
 * incomplete formula (madd-2007-bl, 8M + 3S). Correct when a is infinity (masked: r = b),
 * b is infinity (masked: r = a), the x coordinates of a and b differ, or a == -b (then
 * H = 0 and Z3 = 0: infinity, rightly). It is WRONG when a == b (both finite): it returns
 * infinity instead of 2a, so the caller must show a == b cannot occur for its inputs
 * (ecmult_impl.h argues, for every use, that neither a == b nor a == -b does). r may
 * alias a.
 */
P256_FN void p256_jac_add_aff_partial(p256_jac *r, const p256_jac *a, const p256_aff *b,
                                      uint64_t b_inf);

/* Variable-time mixed addition for public points (verify): the textbook formula with branches. */
P256_FN void p256_jac_add_aff_vartime(p256_jac *r, const p256_jac *a, const p256_aff *b);

/*
 * out[j] = (step*j + 1) * p for j < count (step 1: 1p..count*p; step 2: the odd multiples
 * 1p, 3p, ...), affine, for a public point p and 2 <= count <= 16. Variable time.
 */
P256_FN void p256_aff_multiples_vartime(p256_aff *out, const p256_aff *p, int count, int step);

/*
 * The same table for a Jacobian p, in two halves so that the caller chooses the
 * inversion (constant time or not; one for many tables, by Montgomery's trick).
 * coz_multiples: chain[j] (j < count) holds the X and Y of (step*j + 1) * p, Jacobian,
 * on Z_j with Z_0 = p's Z and Z_j = Z_{j-1} ratio[j] (ratio[0] is not written); *z =
 * Z_{count-1}. p must be finite, 2 <= count and 2 step count < n (no multiple on the
 * chain is then another's +-). coz_to_aff: out[j] for first <= j < count, affine, from
 * such a chain and zinv = 1 / Z_{count-1}; out may be chain. Both are straight-line:
 * constant time in p.
 */
P256_FN void p256_coz_multiples(p256_aff *chain, p256_fe *ratio, p256_fe *z, const p256_jac *p,
                                int count, int step);
P256_FN void p256_coz_to_aff(p256_aff *out, const p256_aff *chain, const p256_fe *ratio,
                             const p256_fe *zinv, int first, int count);

/* r = -a (the identity stays the identity). Constant time. */
P256_FN void p256_jac_neg(p256_jac *r, const p256_jac *a);
/*
 * All-ones if a and b are the same point (any two Jacobian forms of it; the identity
 * equals only the identity), else 0. Constant time, no inversion: X1 Z2^2 = X2 Z1^2 and
 * Y1 Z2^3 = Y2 Z1^3.
 */
P256_FN uint64_t p256_jac_mask_eq(const p256_jac *a, const p256_jac *b);

/* r = -a (y negated) when mask is all-ones, r = a when 0. */
P256_INLINE void p256_aff_cneg(p256_aff *r, const p256_aff *a, uint64_t mask);

/* Affine -> Jacobian with Z = 1. */
P256_FN void p256_jac_from_aff(p256_jac *r, const p256_aff *a);
/*
 * Jacobian -> affine with one constant-time inversion. Returns all-ones if a is the
 * point at infinity (r is then (0, 0)), else 0.
 */
P256_FN uint64_t p256_jac_to_aff(p256_aff *r, const p256_jac *a);
/* r = (X zi^2, Y zi^3): the affine form of a finite a, given zi = Z^-1. */
P256_FN void p256_jac_to_aff_zinv(p256_aff *r, const p256_jac *a, const p256_fe *zi);

/* All-ones if (x, y) satisfies the curve equation, else 0. */
P256_FN uint64_t p256_aff_mask_on_curve(const p256_aff *a);

/*
 * SEC1 (SEC 1 v2, 2.3.3/2.3.4). decode accepts 65-byte 04||X||Y and 33-byte 02/03||X,
 * and fully validates: length and prefix, X and Y < p, on the curve, a square root for
 * compressed X. Returns 1 and sets r on success, 0 otherwise (the point at infinity,
 * a single 0x00 byte, is rejected). Public data: variable time.
 *
 * decode_status is the same check, returning why an input is refused: the first
 * failing rule in the order below (p256.h's P256_POINT_* reasons are these values).
 */
#define P256_SEC1_OK 0
#define P256_SEC1_INFINITY 1          /* the single byte 0x00 */
#define P256_SEC1_HYBRID 2            /* 65 bytes with prefix 06 or 07 (not supported) */
#define P256_SEC1_X_RANGE 3           /* 04||X||Y with X >= p */
#define P256_SEC1_Y_RANGE 4           /* 04||X||Y with Y >= p */
#define P256_SEC1_NOT_ON_CURVE 5      /* 04||X||Y off the curve */
#define P256_SEC1_COMPRESSED_RANGE 6  /* 02/03||X with X >= p */
#define P256_SEC1_NO_POINT 7          /* 02/03||X: no curve point has this X */
#define P256_SEC1_ENCODING 8          /* any other length or prefix */
P256_FN int p256_aff_decode_status_vartime(p256_aff *r, const uint8_t *in, size_t len);
P256_FN int p256_aff_decode_vartime(p256_aff *r, const uint8_t *in, size_t len);
/* 65-byte uncompressed 04||X||Y. */
P256_FN void p256_aff_encode(uint8_t out[65], const p256_aff *a);

#endif /* P256_GROUP_H */

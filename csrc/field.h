/* SPDX-License-Identifier: Apache-2.0 */
/*
 * field.h: arithmetic in GF(p), p = 2^256 - 2^224 + 2^192 + 2^96 - 1 (the P-256 prime).
 *
 * Representation: four 64-bit little-endian limbs holding a*R mod p, R = 2^256
 * (the Montgomery domain). Every function below takes fully reduced inputs (value < p)
 * and returns a fully reduced output (value < p), so one representation of each element
 * exists and equality is limb equality. Outputs may alias inputs.
 *
 * Every function is constant time in its inputs unless its name ends in _vartime.
 *
 * Backend contract: p256_fe_mul, p256_fe_sqr, p256_fe_add, p256_fe_sub are the
 * primitives an assembly backend replaces; everything else is written on top of them.
 */
#ifndef P256_FIELD_H
#define P256_FIELD_H

#include "common.h"

typedef struct {
    uint64_t v[4];
} p256_fe;

/* Constants, in the Montgomery domain: 0, 1, the curve coefficient b. */
static const p256_fe p256_fe_zero;
static const p256_fe p256_fe_one;
static const p256_fe p256_fe_b;

/*
 * r = a*b/R mod p, i.e. the Montgomery product; in the domain, the field product.
 * r = a^2 in the domain. (Defined inline in the backend so formulas schedule across them.)
 */
P256_INLINE void p256_fe_mul(p256_fe *r, const p256_fe *a, const p256_fe *b);
P256_INLINE void p256_fe_sqr(p256_fe *r, const p256_fe *a);
/* r = a^(2^n): n squarings. */
P256_FN void p256_fe_sqr_n(p256_fe *r, const p256_fe *a, int n);
/* r = a + b, r = a - b (inline, like mul), r = -a, r = a/2 (mod p). */
P256_INLINE void p256_fe_add(p256_fe *r, const p256_fe *a, const p256_fe *b);
P256_INLINE void p256_fe_sub(p256_fe *r, const p256_fe *a, const p256_fe *b);
P256_FN void p256_fe_neg(p256_fe *r, const p256_fe *a);
/* r = k*a for a small constant 1 <= k <= 1024, with one reduction. */
P256_INLINE void p256_fe_mul_small(p256_fe *r, const p256_fe *a, uint64_t k);
P256_FN void p256_fe_half(p256_fe *r, const p256_fe *a);

/* r = a if mask is all-ones, unchanged if mask is 0 (mask must be one of the two). */
P256_FN void p256_fe_cmov(p256_fe *r, const p256_fe *a, uint64_t mask);
/* All-ones if a == 0 / a == b, else 0. */
P256_FN uint64_t p256_fe_mask_is_zero(const p256_fe *a);
P256_FN uint64_t p256_fe_mask_eq(const p256_fe *a, const p256_fe *b);

/* r = a^-1 (0 for a = 0) by Fermat, a fixed addition chain for p-2: 255 S + 13 M. */
P256_FN void p256_fe_inv_fermat(p256_fe *r, const p256_fe *a);
/* r = a^-1 (0 for a = 0) by constant-time safegcd (modinv.h); the fast one. */
P256_FN void p256_fe_inv(p256_fe *r, const p256_fe *a);
/*
 * r = the field element a^-1, from t = the plain inverse of a's 4x64 limbs mod p (what
 * p256_modinv returns for a->v): for a caller that runs the inversion itself, as part of
 * a p256_modinv_pair.
 */
P256_FN void p256_fe_from_plain_inverse(p256_fe *r, const p256_fe *t);
/* Variable-time inversion, public inputs only. */
P256_FN void p256_fe_inv_vartime(p256_fe *r, const p256_fe *a);
/*
 * z[j] = z[j]^-1 for j < m (m >= 1, every z[j] nonzero) by Montgomery's trick: one
 * inversion and 3 (m - 1) products, tmp m elements of room. The first in constant time,
 * the other for public values.
 */
P256_FN void p256_fe_inv_many(p256_fe *z, p256_fe *tmp, size_t m);
P256_FN void p256_fe_inv_many_vartime(p256_fe *z, p256_fe *tmp, size_t m);
/*
 * r = a^((p+1)/4), a fixed chain: 253 S + 7 M. Since p = 3 mod 4 this is a square root of a
 * whenever a is a square; returns all-ones if r^2 == a (a is a square), else 0.
 */
P256_FN uint64_t p256_fe_sqrt(p256_fe *r, const p256_fe *a);

/*
 * r = a^((p-3)/4), a fixed chain: 283 S + 12 M. RFC 9380's sqrt_ratio for p = 3 mod 4
 * (F.2.1.2) raises u v^3 to this power: one exponentiation for the square root of u/v
 * or of Z u/v, with no inversion.
 */
P256_FN void p256_fe_pow_p3d4(p256_fe *r, const p256_fe *a);
/* r[j] = a[j]^((p-3)/4) for j = 0, 1: the two chains interleaved, faster than two calls. */
P256_FN void p256_fe_pow_p3d4_pair(p256_fe r[2], const p256_fe a[2]);

/*
 * r = the big-endian integer b[0..len) mod p, for any length (RFC 9380's hash_to_field
 * reads 48 bytes an element). Constant time in the bytes; len is public.
 */
P256_FN void p256_fe_from_bytes_reduce(p256_fe *r, const uint8_t *b, size_t len);

/*
 * Big-endian 32-byte encoding of the (plain, non-Montgomery) value. from_bytes returns
 * all-ones if the input is < p and sets r = input*R mod p; for input >= p it returns 0
 * and r is unspecified.
 */
P256_FN uint64_t p256_fe_from_bytes(p256_fe *r, const uint8_t b[32]);
P256_FN void p256_fe_to_bytes(uint8_t b[32], const p256_fe *a);
/* Plain integer < p (4 limbs) <-> Montgomery domain. */
P256_FN void p256_fe_from_limbs(p256_fe *r, const uint64_t a[4]);
P256_FN void p256_fe_to_limbs(uint64_t r[4], const p256_fe *a);

#endif /* P256_FIELD_H */

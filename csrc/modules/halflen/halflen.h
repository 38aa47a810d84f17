/* SPDX-License-Identifier: Apache-2.0 */
/*
 * modules/halflen/halflen.h: half-length ECDSA verification (Antipa, Brown, Gallant,
 * Lambert, Struik, Vanstone, "Accelerated verification of ECDSA signatures", SAC 2005),
 * a measured experiment beside the core, not part of the extension: p256.c does not
 * include it. tests/c/test_halflen.c checks it against p256_ecdsa_verify_vartime, and
 * tests/c/bench_core.c times it beside it; docs/performance.md has the measurements and
 * why verify does not use it. Variable time: public data only.
 *
 * The method. Verification asks whether u1 G + u2 Q = R for a point R with x(R) mod n
 * = r (u1 = e/s, u2 = r/s). A half-gcd of (n, u2) gives v, w with w = v u2 mod n and
 * |v|, w < 2^128; multiplied by v the question becomes
 *     a0 G + a1 (2^128 G) + w Q - v R = O,   a0 + 2^128 a1 = v u1 mod n,
 * four scalars of 128 bits, so one chain of 128 doublings instead of 256. The price: R
 * itself, not only r: a square root for its y, and, since a signature carries r only,
 * up to two candidates for x (r, and r + n when that is below p) and two for y (+-).
 * Each (x, y) is one pass of the chain; a caller that knows y's parity (a recovery id)
 * makes one pass per x. v is not 0 mod n, so the equation holds exactly when the
 * original one does, for the same R: the candidates tried decide the result.
 */
#ifndef P256_MODULE_HALFLEN_H
#define P256_MODULE_HALFLEN_H

#include "../../ecdsa.h"
#include "../../precomputed.h"

/* The odd multiples (2j + 1) 2^128 G at the width of the G table, made at run time. */
#define P256_HALFLEN_G128_ENTRIES (1 << (P256_WNAF_G_BITS - 2))
typedef struct {
    p256_aff g128[P256_HALFLEN_G128_ENTRIES];
} p256_halflen_table;

P256_FN void p256_halflen_table_init(p256_halflen_table *t);

/*
 * For 0 < u < n: v != 0 and w with w = v u (mod n), |v| < 2^128, 0 < w < 2^128, by the
 * extended Euclidean algorithm on (n, u) stopped at the first remainder below 2^128.
 * v is returned as its magnitude (v[0] low) and *v_neg (1 if v < 0).
 */
P256_FN void p256_halfgcd_vartime(uint64_t v[2], int *v_neg, uint64_t w[2], const p256_scalar *u);

/*
 * 1 if (r, s) = rs is a valid signature of digest under q, else 0: the same answer as
 * p256_ecdsa_verify_vartime. parity: 0 or 1 when R's y is known to have that parity
 * (only those R are tried), P256_HALFLEN_ANY_Y when it is not (both).
 */
#define P256_HALFLEN_ANY_Y (-1)
P256_FN int p256_ecdsa_verify_halflen_vartime(const p256_halflen_table *t, const p256_aff *q,
                                             const uint8_t rs[64], const uint8_t *digest,
                                             size_t digest_len, int parity);

#endif /* P256_MODULE_HALFLEN_H */

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ecmult_limlee.h: several products k_1 P, k_2 P, ... of one public point P, each
 * constant time in its scalar, over a table of P built once: the comb of Lim and Lee
 * ("More flexible exponentiation with precomputation", CRYPTO 1994) with four teeth, one
 * per 64-bit limb of k. Where a protocol multiplies one public point by several secret
 * scalars (a VOPRF server's evaluation of a blinded element and the proof that goes
 * with it, RFC 9497 2.2.1), a table costs about two thirds of a ladder (ecmult_const.h)
 * and each product under half of one. Code: ecmult_limlee_impl.h.
 */
#ifndef P256_ECMULT_LIMLEE_H
#define P256_ECMULT_LIMLEE_H

#include "group.h"
#include "scalar.h"

#define P256_LIMLEE_TEETH 4
#define P256_LIMLEE_SPACING 64 /* bits between teeth: 4 x 64 = 256 */
#define P256_LIMLEE_ENTRIES ((1 << P256_LIMLEE_TEETH) - 1)

/*
 * t[e - 1] = (e_0 + e_1 2^64 + e_2 2^128 + e_3 2^192) P for e = e_0 + 2 e_1 + 4 e_2 +
 * 8 e_3 in 1..15 (the sums of the teeth's multiples), affine. Public data.
 */
typedef struct {
    p256_aff t[P256_LIMLEE_ENTRIES];
} p256_limlee_table;

/* Fills tab for a finite point p of the group (any Jacobian form). Variable time: p is public. */
P256_FN void p256_limlee_build_vartime(p256_limlee_table *tab, const p256_jac *p);
/*
 * r = k*P for the P tab was built from, k reduced (< n; k = 0 gives infinity). Constant
 * time in k: 63 doublings and 64 incomplete mixed additions, each addend read by a masked
 * scan of the whole table.
 */
P256_FN void p256_ecmult_limlee(p256_jac *r, const p256_scalar *k, const p256_limlee_table *tab);

#endif /* P256_ECMULT_LIMLEE_H */

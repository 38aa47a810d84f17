/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ecmult_const.h: r = k*P, constant time in k (ECDH, scalar_mult); P is a valid
 * public point. k is reduced (< n); the result is Jacobian, k = 0 gives the point at
 * infinity. Code: ecmult_const_impl.h.
 */
#ifndef P256_ECMULT_CONST_H
#define P256_ECMULT_CONST_H

#include "group.h"
#include "scalar.h"

P256_FN void p256_ecmult_const(p256_jac *r, const p256_scalar *k, const p256_aff *p);
/*
 * r = k*P for any Jacobian P, the identity included (then r is the identity), constant
 * time in k and in P: for a point that is itself secret (a hash of a password, a
 * blinded element).
 */
P256_FN void p256_ecmult_const_jac(p256_jac *r, const p256_scalar *k, const p256_jac *p);

#endif /* P256_ECMULT_CONST_H */

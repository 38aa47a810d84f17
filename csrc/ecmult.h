/*
 * ecmult.h: scalar multiplications.
 *
 *   p256_ecmult_gen      r = k*G, constant time (keygen, signing).
 *   p256_ecmult_const    r = k*P, constant time (ECDH, scalar_mult).
 *   p256_ecmult_vartime  r = u1*G + u2*Q, variable time, public inputs only (verify).
 *
 * Scalars are reduced (< n). Results are Jacobian; k = 0 gives the point at infinity.
 */
#ifndef P256_ECMULT_H
#define P256_ECMULT_H

#include "group.h"
#include "scalar.h"

P256_FN void p256_ecmult_gen(p256_jac *r, const p256_scalar *k);
P256_FN void p256_ecmult_const(p256_jac *r, const p256_scalar *k, const p256_aff *p);
P256_FN void p256_ecmult_vartime(p256_jac *r, const p256_scalar *u1, const p256_scalar *u2,
                                const p256_aff *q);

#endif /* P256_ECMULT_H */

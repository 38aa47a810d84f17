/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ecmult_gen.h: r = k*G, constant time (keygen, signing). k is reduced (< n); the
 * result is Jacobian, k = 0 gives the point at infinity. Code: ecmult_gen_impl.h.
 */
#ifndef P256_ECMULT_GEN_H
#define P256_ECMULT_GEN_H

#include "group.h"
#include "scalar.h"

P256_FN void p256_ecmult_gen(p256_jac *r, const p256_scalar *k);

#endif /* P256_ECMULT_GEN_H */

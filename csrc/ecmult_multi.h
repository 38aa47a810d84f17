/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ecmult_multi.h: sums of scalar multiples, r = k_0 P_0 + ... + k_{m-1} P_{m-1}, for
 * reduced scalars (< n) and Jacobian points, the identity among them (a term with k_i =
 * 0 or P_i the identity adds nothing; m = 0 gives the identity). Code:
 * ecmult_multi_impl.h.
 *
 *   p256_ecmult_multi          constant time in every k_i and every P_i (both may be
 *                              secret: a Pedersen commitment's blinding, a threshold
 *                              share): Straus's interleaving over signed windows, every
 *                              table built and scanned in constant time
 *   p256_ecmult_multi_vartime  public inputs only: Straus over wNAF digits for a few
 *                              terms, Pippenger's buckets for many (the count decides,
 *                              by the cost model of ecmult_multi_impl.h)
 *
 * The core allocates nothing: each call takes `scratch`, memory aligned as malloc's of at
 * least p256_ecmult_multi_scratch_size(m, vartime) bytes, for at most
 * P256_MULTI_CONST_MAX (constant time) or P256_MULTI_VARTIME_MAX (variable time) terms;
 * the API (p256.c) works through longer sums in chunks of those. The scratch holds
 * secrets of a constant-time call until it returns, which wipes them.
 */
#ifndef P256_ECMULT_MULTI_H
#define P256_ECMULT_MULTI_H

#include <stddef.h>

#include "group.h"
#include "scalar.h"

#define P256_MULTI_CONST_MAX 64
#define P256_MULTI_VARTIME_MAX 8192

P256_FN size_t p256_ecmult_multi_scratch_size(size_t m, int vartime);
P256_FN void p256_ecmult_multi(p256_jac *r, const p256_scalar *k, const p256_jac *p, size_t m,
                               void *scratch);
P256_FN void p256_ecmult_multi_vartime(p256_jac *r, const p256_scalar *k, const p256_jac *p,
                                       size_t m, void *scratch);
/* r = k*P alone, variable time (Straus for one term, its scratch on the stack). */
P256_FN void p256_ecmult_one_vartime(p256_jac *r, const p256_scalar *k, const p256_jac *p);

#endif /* P256_ECMULT_MULTI_H */

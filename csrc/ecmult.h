/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ecmult.h: the scalar multiplications, one file pair per kind:
 *
 *   ecmult_gen.h       p256_ecmult_gen      r = k*G, constant time (keygen, signing)
 *   ecmult_const.h     p256_ecmult_const    r = k*P, constant time (ECDH, scalar_mult)
 *   ecmult_vartime.h   p256_ecmult_vartime  r = u1*G + u2*Q, variable time, public inputs
 *                                           only (verify)
 *   ecmult_pubtable.h  over a per-key table of a public Q built once: u1*G + u2*Q
 *                      (variable time, verify) and k*Q (constant time, ECDH)
 *   ecmult_multi.h     sums k_0 P_0 + ... of many terms, constant time (Straus) and
 *                      variable time (Straus or Pippenger), and k*P alone in variable time
 *   ecmult_limlee.h    several products k_1 P, k_2 P, ... of one public P over a table
 *                      of P built for them, constant time in each k (the Lim-Lee comb)
 *
 * and what they share (window bits, Booth recoding, the table scan): ecmult_common_impl.h.
 * Scalars are reduced (< n). Results are Jacobian; k = 0 gives the point at infinity.
 */
#ifndef P256_ECMULT_H
#define P256_ECMULT_H

#include "ecmult_gen.h"
#include "ecmult_const.h"
#include "ecmult_vartime.h"
#include "ecmult_pubtable.h"
#include "ecmult_multi.h"
#include "ecmult_limlee.h"

#endif /* P256_ECMULT_H */

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

/*
 * The comb behind it, over any fixed-base table: r = k*P for `table` of `rows` rows of
 * 2^(bits-1) affine points, row i holding 1..2^(bits-1) times 2^(bits i) P (the generator's
 * table, or a per-key one of ecmult_pubtable.h). Needs 4 <= bits <= 8 and bits (rows - 1) <
 * 257 <= bits rows (ecmult_gen_impl.h shows the incomplete additions exact then). Constant
 * time in k; table, bits and rows are public.
 */
P256_INLINE void p256_ecmult_comb(p256_jac *r, const p256_scalar *k, const p256_aff *table,
                                  int bits, int rows);

#endif /* P256_ECMULT_GEN_H */

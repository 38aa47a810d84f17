/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ecmult.h: scalar multiplications.
 *
 *   p256_ecmult_gen      r = k*G, constant time (keygen, signing).
 *   p256_ecmult_const    r = k*P, constant time (ECDH, scalar_mult).
 *   p256_ecmult_vartime  r = u1*G + u2*Q, variable time, public inputs only (verify).
 *   p256_ecmult_pubtable_vartime  the same with a per-key table of Q (a reused key).
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

/*
 * A per-key fixed-base table for a public Q that is verified against again and again:
 * Booth windows of `bits` bits (P256_PUBTABLE_MIN_BITS..P256_PUBTABLE_MAX_BITS), row i
 * of t[] holding 1..2^(bits-1) times 2^(bits*i) Q, affine, rows = ceil(257 / bits) so
 * that the top Booth digit is never negative. Public data throughout: variable time.
 */
#define P256_PUBTABLE_MIN_BITS 4
#define P256_PUBTABLE_MAX_BITS 8
#define P256_PUBTABLE_MAGIC 0x7032353670746231ULL /* "p256ptb1": a table, built */

typedef struct {
    uint64_t magic; /* P256_PUBTABLE_MAGIC once complete */
    uint32_t bits, rows;
    p256_aff t[];   /* rows * 2^(bits-1) entries */
} p256_pubtable;

/* Bytes a table of `bits`-bit windows takes (header included); 0 if bits is out of range. */
P256_FN size_t p256_pubtable_size_of(int bits);
/* Fills tab (p256_pubtable_size_of(bits) bytes, bits in range) for the valid point q. */
P256_FN void p256_pubtable_build_core_vartime(p256_pubtable *tab, int bits, const p256_aff *q);
/* r = u1*G + u2*Q by the comb of G and tab's comb of Q: additions only, no doublings. */
P256_FN void p256_ecmult_pubtable_vartime(p256_jac *r, const p256_scalar *u1,
                                         const p256_scalar *u2, const p256_pubtable *tab);

#endif /* P256_ECMULT_H */

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ecmult_pubtable.h: the scalar multiplications over a per-key table of a public Q, the
 * fourth kind of ecmult.h: verification (u1*G + u2*Q, variable time) and ECDH (k*Q,
 * constant time) with a table built once for a key that comes back again and again.
 * Code: ecmult_pubtable_impl.h. The byte-level API on it is p256.h's
 * p256_pubtable_size, p256_pubtable_build_vartime, p256_verify_pubtable_vartime and
 * p256_ecdh_pubtable.
 */
#ifndef P256_ECMULT_PUBTABLE_H
#define P256_ECMULT_PUBTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "group.h"
#include "scalar.h"

/*
 * A per-key fixed-base table for a public Q that is verified against or agreed with
 * again and again:
 * Booth windows of `bits` bits (P256_PUBTABLE_MIN_BITS..P256_PUBTABLE_MAX_BITS), row i
 * of t[] holding 1..2^(bits-1) times 2^(bits*i) Q, affine, rows = ceil(257 / bits) so
 * that the top Booth digit is never negative. The table is public data: built and
 * verified with in variable time; ECDH reads it with a secret scalar in constant time.
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

/*
 * r = k*Q for the Q tab was built from, k reduced (< n; k = 0 gives infinity). Constant
 * time in k: every lookup scans its whole row with masks (the comb of ecmult_gen.h).
 * tab must be complete with bits in range.
 */
P256_FN void p256_ecmult_pubtable(p256_jac *r, const p256_scalar *k, const p256_pubtable *tab);

#endif /* P256_ECMULT_PUBTABLE_H */

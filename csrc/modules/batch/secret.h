/* SPDX-License-Identifier: Apache-2.0 */
/*
 * modules/batch/secret.h: the batch module's work with secrets, behind p256.h's
 * p256_pubkey_derive_many, p256_sign_many and p256_ecdh_many. Items go through in groups
 * of P256_BATCH_LANES (bounded stack): the scalar multiplications of a group on the
 * 8-lane IFMA engine where it runs and has its constant-time lanes (ifma.h's
 * P256_IFMA_HAVE_GEN8, P256_IFMA_HAVE_CONST8), else p256_ecmult_gen / p256_ecmult_const
 * item by item; then the group's Jacobian->affine conversions share one field inversion
 * and a signing group's nonce inverses one scalar inversion (Montgomery's trick,
 * "Speeding the Pollard and elliptic curve methods of factorization", Math. Comp. 48,
 * 1987, section 10.3.1).
 *
 * Constant time in every secret (scalars, nonces, their inverses, R before the
 * signature is out). Variable time only on public data: the count of items, each item's
 * verdict (a key out of range, the OS RNG failing), the RFC 6979 retries sign has too.
 * An invalid item's scalar is replaced by 1 with masks, never skipped, so the lanes and
 * the inversions see no difference; padding lanes get 1, never another item's secret.
 * Harness: tests/c/test_batch.c.
 */
#ifndef P256_MODULE_BATCH_SECRET_H
#define P256_MODULE_BATCH_SECRET_H

#include "../../p256.h"
#include "batch.h"

/* Items per group: the IFMA engine's lanes. */
#define P256_BATCH_LANES 8

/* A group shorter than this runs item by item even where the lanes run: the eight lanes
 * cost the same for one item as for eight. Verification's measured break-even
 * (P256_IFMA_MIN_GROUP); to be measured again for the constant-time lanes. */
#ifndef P256_BATCH_SECRET_MIN_LANES
#define P256_BATCH_SECRET_MIN_LANES 3
#endif

/* 1 if `engine` (a P256_BATCH_* that runs here) puts operation `op` (P256_BATCH_OP_*) on
 * the IFMA lanes. */
P256_FN int p256_batch_secret_lanes(int op, int engine);

/*
 * r[i] = k[i]*G (q NULL) or k[i]*q[i] (q[i] valid points) for i < m <= P256_BATCH_LANES,
 * Jacobian, every k[i] in [1, n-1]. On the lanes when `lanes` (p256_batch_secret_lanes
 * for the operation) and m reaches P256_BATCH_SECRET_MIN_LANES, else item by item.
 * Constant time in k.
 */
P256_FN void p256_batch_mult_group(p256_jac *r, const p256_scalar *k, const p256_aff *const *q,
                                   size_t m, int lanes);

/*
 * a[i] = the affine form of p[i] for i < m (1 <= m <= P256_BATCH_LANES) with one
 * constant-time p256_fe_inv for all; inf[i] all-ones where p[i] is infinity (a[i] is
 * then (0, 0), as p256_jac_to_aff has it), else 0. Constant time.
 */
P256_FN void p256_batch_to_aff(p256_aff *a, uint64_t *inf, const p256_jac *p, size_t m);

/* r[i] = k[i]^-1 mod n for i < m (1 <= m <= P256_BATCH_LANES), every k[i] nonzero, with
 * one constant-time p256_scalar_inv for all. r must not alias k. */
P256_FN void p256_batch_scalar_inv(p256_scalar *r, const p256_scalar *k, size_t m);

#endif /* P256_MODULE_BATCH_SECRET_H */

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * modules/batch/batch.h: batch verification, a module of the core (p256.c includes its
 * main_impl.h after the layers). It owns every per-item decision of a batch: the
 * signature's decoding (the one parser, p256_sig_parse's), the message's hash, a
 * precomputed key's table or not, and which engine verifies the rest: the 8-lane AVX-512
 * IFMA engine (ifma.h, ifma_impl.h) where it runs, else the loop of the core's verification
 * on decoded points. Its API functions are p256_batch_verify_vartime and the engines'
 * p256_verify_batch_vartime (p256.h). Public data only: variable time. Its work with
 * secrets (keys, signatures, ECDH many at a time, constant time) is secret.h's.
 * Harness: tests/c/test_batch.c (and tests/c/test_batch_ifma.c for the engine).
 */
#ifndef P256_MODULE_BATCH_H
#define P256_MODULE_BATCH_H

#include "../../ecdsa.h"

/* Items handed to the engine in one call at most (the per-group work space is on the
 * stack); p256_batch_verify_vartime goes through its items in groups of this size. */
#define P256_BATCH_GROUP 64

/* What the engines take: a decoded, validated key (never infinity), r||s, the digest. */
typedef struct {
    const p256_aff *q;
    const uint8_t *rs;
    const uint8_t *digest;
    size_t digest_len;
} p256_batch_point_item;

/*
 * results[i] = p256_ecdsa_verify_vartime(items[i]) for i < n on `engine` (P256_BATCH_*:
 * AUTO picks IFMA where it runs). Returns 1, or 0 with results untouched for an engine
 * that is unknown or does not run here.
 */
P256_FN int p256_batch_engine_run_vartime(uint8_t *results, const p256_batch_point_item *items,
                                         size_t n, int engine);

#endif /* P256_MODULE_BATCH_H */

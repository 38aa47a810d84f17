/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ecdsa.h: ECDSA over P-256 (FIPS 186-5 section 6.4, SEC 1 section 4.1) and the DER
 * signature encoding (X9.62 Ecdsa-Sig-Value: SEQUENCE { INTEGER r, INTEGER s }).
 */
#ifndef P256_ECDSA_H
#define P256_ECDSA_H

#include "group.h"
#include "scalar.h"
#include "hash.h"
#include "ecmult.h"
#include "modules/pubtable/pubtable.h"

/*
 * Signs digest (any length; its leftmost 256 bits are used) with secret d (1 <= d < n,
 * checked by the caller). The nonce comes from the RFC 6979 HMAC-DRBG keyed by d and
 * the digest with HMAC over `nonce_hash`; when `extra` is not NULL its 32 bytes of
 * fresh randomness are mixed in as RFC 6979 section 3.6's additional data (a hedged
 * nonce: safe if either the RNG or the determinism holds). Writes r||s (big endian).
 * Returns 1. Constant time in d and in the nonce.
 */
P256_FN int p256_ecdsa_sign(uint8_t rs[64], const p256_scalar *d, const uint8_t *digest,
                           size_t digest_len, p256_hash_id nonce_hash, const uint8_t *extra);

/*
 * Verifies r||s over digest for public key q (a validated affine point). Returns 1 if
 * valid, 0 otherwise (including r or s outside [1, n-1]). Variable time: all inputs
 * are public.
 */
P256_FN int p256_ecdsa_verify_vartime(const p256_aff *q, const uint8_t rs[64],
                                     const uint8_t *digest, size_t digest_len);
/* The same for the key whose per-key table (ecmult.h) is tab: the same verdicts. */
P256_FN int p256_ecdsa_verify_pubtable_vartime(const p256_pubtable *tab, const uint8_t rs[64],
                                              const uint8_t *digest, size_t digest_len);

/* Strict DER decoding into r||s; returns 1 on success, 0 for anything not DER. */
P256_FN int p256_sig_der_decode(uint8_t rs[64], const uint8_t *der, size_t len);
/* DER encoding of r||s (r, s < 2^256); returns the length, at most 72. */
P256_FN size_t p256_sig_der_encode(uint8_t out[72], const uint8_t rs[64]);

#endif /* P256_ECDSA_H */

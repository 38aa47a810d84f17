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
 * The same, also giving the recovery id of the signature (SEC 1 v2 4.1.6): that of the
 * nonce point R = kG it computed (p256_ecdsa_recovery_id). Public once the signature is
 * (it is part of what the signer hands out).
 */
P256_FN int p256_ecdsa_sign_recoverable(uint8_t rs[64], int *recid, const p256_scalar *d,
                                       const uint8_t *digest, size_t digest_len,
                                       p256_hash_id nonce_hash, const uint8_t *extra);

/*
 * A signature's nonce point R from r. r_plus_n: x = r + n and 1 if that is below p (x(R)
 * in [n, p) reduces to r), else 0 and x unset. r_point: the R a recovery id names (SEC 1
 * v2 4.1.6 step 1.1): x = r (bit 1 clear) or r + n (set), y of bit 0's parity; returns
 * P256_ECDSA_R_OK (big_r set), P256_ECDSA_R_PLUS_N (bit 1 set and r + n >= p) or
 * P256_ECDSA_R_NO_POINT (no curve point has that x). Public data: variable time.
 */
#define P256_ECDSA_R_OK 0
#define P256_ECDSA_R_PLUS_N 1
#define P256_ECDSA_R_NO_POINT 2
P256_FN int p256_ecdsa_r_plus_n_vartime(uint64_t x[4], const p256_scalar *r);
P256_FN int p256_ecdsa_r_point_vartime(p256_aff *big_r, const p256_scalar *r, int recid);

/*
 * The scalars of a verification: r, u1 = e/s and u2 = r/s mod n for r||s over digest.
 * Returns 1, or 0 (the outputs unspecified) if r or s is outside [1, n-1]. Public data.
 */
P256_FN int p256_ecdsa_verify_scalars_vartime(p256_scalar *r, p256_scalar *u1, p256_scalar *u2,
                                              const uint8_t rs[64], const uint8_t *digest,
                                              size_t digest_len);
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

/*
 * The recovery id of a nonce point R (affine): bit 0 the parity of R.y, bit 1 set when
 * R.x >= n (then R.x = r + n). Constant time (R is secret until the signature is out).
 */
P256_FN int p256_ecdsa_recovery_id(const p256_aff *r);

/* The same for a SEC1 public key, decoded and validated first (0 if it is invalid). */
P256_FN int p256_ecdsa_verify_sec1_vartime(const uint8_t *pub, size_t pub_len,
                                          const uint8_t rs[64], const uint8_t *digest,
                                          size_t digest_len);

/*
 * The signature encodings, parsed once here with the reason for a refusal (p256.h's
 * P256_SIG_* are these values). der_parse reads strict DER (X.690 10: definite minimal
 * lengths, minimal INTEGERs, nothing after the SEQUENCE or inside it after s) of
 * SEQUENCE { INTEGER r, INTEGER s } and, when the structure is right, says whether r and
 * s fit in 32 bytes (a negative or larger one is R_RANGE/S_RANGE: well-formed, invalid);
 * rs is set only for OK. The structural reasons come first, in reading order.
 */
#define P256_SIGDER_OK 0
#define P256_SIGDER_RAW_LENGTH 1   /* raw r||s that is not 64 bytes */
#define P256_SIGDER_EMPTY 2        /* no data where the SEQUENCE should start */
#define P256_SIGDER_NOT_SEQUENCE 3 /* the first element is not a SEQUENCE */
#define P256_SIGDER_LENGTH 4       /* a length that is not DER (indefinite, long form
                                    * not minimal, cut short) */
#define P256_SIGDER_OVERRUN 5      /* an element runs past the end of the data */
#define P256_SIGDER_TRAILING 6     /* data after the SEQUENCE */
#define P256_SIGDER_NOT_INTEGER 7  /* r or s missing, or not an INTEGER */
#define P256_SIGDER_INTEGER 8      /* an empty or non-minimal INTEGER */
#define P256_SIGDER_EXTRA 9        /* an element after s inside the SEQUENCE */
#define P256_SIGDER_R_RANGE 10     /* r not in [1, n-1] (also: negative, >= 2^256) */
#define P256_SIGDER_S_RANGE 11     /* s not in [1, n-1] */
P256_FN int p256_sig_der_parse(uint8_t rs[64], const uint8_t *der, size_t len);
/* Strict DER decoding into r||s; returns 1 on success (der_parse OK), 0 otherwise. */
P256_FN int p256_sig_der_decode(uint8_t rs[64], const uint8_t *der, size_t len);
/*
 * A signature in either encoding (raw: exactly 64 bytes r||s) into r||s with r and s in
 * [1, n-1]: P256_SIGDER_OK, or the reason it is not one.
 */
P256_FN int p256_sig_parse_any(uint8_t rs[64], const uint8_t *sig, size_t len, int raw);
/* DER encoding of r||s (r, s < 2^256); returns the length, at most 72. */
P256_FN size_t p256_sig_der_encode(uint8_t out[72], const uint8_t rs[64]);

#endif /* P256_ECDSA_H */

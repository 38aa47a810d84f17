/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scalar.h: integers modulo the group order
 * n = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551.
 *
 * Representation: four 64-bit little-endian limbs of the plain value, fully reduced
 * (< n). Multiplication goes through Montgomery's method internally. Everything is
 * constant time unless the name ends in _vartime.
 */
#ifndef P256_SCALAR_H
#define P256_SCALAR_H

#include "common.h"

typedef struct {
    uint64_t v[4];
} p256_scalar;

/*
 * Loads a 32-byte big-endian value. set_bytes_checked returns all-ones if it is < n
 * (r = value), 0 otherwise (r unspecified). set_bytes_reduce takes any 256-bit value
 * and reduces it mod n (2^256 < 2n, so one conditional subtraction).
 */
P256_FN uint64_t p256_scalar_set_bytes_checked(p256_scalar *r, const uint8_t b[32]);
P256_FN void p256_scalar_set_bytes_reduce(p256_scalar *r, const uint8_t b[32]);
P256_FN void p256_scalar_to_bytes(uint8_t b[32], const p256_scalar *a);
/*
 * r = the big-endian integer b[0..len) mod n, for any length (RFC 9380's hash_to_field
 * over n reads 48 bytes; RFC 9497's HashToScalar is that). Constant time in the bytes;
 * len is public.
 */
P256_FN void p256_scalar_set_bytes_wide(p256_scalar *r, const uint8_t *b, size_t len);

/* All-ones if a == 0. */
P256_FN uint64_t p256_scalar_mask_is_zero(const p256_scalar *a);
/* r = -a mod n (n - a, and 0 for 0). Input < n, output < n. Constant time. r may alias a. */
P256_FN void p256_scalar_negate(p256_scalar *r, const p256_scalar *a);

/* r = a + b, r = a - b, r = a * b (mod n). Inputs < n, output < n. */
P256_FN void p256_scalar_add(p256_scalar *r, const p256_scalar *a, const p256_scalar *b);
P256_FN void p256_scalar_sub(p256_scalar *r, const p256_scalar *a, const p256_scalar *b);
P256_FN void p256_scalar_mul(p256_scalar *r, const p256_scalar *a, const p256_scalar *b);

/*
 * r = a^-1 mod n (0 for 0), constant time: p256_scalar_inv is the faster of the two
 * below on the backend (measured: docs/performance.md), the other its cross-check.
 * _safegcd: Bernstein-Yang safegcd (modinv.h); _fermat: a^(n-2) by a fixed addition
 * chain on the backend's Montgomery square and product. Signing inverts its nonce by
 * safegcd too, as one lane of a p256_modinv_pair beside kG's Z (ecdsa_impl.h): a
 * backend that made Fermat the faster one would change that call as well.
 */
P256_FN void p256_scalar_inv(p256_scalar *r, const p256_scalar *a);
P256_FN void p256_scalar_inv_safegcd(p256_scalar *r, const p256_scalar *a);
P256_FN void p256_scalar_inv_fermat(p256_scalar *r, const p256_scalar *a);
/* The same, variable time, for public values (the s of a signature being verified). */
P256_FN void p256_scalar_inv_vartime(p256_scalar *r, const p256_scalar *a);

/*
 * ECDSA's e: the leftmost 256 bits of a digest (all of it when shorter), as an integer
 * reduced mod n (FIPS 186-5 6.4.1, SEC 1 4.1.3 step 5).
 */
P256_FN void p256_scalar_from_digest(p256_scalar *r, const uint8_t *digest, size_t len);

#endif /* P256_SCALAR_H */

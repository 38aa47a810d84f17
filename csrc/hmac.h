/* SPDX-License-Identifier: Apache-2.0 */
/* p256 hashing layer: HMAC (RFC 2104, equivalently FIPS 198-1) over the hashes of hash.h.
 *
 * Contract of csrc/hmac_impl.h (static functions, one translation unit, as hash.h says).
 * Constant time: nothing branches on, or indexes memory with, the key or the message; only
 * lengths and the hash identifier (public values) steer control flow. Keys hold secret
 * state: p256_hmac_key_clear wipes one.
 */
#ifndef P256_HMAC_H
#define P256_HMAC_H

#include <stddef.h>
#include <stdint.h>

#include "hash.h"

/* HMAC key (RFC 2104) with both padded-key blocks already absorbed: inner is the hash state after
 * (K0 ^ ipad), outer after (K0 ^ opad), so each MAC costs only the message and the final outer
 * block(s). One key serves any number of messages; it holds secret state: wipe it with
 * p256_hmac_key_clear. */
typedef struct p256_hmac_key {
    p256_hash_ctx inner;
    p256_hash_ctx outer;
} p256_hmac_key;

/* Prepare an HMAC key for hash id. A key longer than the block size B is first hashed
 * (RFC 2104 section 2); shorter keys are zero-padded to B. key may be NULL when keylen is 0. */
P256_HASH_FN void p256_hmac_key_init(p256_hmac_key *k, p256_hash_id id, const uint8_t *key,
                                     size_t keylen);

/* out = HMAC_K(parts[0] || parts[1] || ... || parts[nparts-1]), p256_hash_size(id) bytes, with
 * part i being lens[i] bytes at parts[i] (NULL allowed when lens[i] is 0). The parts are
 * absorbed in place (no concatenation copy). out may alias any of the parts: it is written only
 * after all of them have been read. k is not modified. */
P256_HASH_FN void p256_hmac(const p256_hmac_key *k, const uint8_t *const *parts,
                            const size_t *lens, size_t nparts, uint8_t *out);

/* Wipe an HMAC key. */
P256_HASH_FN void p256_hmac_key_clear(p256_hmac_key *k);

#endif /* P256_HMAC_H */

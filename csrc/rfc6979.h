/* SPDX-License-Identifier: Apache-2.0 */
/* p256 deterministic / hedged nonce generation: the HMAC-DRBG of RFC 6979 section 3.2 for
 * P-256 (qlen = rlen = 256 bits), over any hash of hash.h.
 *
 * Contract of csrc/rfc6979_impl.h (which includes hmac_impl.h). All functions are `static`; the
 * core is one translation unit.
 *
 * Use (ECDSA signing, RFC 6979 section 3.2 / 3.6):
 *     p256_rfc6979 st;
 *     p256_rfc6979_init(&st, id, x, h1, extra, extra_len);
 *     do {
 *         p256_rfc6979_generate(&st, kbytes);       k = bits2int(kbytes) = the 32 bytes, big-endian
 *     } while (!(1 <= k < n));                      checked by the caller in constant time
 *     p256_rfc6979_clear(&st);
 *
 * Constant time: the only control flow is on the hash id, the (public) lengths and the number of
 * calls; every byte of x, h1, extra, K and V goes only through HMAC.
 */
#ifndef P256_RFC6979_H
#define P256_RFC6979_H

#include <stddef.h>
#include <stdint.h>

#include "hmac.h"

/* DRBG state: HMAC keyed with the current K (both pads precomputed; K itself is not kept) and
 * the current V (hlen bytes). */
typedef struct p256_rfc6979 {
    p256_hmac_key k;
    uint8_t v[P256_HASH_MAX_SIZE];
    size_t hlen;
    int started;   /* whether generate has been called (public: the number of calls) */
} p256_rfc6979;

/* Steps a-g of RFC 6979 section 3.2 for hash id:
 *   V = 0x01 0x01 ... (hlen bytes); K = 0x00 0x00 ... (hlen bytes)
 *   K = HMAC_K(V || 0x00 || x || h1 || extra); V = HMAC_K(V)
 *   K = HMAC_K(V || 0x01 || x || h1 || extra); V = HMAC_K(V)
 * x = int2octets(private key), 32 bytes; h1 = bits2octets(H(m)), i.e. the digest as an integer
 * (its leftmost 256 bits; a shorter digest such as SHA-224's as a plain big-endian integer)
 * reduced mod n, as 32 bytes; extra = the optional additional data k' of section 3.6 (fresh
 * randomness for hedged signatures), appended after h1 (NULL with extra_len 0 for plain
 * RFC 6979). */
P256_HASH_FN void p256_rfc6979_init(p256_rfc6979 *st, p256_hash_id id, const uint8_t x[32],
                                    const uint8_t h1[32], const uint8_t *extra, size_t extra_len);

/* Next nonce candidate, as the leftmost 256 bits of T (32 big-endian bytes; bits2int is the
 * identity here since qlen = 256). First call: step h.1-h.2 (T = V's concatenated, V = HMAC_K(V)
 * each, until 256 bits: two HMAC outputs for SHA-224, one otherwise). Later calls first apply
 * the step h.3 update K = HMAC_K(V || 0x00); V = HMAC_K(V), then produce T the same way. */
P256_HASH_FN void p256_rfc6979_generate(p256_rfc6979 *st, uint8_t out[32]);

/* Wipe the state. */
P256_HASH_FN void p256_rfc6979_clear(p256_rfc6979 *st);

#endif /* P256_RFC6979_H */

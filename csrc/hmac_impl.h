/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hmac_impl.h: HMAC (RFC 2104, FIPS 198-1) over any hash of the hash layer. Contract:
 * hmac.h.
 */
#ifndef P256_HMAC_IMPL_H
#define P256_HMAC_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common.h" /* p256_memzero */
#include "hmac.h"
#include "hash_impl.h"

/* ------------------------------------------------------------------------------------------ */
/* HMAC: RFC 2104 section 2 (FIPS 198-1 section 4):                                           */
/*   HMAC(K, text) = H((K0 ^ opad) || H((K0 ^ ipad) || text)), ipad = 0x36.., opad = 0x5c..,  */
/*   K0 = K zero-padded to B bytes, or H(K) zero-padded when K is longer than B.              */

P256_HASH_FN void p256_hmac_key_init(p256_hmac_key *k, p256_hash_id id, const uint8_t *key,
                                     size_t keylen)
{
    uint8_t k0[P256_HASH_MAX_BLOCK];
    size_t bs = p256_hash_block_size(id), i;

    memset(k0, 0, sizeof k0);
    if (keylen > bs)
        p256_hash(id, key, keylen, k0);
    else if (keylen != 0)
        memcpy(k0, key, keylen);

    for (i = 0; i < bs; i++)
        k0[i] ^= 0x36;
    p256_hash_init(&k->inner, id);
    p256_hash_update(&k->inner, k0, bs);

    for (i = 0; i < bs; i++)
        k0[i] ^= 0x36 ^ 0x5c;
    p256_hash_init(&k->outer, id);
    p256_hash_update(&k->outer, k0, bs);

    p256_memzero(k0, sizeof k0);
}

P256_HASH_FN void p256_hmac(const p256_hmac_key *k, const uint8_t *const *parts,
                            const size_t *lens, size_t nparts, uint8_t *out)
{
    p256_hash_ctx c;
    uint8_t ih[P256_HASH_MAX_SIZE];
    size_t n = p256_hash_size(k->inner.id), i;

    p256_hash_ctx_copy(&c, &k->inner);
    for (i = 0; i < nparts; i++)
        p256_hash_update(&c, parts[i], lens[i]);
    p256_hash_final(&c, ih);          /* inner digest; wipes c */

    p256_hash_ctx_copy(&c, &k->outer);
    p256_hash_update(&c, ih, n);
    p256_hash_final(&c, ih);
    memcpy(out, ih, n);
    p256_memzero(ih, sizeof ih);
}

P256_HASH_FN void p256_hmac_key_clear(p256_hmac_key *k)
{
    p256_memzero(k, sizeof *k);
}

#endif /* P256_HMAC_IMPL_H */

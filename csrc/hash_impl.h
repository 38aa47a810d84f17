/* SPDX-License-Identifier: Apache-2.0 */
/* p256 hashing layer: SHA-2 (FIPS 180-4) and SHA-3 (FIPS 202), one algorithm per file
 * (hash_sha256_impl.h, hash_sha512_impl.h, hash_sha3_impl.h); here the dispatch by hash id.
 * Contract: hash.h. HMAC: hmac_impl.h. Implementation written from the standards cited at
 * each section. */
#ifndef P256_HASH_IMPL_H
#define P256_HASH_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common.h" /* p256_memzero */
#include "hash.h"
#include "hash_sha256_impl.h"
#include "hash_sha512_impl.h"
#include "hash_sha3_impl.h"

/* ------------------------------------------------------------------------------------------ */
/* Generic interface                                                                          */

P256_HASH_FN size_t p256_hash_size(p256_hash_id id)
{
    switch (id) {
    case P256_HASH_SHA224: return 28;
    case P256_HASH_SHA256: return 32;
    case P256_HASH_SHA384: return 48;
    case P256_HASH_SHA512: return 64;
    case P256_HASH_SHA3_256: return 32;
    case P256_HASH_SHA3_384: return 48;
    case P256_HASH_SHA3_512: return 64;
    }
    return 0;
}

P256_HASH_FN size_t p256_hash_block_size(p256_hash_id id)
{
    switch (id) {
    case P256_HASH_SHA224:
    case P256_HASH_SHA256: return 64;
    case P256_HASH_SHA384:
    case P256_HASH_SHA512: return 128;
    case P256_HASH_SHA3_256: return 136;
    case P256_HASH_SHA3_384: return 104;
    case P256_HASH_SHA3_512: return 72;
    }
    return 0;
}

P256_HASH_FN void p256_hash_init(p256_hash_ctx *c, p256_hash_id id)
{
    memset(c, 0, sizeof *c);   /* no stale bytes in the unused parts of the union or buffer */
    c->id = id;
    switch (id) {
    case P256_HASH_SHA224: p256_sha256_init(&c->u.s256, p256_sha224_iv); break;
    case P256_HASH_SHA256: p256_sha256_init(&c->u.s256, p256_sha256_iv); break;
    case P256_HASH_SHA384: p256_sha512_init(&c->u.s512, p256_sha384_iv); break;
    case P256_HASH_SHA512: p256_sha512_init(&c->u.s512, p256_sha512_iv); break;
    case P256_HASH_SHA3_256:
    case P256_HASH_SHA3_384:
    case P256_HASH_SHA3_512: p256_sha3_init(&c->u.sha3, p256_hash_size(id)); break;
    }
}

P256_HASH_FN void p256_hash_update(p256_hash_ctx *c, const uint8_t *data, size_t len)
{
    if (len == 0)
        return;
    switch (c->id) {
    case P256_HASH_SHA224:
    case P256_HASH_SHA256: p256_sha256_update(&c->u.s256, data, len); break;
    case P256_HASH_SHA384:
    case P256_HASH_SHA512: p256_sha512_update(&c->u.s512, data, len); break;
    case P256_HASH_SHA3_256:
    case P256_HASH_SHA3_384:
    case P256_HASH_SHA3_512: p256_sha3_update(&c->u.sha3, data, len); break;
    }
}

/* *dst = *src, copying only the union member in use (cheaper for SHA-224/256). */
static inline void p256_hash_ctx_copy(p256_hash_ctx *dst, const p256_hash_ctx *src)
{
    dst->id = src->id;
    switch (src->id) {
    case P256_HASH_SHA224:
    case P256_HASH_SHA256: dst->u.s256 = src->u.s256; break;
    case P256_HASH_SHA384:
    case P256_HASH_SHA512: dst->u.s512 = src->u.s512; break;
    case P256_HASH_SHA3_256:
    case P256_HASH_SHA3_384:
    case P256_HASH_SHA3_512: dst->u.sha3 = src->u.sha3; break;
    }
}

P256_HASH_FN void p256_hash_ctx_clear(p256_hash_ctx *c)
{
    p256_memzero(c, sizeof *c);
}

P256_HASH_FN void p256_hash_final(p256_hash_ctx *c, uint8_t *out)
{
    size_t n = p256_hash_size(c->id);

    switch (c->id) {
    case P256_HASH_SHA224:
    case P256_HASH_SHA256: p256_sha256_final(&c->u.s256, out, n); break;
    case P256_HASH_SHA384:
    case P256_HASH_SHA512: p256_sha512_final(&c->u.s512, out, n); break;
    case P256_HASH_SHA3_256:
    case P256_HASH_SHA3_384:
    case P256_HASH_SHA3_512: p256_sha3_final(&c->u.sha3, out, n); break;
    }
    p256_hash_ctx_clear(c);
}

P256_HASH_FN void p256_hash(p256_hash_id id, const uint8_t *data, size_t len, uint8_t *out)
{
    p256_hash_ctx c;

    p256_hash_init(&c, id);
    p256_hash_update(&c, data, len);
    p256_hash_final(&c, out);
}

#endif /* P256_HASH_IMPL_H */

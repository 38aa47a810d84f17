/* SPDX-License-Identifier: Apache-2.0 */
/* p256 nonce generation: RFC 6979 section 3.2 HMAC-DRBG (with the section 3.6 additional data
 * k'), specialised to qlen = rlen = 256 bits. Contract: rfc6979.h. */
#ifndef P256_RFC6979_IMPL_H
#define P256_RFC6979_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hmac_impl.h"
#include "rfc6979.h"

/* V = HMAC_K(V) */
static void p256_rfc6979_next_v(p256_rfc6979 *st)
{
    const uint8_t *parts[1];
    size_t lens[1];

    parts[0] = st->v;
    lens[0] = st->hlen;
    p256_hmac(&st->k, parts, lens, 1, st->v);   /* p256_hmac allows out to alias a part */
}

/* K = HMAC_K(V || sep || x || h1 || extra); V = HMAC_K(V).
 * Steps d-e (sep 0x00) and f-g (sep 0x01) of 3.2, and with x, h1, extra all empty the update
 * of step h.3. The new K only lives in k[] until its pads are absorbed into st->k. */
static void p256_rfc6979_mix(p256_rfc6979 *st, uint8_t sep, const uint8_t *x, size_t xlen,
                             const uint8_t *h1, size_t h1len, const uint8_t *extra,
                             size_t extra_len)
{
    uint8_t k[P256_HASH_MAX_SIZE];
    const uint8_t *parts[5];
    size_t lens[5];

    parts[0] = st->v;  lens[0] = st->hlen;
    parts[1] = &sep;   lens[1] = 1;
    parts[2] = x;      lens[2] = xlen;
    parts[3] = h1;     lens[3] = h1len;
    parts[4] = extra;  lens[4] = extra_len;
    p256_hmac(&st->k, parts, lens, 5, k);
    p256_hmac_key_init(&st->k, st->k.inner.id, k, st->hlen);
    p256_rfc6979_next_v(st);
    p256_memzero(k, sizeof k);
}

P256_HASH_FN void p256_rfc6979_init(p256_rfc6979 *st, p256_hash_id id, const uint8_t x[32],
                                    const uint8_t h1[32], const uint8_t *extra, size_t extra_len)
{
    static const uint8_t zero[P256_HASH_MAX_SIZE] = {0};

    st->hlen = p256_hash_size(id);
    st->started = 0;
    memset(st->v, 0, sizeof st->v);
    memset(st->v, 0x01, st->hlen);                       /* step b */
    p256_hmac_key_init(&st->k, id, zero, st->hlen);      /* step c: K = 0x00 ... 0x00 */
    p256_rfc6979_mix(st, 0x00, x, 32, h1, 32, extra, extra_len);   /* steps d, e */
    p256_rfc6979_mix(st, 0x01, x, 32, h1, 32, extra, extra_len);   /* steps f, g */
}

P256_HASH_FN void p256_rfc6979_generate(p256_rfc6979 *st, uint8_t out[32])
{
    size_t tlen = 0, n;

    if (st->started)   /* step h.3: K = HMAC_K(V || 0x00); V = HMAC_K(V) */
        p256_rfc6979_mix(st, 0x00, NULL, 0, NULL, 0, NULL, 0);
    st->started = 1;

    /* steps h.1, h.2: T = empty; while tlen < qlen: V = HMAC_K(V), T = T || V */
    while (tlen < 32) {
        p256_rfc6979_next_v(st);
        n = st->hlen < 32 - tlen ? st->hlen : 32 - tlen;
        memcpy(out + tlen, st->v, n);
        tlen += n;
    }
}

P256_HASH_FN void p256_rfc6979_clear(p256_rfc6979 *st)
{
    p256_memzero(st, sizeof *st);
}

#endif /* P256_RFC6979_IMPL_H */

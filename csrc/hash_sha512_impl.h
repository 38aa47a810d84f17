/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hash_sha512_impl.h: SHA-384 and SHA-512 (FIPS 180-4): compression and streaming functions.
 * Contract: hash.h (the layer is one translation unit of static functions).
 */
#ifndef P256_HASH_SHA512_IMPL_H
#define P256_HASH_SHA512_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hash.h"
#include "hash_common.h"

/* ------------------------------------------------------------------------------------------ */
/* SHA-384 / SHA-512: FIPS 180-4 sections 4.1.3, 4.2.3, 5.1.2, 5.3.4, 5.3.5, 6.4, 6.5          */

/* K: first 64 bits of the fractional parts of the cube roots of the first 80 primes (4.2.3). */
static const uint64_t p256_sha512_k[80] = {
    0x428a2f98d728ae22ull, 0x7137449123ef65cdull, 0xb5c0fbcfec4d3b2full, 0xe9b5dba58189dbbcull,
    0x3956c25bf348b538ull, 0x59f111f1b605d019ull, 0x923f82a4af194f9bull, 0xab1c5ed5da6d8118ull,
    0xd807aa98a3030242ull, 0x12835b0145706fbeull, 0x243185be4ee4b28cull, 0x550c7dc3d5ffb4e2ull,
    0x72be5d74f27b896full, 0x80deb1fe3b1696b1ull, 0x9bdc06a725c71235ull, 0xc19bf174cf692694ull,
    0xe49b69c19ef14ad2ull, 0xefbe4786384f25e3ull, 0x0fc19dc68b8cd5b5ull, 0x240ca1cc77ac9c65ull,
    0x2de92c6f592b0275ull, 0x4a7484aa6ea6e483ull, 0x5cb0a9dcbd41fbd4ull, 0x76f988da831153b5ull,
    0x983e5152ee66dfabull, 0xa831c66d2db43210ull, 0xb00327c898fb213full, 0xbf597fc7beef0ee4ull,
    0xc6e00bf33da88fc2ull, 0xd5a79147930aa725ull, 0x06ca6351e003826full, 0x142929670a0e6e70ull,
    0x27b70a8546d22ffcull, 0x2e1b21385c26c926ull, 0x4d2c6dfc5ac42aedull, 0x53380d139d95b3dfull,
    0x650a73548baf63deull, 0x766a0abb3c77b2a8ull, 0x81c2c92e47edaee6ull, 0x92722c851482353bull,
    0xa2bfe8a14cf10364ull, 0xa81a664bbc423001ull, 0xc24b8b70d0f89791ull, 0xc76c51a30654be30ull,
    0xd192e819d6ef5218ull, 0xd69906245565a910ull, 0xf40e35855771202aull, 0x106aa07032bbd1b8ull,
    0x19a4c116b8d2d0c8ull, 0x1e376c085141ab53ull, 0x2748774cdf8eeb99ull, 0x34b0bcb5e19b48a8ull,
    0x391c0cb3c5c95a63ull, 0x4ed8aa4ae3418acbull, 0x5b9cca4f7763e373ull, 0x682e6ff3d6b2b8a3ull,
    0x748f82ee5defb2fcull, 0x78a5636f43172f60ull, 0x84c87814a1f0ab72ull, 0x8cc702081a6439ecull,
    0x90befffa23631e28ull, 0xa4506cebde82bde9ull, 0xbef9a3f7b2c67915ull, 0xc67178f2e372532bull,
    0xca273eceea26619cull, 0xd186b8c721c0c207ull, 0xeada7dd6cde0eb1eull, 0xf57d4f7fee6ed178ull,
    0x06f067aa72176fbaull, 0x0a637dc5a2c898a6ull, 0x113f9804bef90daeull, 0x1b710b35131c471bull,
    0x28db77f523047d84ull, 0x32caab7b40c72493ull, 0x3c9ebe0a15c9bebcull, 0x431d67c49c100d4cull,
    0x4cc5d4becb3e42b6ull, 0x597f299cfc657e2aull, 0x5fcb6fab3ad6faecull, 0x6c44198c4a475817ull,
};

/* Initial hash values (5.3.5 for SHA-512, 5.3.4 for SHA-384). */
static const uint64_t p256_sha512_iv[8] = {
    0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
    0x510e527fade682d1ull, 0x9b05688c2b3e6c1full, 0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull,
};
static const uint64_t p256_sha384_iv[8] = {
    0xcbbb9d5dc1059ed8ull, 0x629a292a367cd507ull, 0x9159015a3070dd17ull, 0x152fecd8f70e5939ull,
    0x67332667ffc00b31ull, 0x8eb44a8768581511ull, 0xdb0c2e0d64f98fa7ull, 0x47b5481dbefa4fa4ull,
};

#define P256_ROTR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
#define P256_S512_BSIG0(x) (P256_ROTR64(x, 28) ^ P256_ROTR64(x, 34) ^ P256_ROTR64(x, 39))
#define P256_S512_BSIG1(x) (P256_ROTR64(x, 14) ^ P256_ROTR64(x, 18) ^ P256_ROTR64(x, 41))
#define P256_S512_SSIG0(x) (P256_ROTR64(x, 1) ^ P256_ROTR64(x, 8) ^ ((x) >> 7))
#define P256_S512_SSIG1(x) (P256_ROTR64(x, 19) ^ P256_ROTR64(x, 61) ^ ((x) >> 6))

#define P256_S512_ROUND(a, b, c, d, e, f, g, h, i, W)                                            \
    do {                                                                                       \
        uint64_t t1_ = (h) + P256_S512_BSIG1(e) + P256_CH(e, f, g) + p256_sha512_k[i] + W(i);  \
        uint64_t t2_ = P256_S512_BSIG0(a) + P256_MAJ(a, b, c);                                 \
        (d) += t1_;                                                                            \
        (h) = t1_ + t2_;                                                                       \
    } while (0)

#define P256_S512_W0(i) w[i]
#define P256_S512_WX(i)                                                                        \
    (w[(i) & 15] += P256_S512_SSIG1(w[((i) - 2) & 15]) + w[((i) - 7) & 15] +                   \
                    P256_S512_SSIG0(w[((i) - 15) & 15]))

#define P256_S512_8ROUNDS(i, W)                                                                \
    do {                                                                                       \
        P256_S512_ROUND(a, b, c, d, e, f, g, h, (i) + 0, W);                                   \
        P256_S512_ROUND(h, a, b, c, d, e, f, g, (i) + 1, W);                                   \
        P256_S512_ROUND(g, h, a, b, c, d, e, f, (i) + 2, W);                                   \
        P256_S512_ROUND(f, g, h, a, b, c, d, e, (i) + 3, W);                                   \
        P256_S512_ROUND(e, f, g, h, a, b, c, d, (i) + 4, W);                                   \
        P256_S512_ROUND(d, e, f, g, h, a, b, c, (i) + 5, W);                                   \
        P256_S512_ROUND(c, d, e, f, g, h, a, b, (i) + 6, W);                                   \
        P256_S512_ROUND(b, c, d, e, f, g, h, a, (i) + 7, W);                                   \
    } while (0)

/* SHA-512 compression of nblocks consecutive 128-byte blocks (6.4.2). */
static void p256_sha512_compress(uint64_t s[8], const uint8_t *p, size_t nblocks)
{
    uint64_t a, b, c, d, e, f, g, h;
    uint64_t w[16];
    int i;

    while (nblocks--) {
        for (i = 0; i < 16; i++)
            w[i] = p256_load_be64(p + 8 * i);
        a = s[0]; b = s[1]; c = s[2]; d = s[3];
        e = s[4]; f = s[5]; g = s[6]; h = s[7];

        P256_S512_8ROUNDS(0, P256_S512_W0);
        P256_S512_8ROUNDS(8, P256_S512_W0);
        P256_S512_8ROUNDS(16, P256_S512_WX);
        P256_S512_8ROUNDS(24, P256_S512_WX);
        P256_S512_8ROUNDS(32, P256_S512_WX);
        P256_S512_8ROUNDS(40, P256_S512_WX);
        P256_S512_8ROUNDS(48, P256_S512_WX);
        P256_S512_8ROUNDS(56, P256_S512_WX);
        P256_S512_8ROUNDS(64, P256_S512_WX);
        P256_S512_8ROUNDS(72, P256_S512_WX);

        s[0] += a; s[1] += b; s[2] += c; s[3] += d;
        s[4] += e; s[5] += f; s[6] += g; s[7] += h;
        p += 128;
    }
    p256_memzero(w, sizeof w);
}

static void p256_sha512_init(p256_sha512_state *st, const uint64_t iv[8])
{
    memcpy(st->h, iv, sizeof st->h);
    st->bytes = 0;
}

static void p256_sha512_update(p256_sha512_state *st, const uint8_t *data, size_t len)
{
    size_t pos = (size_t)(st->bytes & 127);

    if (len == 0)
        return;
    st->bytes += len;
    if (pos != 0) {
        size_t take = 128 - pos;
        if (take > len)
            take = len;
        memcpy(st->buf + pos, data, take);
        data += take;
        len -= take;
        if (pos + take < 128)
            return;
        p256_sha512_compress(st->h, st->buf, 1);
    }
    if (len >= 128) {
        size_t n = len / 128;
        p256_sha512_compress(st->h, data, n);
        data += 128 * n;
        len -= 128 * n;
    }
    if (len != 0)
        memcpy(st->buf, data, len);
}

/* Padding of 5.1.2 (0x80, zeros, 128-bit big-endian bit length), then outlen bytes of H
 * (SHA-384 keeps the leftmost 384 bits, 6.5). The caller wipes st. */
static void p256_sha512_final(p256_sha512_state *st, uint8_t *out, size_t outlen)
{
    size_t pos = (size_t)(st->bytes & 127);
    size_t i;

    st->buf[pos++] = 0x80;
    if (pos > 112) {
        memset(st->buf + pos, 0, 128 - pos);
        p256_sha512_compress(st->h, st->buf, 1);
        pos = 0;
    }
    memset(st->buf + pos, 0, 112 - pos);
    p256_store_be64(st->buf + 112, st->bytes >> 61);   /* high 64 bits of the bit length */
    p256_store_be64(st->buf + 120, st->bytes << 3);
    p256_sha512_compress(st->h, st->buf, 1);
    for (i = 0; i < outlen / 8; i++)
        p256_store_be64(out + 8 * i, st->h[i]);
}

#endif /* P256_HASH_SHA512_IMPL_H */

/* SPDX-License-Identifier: Apache-2.0 */
/* p256 hashing layer: SHA-2 (FIPS 180-4), SHA-3 (FIPS 202), HMAC (RFC 2104).
 * Contract: hash.h. Implementation written from the standards cited at each section. */
#ifndef P256_HASH_IMPL_H
#define P256_HASH_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common.h" /* p256_memzero */
#include "cpu.h"
#include "hash.h"

/* ------------------------------------------------------------------------------------------ */
/* Byte order                                                                                 */

static inline uint32_t p256_load_be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline void p256_store_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static inline uint64_t p256_load_be64(const uint8_t *p)
{
    return ((uint64_t)p256_load_be32(p) << 32) | p256_load_be32(p + 4);
}

static inline void p256_store_be64(uint8_t *p, uint64_t v)
{
    p256_store_be32(p, (uint32_t)(v >> 32));
    p256_store_be32(p + 4, (uint32_t)v);
}

static inline uint64_t p256_load_le64(const uint8_t *p)
{
    return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) |
           ((uint64_t)p[3] << 24) | ((uint64_t)p[4] << 32) | ((uint64_t)p[5] << 40) |
           ((uint64_t)p[6] << 48) | ((uint64_t)p[7] << 56);
}

/* ------------------------------------------------------------------------------------------ */
/* SHA-224 / SHA-256: FIPS 180-4 sections 4.1.2, 4.2.2, 5.1.1, 5.3.2, 5.3.3, 6.2, 6.3         */

/* K: first 32 bits of the fractional parts of the cube roots of the first 64 primes (4.2.2). */
static const uint32_t p256_sha256_k[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u,
    0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u,
    0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu,
    0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u,
    0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u,
    0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u,
    0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u,
    0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u,
    0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
};

/* Initial hash values (5.3.3 for SHA-256, 5.3.2 for SHA-224). */
static const uint32_t p256_sha256_iv[8] = {
    0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
    0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u,
};
static const uint32_t p256_sha224_iv[8] = {
    0xc1059ed8u, 0x367cd507u, 0x3070dd17u, 0xf70e5939u,
    0xffc00b31u, 0x68581511u, 0x64f98fa7u, 0xbefa4fa4u,
};

#define P256_ROTR32(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
/* Functions of 4.1.2: Ch, Maj, Sigma0, Sigma1 (BSIG) and sigma0, sigma1 (SSIG). Ch and Maj are
 * written in equivalent forms with fewer operations. */
#define P256_CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define P256_MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))
#define P256_S256_BSIG0(x) (P256_ROTR32(x, 2) ^ P256_ROTR32(x, 13) ^ P256_ROTR32(x, 22))
#define P256_S256_BSIG1(x) (P256_ROTR32(x, 6) ^ P256_ROTR32(x, 11) ^ P256_ROTR32(x, 25))
#define P256_S256_SSIG0(x) (P256_ROTR32(x, 7) ^ P256_ROTR32(x, 18) ^ ((x) >> 3))
#define P256_S256_SSIG1(x) (P256_ROTR32(x, 17) ^ P256_ROTR32(x, 19) ^ ((x) >> 10))

/* One round of 6.2.2 step 3 with the working variables renamed instead of shifted: the caller
 * rotates the argument order, so only d and h are written (d += T1; h = T1 + T2). */
#define P256_S256_ROUND(a, b, c, d, e, f, g, h, i, W)                                            \
    do {                                                                                       \
        uint32_t t1_ = (h) + P256_S256_BSIG1(e) + P256_CH(e, f, g) + p256_sha256_k[i] + W(i);  \
        uint32_t t2_ = P256_S256_BSIG0(a) + P256_MAJ(a, b, c);                                 \
        (d) += t1_;                                                                            \
        (h) = t1_ + t2_;                                                                       \
    } while (0)

/* Message schedule (6.2.2 step 1) kept as a 16-word ring: W_t for t < 16 is the loaded word,
 * and W_t = sigma1(W_{t-2}) + W_{t-7} + sigma0(W_{t-15}) + W_{t-16} overwrites W_{t-16}. */
#define P256_S256_W0(i) w[i]
#define P256_S256_WX(i)                                                                        \
    (w[(i) & 15] += P256_S256_SSIG1(w[((i) - 2) & 15]) + w[((i) - 7) & 15] +                   \
                    P256_S256_SSIG0(w[((i) - 15) & 15]))

#define P256_S256_8ROUNDS(i, W)                                                                \
    do {                                                                                       \
        P256_S256_ROUND(a, b, c, d, e, f, g, h, (i) + 0, W);                                   \
        P256_S256_ROUND(h, a, b, c, d, e, f, g, (i) + 1, W);                                   \
        P256_S256_ROUND(g, h, a, b, c, d, e, f, (i) + 2, W);                                   \
        P256_S256_ROUND(f, g, h, a, b, c, d, e, (i) + 3, W);                                   \
        P256_S256_ROUND(e, f, g, h, a, b, c, d, (i) + 4, W);                                   \
        P256_S256_ROUND(d, e, f, g, h, a, b, c, (i) + 5, W);                                   \
        P256_S256_ROUND(c, d, e, f, g, h, a, b, (i) + 6, W);                                   \
        P256_S256_ROUND(b, c, d, e, f, g, h, a, (i) + 7, W);                                   \
    } while (0)

/* Portable SHA-256 compression of nblocks consecutive 64-byte blocks (6.2.2). */
P256_HASH_FN void p256_sha256_compress_portable(uint32_t s[8], const uint8_t *p, size_t nblocks)
{
    uint32_t a, b, c, d, e, f, g, h;
    uint32_t w[16];
    int i;

    while (nblocks--) {
        for (i = 0; i < 16; i++)
            w[i] = p256_load_be32(p + 4 * i);
        a = s[0]; b = s[1]; c = s[2]; d = s[3];
        e = s[4]; f = s[5]; g = s[6]; h = s[7];

        P256_S256_8ROUNDS(0, P256_S256_W0);
        P256_S256_8ROUNDS(8, P256_S256_W0);
        P256_S256_8ROUNDS(16, P256_S256_WX);
        P256_S256_8ROUNDS(24, P256_S256_WX);
        P256_S256_8ROUNDS(32, P256_S256_WX);
        P256_S256_8ROUNDS(40, P256_S256_WX);
        P256_S256_8ROUNDS(48, P256_S256_WX);
        P256_S256_8ROUNDS(56, P256_S256_WX);

        s[0] += a; s[1] += b; s[2] += c; s[3] += d;
        s[4] += e; s[5] += f; s[6] += g; s[7] += h;
        p += 64;
    }
    /* The schedule ring and working variables held message/state words: wipe the ring (the
     * registers are not addressable). */
    p256_memzero(w, sizeof w);
}

/* ---- x86-64 SHA extensions (SHA-NI) ------------------------------------------------------
 * Intel SHA extensions: SHA256RNDS2 performs two rounds on the state split as ABEF / CDGH
 * (A in the high dword), taking W_t + K_t for the two rounds in the low 64 bits of its third
 * operand; SHA256MSG1 / SHA256MSG2 compute the sigma0 / sigma1 parts of the schedule of 6.2.2
 * step 1 four words at a time. */
#if !defined(P256_NO_SHA_EXT) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define P256_SHA256_X86_SHANI 1
#include <immintrin.h>

/* Four rounds t = i..i+3 with message words m = (W_i .. W_i+3) in dword lanes 0..3. */
#define P256_SHANI_4ROUNDS(i, m)                                                               \
    do {                                                                                       \
        __m128i wk_ = _mm_add_epi32(                                                           \
            (m), _mm_loadu_si128((const __m128i *)(const void *)&p256_sha256_k[i]));           \
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk_); /* cdgh now holds the new ABEF */       \
        wk_ = _mm_shuffle_epi32(wk_, 0x0E);                                                    \
        abef = _mm_sha256rnds2_epu32(abef, cdgh, wk_); /* and abef the newest ABEF again */    \
    } while (0)

/* m0 = W_t..t+3 from m0 = W_t-16.., m1 = W_t-12.., m2 = W_t-8.., m3 = W_t-4..: MSG1 adds
 * sigma0(W_t-15..), the alignr supplies W_t-7.., MSG2 adds sigma1(W_t-2..). */
#define P256_SHANI_SCHEDULE(m0, m1, m2, m3)                                                    \
    (m0) = _mm_sha256msg2_epu32(                                                               \
        _mm_add_epi32(_mm_sha256msg1_epu32((m0), (m1)), _mm_alignr_epi8((m3), (m2), 4)), (m3))

__attribute__((target("sha,sse4.1")))
static void p256_sha256_compress_accel(uint32_t s[8], const uint8_t *p, size_t nblocks)
{
    /* pshufb mask turning each big-endian 32-bit word into a native dword */
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i abef, cdgh, tmp, abef0, cdgh0, m0, m1, m2, m3;

    tmp = _mm_loadu_si128((const __m128i *)(const void *)&s[0]);  /* dwords A B C D */
    cdgh = _mm_loadu_si128((const __m128i *)(const void *)&s[4]); /* E F G H */
    tmp = _mm_shuffle_epi32(tmp, 0xB1);                           /* B A D C */
    cdgh = _mm_shuffle_epi32(cdgh, 0x1B);                         /* H G F E */
    abef = _mm_alignr_epi8(tmp, cdgh, 8);                         /* F E B A */
    cdgh = _mm_blend_epi16(cdgh, tmp, 0xF0);                      /* H G D C */

    while (nblocks--) {
        abef0 = abef;
        cdgh0 = cdgh;
        m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 0)), bswap);
        m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 16)), bswap);
        m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 32)), bswap);
        m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 48)), bswap);

        P256_SHANI_4ROUNDS(0, m0);
        P256_SHANI_4ROUNDS(4, m1);
        P256_SHANI_4ROUNDS(8, m2);
        P256_SHANI_4ROUNDS(12, m3);
        P256_SHANI_SCHEDULE(m0, m1, m2, m3); P256_SHANI_4ROUNDS(16, m0);
        P256_SHANI_SCHEDULE(m1, m2, m3, m0); P256_SHANI_4ROUNDS(20, m1);
        P256_SHANI_SCHEDULE(m2, m3, m0, m1); P256_SHANI_4ROUNDS(24, m2);
        P256_SHANI_SCHEDULE(m3, m0, m1, m2); P256_SHANI_4ROUNDS(28, m3);
        P256_SHANI_SCHEDULE(m0, m1, m2, m3); P256_SHANI_4ROUNDS(32, m0);
        P256_SHANI_SCHEDULE(m1, m2, m3, m0); P256_SHANI_4ROUNDS(36, m1);
        P256_SHANI_SCHEDULE(m2, m3, m0, m1); P256_SHANI_4ROUNDS(40, m2);
        P256_SHANI_SCHEDULE(m3, m0, m1, m2); P256_SHANI_4ROUNDS(44, m3);
        P256_SHANI_SCHEDULE(m0, m1, m2, m3); P256_SHANI_4ROUNDS(48, m0);
        P256_SHANI_SCHEDULE(m1, m2, m3, m0); P256_SHANI_4ROUNDS(52, m1);
        P256_SHANI_SCHEDULE(m2, m3, m0, m1); P256_SHANI_4ROUNDS(56, m2);
        P256_SHANI_SCHEDULE(m3, m0, m1, m2); P256_SHANI_4ROUNDS(60, m3);

        abef = _mm_add_epi32(abef, abef0);
        cdgh = _mm_add_epi32(cdgh, cdgh0);
        p += 64;
    }

    tmp = _mm_shuffle_epi32(abef, 0x1B);        /* A B E F */
    cdgh = _mm_shuffle_epi32(cdgh, 0xB1);       /* G H C D */
    abef = _mm_blend_epi16(tmp, cdgh, 0xF0);    /* A B C D */
    cdgh = _mm_alignr_epi8(cdgh, tmp, 8);       /* E F G H */
    _mm_storeu_si128((__m128i *)(void *)&s[0], abef);
    _mm_storeu_si128((__m128i *)(void *)&s[4], cdgh);
}

#endif /* SHA-NI */

/* ---- ARMv8 SHA2 crypto extension (aarch64) ------------------------------------------------
 * Arm ARM, SHA256H / SHA256H2: four rounds on the state halves ABCD and EFGH (A, E in lane 0)
 * taking W_t + K_t for the four rounds; SHA256SU0 / SHA256SU1: four words of the schedule of
 * 6.2.2 step 1 (sigma0 part, then sigma1 part). Used through the ACLE intrinsics of
 * arm_neon.h in a function compiled for +sha2 (clang before 16 only declares them when the
 * whole file is built with the feature, so it needs -march=...+crypto/+sha2 to get this path). */
#if !defined(P256_NO_SHA_EXT) && defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__)) && \
    (defined(__linux__) || defined(__APPLE__)) &&                                              \
    (!defined(__clang__) || __clang_major__ >= 16 || defined(__ARM_FEATURE_SHA2) ||            \
     defined(__ARM_FEATURE_CRYPTO))
#define P256_SHA256_ARM_SHA2 1
#include <arm_neon.h>

#if defined(__clang__)
#define P256_TARGET_ARM_SHA2 __attribute__((target("sha2")))
#else
#define P256_TARGET_ARM_SHA2 __attribute__((target("+crypto")))
#endif

/* Four rounds t = i..i+3 with message words m = (W_i .. W_i+3). */
#define P256_ARMSHA_4ROUNDS(i, m)                                                              \
    do {                                                                                       \
        uint32x4_t wk_ = vaddq_u32((m), vld1q_u32(&p256_sha256_k[i]));                         \
        uint32x4_t abcd_ = abcd;                                                               \
        abcd = vsha256hq_u32(abcd, efgh, wk_);                                                 \
        efgh = vsha256h2q_u32(efgh, abcd_, wk_);                                               \
    } while (0)

/* m0 = W_t..t+3 from m0 = W_t-16.., m1 = W_t-12.., m2 = W_t-8.., m3 = W_t-4.. */
#define P256_ARMSHA_SCHEDULE(m0, m1, m2, m3)                                                   \
    (m0) = vsha256su1q_u32(vsha256su0q_u32((m0), (m1)), (m2), (m3))

P256_TARGET_ARM_SHA2
static void p256_sha256_compress_accel(uint32_t s[8], const uint8_t *p, size_t nblocks)
{
    uint32x4_t abcd = vld1q_u32(&s[0]), efgh = vld1q_u32(&s[4]);
    uint32x4_t abcd0, efgh0, m0, m1, m2, m3;

    while (nblocks--) {
        abcd0 = abcd;
        efgh0 = efgh;
        /* big-endian words: byte-reverse each 32-bit lane */
        m0 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 0)));
        m1 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 16)));
        m2 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 32)));
        m3 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 48)));

        P256_ARMSHA_4ROUNDS(0, m0);
        P256_ARMSHA_4ROUNDS(4, m1);
        P256_ARMSHA_4ROUNDS(8, m2);
        P256_ARMSHA_4ROUNDS(12, m3);
        P256_ARMSHA_SCHEDULE(m0, m1, m2, m3); P256_ARMSHA_4ROUNDS(16, m0);
        P256_ARMSHA_SCHEDULE(m1, m2, m3, m0); P256_ARMSHA_4ROUNDS(20, m1);
        P256_ARMSHA_SCHEDULE(m2, m3, m0, m1); P256_ARMSHA_4ROUNDS(24, m2);
        P256_ARMSHA_SCHEDULE(m3, m0, m1, m2); P256_ARMSHA_4ROUNDS(28, m3);
        P256_ARMSHA_SCHEDULE(m0, m1, m2, m3); P256_ARMSHA_4ROUNDS(32, m0);
        P256_ARMSHA_SCHEDULE(m1, m2, m3, m0); P256_ARMSHA_4ROUNDS(36, m1);
        P256_ARMSHA_SCHEDULE(m2, m3, m0, m1); P256_ARMSHA_4ROUNDS(40, m2);
        P256_ARMSHA_SCHEDULE(m3, m0, m1, m2); P256_ARMSHA_4ROUNDS(44, m3);
        P256_ARMSHA_SCHEDULE(m0, m1, m2, m3); P256_ARMSHA_4ROUNDS(48, m0);
        P256_ARMSHA_SCHEDULE(m1, m2, m3, m0); P256_ARMSHA_4ROUNDS(52, m1);
        P256_ARMSHA_SCHEDULE(m2, m3, m0, m1); P256_ARMSHA_4ROUNDS(56, m2);
        P256_ARMSHA_SCHEDULE(m3, m0, m1, m2); P256_ARMSHA_4ROUNDS(60, m3);

        abcd = vaddq_u32(abcd, abcd0);
        efgh = vaddq_u32(efgh, efgh0);
        p += 64;
    }
    vst1q_u32(&s[0], abcd);
    vst1q_u32(&s[4], efgh);
}

#endif /* ARMv8 SHA2 */

#if defined(P256_SHA256_X86_SHANI)
#define P256_SHA256_ACCEL 1
#define P256_SHA256_ACCEL_CPU P256_CPU_SHA_NI
#define P256_SHA256_ACCEL_NAME "sha-ni"
#elif defined(P256_SHA256_ARM_SHA2)
#define P256_SHA256_ACCEL 1
#define P256_SHA256_ACCEL_CPU P256_CPU_ARM_SHA2
#define P256_SHA256_ACCEL_NAME "armv8-sha2"
#endif

P256_HASH_FN int p256_sha256_accel_active(void)
{
#if defined(P256_SHA256_ACCEL)
    return p256_cpu_has(P256_SHA256_ACCEL_CPU);
#else
    return 0;
#endif
}

P256_HASH_FN const char *p256_sha256_impl_name(void)
{
#if defined(P256_SHA256_ACCEL)
    if (p256_sha256_accel_active())
        return P256_SHA256_ACCEL_NAME;
#endif
    return "portable";
}

/* Compress nblocks 64-byte blocks into s with the fastest available implementation. */
static inline void p256_sha256_compress(uint32_t s[8], const uint8_t *p, size_t nblocks)
{
#if defined(P256_SHA256_ACCEL)
    if (p256_sha256_accel_active()) {
        p256_sha256_compress_accel(s, p, nblocks);
        return;
    }
#endif
    p256_sha256_compress_portable(s, p, nblocks);
}

static void p256_sha256_init(p256_sha256_state *st, const uint32_t iv[8])
{
    memcpy(st->h, iv, sizeof st->h);
    st->bytes = 0;
}

static void p256_sha256_update(p256_sha256_state *st, const uint8_t *data, size_t len)
{
    size_t pos = (size_t)(st->bytes & 63);

    if (len == 0)
        return;
    st->bytes += len;
    if (pos != 0) {
        size_t take = 64 - pos;
        if (take > len)
            take = len;
        memcpy(st->buf + pos, data, take);
        data += take;
        len -= take;
        if (pos + take < 64)
            return;
        p256_sha256_compress(st->h, st->buf, 1);
    }
    if (len >= 64) {
        size_t n = len / 64;
        p256_sha256_compress(st->h, data, n);
        data += 64 * n;
        len -= 64 * n;
    }
    if (len != 0)
        memcpy(st->buf, data, len);
}

/* Padding of 5.1.1 (0x80, zeros, 64-bit big-endian bit length), then outlen bytes of H (6.2.2
 * step 4; SHA-224 keeps the leftmost 224 bits, 6.3). The caller wipes st. */
static void p256_sha256_final(p256_sha256_state *st, uint8_t *out, size_t outlen)
{
    size_t pos = (size_t)(st->bytes & 63);
    uint64_t bits = st->bytes << 3;
    size_t i;

    st->buf[pos++] = 0x80;
    if (pos > 56) {
        memset(st->buf + pos, 0, 64 - pos);
        p256_sha256_compress(st->h, st->buf, 1);
        pos = 0;
    }
    memset(st->buf + pos, 0, 56 - pos);
    p256_store_be64(st->buf + 56, bits);
    p256_sha256_compress(st->h, st->buf, 1);
    for (i = 0; i < outlen / 4; i++)
        p256_store_be32(out + 4 * i, st->h[i]);
}

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

/* ------------------------------------------------------------------------------------------ */
/* SHA-3: FIPS 202 sections 3.2 (Keccak-p step mappings), 3.3, 4 (sponge), 5.1 (pad10*1),    */
/* 6.1 (SHA3-d = Keccak[c = 2d](M || 01, d)), B.1 (bit and byte order)                       */

/* iota round constants RC[ir] (3.2.5, Algorithm 5 rc(t) evaluated for the 24 rounds). */
static const uint64_t p256_keccak_rc[24] = {
    0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull, 0x8000000080008000ull,
    0x000000000000808bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,
    0x000000000000008aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
    0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull, 0x8000000000008003ull,
    0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800aull, 0x800000008000000aull,
    0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull,
};

#define P256_ROTL64(x, n) (((x) << (n)) | ((x) >> ((64 - (n)) & 63)))

/* One round Rnd = iota . chi . pi . rho . theta (3.2.1-3.2.5), from lanes A into lanes E.
 * theta: C[x] = A[x,0] ^ ... ^ A[x,4]; D[x] = C[x-1] ^ rot(C[x+1], 1); A[x,y] ^= D[x].
 * rho and pi: lane (x, y) is rotated left by the offset r[x,y] of Table 2 and moves to
 * (y, 2x + 3y mod 5) (pi: A'[x, y] = A[(x + 3y) mod 5, x]). Output plane y therefore reads
 * lanes (x_i, i) for i = 0..4 with x_i = (3y + i) mod 5; each triple (s, x, r) of
 * P256_KECCAK_PLANE is the source lane index s = x + 5i, its column x and its rho offset r.
 * chi: E[x, y] = B[x, y] ^ (~B[x+1, y] & B[x+2, y]). iota: E[0, 0] ^= RC[round]. */
#define P256_KECCAK_PLANE(A, E, y, s0, x0, r0, s1, x1, r1, s2, x2, r2, s3, x3, r3, s4, x4, r4) \
    do {                                                                                       \
        b0 = P256_ROTL64((A)[s0] ^ d##x0, r0);                                                 \
        b1 = P256_ROTL64((A)[s1] ^ d##x1, r1);                                                 \
        b2 = P256_ROTL64((A)[s2] ^ d##x2, r2);                                                 \
        b3 = P256_ROTL64((A)[s3] ^ d##x3, r3);                                                 \
        b4 = P256_ROTL64((A)[s4] ^ d##x4, r4);                                                 \
        (E)[5 * (y) + 0] = b0 ^ (~b1 & b2);                                                    \
        (E)[5 * (y) + 1] = b1 ^ (~b2 & b3);                                                    \
        (E)[5 * (y) + 2] = b2 ^ (~b3 & b4);                                                    \
        (E)[5 * (y) + 3] = b3 ^ (~b4 & b0);                                                    \
        (E)[5 * (y) + 4] = b4 ^ (~b0 & b1);                                                    \
    } while (0)

#define P256_KECCAK_ROUND(A, E, rc)                                                            \
    do {                                                                                       \
        c0 = (A)[0] ^ (A)[5] ^ (A)[10] ^ (A)[15] ^ (A)[20];                                    \
        c1 = (A)[1] ^ (A)[6] ^ (A)[11] ^ (A)[16] ^ (A)[21];                                    \
        c2 = (A)[2] ^ (A)[7] ^ (A)[12] ^ (A)[17] ^ (A)[22];                                    \
        c3 = (A)[3] ^ (A)[8] ^ (A)[13] ^ (A)[18] ^ (A)[23];                                    \
        c4 = (A)[4] ^ (A)[9] ^ (A)[14] ^ (A)[19] ^ (A)[24];                                    \
        d0 = c4 ^ P256_ROTL64(c1, 1);                                                          \
        d1 = c0 ^ P256_ROTL64(c2, 1);                                                          \
        d2 = c1 ^ P256_ROTL64(c3, 1);                                                          \
        d3 = c2 ^ P256_ROTL64(c4, 1);                                                          \
        d4 = c3 ^ P256_ROTL64(c0, 1);                                                          \
        P256_KECCAK_PLANE(A, E, 0, 0, 0, 0, 6, 1, 44, 12, 2, 43, 18, 3, 21, 24, 4, 14);        \
        P256_KECCAK_PLANE(A, E, 1, 3, 3, 28, 9, 4, 20, 10, 0, 3, 16, 1, 45, 22, 2, 61);        \
        P256_KECCAK_PLANE(A, E, 2, 1, 1, 1, 7, 2, 6, 13, 3, 25, 19, 4, 8, 20, 0, 18);          \
        P256_KECCAK_PLANE(A, E, 3, 4, 4, 27, 5, 0, 36, 11, 1, 10, 17, 2, 15, 23, 3, 56);       \
        P256_KECCAK_PLANE(A, E, 4, 2, 2, 62, 8, 3, 55, 14, 4, 39, 15, 0, 41, 21, 1, 2);        \
        (E)[0] ^= (rc);                                                                        \
    } while (0)

/* Keccak-f[1600] = Keccak-p[1600, 24] (3.3, 3.4), two rounds per iteration (a -> e -> a). */
static void p256_keccakf(uint64_t a[25])
{
    uint64_t e[25], b0, b1, b2, b3, b4, c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
    int r;

    for (r = 0; r < 24; r += 2) {
        P256_KECCAK_ROUND(a, e, p256_keccak_rc[r]);
        P256_KECCAK_ROUND(e, a, p256_keccak_rc[r + 1]);
    }
    p256_memzero(e, sizeof e);
}

static void p256_sha3_init(p256_sha3_state *st, size_t digest_len)
{
    memset(st->a, 0, sizeof st->a);
    st->pos = 0;
    st->rate = 200 - 2 * digest_len;   /* r = 1600 - c, c = 2d bits */
}

/* Absorb: XOR the message into the first r bits of the state (byte i of a block is bits
 * 8i..8i+7, i.e. byte i mod 8 of lane i / 8, little-endian: B.1), permuting after each full
 * block. */
static void p256_sha3_update(p256_sha3_state *st, const uint8_t *data, size_t len)
{
    size_t pos = st->pos, rate = st->rate;

    while (len > 0) {
        if ((pos & 7) == 0 && len >= 8) {
            st->a[pos >> 3] ^= p256_load_le64(data);
            pos += 8;
            data += 8;
            len -= 8;
        } else {
            st->a[pos >> 3] ^= (uint64_t)data[0] << (8 * (pos & 7));
            pos++;
            data++;
            len--;
        }
        if (pos == rate) {   /* rates are multiples of 8, so a lane never straddles it */
            p256_keccakf(st->a);
            pos = 0;
        }
    }
    st->pos = pos;
}

/* SHA-3 suffix 01 followed by pad10*1 (6.1, 5.1): in bytes, 0x06 at the current position and
 * 0x80 in the last byte of the block (the same byte, 0x86, when one byte is left). Then the
 * first outlen bytes of the state (outlen <= rate). The caller wipes st. */
static void p256_sha3_final(p256_sha3_state *st, uint8_t *out, size_t outlen)
{
    size_t i;

    st->a[st->pos >> 3] ^= (uint64_t)0x06 << (8 * (st->pos & 7));
    st->a[(st->rate - 1) >> 3] ^= (uint64_t)0x80 << (8 * ((st->rate - 1) & 7));
    p256_keccakf(st->a);
    for (i = 0; i < outlen; i++)
        out[i] = (uint8_t)(st->a[i >> 3] >> (8 * (i & 7)));
}

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

#endif /* P256_HASH_IMPL_H */

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hash_sha256_impl.h: SHA-224 and SHA-256 (FIPS 180-4): the portable compression, the
 * x86-64 SHA extensions and the ARMv8 SHA2 instructions (chosen by cpu.h), the streaming
 * functions.
 * Contract: hash.h (the layer is one translation unit of static functions).
 */
#ifndef P256_HASH_SHA256_IMPL_H
#define P256_HASH_SHA256_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common.h" /* p256_memzero */
#include "cpu.h"
#include "hash.h"
#include "hash_common.h"

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
/* Functions of 4.1.2: Ch, Maj (hash_common.h), Sigma0, Sigma1 (BSIG) and sigma0, sigma1
 * (SSIG). */
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

#endif /* P256_HASH_SHA256_IMPL_H */

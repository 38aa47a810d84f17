/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aes_impl.h: AES and CBC (aes.h has the contract). State and round keys are bytes in
 * FIPS 197 order (state byte r + 4c is row r, column c), which is also AES-NI's order.
 */
#ifndef P256_AES_IMPL_H
#define P256_AES_IMPL_H

#include <string.h>

#include "aes.h"
#include "cpu.h"

#define P256_AES_LO 0x0101010101010101ULL

/* ---- portable, constant time ---------------------------------------------------------- */

/* Each byte lane times 2 in GF(2^8) mod x^8 + x^4 + x^3 + x + 1 (FIPS 197 4.2.1). */
P256_INLINE uint64_t p256_aes_xtime8(uint64_t a)
{
    return ((a & 0x7f7f7f7f7f7f7f7fULL) << 1) ^ (((a >> 7) & P256_AES_LO) * 0x1b);
}

/* Lane-wise a*b in GF(2^8): shift-and-add, each conditional add done with a mask. */
P256_INLINE uint64_t p256_aes_mul8(uint64_t a, uint64_t b)
{
    uint64_t r = 0;
    int i;
    for (i = 0; i < 8; i++) {
        r ^= a & p256_value_barrier(((b >> i) & P256_AES_LO) * 0xff);
        a = p256_aes_xtime8(a);
    }
    return r;
}

/* Lane-wise x^254 = x^-1 (0 -> 0): Rivain-Prouff's chain, 4 multiplications, 7 squarings. */
P256_INLINE uint64_t p256_aes_inv8(uint64_t x)
{
    uint64_t x2 = p256_aes_mul8(x, x);
    uint64_t x3 = p256_aes_mul8(x2, x);
    uint64_t x12 = p256_aes_mul8(x3, x3);
    uint64_t x15, x240;
    x12 = p256_aes_mul8(x12, x12);
    x15 = p256_aes_mul8(x12, x3);
    x240 = p256_aes_mul8(x15, x15);
    x240 = p256_aes_mul8(x240, x240);
    x240 = p256_aes_mul8(x240, x240);
    x240 = p256_aes_mul8(x240, x240);
    return p256_aes_mul8(p256_aes_mul8(x240, x12), x2);
}

/* Lane-wise rotate left by k (1..7) within each byte. */
P256_INLINE uint64_t p256_aes_rotl8(uint64_t x, int k)
{
    uint64_t hi = (0xffu << k) & 0xffu, lo = 0xffu >> (8 - k);
    return ((x << k) & (hi * P256_AES_LO)) | ((x >> (8 - k)) & (lo * P256_AES_LO));
}

/* FIPS 197 5.1.1: S-box = affine(inverse), eight lanes at once. */
P256_INLINE uint64_t p256_aes_sub8(uint64_t x)
{
    uint64_t b = p256_aes_inv8(x);
    return b ^ p256_aes_rotl8(b, 1) ^ p256_aes_rotl8(b, 2) ^ p256_aes_rotl8(b, 3) ^
           p256_aes_rotl8(b, 4) ^ (0x63 * P256_AES_LO);
}

/* FIPS 197 5.3.2: inverse S-box = inverse(inverse affine). */
P256_INLINE uint64_t p256_aes_invsub8(uint64_t s)
{
    uint64_t b = p256_aes_rotl8(s, 1) ^ p256_aes_rotl8(s, 3) ^ p256_aes_rotl8(s, 6) ^
                 (0x05 * P256_AES_LO);
    return p256_aes_inv8(b);
}

P256_INLINE uint64_t p256_aes_load8(const uint8_t *p)
{
    uint64_t v = 0;
    int i;
    for (i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

P256_INLINE void p256_aes_store8(uint8_t *p, uint64_t v)
{
    int i;
    for (i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void p256_aes_subbytes(uint8_t s[16], int inverse)
{
    uint64_t a = p256_aes_load8(s), b = p256_aes_load8(s + 8);
    a = inverse ? p256_aes_invsub8(a) : p256_aes_sub8(a); /* branch on public mode */
    b = inverse ? p256_aes_invsub8(b) : p256_aes_sub8(b);
    p256_aes_store8(s, a);
    p256_aes_store8(s + 8, b);
}

/* FIPS 197 5.1.2 / 5.3.1: row r rotated left (right for the inverse) by r columns. */
static void p256_aes_shiftrows(uint8_t s[16], int inverse)
{
    uint8_t t[16];
    int r, c;
    for (r = 0; r < 4; r++)
        for (c = 0; c < 4; c++) {
            if (inverse)
                t[r + 4 * ((c + r) & 3)] = s[r + 4 * c];
            else
                t[r + 4 * c] = s[r + 4 * ((c + r) & 3)];
        }
    memcpy(s, t, 16);
    p256_memzero(t, sizeof t);
}

P256_INLINE uint8_t p256_aes_xtime(uint8_t a)
{
    return (uint8_t)((a << 1) ^ (0x1b & (0 - (a >> 7))));
}

/* FIPS 197 5.1.3; the inverse (5.3.3) as a pre-step then MixColumns ("The Design of
 * Rijndael" 4.1.3: InvMixColumns = MixColumns after multiplying by 04x^2 + 05). */
static void p256_aes_mixcolumns(uint8_t s[16], int inverse)
{
    int c;
    for (c = 0; c < 4; c++) {
        uint8_t *a = s + 4 * c, t, a0;
        if (inverse) {
            uint8_t u = p256_aes_xtime(p256_aes_xtime((uint8_t)(a[0] ^ a[2])));
            uint8_t v = p256_aes_xtime(p256_aes_xtime((uint8_t)(a[1] ^ a[3])));
            a[0] ^= u;
            a[1] ^= v;
            a[2] ^= u;
            a[3] ^= v;
        }
        t = (uint8_t)(a[0] ^ a[1] ^ a[2] ^ a[3]);
        a0 = a[0];
        a[0] ^= (uint8_t)(t ^ p256_aes_xtime((uint8_t)(a[0] ^ a[1])));
        a[1] ^= (uint8_t)(t ^ p256_aes_xtime((uint8_t)(a[1] ^ a[2])));
        a[2] ^= (uint8_t)(t ^ p256_aes_xtime((uint8_t)(a[2] ^ a[3])));
        a[3] ^= (uint8_t)(t ^ p256_aes_xtime((uint8_t)(a[3] ^ a0)));
    }
}

static void p256_aes_addkey(uint8_t s[16], const uint8_t rk[16])
{
    int i;
    for (i = 0; i < 16; i++)
        s[i] ^= rk[i];
}

static void p256_aes_encrypt_portable(const p256_aes_key *k, uint8_t out[16], const uint8_t in[16])
{
    uint8_t s[16];
    int r;
    memcpy(s, in, 16);
    p256_aes_addkey(s, k->rk[0]);
    for (r = 1; r <= k->nr; r++) {
        p256_aes_subbytes(s, 0);
        p256_aes_shiftrows(s, 0);
        if (r != k->nr)
            p256_aes_mixcolumns(s, 0);
        p256_aes_addkey(s, k->rk[r]);
    }
    memcpy(out, s, 16);
    p256_memzero(s, sizeof s);
}

/* FIPS 197 5.3 (the inverse cipher, round keys in reverse). */
static void p256_aes_decrypt_portable(const p256_aes_key *k, uint8_t out[16], const uint8_t in[16])
{
    uint8_t s[16];
    int r;
    memcpy(s, in, 16);
    p256_aes_addkey(s, k->rk[k->nr]);
    for (r = k->nr - 1; r >= 0; r--) {
        p256_aes_shiftrows(s, 1);
        p256_aes_subbytes(s, 1);
        p256_aes_addkey(s, k->rk[r]);
        if (r != 0)
            p256_aes_mixcolumns(s, 1);
    }
    memcpy(out, s, 16);
    p256_memzero(s, sizeof s);
}

/* FIPS 197 5.2. Branches only on the public word index. */
P256_FN int p256_aes_key_init(p256_aes_key *k, const uint8_t *key, size_t key_len)
{
    uint8_t *w = &k->rk[0][0];
    uint8_t rcon = 1, t[8];
    int nk, i, total;
    if (key_len != 16 && key_len != 24 && key_len != 32)
        return 0;
    nk = (int)key_len / 4;
    k->nr = nk + 6;
    total = 4 * (k->nr + 1);
    memcpy(w, key, key_len);
    memset(t, 0, sizeof t);
    for (i = nk; i < total; i++) {
        memcpy(t, w + 4 * (i - 1), 4);
        if (i % nk == 0 || (nk > 6 && i % nk == 4)) {
            if (i % nk == 0) { /* RotWord */
                uint8_t x = t[0];
                t[0] = t[1], t[1] = t[2], t[2] = t[3], t[3] = x;
            }
            p256_aes_store8(t, p256_aes_sub8(p256_aes_load8(t)));
            if (i % nk == 0) {
                t[0] ^= rcon;
                rcon = p256_aes_xtime(rcon);
            }
        }
        w[4 * i + 0] = (uint8_t)(w[4 * (i - nk) + 0] ^ t[0]);
        w[4 * i + 1] = (uint8_t)(w[4 * (i - nk) + 1] ^ t[1]);
        w[4 * i + 2] = (uint8_t)(w[4 * (i - nk) + 2] ^ t[2]);
        w[4 * i + 3] = (uint8_t)(w[4 * (i - nk) + 3] ^ t[3]);
    }
    p256_memzero(t, sizeof t);
    return 1;
}

/* ---- AES-NI ----------------------------------------------------------------------------- */

#if !defined(P256_NO_AESNI) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define P256_AES_HAVE_NI 1
#include <immintrin.h>

__attribute__((target("aes,sse2")))
static void p256_aes_encrypt_ni(const p256_aes_key *k, uint8_t out[16], const uint8_t in[16])
{
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)in);
    int r;
    x = _mm_xor_si128(x, _mm_loadu_si128((const __m128i *)(const void *)k->rk[0]));
    for (r = 1; r < k->nr; r++)
        x = _mm_aesenc_si128(x, _mm_loadu_si128((const __m128i *)(const void *)k->rk[r]));
    x = _mm_aesenclast_si128(x, _mm_loadu_si128((const __m128i *)(const void *)k->rk[k->nr]));
    _mm_storeu_si128((__m128i *)(void *)out, x);
}

/* The equivalent inverse cipher (FIPS 197 5.3.5): middle round keys through AESIMC. */
__attribute__((target("aes,sse2")))
static void p256_aes_decrypt_ni(const p256_aes_key *k, uint8_t out[16], const uint8_t in[16])
{
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)in);
    int r;
    x = _mm_xor_si128(x, _mm_loadu_si128((const __m128i *)(const void *)k->rk[k->nr]));
    for (r = k->nr - 1; r > 0; r--)
        x = _mm_aesdec_si128(
            x, _mm_aesimc_si128(_mm_loadu_si128((const __m128i *)(const void *)k->rk[r])));
    x = _mm_aesdeclast_si128(x, _mm_loadu_si128((const __m128i *)(const void *)k->rk[0]));
    _mm_storeu_si128((__m128i *)(void *)out, x);
}
#endif

P256_FN int p256_aes_ni_available(void)
{
#if defined(P256_AES_HAVE_NI)
    return p256_cpu_has(P256_CPU_AES_NI);
#else
    return 0;
#endif
}

P256_FN const char *p256_aes_impl_name(void)
{
    return p256_aes_ni_available() ? "aes-ni" : "portable";
}

P256_FN void p256_aes_encrypt_block(const p256_aes_key *k, int impl, uint8_t out[16],
                                    const uint8_t in[16])
{
#if defined(P256_AES_HAVE_NI)
    if (impl == P256_AES_NI) {
        p256_aes_encrypt_ni(k, out, in);
        return;
    }
#endif
    (void)impl;
    p256_aes_encrypt_portable(k, out, in);
}

P256_FN void p256_aes_decrypt_block(const p256_aes_key *k, int impl, uint8_t out[16],
                                    const uint8_t in[16])
{
#if defined(P256_AES_HAVE_NI)
    if (impl == P256_AES_NI) {
        p256_aes_decrypt_ni(k, out, in);
        return;
    }
#endif
    (void)impl;
    p256_aes_decrypt_portable(k, out, in);
}

/* SP 800-38A 6.2: C_j = E(P_j ^ C_j-1), P_j = D(C_j) ^ C_j-1, C_0 = IV. */
P256_FN int p256_aes_cbc(int decrypt, int impl, uint8_t *out, const uint8_t *key,
                         size_t key_len, const uint8_t iv[16], const uint8_t *in, size_t len)
{
    p256_aes_key k;
    uint8_t chain[16], block[16];
    size_t off;
    int i;
    if (len % 16 != 0 || (key_len != 16 && key_len != 24 && key_len != 32))
        return 0;
    if (impl == P256_AES_AUTO)
        impl = p256_aes_ni_available() ? P256_AES_NI : P256_AES_PORTABLE;
    else if (impl == P256_AES_NI && !p256_aes_ni_available())
        return 0;
    else if (impl != P256_AES_PORTABLE && impl != P256_AES_NI)
        return 0;
    p256_aes_key_init(&k, key, key_len);
    memcpy(chain, iv, 16);
    for (off = 0; off < len; off += 16) {
        memcpy(block, in + off, 16);
        if (decrypt) {
            uint8_t next[16];
            memcpy(next, block, 16);
            p256_aes_decrypt_block(&k, impl, block, block);
            for (i = 0; i < 16; i++)
                out[off + (size_t)i] = (uint8_t)(block[i] ^ chain[i]);
            memcpy(chain, next, 16);
        } else {
            for (i = 0; i < 16; i++)
                block[i] ^= chain[i];
            p256_aes_encrypt_block(&k, impl, chain, block);
            memcpy(out + off, chain, 16);
        }
    }
    p256_memzero(&k, sizeof k);
    p256_memzero(chain, sizeof chain);
    p256_memzero(block, sizeof block);
    return 1;
}

#endif /* P256_AES_IMPL_H */

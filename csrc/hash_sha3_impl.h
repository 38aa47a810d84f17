/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hash_sha3_impl.h: SHA3-256/384/512 (FIPS 202): Keccak-f[1600] and the sponge.
 * Contract: hash.h (the layer is one translation unit of static functions).
 */
#ifndef P256_HASH_SHA3_IMPL_H
#define P256_HASH_SHA3_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hash.h"
#include "hash_common.h"

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

#endif /* P256_HASH_SHA3_IMPL_H */

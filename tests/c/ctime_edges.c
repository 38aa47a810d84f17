/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ctime_edges.c: constant-time check of the secret paths at their edge values (run by
 * `make ctime` under valgrind memcheck, like ctime_core.c; not part of `make ctest`).
 *
 * ctime_core.c runs every secret path on random keys. This harness feeds every entry
 * point that takes a secret the values where a non-constant-time implementation would
 * most likely branch: 0, 1, 2, n-2, n-1, n, n+1, 2^256-1, (n-1)/2, (n+1)/2, 2^255, 2^128
 * and window/comb boundary patterns, each marked undefined before the call:
 *
 *   - private-key load (p256_seckey_verify, the SecretKey constructor's path), valid and
 *     invalid: the verdict is the only thing the caller may learn;
 *   - keygen's d*G (p256_pubkey_create), ECDSA sign hedged and deterministic with every
 *     nonce hash (p256_sign, which also takes the rejected-key path for invalid d), ECDH
 *     (p256_ecdh), k*G and k*Q (p256_mult_base, p256_mult) including k = 0 and k >= n;
 *   - the constant-time inversions on their own: p256_scalar_inv (the nonce inverse)
 *     and p256_fe_inv (every secret point's normalisation), including the input 0;
 *   - a signature over a digest that is itself marked secret (a confidential message
 *     must not leak through e = bits2int(H(m)) either).
 *
 * The results are declassified and checked (k*G from the comb equals k*G from the
 * window method, ECDH's x equals x(d*G) for Q = G, invalid keys are refused), so the
 * harness also fails if the paths it covers stop computing the right thing.
 */
#include "harness.h"
#include "ctime.h"

static const uint8_t N_BE[32] = {
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51};

/* SEC1 of G, the peer point of the ECDH and k*Q checks. */
static const uint8_t G_SEC1[65] = {
    0x04, 0x6b, 0x17, 0xd1, 0xf2, 0xe1, 0x2c, 0x42, 0x47, 0xf8, 0xbc, 0xe6, 0xe5, 0x63, 0xa4,
    0x40, 0xf2, 0x77, 0x03, 0x7d, 0x81, 0x2d, 0xeb, 0x33, 0xa0, 0xf4, 0xa1, 0x39, 0x45, 0xd8,
    0x98, 0xc2, 0x96, 0x4f, 0xe3, 0x42, 0xe2, 0xfe, 0x1a, 0x7f, 0x9b, 0x8e, 0xe7, 0xeb, 0x4a,
    0x7c, 0x0f, 0x9e, 0x16, 0x2b, 0xce, 0x33, 0x57, 0x6b, 0x31, 0x5e, 0xce, 0xcb, 0xb6, 0x40,
    0x68, 0x37, 0xbf, 0x51, 0xf5};

/* A declassified result's check, for edge value number `edge`. */
#define check(cond, what, edge) CHECK(cond, "ctime_edges: edge %d: %s", edge, what)

/* out = a + delta (big-endian, mod 2^256). */
static void add_small(uint8_t out[32], const uint8_t a[32], int delta)
{
    int carry = delta;
    for (int i = 31; i >= 0; i--) {
        int v = a[i] + carry;
        out[i] = (uint8_t)v;
        carry = v >> 8; /* arithmetic shift: -1 for a borrow */
    }
}

/* out = a >> 1 (big-endian). */
static void half(uint8_t out[32], const uint8_t a[32])
{
    for (int i = 31; i >= 0; i--)
        out[i] = (uint8_t)((a[i] >> 1) | (i > 0 ? a[i - 1] << 7 : 0));
}

/* 1 if 1 <= a < n (big-endian compare, public data only). */
static int valid_seckey(const uint8_t a[32])
{
    static const uint8_t zero[32];
    return memcmp(a, zero, 32) != 0 && memcmp(a, N_BE, 32) < 0;
}

#define NEDGES 17

static void make_edges(uint8_t e[NEDGES][32])
{
    uint8_t t[32];
    memset(e, 0, NEDGES * 32);
    e[1][31] = 1;                      /* 1 */
    e[2][31] = 2;                      /* 2 */
    add_small(e[3], N_BE, -2);         /* n-2 */
    add_small(e[4], N_BE, -1);         /* n-1 */
    memcpy(e[5], N_BE, 32);            /* n */
    add_small(e[6], N_BE, 1);          /* n+1 */
    memset(e[7], 0xff, 32);            /* 2^256-1 */
    add_small(t, N_BE, -1);
    half(e[8], t);                     /* (n-1)/2 */
    add_small(e[9], e[8], 1);          /* (n+1)/2 */
    e[10][0] = 0x80;                   /* 2^255 */
    e[11][15] = 1;                     /* 2^128 */
    memset(e[12], 0x0f, 32);           /* nibble windows all 15 */
    memset(e[13], 0x80, 32);           /* top bit of every byte */
    for (int i = 0; i < 32; i++)
        e[14][i] = (uint8_t)(i & 1 ? 0xff : 0x00);
    for (int i = 0; i < 32; i++)
        e[15][i] = (uint8_t)(0x5a ^ (37 * i)); /* an ordinary value */
    add_small(e[16], N_BE, -3);        /* n-3 */
}

int main(void)
{
    uint8_t e[NEDGES][32], k[32], pub[65], viaq[65], rs[64], shared[32], digest[64];
    static const size_t hash_len[7] = {28, 32, 48, 64, 32, 48, 64};
    int ok, valid, nonzero;

    make_edges(e);
    memset(digest, 0xa5, sizeof digest);

    for (int i = 0; i < NEDGES; i++) {
        static const uint8_t zero[32];
        valid = valid_seckey(e[i]);
        nonzero = memcmp(e[i], zero, 32) != 0 && memcmp(e[i], N_BE, 32) != 0;

        /* Private-key load: the SecretKey constructor's check. */
        memcpy(k, e[i], 32);
        secret(k, 32);
        ok = p256_seckey_verify(k);
        public(&ok, sizeof ok);
        check(ok == valid, "p256_seckey_verify verdict", i);

        /* Keygen's public key. */
        secret(k, 32);
        ok = p256_pubkey_create(pub, k);
        public(&ok, sizeof ok);
        public(pub, sizeof pub);
        check(ok == valid, "p256_pubkey_create verdict", i);

        /* Signatures: hedged and deterministic with every nonce hash. */
        secret(k, 32);
        ok = p256_sign(rs, k, digest, 32, P256_NONCE_HEDGED);
        public(&ok, sizeof ok);
        check(ok == valid, "p256_sign hedged verdict", i);
        if (ok)
            check(p256_verify(pub, 65, rs, digest, 32), "hedged signature verifies", i);
        for (int h = P256_NONCE_SHA224; h <= P256_NONCE_SHA3_512; h++) {
            secret(k, 32);
            ok = p256_sign(rs, k, digest, hash_len[h], h);
            public(&ok, sizeof ok);
            check(ok == valid, "p256_sign deterministic verdict", i);
            if (ok)
                check(p256_verify(pub, 65, rs, digest, hash_len[h]), "signature verifies", i);
        }

        /* A confidential message: the digest is secret too. */
        secret(k, 32);
        secret(digest, 32);
        ok = p256_sign(rs, k, digest, 32, P256_NONCE_SHA256);
        public(&ok, sizeof ok);
        public(digest, sizeof digest);
        check(ok == valid, "p256_sign with a secret digest verdict", i);

        /* ECDH with Q = G: the shared x is x(d*G). */
        secret(k, 32);
        ok = p256_ecdh(shared, k, G_SEC1, sizeof G_SEC1);
        public(&ok, sizeof ok);
        public(shared, sizeof shared);
        check(ok == valid, "p256_ecdh verdict", i);
        if (ok)
            check(memcmp(shared, pub + 1, 32) == 0, "ECDH with G equals x(d*G)", i);

        /* k*G by the comb and by the window method; any k, reduced mod n. */
        secret(k, 32);
        ok = p256_mult_base(pub, k);
        public(&ok, sizeof ok);
        public(pub, sizeof pub);
        check(ok == nonzero, "p256_mult_base verdict", i);
        secret(k, 32);
        ok = p256_mult(viaq, k, G_SEC1, sizeof G_SEC1);
        public(&ok, sizeof ok);
        public(viaq, sizeof viaq);
        check(ok == nonzero, "p256_mult verdict", i);
        if (ok)
            check(memcmp(pub, viaq, 65) == 0, "k*G: comb equals window method", i);

        /* The inversions alone (0 maps to 0), checked by multiplying back. */
        {
            p256_scalar s, sinv, prod;
            p256_fe f, finv, fprod;
            uint8_t sb[32], fb[32];
            secret(k, 32);
            p256_scalar_set_bytes_reduce(&s, k);
            p256_scalar_inv(&sinv, &s);
            p256_scalar_mul(&prod, &s, &sinv);
            p256_scalar_to_bytes(sb, &prod);
            public(sb, sizeof sb);
            check(sb[31] == (nonzero ? 1 : 0) && memcmp(sb, zero, 31) == 0, "scalar inverse", i);

            /* The field inverse of k mod n (< n < p, so a canonical field element). */
            secret(k, 32);
            p256_scalar_set_bytes_reduce(&s, k);
            p256_scalar_to_bytes(fb, &s);
            (void)p256_fe_from_bytes(&f, fb);
            p256_fe_inv(&finv, &f);
            p256_fe_mul(&fprod, &f, &finv);
            p256_fe_to_bytes(fb, &fprod);
            public(fb, sizeof fb);
            check(fb[31] == (nonzero ? 1 : 0) && memcmp(fb, zero, 31) == 0,
                  "field inverse", i);
        }
        public(k, 32);
    }
    printf("ctime_edges: %d edge values, %s\n", NEDGES, failures ? "FAILED" : "done");
    return failures != 0;
}

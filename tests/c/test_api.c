/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_api.c: end-to-end known answers through the byte-level API (p256.h), run by
 * `make ctest` once per field backend: RFC 6979 signatures, Wycheproof ECDH and ECDSA
 * verification (every secp256r1 file, as EIP-7951 derives its cases), base-point
 * multiples (tests/c/api_kat.h, from tools/gen_api_kat.py).
 */
#include "harness.h"
#include "p256.c"

#include "api_kat.h"


static void test_rfc6979(void)
{
    uint8_t d[32], pub[65], got_pub[65], digest[64], want[64], rs[64], der[72], back[64];
    unhex(d, sizeof d, rfc6979_d);
    unhex(pub, sizeof pub, rfc6979_pub);
    CHECK(p256_pubkey_create(got_pub, d) && memcmp(got_pub, pub, 65) == 0, "RFC 6979 public key");
    for (size_t i = 0; i < sizeof rfc6979_kats / sizeof rfc6979_kats[0]; i++) {
        const rfc6979_kat *t = &rfc6979_kats[i];
        size_t dlen = unhex(digest, sizeof digest, t->digest);
        unhex(want, sizeof want, t->rs);
        CHECK(p256_sign(rs, d, digest, dlen, t->nonce) && memcmp(rs, want, 64) == 0,
              "RFC 6979 signature %zu", i);
        CHECK(p256_verify(pub, 65, rs, digest, dlen) == 1, "RFC 6979 verify %zu", i);
        CHECK(p256_sig_from_der(back, der, p256_sig_to_der(der, rs)) && memcmp(back, rs, 64) == 0,
              "RFC 6979 DER round trip %zu", i);
        rs[63] ^= 1;
        CHECK(p256_verify(pub, 65, rs, digest, dlen) == 0, "RFC 6979 altered signature %zu", i);
        /* hedged: a different valid signature each time */
        CHECK(p256_sign(rs, d, digest, dlen, P256_NONCE_HEDGED) &&
                  p256_verify(pub, 65, rs, digest, dlen) == 1,
              "hedged signature %zu", i);
    }
}

static void test_ecdh(void)
{
    uint8_t pub[200], d[32], want[32], out[32];
    for (size_t i = 0; i < sizeof ecdh_kats / sizeof ecdh_kats[0]; i++) {
        const ecdh_kat *t = &ecdh_kats[i];
        size_t len = unhex(pub, sizeof pub, t->pub);
        unhex(d, sizeof d, t->d);
        unhex(want, sizeof want, t->shared);
        if (t->valid)
            CHECK(p256_ecdh(out, d, pub, len) && memcmp(out, want, 32) == 0,
                  "Wycheproof ECDH tcId %d", t->tc);
        else
            CHECK(!p256_ecdh(out, d, pub, len), "Wycheproof ECDH tcId %d accepted", t->tc);
    }
}

static void test_verify(void)
{
    uint8_t pub[65], rs[64], digest[32];
    for (size_t i = 0; i < sizeof verify_kats / sizeof verify_kats[0]; i++) {
        const verify_kat *t = &verify_kats[i];
        unhex(pub, sizeof pub, t->pub);
        unhex(rs, sizeof rs, t->rs);
        unhex(digest, sizeof digest, t->digest);
        CHECK(p256_verify(pub, 65, rs, digest, 32) == t->valid, "Wycheproof %s tcId %d",
              verify_kat_sets[t->set], t->tc);
    }
}

static void test_basemult(void)
{
    uint8_t k[32], want[65], out[65], g[65];
    p256_aff_encode(g, &p256_generator);
    for (size_t i = 0; i < sizeof basemult_kats / sizeof basemult_kats[0]; i++) {
        const basemult_kat *t = &basemult_kats[i];
        unhex(k, sizeof k, t->k);
        if (t->ok) {
            unhex(want, sizeof want, t->out);
            CHECK(p256_mult_base(out, k) && memcmp(out, want, 65) == 0, "k*G %zu", i);
            CHECK(p256_mult(out, k, g, 65) && memcmp(out, want, 65) == 0, "k*P, P = G, %zu", i);
        } else {
            CHECK(!p256_mult_base(out, k) && !p256_mult(out, k, g, 65), "k*G = infinity %zu", i);
        }
    }
}

/* p256_digest: FIPS 180-4 / FIPS 202 "abc" answers per hash id; unknown ids write nothing. */
static void test_digest(void)
{
    static const char *const abc[7] = {
        "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
        "8086072ba1e7cc2358baeca134c825a7",
        "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
        "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
        "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
        "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b2"
        "98d88cea927ac7f539f1edf228376d25",
        "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
        "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0",
    };
    uint8_t want[P256_DIGEST_MAX], out[P256_DIGEST_MAX], ff[P256_DIGEST_MAX];
    for (int id = P256_NONCE_SHA224; id <= P256_NONCE_SHA3_512; id++) {
        size_t wl = unhex(want, sizeof want, abc[id]);
        CHECK(p256_digest(id, (const uint8_t *)"abc", 3, out) == wl && memcmp(out, want, wl) == 0,
              "p256_digest(%d, \"abc\")", id);
    }
    unhex(want, sizeof want, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(p256_digest(P256_NONCE_SHA256, NULL, 0, out) == 32 && memcmp(out, want, 32) == 0,
          "p256_digest of the empty message");
    memset(ff, 0xff, sizeof ff);
    for (int i = 0; i < 3; i++) {
        const int id = (const int[3]){P256_NONCE_HEDGED, P256_NONCE_SHA3_512 + 1, 100}[i];
        memcpy(out, ff, sizeof out);
        CHECK(p256_digest(id, (const uint8_t *)"abc", 3, out) == 0 && memcmp(out, ff, sizeof ff) == 0,
              "p256_digest(%d): unknown id refused, out untouched", id);
    }
    CHECK(p256_wipe(out, sizeof out) == out && memcmp(out, (uint8_t[P256_DIGEST_MAX]){0}, sizeof out) == 0,
          "p256_wipe");
}

/* The API's AES entries (the cipher itself: tests/c/test_aes.c): SP 800-38A F.2.5/F.2.6,
 * first block, each impl the CPU runs, and the refusals. */
static void test_aes_cbc(void)
{
    uint8_t key[32], iv[16], pt[16], ct[16], out[16], keep[16];
    int impl;
    unhex(key, 32, "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4");
    unhex(iv, 16, "000102030405060708090a0b0c0d0e0f");
    unhex(pt, 16, "6bc1bee22e409f96e93d7e117393172a");
    unhex(ct, 16, "f58c4c04d6e5f1ba779eabfb5f7bfbd6");
    for (impl = P256_AES_AUTO; impl <= P256_AES_NI; impl++) {
        if (impl == P256_AES_NI && strcmp(p256_aes_impl(), "aes-ni") != 0)
            continue;
        CHECK(p256_aes_cbc_encrypt(out, key, 32, iv, pt, 16, impl) == 1 && memcmp(out, ct, 16) == 0,
              "p256_aes_cbc_encrypt (impl %d)", impl);
        CHECK(p256_aes_cbc_decrypt(out, key, 32, iv, ct, 16, impl) == 1 && memcmp(out, pt, 16) == 0,
              "p256_aes_cbc_decrypt (impl %d)", impl);
    }
    memcpy(keep, out, 16);
    CHECK(p256_aes_cbc_decrypt(out, key, 31, iv, ct, 16, P256_AES_AUTO) == 0, "key length 31");
    CHECK(p256_aes_cbc_decrypt(out, key, 32, iv, ct, 15, P256_AES_AUTO) == 0, "length 15");
    CHECK(p256_aes_cbc_encrypt(out, key, 32, iv, pt, 16, 3) == 0, "impl 3");
    CHECK(memcmp(out, keep, 16) == 0, "out untouched on failure");
    CHECK(strcmp(p256_aes_impl(), "aes-ni") == 0 || strcmp(p256_aes_impl(), "portable") == 0,
          "p256_aes_impl");
}

int main(void)
{
    test_digest();
    test_aes_cbc();
    test_rfc6979();
    test_ecdh();
    test_verify();
    test_basemult();
    printf("test_api (%s): %ld checks, %ld failures (%zu RFC 6979, %zu ECDH, %zu ECDSA, %zu k*G)\n",
           p256_backend_name(), checks, failures, sizeof rfc6979_kats / sizeof rfc6979_kats[0],
           sizeof ecdh_kats / sizeof ecdh_kats[0], sizeof verify_kats / sizeof verify_kats[0],
           sizeof basemult_kats / sizeof basemult_kats[0]);
    return failures != 0;
}

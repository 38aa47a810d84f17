/* SPDX-License-Identifier: Apache-2.0 */
/* AES known answers on every implementation this CPU runs: FIPS 197 Appendix C (the
 * cipher for each key size, and its inverse), NIST SP 800-38A F.2 (CBC, four blocks, each
 * key size, both directions), the S-box against FIPS 197 figure 7's entries and as a
 * permutation, and the two paths against each other on random inputs. */
#include "harness.h"

#include "aes_impl.h"

static const char *const c_keys[3] = {
    "000102030405060708090a0b0c0d0e0f",
    "000102030405060708090a0b0c0d0e0f1011121314151617",
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"};
static const char *const c_ct[3] = {"69c4e0d86a7b0430d8cdb78070b4c55a",
                                    "dda97ca4864cdfe06eaf70a0ec0d7191",
                                    "8ea2b7ca516745bfeafc49904b496089"};
#define C_PT "00112233445566778899aabbccddeeff"

static const char *const f2_keys[3] = {
    "2b7e151628aed2a6abf7158809cf4f3c",
    "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
    "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"};
static const char *const f2_ct[3] = {
    "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
    "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7",
    "4f021db243bc633d7178183a9fa071e8b4d9ada9ad7dedf4e5e738763f69145a"
    "571b242012fb7ae07fa9baac3df102e008b0e27988598881d920a9e64f5615cd",
    "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"
    "39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b"};
#define F2_IV "000102030405060708090a0b0c0d0e0f"
#define F2_PT                                                                            \
    "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"                   \
    "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"

static const char *impl_name(int impl)
{
    return impl == P256_AES_NI ? "aes-ni" : "portable";
}

static void test_sbox(void)
{
    /* FIPS 197 figure 7: S(00) = 63, S(01) = 7c, S(53) = ed, S(ff) = 16, S(c9) = dd. */
    static const uint8_t in[5] = {0x00, 0x01, 0x53, 0xff, 0xc9}, want[5] = {0x63, 0x7c, 0xed, 0x16, 0xdd};
    int seen[256] = {0}, i, bad = 0;
    for (i = 0; i < 5; i++)
        CHECK((uint8_t)p256_aes_sub8(in[i]) == want[i], "S(%02x)", in[i]);
    for (i = 0; i < 256; i++) {
        uint8_t s = (uint8_t)p256_aes_sub8((uint64_t)i * P256_AES_LO);
        seen[s]++;
        if ((uint8_t)p256_aes_invsub8(s) != i)
            bad++;
        /* every lane computes the same thing */
        if (p256_aes_sub8((uint64_t)i * P256_AES_LO) != (uint64_t)s * P256_AES_LO)
            bad++;
    }
    for (i = 0; i < 256; i++)
        bad += seen[i] != 1;
    CHECK(bad == 0, "S-box not a permutation inverted by the inverse S-box (%d)", bad);
}

static void test_appendix_c(int impl)
{
    uint8_t key[32], pt[16], ct[16], out[16];
    int i;
    for (i = 0; i < 3; i++) {
        p256_aes_key k;
        size_t kl = unhex(key, sizeof key, c_keys[i]);
        unhex(pt, 16, C_PT);
        unhex(ct, 16, c_ct[i]);
        CHECK(p256_aes_key_init(&k, key, kl) == 1, "key init %zu", kl);
        CHECK(k.nr == 10 + 2 * i, "Nr %d", k.nr);
        p256_aes_encrypt_block(&k, impl, out, pt);
        CHECK(memcmp(out, ct, 16) == 0, "FIPS 197 C.%d cipher (%s)", i + 1, impl_name(impl));
        p256_aes_decrypt_block(&k, impl, out, ct);
        CHECK(memcmp(out, pt, 16) == 0, "FIPS 197 C.%d inverse cipher (%s)", i + 1,
              impl_name(impl));
    }
}

static void test_cbc(int impl)
{
    uint8_t key[32], iv[16], pt[64], ct[64], out[64];
    int i;
    unhex(iv, 16, F2_IV);
    unhex(pt, 64, F2_PT);
    for (i = 0; i < 3; i++) {
        size_t kl = unhex(key, sizeof key, f2_keys[i]);
        unhex(ct, 64, f2_ct[i]);
        CHECK(p256_aes_cbc(0, impl, out, key, kl, iv, pt, 64) == 1, "encrypt");
        CHECK(memcmp(out, ct, 64) == 0, "SP 800-38A F.2.%d CBC-AES%zu.Encrypt (%s)", 2 * i + 1,
              kl * 8, impl_name(impl));
        CHECK(p256_aes_cbc(1, impl, out, key, kl, iv, ct, 64) == 1, "decrypt");
        CHECK(memcmp(out, pt, 64) == 0, "SP 800-38A F.2.%d CBC-AES%zu.Decrypt (%s)", 2 * i + 2,
              kl * 8, impl_name(impl));
        memcpy(out, ct, 64); /* in place */
        CHECK(p256_aes_cbc(1, impl, out, key, kl, iv, out, 64) == 1 && memcmp(out, pt, 64) == 0,
              "in-place decrypt (%s)", impl_name(impl));
    }
    memset(out, 0xAA, sizeof out);
    CHECK(p256_aes_cbc(1, impl, out, key, 20, iv, ct, 64) == 0, "key length 20 refused");
    CHECK(p256_aes_cbc(1, impl, out, key, 16, iv, ct, 63) == 0, "partial block refused");
    CHECK(out[0] == 0xAA, "out untouched on failure");
    CHECK(p256_aes_cbc(1, impl, out, key, 16, iv, ct, 0) == 1, "empty input");
}

static void test_paths_agree(void)
{
    uint8_t key[32], iv[16], in[160], a[160], b[160];
    int n;
    for (n = 0; n < 200; n++) {
        size_t kl = 16 + 8 * (size_t)(n % 3), len = 16 * (size_t)(n % 10);
        rng_fill(key, sizeof key);
        rng_fill(iv, sizeof iv);
        rng_fill(in, sizeof in);
        CHECK(p256_aes_cbc(n & 1, P256_AES_PORTABLE, a, key, kl, iv, in, len) == 1, "portable");
        CHECK(p256_aes_cbc(n & 1, P256_AES_NI, b, key, kl, iv, in, len) == 1, "aes-ni");
        CHECK(memcmp(a, b, len) == 0, "paths disagree (key %zu, len %zu, %s)", kl, len,
              n & 1 ? "decrypt" : "encrypt");
    }
}

int main(void)
{
    printf("test_aes (AES_AUTO: %s)\n", p256_aes_impl_name());
    test_sbox();
    test_appendix_c(P256_AES_PORTABLE);
    test_cbc(P256_AES_PORTABLE);
    if (p256_aes_ni_available()) {
        test_appendix_c(P256_AES_NI);
        test_cbc(P256_AES_NI);
        test_paths_agree();
    } else {
        uint8_t z[16] = {0}, o[16];
        printf("test_aes: SKIP aes-ni: this CPU (or build) has no AES-NI\n");
        CHECK(p256_aes_cbc(0, P256_AES_NI, o, z, 16, z, z, 16) == 0, "AES-NI refused");
    }
    printf("test_aes: %ld passed, %ld failed\n", checks - failures, failures);
    return failures != 0;
}

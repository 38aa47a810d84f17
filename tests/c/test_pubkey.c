/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_pubkey.c: the key object (p256_pubkey) and the two parsers with reasons, run by
 * `make ctest` once per field backend:
 *   - p256_pubkey_load: every reason (P256_POINT_*) on crafted inputs; serialize gives the
 *     uncompressed and compressed forms back, which load again to an equal key;
 *   - the key functions agree with the byte API on random keys: derive = pubkey_create,
 *     verify = p256_verify, ecdh = p256_ecdh, mult = p256_mult; equal tells keys apart;
 *   - p256_sig_parse: every reason (P256_SIG_*), DER and raw, and exactly the
 *     signatures p256_sig_from_der decodes with r, s in [1, n-1].
 * The representation shared by the variants is checked across them by
 * tests/c/variants_pubkey.c (make ctest-variants).
 */
#include "harness.h"
#include "p256.c"

static const char *gx = "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296";
static const char *gy = "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5";
/* p, big endian */
static const char *p_hex = "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff";

static void test_load_reasons(void)
{
    uint8_t g[65], in[65], out[65];
    p256_pubkey pk, again;
    g[0] = 0x04;
    unhex(g + 1, 32, gx);
    unhex(g + 33, 32, gy);
    CHECK(p256_pubkey_load(&pk, g, 65) == P256_POINT_OK, "G loads");
    CHECK(p256_pubkey_serialize(out, &pk, 0) == 65 && memcmp(out, g, 65) == 0, "G serializes");
    CHECK(p256_pubkey_serialize(out, &pk, 1) == 33 && out[0] == 0x03 && memcmp(out + 1, g + 1, 32) == 0,
          "G compressed (y odd)");
    CHECK(p256_pubkey_load(&again, out, 33) == P256_POINT_OK && p256_pubkey_equal(&pk, &again),
          "compressed G loads to G");

    in[0] = 0x00;
    CHECK(p256_pubkey_load(&pk, in, 1) == P256_POINT_INFINITY, "00: infinity");
    memcpy(in, g, 65);
    in[0] = 0x06;
    CHECK(p256_pubkey_load(&pk, in, 65) == P256_POINT_HYBRID, "06: hybrid");
    in[0] = 0x07;
    CHECK(p256_pubkey_load(&pk, in, 65) == P256_POINT_HYBRID, "07: hybrid");
    in[0] = 0x04;
    unhex(in + 1, 32, p_hex);
    CHECK(p256_pubkey_load(&pk, in, 65) == P256_POINT_X_RANGE, "x = p");
    memcpy(in, g, 65);
    unhex(in + 33, 32, p_hex);
    CHECK(p256_pubkey_load(&pk, in, 65) == P256_POINT_Y_RANGE, "y = p");
    memcpy(in, g, 65);
    in[64] ^= 1;
    CHECK(p256_pubkey_load(&pk, in, 65) == P256_POINT_NOT_ON_CURVE, "y + 1: off the curve");
    in[0] = 0x02;
    unhex(in + 1, 32, p_hex);
    CHECK(p256_pubkey_load(&pk, in, 33) == P256_POINT_COMPRESSED_RANGE, "compressed x = p");
    {
        int x;
        for (x = 1; x < 256; x++) {
            memset(in + 1, 0, 32);
            in[32] = (uint8_t)x;
            if (p256_pubkey_load(&pk, in, 33) != P256_POINT_OK)
                break;
        }
        CHECK(x < 256 && p256_pubkey_load(&pk, in, 33) == P256_POINT_NO_POINT,
              "x = %d: no point", x);
    }
    CHECK(p256_pubkey_load(&pk, g, 64) == P256_POINT_ENCODING, "64 bytes");
    CHECK(p256_pubkey_load(&pk, g, 0) == P256_POINT_ENCODING, "empty");
    in[0] = 0x05;
    CHECK(p256_pubkey_load(&pk, in, 33) == P256_POINT_ENCODING, "prefix 05");
    in[0] = 0x04;
    CHECK(p256_pubkey_load(&pk, in, 33) == P256_POINT_ENCODING, "04 with 33 bytes");
    in[0] = 0x00;
    CHECK(p256_pubkey_load(&pk, in, 2) == P256_POINT_ENCODING, "00 00");
}

static void random_seckey(uint8_t d[32])
{
    do
        rng_fill(d, 32);
    while (!p256_seckey_verify(d));
}

static void test_against_the_byte_api(void)
{
    for (int i = 0; i < 48; i++) {
        uint8_t d[32], d2[32], k[32], pub[65], pub2[65], got[65], dg[32], rs[64], a[32], b[32];
        p256_pubkey pk, pk2, m;
        random_seckey(d);
        random_seckey(d2);
        rng_fill(k, 32);
        rng_fill(dg, 32);
        CHECK(p256_pubkey_derive(&pk, d) && p256_pubkey_create(pub, d), "derive %d", i);
        p256_pubkey_serialize(got, &pk, 0);
        CHECK(memcmp(got, pub, 65) == 0, "derive = pubkey_create (%d)", i);
        CHECK(p256_pubkey_derive(&pk2, d2) && p256_pubkey_create(pub2, d2), "derive 2 %d", i);
        CHECK(!p256_pubkey_equal(&pk, &pk2) && p256_pubkey_equal(&pk, &pk), "equal (%d)", i);
        CHECK(p256_sign(rs, d, dg, 32, P256_NONCE_HEDGED), "sign %d", i);
        CHECK(p256_pubkey_verify(&pk, rs, dg, 32) == 1 && p256_verify(pub, 65, rs, dg, 32) == 1,
              "verify (%d)", i);
        CHECK(p256_pubkey_verify(&pk2, rs, dg, 32) == 0 && p256_verify(pub2, 65, rs, dg, 32) == 0,
              "verify under another key (%d)", i);
        CHECK(p256_pubkey_ecdh(a, d, &pk2) && p256_ecdh(b, d, pub2, 65) && memcmp(a, b, 32) == 0,
              "ecdh = p256_ecdh (%d)", i);
        CHECK(p256_pubkey_ecdh(b, d2, &pk) && memcmp(a, b, 32) == 0, "ecdh both ways (%d)", i);
        CHECK(p256_pubkey_mult(&m, k, &pk) && p256_mult(pub2, k, pub, 65), "mult %d", i);
        p256_pubkey_serialize(got, &m, 0);
        CHECK(memcmp(got, pub2, 65) == 0, "mult = p256_mult (%d)", i);
    }
    {
        uint8_t zero[32] = {0}, n32[32];
        p256_pubkey pk, m;
        p256_limbs_to_be32(n32, p256_n);
        CHECK(p256_pubkey_derive(&pk, n32) == 0 && p256_pubkey_derive(&pk, zero) == 0,
              "derive refuses 0 and n");
        zero[31] = 1;
        CHECK(p256_pubkey_derive(&pk, zero), "derive 1");
        CHECK(p256_pubkey_mult(&m, n32, &pk) == 0, "n*Q is infinity: refused");
    }
}

static void test_sig_reasons(void)
{
    static const struct {
        const char *hex;
        int raw, want;
    } cases[] = {
        {"3006020101020101", 0, P256_SIG_OK},
        {"", 0, P256_SIG_DER_EMPTY},
        {"3106020101020101", 0, P256_SIG_DER_NOT_SEQUENCE},
        {"30", 0, P256_SIG_DER_LENGTH},
        {"3080020101020101", 0, P256_SIG_DER_LENGTH},                    /* indefinite */
        {"308106020101020101", 0, P256_SIG_DER_LENGTH},                  /* long form < 128 */
        {"30850000000006020101020101", 0, P256_SIG_DER_LENGTH},          /* 5 length octets */
        {"3007020101020101", 0, P256_SIG_DER_OVERRUN},
        {"300602010102010100", 0, P256_SIG_DER_TRAILING},
        {"3003020101", 0, P256_SIG_DER_NOT_INTEGER},                     /* no s */
        {"3006040101020101", 0, P256_SIG_DER_NOT_INTEGER},
        {"300602010104010100", 0, P256_SIG_DER_TRAILING},
        {"300702020001020101", 0, P256_SIG_DER_INTEGER},                 /* 00 01 */
        {"30070202ff80020101", 0, P256_SIG_DER_INTEGER},                 /* ff 80 */
        {"3006020100020101", 0, P256_SIG_R_RANGE},                       /* r = 0 */
        {"3006020101020100", 0, P256_SIG_S_RANGE},                       /* s = 0 */
        {"3006020181020101", 0, P256_SIG_R_RANGE},                       /* r negative */
        {"3006020101020181", 0, P256_SIG_S_RANGE},                       /* s negative */
    };
    uint8_t buf[160], rs[64];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len = unhex(buf, sizeof buf, cases[i].hex);
        CHECK(p256_sig_parse(rs, buf, len, cases[i].raw) == cases[i].want, "case %zu: %s -> %d",
              i, cases[i].hex, p256_sig_parse(rs, buf, len, cases[i].raw));
    }
    /* an empty INTEGER, an element after s */
    {
        static const uint8_t empty_int[] = {0x30, 0x05, 0x02, 0x00, 0x02, 0x01, 0x01};
        static const uint8_t extra[] = {0x30, 0x09, 0x02, 0x01, 0x01, 0x02, 0x01,
                                        0x01, 0x02, 0x01, 0x01};
        CHECK(p256_sig_parse(rs, empty_int, sizeof empty_int, 0) == P256_SIG_DER_INTEGER,
              "empty INTEGER");
        CHECK(p256_sig_parse(rs, extra, sizeof extra, 0) == P256_SIG_DER_EXTRA, "a third INTEGER");
    }
    /* r = 2^256 (33 value bytes), r = n; a long-form SEQUENCE of 2 big INTEGERs (valid
     * DER, values too large) */
    {
        uint8_t big[80] = {0x30, 0x26, 0x02, 0x21, 0x01};
        big[37] = 0x02, big[38] = 0x01, big[39] = 0x01;
        CHECK(p256_sig_parse(rs, big, 40, 0) == P256_SIG_R_RANGE, "r = 2^256");
        memset(buf, 0, 64);
        p256_limbs_to_be32(buf, p256_n);
        buf[63] = 1;
        CHECK(p256_sig_parse(rs, buf, 64, 1) == P256_SIG_R_RANGE, "raw r = n");
        CHECK(p256_sig_parse(rs, buf, 63, 1) == P256_SIG_RAW_LENGTH, "raw 63 bytes");
        CHECK(p256_sig_parse(rs, buf, 65, 1) == P256_SIG_RAW_LENGTH, "raw 65 bytes");
        memset(buf, 0, 160);
        buf[0] = 0x30, buf[1] = 0x81, buf[2] = 0x84, buf[3] = 0x02, buf[4] = 0x40;
        buf[4 + 1] = 0x01;
        buf[69] = 0x02, buf[70] = 0x40, buf[71] = 0x01;
        CHECK(p256_sig_parse(rs, buf, 135, 0) == P256_SIG_R_RANGE,
              "long-form DER, 64-byte r: %d", p256_sig_parse(rs, buf, 135, 0));
    }
    /* p256_sig_from_der decodes exactly what sig_parse's DER structure accepts with r and s
     * of at most 32 bytes; random mutations of real signatures */
    for (int i = 0; i < 4000; i++) {
        uint8_t d[32], dg[32], sig[72], der[80], back[64];
        size_t len;
        int st, ok;
        if (i % 200 == 0) {
            random_seckey(d);
            rng_fill(dg, 32);
            p256_sign(rs, d, dg, 32, P256_NONCE_HEDGED);
        }
        len = p256_sig_to_der(sig, rs);
        memcpy(der, sig, len);
        if (i % 4) {
            size_t at = (size_t)(rng64() % len);
            der[at] ^= (uint8_t)(1u << (rng64() % 8));
            if (i % 7 == 0)
                len -= rng64() % 3;
        }
        st = p256_sig_parse(back, der, len, 0);
        ok = p256_sig_from_der(back, der, len);
        CHECK(ok == (st == P256_SIG_OK || ((st == P256_SIG_R_RANGE || st == P256_SIG_S_RANGE) &&
                                          p256_sig_der_parse(back, der, len) == P256_SIGDER_OK)),
              "from_der %d vs sig_parse %d (%d)", ok, st, i);
        if (i % 4 == 0)
            CHECK(st == P256_SIG_OK && memcmp(back, rs, 64) == 0, "a real signature parses (%d)", i);
    }
}

int main(void)
{
    test_load_reasons();
    test_against_the_byte_api();
    test_sig_reasons();
    printf("test_pubkey (%s): %ld checks, %ld failures\n", p256_backend_name(), checks, failures);
    return failures != 0;
}

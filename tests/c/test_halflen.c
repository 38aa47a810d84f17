/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_halflen.c: the half-length verification experiment (csrc/modules/halflen), run by
 * `make ctest` once per field backend. Its answer must be p256_ecdsa_verify_vartime's:
 *   - the half-gcd: w = v u (mod n) with |v|, w < 2^128 and v != 0, for edge and random u;
 *   - Wycheproof's secp256r1 ECDSA vectors as EIP-7951 derives its cases from them
 *     (tests/c/api_kat.h: P1363 and DER, SHA-256 and SHA-512), without a y parity and
 *     with each;
 *   - random signatures, valid and altered: without the parity, with R's (from the
 *     recovery id) and with the other one, which must fail;
 *   - the corners of R: x(R) = r + n (a curve point with x in [n, p), and the key that
 *     signed with it), x(R) = r where r + n is a curve x as well, R at infinity, and an r
 *     that is no curve point's x.
 * Negative controls (tools/plants.py) it must catch: halflen:1 never tries x = r + n,
 * halflen:2 tries one y when no parity is given, halflen:3 drops v's sign.
 */
#include "harness.h"
#include "p256.c"
#include "modules/halflen/main_impl.h"

#include "api_kat.h"

static p256_halflen_table halflen_table;

static void check_halfgcd(const p256_scalar *u, const char *what, long i)
{
    uint64_t v[2], w[2];
    int neg;
    p256_scalar sv, prod;
    p256_halfgcd_vartime(v, &neg, w, u);
    sv = (p256_scalar){{v[0], v[1], 0, 0}};
    p256_scalar_mul(&prod, &sv, u);
    if (neg)
        p256_scalar_negate(&prod, &prod);
    CHECK((v[0] | v[1]) != 0, "half-gcd of %s (%ld): v != 0", what, i);
    /* v and w come back in 128 bits: had either been longer, the congruence would break */
    CHECK(prod.v[0] == w[0] && prod.v[1] == w[1] && prod.v[2] == 0 && prod.v[3] == 0,
          "half-gcd of %s (%ld): w = v u mod n", what, i);
}

static void test_halfgcd(void)
{
    static const uint64_t edges[][4] = {
        {1, 0, 0, 0},
        {2, 0, 0, 0},
        {UINT64_MAX, UINT64_MAX, 0, 0},                        /* 2^128 - 1 */
        {0, 0, 1, 0},                                          /* 2^128 */
        {1, 0, 1, 0},                                          /* 2^128 + 1: n/u ~ 2^128 */
        {12345, 0, 0, 1},                                      /* 2^192 + 12345 */
        {0, 0, 0, 0x8000000000000000ULL},                      /* 2^255 */
        {0xf3b9cac2fc632550ULL, 0xbce6faada7179e84ULL, UINT64_MAX, 0xffffffff00000000ULL},
        {0xf3b9cac2fc63254fULL, 0xbce6faada7179e84ULL, UINT64_MAX, 0xffffffff00000000ULL},
        {0x79dce5617e3192a8ULL, 0xde737d56d38bcf42ULL, 0x7fffffffffffffffULL,
         0x7fffffff80000000ULL},                               /* (n - 1) / 2 */
    };
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        p256_scalar u = {{edges[i][0], edges[i][1], edges[i][2], edges[i][3]}};
        check_halfgcd(&u, "an edge", (long)i);
    }
    for (long i = 0, n = harness_iters(2000); i < n; i++) {
        uint8_t b[32];
        p256_scalar u;
        int bits = (int)(rng64() % 256) + 1;
        rng_fill(b, 32);
        p256_scalar_set_bytes_reduce(&u, b);
        if (i % 4 == 0) /* shorter ones too: large quotients, and u < 2^128 itself */
            for (int j = bits; j < 256; j++)
                u.v[j / 64] &= ~(1ULL << (j % 64));
        if (p256_scalar_mask_is_zero(&u))
            u.v[0] = 1;
        check_halfgcd(&u, "a random u", i);
    }
}

/*
 * The standard verification's answer must be want, and the half-length one's the same
 * without a parity; with R's y parity (0 or 1; -1 when unknown) the same, and with the
 * other parity 0.
 */
static void check_same(const p256_aff *q, const uint8_t rs[64], const uint8_t *dg, size_t len,
                       int want, int parity, const char *what, long i)
{
    const p256_halflen_table *t = &halflen_table;
    int std = p256_ecdsa_verify_vartime(q, rs, dg, len);
    CHECK(std == want, "%s (%ld): verify gives %d", what, i, std);
    CHECK(p256_ecdsa_verify_halflen_vartime(t, q, rs, dg, len, P256_HALFLEN_ANY_Y) == want,
          "%s (%ld): half-length verification without a parity", what, i);
    if (parity >= 0) {
        CHECK(p256_ecdsa_verify_halflen_vartime(t, q, rs, dg, len, parity) == want,
              "%s (%ld): with R's parity %d", what, i, parity);
        CHECK(p256_ecdsa_verify_halflen_vartime(t, q, rs, dg, len, 1 - parity) == 0,
              "%s (%ld): with the other parity", what, i);
    } else {
        int even = p256_ecdsa_verify_halflen_vartime(t, q, rs, dg, len, 0);
        int odd = p256_ecdsa_verify_halflen_vartime(t, q, rs, dg, len, 1);
        CHECK((even | odd) == want && !(even & odd), "%s (%ld): parities %d, %d", what, i,
              even, odd);
    }
}

static void test_wycheproof(void)
{
    uint8_t pub[65], rs[64], digest[32];
    p256_aff q;
    for (size_t i = 0; i < sizeof verify_kats / sizeof verify_kats[0]; i++) {
        const verify_kat *t = &verify_kats[i];
        unhex(pub, sizeof pub, t->pub);
        unhex(rs, sizeof rs, t->rs);
        unhex(digest, sizeof digest, t->digest);
        CHECK(p256_aff_decode_vartime(&q, pub, 65), "Wycheproof %s tcId %d: the key loads",
              verify_kat_sets[t->set], t->tc);
        check_same(&q, rs, digest, 32, t->valid, -1, verify_kat_sets[t->set], t->tc);
    }
}

static void random_key(p256_aff *q, uint8_t d[32])
{
    uint8_t enc[65];
    p256_pubkey pk;
    do
        rng_fill(d, 32);
    while (!p256_seckey_verify(d));
    CHECK(p256_pubkey_derive(&pk, d), "derive");
    p256_pubkey_serialize(enc, &pk, 0);
    CHECK(p256_aff_decode_vartime(q, enc, 65), "the key decodes");
}

static void test_random_signatures(void)
{
    for (long i = 0, n = harness_iters(200); i < n; i++) {
        uint8_t d[32], dg[32], rs[64];
        p256_aff q;
        int recid = -1;
        random_key(&q, d);
        rng_fill(dg, 32);
        CHECK(p256_sign_recoverable(rs, &recid, d, dg, 32, P256_NONCE_SHA256, (int)(i & 1)),
              "sign (%ld)", i);
        check_same(&q, rs, dg, 32, 1, recid & 1, "a valid signature", i);
        /* one bit of r, s or the digest changed */
        {
            int bit = (int)(rng64() % 768);
            uint8_t *p = bit < 512 ? rs : dg;
            p[(bit % 512) / 8] ^= (uint8_t)(1 << (bit % 8));
            check_same(&q, rs, dg, 32, 0, -1, "an altered signature", i);
        }
    }
}

/*
 * The key under which (r, s) signs dg with the R of recovery id recid: public-key
 * recovery (modules/recovery) is that construction, Q = r^-1 (s R - e G).
 */
static void key_for_r(p256_aff *q, const uint8_t rs[64], const uint8_t dg[32], int recid)
{
    int st = p256_ecdsa_recover_vartime(q, rs, dg, 32, recid);
    CHECK(st == P256_ECDSA_RECOVER_OK, "a key for recovery id %d (status %d)", recid, st);
}

/* 1 if x (4 limbs) is a curve point's x. */
static int is_curve_x(const uint64_t x[4])
{
    uint8_t enc[33] = {0x02};
    p256_aff pt;
    p256_limbs_to_be32(enc + 1, x);
    return p256_aff_decode_status_vartime(&pt, enc, 33) == P256_SEC1_OK;
}

static void test_r_corners(void)
{
    int plus_n = 0, both = 0, none = 0;
    for (uint64_t t = 1; t < 200; t++) {
        uint64_t x[4], small[4] = {t, 0, 0, 0};
        unsigned char c = 0;
        uint8_t rs[64], dg[32];
        p256_aff q;
        int at_r = is_curve_x(small), at_rn;
        for (int i = 0; i < 4; i++)
            x[i] = p256_adc(p256_n[i], small[i], &c);
        at_rn = is_curve_x(x);
        memset(rs, 0, 32);
        rs[31] = (uint8_t)t;
        rng_fill(rs + 32, 32);
        rs[32] &= 0x7f;
        rng_fill(dg, 32);
        for (int odd = 0; odd < 2 && at_rn; odd++) {
            /* x(R) = r + n: only the second candidate is right */
            key_for_r(&q, rs, dg, 2 | odd);
            check_same(&q, rs, dg, 32, 1, odd, "x(R) = r + n", (long)t);
            plus_n++;
        }
        for (int odd = 0; odd < 2 && at_r && at_rn; odd++) {
            /* x(R) = r while r + n is a curve x too: the first candidate is right */
            key_for_r(&q, rs, dg, odd);
            check_same(&q, rs, dg, 32, 1, odd, "x(R) = r, r + n a curve x", (long)t);
            both++;
        }
        if (!at_r && !at_rn) {
            /* no R at all: any key */
            uint8_t d[32];
            random_key(&q, d);
            check_same(&q, rs, dg, 32, 0, -1, "r and r + n no curve x", (long)t);
            none++;
        }
    }
    CHECK(plus_n >= 4 && both >= 4 && none >= 2, "corners reached: %d, %d, %d", plus_n, both,
          none);
    /* u1 G + u2 Q at infinity: Q = -(e/r) G */
    for (long i = 0; i < 8; i++) {
        uint8_t rs[64], dg[32];
        p256_scalar r, e, k;
        p256_aff q;
        p256_jac pt;
        rng_fill(rs, 64);
        rs[0] &= 0x7f, rs[32] &= 0x7f;
        rng_fill(dg, 32);
        (void)p256_scalar_set_bytes_checked(&r, rs);
        p256_scalar_from_digest(&e, dg, 32);
        p256_scalar_inv_vartime(&k, &r);
        p256_scalar_mul(&k, &k, &e);
        p256_scalar_negate(&k, &k);
        p256_ecmult_gen(&pt, &k);
        CHECK(!p256_jac_to_aff(&q, &pt), "R at infinity: the key");
        check_same(&q, rs, dg, 32, 0, -1, "R at infinity", i);
    }
}

int main(void)
{
    p256_halflen_table_init(&halflen_table);
    test_halfgcd();
    test_wycheproof();
    test_random_signatures();
    test_r_corners();
    printf("test_halflen (%s): %ld checks, %ld failures\n", p256_backend_name(), checks,
           failures);
    return failures != 0;
}

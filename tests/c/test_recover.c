/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_recover.c: the recovery module (csrc/modules/recovery) and the signer's recovery
 * id, run by `make ctest` once per field backend:
 *   - sign_recoverable's id (with and without low_s) recovers the signer's key, and every
 *     other id gives another key or none;
 *   - R.x = r + n (ids 2 and 3), built from a curve point with x in [n, p): its id says so
 *     (p256_ecdsa_recovery_id) and recovery finds the key the construction made;
 *   - the refusals: r + n >= p, an x with no point, r or s out of range, an id outside 0..3.
 * With the plant recover:1 (s instead of s/r) armed it must fail: the module's own
 * verification of the key it found catches a wrong computation (tools/plants.py).
 */
#include "harness.h"
#include "p256.c"

static void random_digest(uint8_t dg[32])
{
    rng_fill(dg, 32);
}

static void test_sign_then_recover(void)
{
    for (int i = 0; i < 64; i++) {
        uint8_t d[32], dg[32], rs[64], want[65], got[65];
        p256_pubkey pk, back;
        int recid = -1, low = i & 1;
        do
            rng_fill(d, 32);
        while (!p256_seckey_verify(d));
        random_digest(dg);
        CHECK(p256_pubkey_derive(&pk, d), "derive %d", i);
        p256_pubkey_serialize(want, &pk, 0);
        CHECK(p256_sign_recoverable(rs, &recid, d, dg, 32, P256_NONCE_SHA256, low), "sign %d", i);
        CHECK(recid >= 0 && recid <= 3, "recovery id %d in 0..3 (%d)", recid, i);
        CHECK(p256_pubkey_verify(&pk, rs, dg, 32), "the signature verifies (%d)", i);
        if (low)
            CHECK(p256_sig_is_low_s(rs), "low_s gives s <= n/2 (%d)", i);
        CHECK(p256_pubkey_recover(&back, rs, dg, 32, recid) == P256_RECOVER_OK &&
                  p256_pubkey_equal(&back, &pk),
              "the recovery id recovers the signer's key (%d)", i);
        p256_pubkey_serialize(got, &back, 0);
        CHECK(memcmp(got, want, 65) == 0, "the same bytes (%d)", i);
        for (int other = 0; other < 4; other++) {
            int st;
            if (other == recid)
                continue;
            st = p256_pubkey_recover(&back, rs, dg, 32, other);
            CHECK(st != P256_RECOVER_OK || !p256_pubkey_equal(&back, &pk),
                  "id %d of a signature with id %d gives another key or none (%d)", other, recid,
                  i);
            CHECK(st == P256_RECOVER_OK || st == P256_RECOVER_R_PLUS_N ||
                      st == P256_RECOVER_NO_POINT,
                  "id %d: status %d (%d)", other, st, i);
        }
    }
}

/* r + n: a curve point R with x in [n, p), and a key made to have signed with it. */
static void test_recover_r_plus_n(void)
{
    uint8_t enc[33] = {0x02}, rs[64], dg[32];
    uint64_t x[4];
    p256_aff big_r;
    int found = 0;
    for (uint64_t t = 1; t < 64 && found < 2; t++) {
        unsigned char c = 0;
        uint64_t add[4] = {t, 0, 0, 0};
        for (int i = 0; i < 4; i++)
            x[i] = p256_adc(p256_n[i], add[i], &c);
        p256_limbs_to_be32(enc + 1, x);
        for (int odd = 0; odd < 2; odd++) {
            p256_pubkey q, back;
            p256_scalar r, s, e, rinv, u1, u2;
            p256_jac pt;
            int st;
            enc[0] = (uint8_t)(0x02 | odd);
            if (p256_aff_decode_status_vartime(&big_r, enc, 33) != P256_SEC1_OK)
                break;
            found++;
            CHECK(p256_ecdsa_recovery_id(&big_r) == (2 | odd), "R.x = n + %llu: id %d",
                  (unsigned long long)t, 2 | odd);
            /* Q = r^-1 (s R - e G) for random s, e: then (r, s) signs e under Q with R. */
            memset(rs, 0, 32);
            rs[31] = (uint8_t)t; /* r = x - n = t */
            rng_fill(rs + 32, 32);
            rs[32] &= 0x7f;
            random_digest(dg);
            (void)p256_scalar_set_bytes_checked(&r, rs);
            (void)p256_scalar_set_bytes_checked(&s, rs + 32);
            p256_scalar_from_digest(&e, dg, 32);
            p256_scalar_inv_vartime(&rinv, &r);
            p256_scalar_mul(&u1, &e, &rinv);
            p256_scalar_negate(&u1, &u1);
            p256_scalar_mul(&u2, &s, &rinv);
            p256_ecmult_vartime(&pt, &u1, &u2, &big_r);
            CHECK(p256_output_pubkey(&q, &pt), "the constructed key is finite");
            CHECK(p256_pubkey_verify(&q, rs, dg, 32), "the constructed signature verifies");
            st = p256_pubkey_recover(&back, rs, dg, 32, 2 | odd);
            CHECK(st == P256_RECOVER_OK && p256_pubkey_equal(&back, &q),
                  "id %d recovers the key of R.x = r + n (status %d)", 2 | odd, st);
        }
    }
    CHECK(found >= 2, "found points with x in [n, p) (%d)", found);
}

static void test_refusals(void)
{
    uint8_t rs[64], dg[32] = {1};
    p256_pubkey pk;
    int st;
    /* r = 2^200 >= p - n (about 2^128): r + n >= p, no R for ids 2, 3 */
    memset(rs, 0, 64);
    rs[6] = 1;
    rs[63] = 5;
    CHECK(p256_pubkey_recover(&pk, rs, dg, 32, 2) == P256_RECOVER_R_PLUS_N, "r + n >= p, id 2");
    CHECK(p256_pubkey_recover(&pk, rs, dg, 32, 3) == P256_RECOVER_R_PLUS_N, "r + n >= p, id 3");
    /* an x that is no point's: search a small r */
    {
        uint8_t enc[33] = {0x02};
        p256_aff a;
        int r;
        for (r = 1; r < 256; r++) {
            enc[32] = (uint8_t)r;
            if (p256_aff_decode_status_vartime(&a, enc, 33) == P256_SEC1_NO_POINT)
                break;
        }
        memset(rs, 0, 32);
        rs[31] = (uint8_t)r;
        st = p256_pubkey_recover(&pk, rs, dg, 32, 0);
        CHECK(r < 256 && st == P256_RECOVER_NO_POINT, "r = %d is no x: status %d", r, st);
    }
    /* r = 0, s = 0, s = n, id 4 and -1 */
    memset(rs, 0, 64);
    rs[63] = 1;
    CHECK(p256_pubkey_recover(&pk, rs, dg, 32, 0) == P256_RECOVER_RANGE, "r = 0");
    rs[31] = 1;
    rs[63] = 0;
    CHECK(p256_pubkey_recover(&pk, rs, dg, 32, 0) == P256_RECOVER_RANGE, "s = 0");
    p256_limbs_to_be32(rs + 32, p256_n);
    CHECK(p256_pubkey_recover(&pk, rs, dg, 32, 0) == P256_RECOVER_RANGE, "s = n");
    rs[63] = 1;
    memset(rs + 32, 0, 31);
    CHECK(p256_pubkey_recover(&pk, rs, dg, 32, 4) == P256_RECOVER_RANGE, "id 4");
    CHECK(p256_pubkey_recover(&pk, rs, dg, 32, -1) == P256_RECOVER_RANGE, "id -1");
}

int main(void)
{
    test_sign_then_recover();
    test_recover_r_plus_n();
    test_refusals();
    printf("test_recover (%s): %ld checks, %ld failures\n", p256_backend_name(), checks,
           failures);
    return failures != 0;
}

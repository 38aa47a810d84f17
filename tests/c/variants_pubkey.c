/* SPDX-License-Identifier: Apache-2.0 */
/*
 * variants_pubkey.c: p256_pubkey is the same representation in every variant of the core
 * (p256.h: the affine point, Montgomery limbs, fully reduced). Linked against several
 * variant objects at once, as the extension is (each p256.c built with -DP256_VARIANT=
 * p256_api_<name>; make ctest-variants builds those this CPU runs and names them in
 * VARIANTS_PUBKEY as -DHAVE_<NAME>): a key made by one variant is read by every other,
 * and the same point has the same bytes whichever variant loaded or computed it. The
 * group's p256_point too: a point (projective, so not one form per point) that one variant
 * computed is added, multiplied, compared and encoded by every other alike.
 */
#include "harness.h"
#include "p256.h"

extern const p256_api p256_api_portable;
extern const p256_api p256_api_x86_64_adx;
extern const p256_api p256_api_aarch64_asm;

static const struct {
    const char *name;
    const p256_api *api;
} variants[] = {
    {"portable", &p256_api_portable},
#if defined(HAVE_X86_64_ADX)
    {"x86_64-adx", &p256_api_x86_64_adx},
#endif
#if defined(HAVE_AARCH64_ASM)
    {"aarch64-asm", &p256_api_aarch64_asm},
#endif
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

int main(void)
{
    for (int round = 0; round < 32; round++) {
        uint8_t d[32], dg[32], rs[64], pub[65], enc[65], shared[2][32], k[32];
        p256_pubkey from[NVARIANTS], loaded[NVARIANTS];
        do
            rng_fill(d, 32);
        while (!p256_api_portable.seckey_verify(d));
        rng_fill(dg, 32);
        rng_fill(k, 32);
        for (size_t a = 0; a < NVARIANTS; a++) {
            const p256_api *A = variants[a].api;
            CHECK(A->pubkey_derive(&from[a], d), "%s: derive", variants[a].name);
            A->pubkey_serialize(pub, &from[a], round & 1);
            CHECK(A->pubkey_load(&loaded[a], pub, (round & 1) ? 33 : 65) == P256_POINT_OK,
                  "%s: load", variants[a].name);
            CHECK(memcmp(&from[a], &from[0], sizeof from[a]) == 0 &&
                      memcmp(&loaded[a], &from[0], sizeof loaded[a]) == 0,
                  "%s and portable: the same bytes for the same point", variants[a].name);
        }
        for (size_t a = 0; a < NVARIANTS; a++) {
            const p256_api *A = variants[a].api;
            CHECK(A->sign(rs, d, dg, 32, P256_NONCE_SHA256), "%s: sign", variants[a].name);
            A->pubkey_serialize(pub, &from[a], 0);
            for (size_t b = 0; b < NVARIANTS; b++) {
                const p256_api *B = variants[b].api;
                p256_pubkey m[2];
                CHECK(B->pubkey_verify(&from[a], rs, dg, 32) == 1,
                      "a key of %s verifies in %s", variants[a].name, variants[b].name);
                B->pubkey_serialize(enc, &from[a], 0);
                CHECK(memcmp(enc, pub, 65) == 0, "a key of %s serializes alike in %s",
                      variants[a].name, variants[b].name);
                CHECK(A->pubkey_ecdh(shared[0], d, &from[b]) &&
                          B->pubkey_ecdh(shared[1], d, &from[a]) &&
                          memcmp(shared[0], shared[1], 32) == 0,
                      "ecdh across %s and %s", variants[a].name, variants[b].name);
                CHECK(A->pubkey_mult(&m[0], k, &from[b]) && B->pubkey_mult(&m[1], k, &from[a]) &&
                          B->pubkey_equal(&m[0], &m[1]) && A->pubkey_equal(&m[1], &m[0]),
                      "k*Q across %s and %s", variants[a].name, variants[b].name);
            }
        }
    }
    for (int round = 0; round < 8; round++) {
        uint8_t k[2][32], enc[2][65];
        p256_point p[NVARIANTS], q[NVARIANTS];
        rng_fill(k[0], 32);
        rng_fill(k[1], 32);
        for (size_t a = 0; a < NVARIANTS; a++) {
            const p256_api *A = variants[a].api;
            A->point_mult_base(&p[a], k[0]); /* Jacobian, Z != 1 */
            A->point_mult_base(&q[a], k[1]);
        }
        for (size_t a = 0; a < NVARIANTS; a++) {
            for (size_t b = 0; b < NVARIANTS; b++) {
                const p256_api *A = variants[a].api, *B = variants[b].api;
                p256_point s[2];
                A->point_add(&s[0], &p[a], &q[b]);
                B->point_add(&s[1], &p[b], &q[a]);
                A->point_mult(&s[0], k[1], &s[0]);
                B->point_mult(&s[1], k[1], &s[1]);
                CHECK(A->point_equal(&s[0], &s[1]) && B->point_equal(&s[1], &s[0]) &&
                          A->point_equal(&p[b], &p[a]),
                      "points across %s and %s", variants[a].name, variants[b].name);
                A->point_serialize(enc[0], &s[1], round & 1);
                B->point_serialize(enc[1], &s[0], round & 1);
                CHECK(memcmp(enc[0], enc[1], (round & 1) ? 33 : 65) == 0,
                      "a point of %s encodes alike in %s", variants[b].name, variants[a].name);
            }
        }
    }
    printf("variants_pubkey (%zu variants:", NVARIANTS);
    for (size_t a = 0; a < NVARIANTS; a++)
        printf(" %s", variants[a].name);
    printf("): %ld checks, %ld failures\n", checks, failures);
    return failures != 0;
}

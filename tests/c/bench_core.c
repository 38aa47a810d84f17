/*
 * bench_core.c: the core's operations timed from C, without Python in the way.
 * Not part of make test. Build and run:
 *   cc -O2 -std=c99 -Icsrc -o /tmp/bench_core tests/c/bench_core.c && /tmp/bench_core
 * Prints the median of 11 batches per operation.
 */
#define _GNU_SOURCE
#include "p256.c"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static uint8_t d[32], pub[65], peer[65], rs[64], digest[32], out[65], shared[32], comp[33];
static p256_fe fa, fb;
static p256_scalar sa;

#define BENCH(name, iters, stmt)                                                  \
    do {                                                                          \
        double t[11];                                                             \
        for (int r = 0; r < 11; r++) {                                            \
            double t0 = now();                                                    \
            for (int i = 0; i < (iters); i++) {                                   \
                stmt;                                                             \
            }                                                                     \
            t[r] = (now() - t0) / (iters);                                        \
        }                                                                         \
        qsort(t, 11, sizeof t[0], cmp_double);                                    \
        printf("%-28s %9.3f us\n", name, t[5] * 1e6);                             \
    } while (0)

int main(void)
{
    p256_jac j;
    p256_aff a;
    p256_seckey_generate(d);
    p256_pubkey_create(pub, d);
    {
        uint8_t d2[32];
        p256_seckey_generate(d2);
        p256_pubkey_create(peer, d2);
    }
    memset(digest, 7, sizeof digest);
    p256_sign(rs, d, digest, 32, P256_NONCE_HEDGED);
    comp[0] = 2 + (pub[64] & 1);
    memcpy(comp + 1, pub + 1, 32);
    p256_fe_from_bytes(&fa, pub + 1);
    p256_fe_from_bytes(&fb, pub + 33);
    p256_scalar_set_bytes_reduce(&sa, d);

    printf("backend %s, sha256 %s\n", p256_backend_name(), p256_sha256_impl_name());
    BENCH("fe_mul", 200000, p256_fe_mul(&fa, &fa, &fb));
    BENCH("fe_sqr", 200000, p256_fe_sqr(&fa, &fa));
    BENCH("fe_inv (safegcd)", 2000, p256_fe_inv(&fa, &fa));
    BENCH("fe_inv_vartime", 2000, p256_fe_inv_vartime(&fa, &fa));
    BENCH("fe_inv_fermat", 2000, p256_fe_inv_fermat(&fa, &fa));
    BENCH("fe_sqrt", 2000, p256_fe_sqrt(&fa, &fb));
    BENCH("scalar_inv (safegcd)", 2000, p256_scalar_inv(&sa, &sa));
    BENCH("scalar_inv_vartime", 2000, p256_scalar_inv_vartime(&sa, &sa));
    BENCH("jac_double", 20000, p256_jac_double(&j, &j));
    j.x = fa, j.y = fb, j.z = p256_fe_one;
    a.x = fb, a.y = fa;
    BENCH("jac_add (complete)", 20000, p256_jac_add(&j, &j, &j));
    BENCH("jac_add_aff (complete)", 20000, p256_jac_add_aff(&j, &j, &a, 0));
    BENCH("ecmult_gen", 2000, p256_ecmult_gen(&j, &sa));
    BENCH("ecmult_const", 500, p256_ecmult_const(&j, &sa, &p256_generator));
    BENCH("ecmult_vartime", 500, p256_ecmult_vartime(&j, &sa, &sa, &p256_generator));
    BENCH("keygen + pubkey", 1000, (p256_seckey_generate(d), p256_pubkey_create(pub, d)));
    BENCH("sign hedged", 1000, p256_sign(rs, d, digest, 32, P256_NONCE_HEDGED));
    BENCH("sign rfc6979 sha256", 1000, p256_sign(rs, d, digest, 32, P256_NONCE_SHA256));
    BENCH("verify", 500, p256_verify(pub, 65, rs, digest, 32));
    BENCH("ecdh", 500, p256_ecdh(shared, d, peer, 65));
    BENCH("pubkey parse 65", 20000, p256_pubkey_parse(out, pub, 65));
    BENCH("pubkey parse 33", 2000, p256_pubkey_parse(out, comp, 33));
    return 0;
}

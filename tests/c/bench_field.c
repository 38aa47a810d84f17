/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_field.c: the field backend's multiplication and squaring, and the main operations,
 * timed by CPU time (CLOCK_THREAD_CPUTIME_ID: robust on a shared, loaded machine, and under
 * qemu-user the emulating thread's time). Not part of make test; make bench-arm64 builds it
 * for the AArch64 assembly and for the portable C and runs both under qemu-aarch64
 * (tools/bench_arm64.py).
 *
 *   bench_field              ns per operation, median of 11 batches. In the assembly build
 *                            the assembly and the portable fe_mul/fe_sqr are both timed, in
 *                            interleaved batches of one process (a dependent chain, as in a
 *                            scalar multiplication: latency, call included).
 *   bench_field OP N         runs OP N times and nothing else, for instruction counting
 *                            (the difference between two N, e.g. under qemu -singlestep
 *                            -d nochain,exec, is N2 - N1 operations exactly). OP is one of
 *                            fe_mul fe_sqr ecmult_gen ecmult_const sign verify ecdh.
 */
#include "harness.h"
#include "p256.c"

static p256_fe fa, fb;

/* One batch of stmt, ns per iteration. */
#define BATCH(iters, stmt)                                                       \
    ({                                                                           \
        double t0_ = cpu_seconds();                                              \
        for (long i_ = 0; i_ < (iters); i_++) {                                  \
            stmt;                                                                \
        }                                                                        \
        (cpu_seconds() - t0_) * 1e9 / (iters);                                   \
    })

#define TIME(name, iters, stmt)                                                  \
    do {                                                                         \
        double t_[11];                                                           \
        for (int r_ = 0; r_ < 11; r_++)                                          \
            t_[r_] = BATCH(iters, stmt);                                         \
        printf("%-28s %9.3f us\n", name, median(t_, 11) / 1e3);                  \
    } while (0)

int main(int argc, char **argv)
{
    uint8_t x[32];
    memset(x, 0x11, sizeof x);
    p256_fe_from_bytes(&fa, x);
    memset(x, 0x22, sizeof x);
    p256_fe_from_bytes(&fb, x);

    if (argc == 1) {
        uint8_t d[32], pub[65], rs[64], digest[32], shared[32];
        p256_scalar k;
        p256_jac j;

        printf("backend %s\n", p256_backend_name());
#if defined(P256_ASM_AARCH64)
        {
            double ta[11], tp[11], sa[11], sp[11];
            for (int r = 0; r < 11; r++) {
                ta[r] = BATCH(100000, p256_fe_mul_aarch64(fa.v, fa.v, fb.v));
                tp[r] = BATCH(100000, p256_fe_mul_c(&fa, &fa, &fb));
                sa[r] = BATCH(100000, p256_fe_sqr_aarch64(fa.v, fa.v));
                sp[r] = BATCH(100000, p256_fe_sqr_c(&fa, &fa));
            }
            printf("%-28s %9.3f us\n", "fe_mul aarch64", median(ta, 11) / 1e3);
            printf("%-28s %9.3f us\n", "fe_mul portable", median(tp, 11) / 1e3);
            printf("%-28s %9.3f us\n", "fe_sqr aarch64", median(sa, 11) / 1e3);
            printf("%-28s %9.3f us\n", "fe_sqr portable", median(sp, 11) / 1e3);
        }
#else
        TIME("fe_mul portable", 100000, p256_fe_mul(&fa, &fa, &fb));
        TIME("fe_sqr portable", 100000, p256_fe_sqr(&fa, &fa));
#endif
        memset(d, 0x42, sizeof d);
        memset(digest, 0x07, sizeof digest);
        p256_scalar_set_bytes_reduce(&k, d);
        if (!p256_pubkey_create(pub, d) || !p256_sign(rs, d, digest, 32, P256_NONCE_SHA256))
            return 1;
        TIME("ecmult_gen", 200, p256_ecmult_gen(&j, &k));
        TIME("ecmult_const", 50, p256_ecmult_const(&j, &k, &p256_generator));
        TIME("pubkey_create", 200, p256_pubkey_create(pub, d));
        TIME("sign rfc6979", 200, p256_sign(rs, d, digest, 32, P256_NONCE_SHA256));
        TIME("verify", 50, p256_verify(pub, 65, rs, digest, 32));
        TIME("ecdh", 50, p256_ecdh(shared, d, pub, 65));
        return 0;
    }
    if (argc == 3) {
        static const char *const ops[] = {"fe_mul", "fe_sqr", "ecmult_gen", "ecmult_const",
                                          "sign", "verify", "ecdh"};
        const long n = strtol(argv[2], NULL, 10);
        uint8_t d[32], pub[65], rs[64], digest[32], shared[32] = {0};
        p256_scalar k;
        p256_jac j = {{{0}}, {{0}}, {{0}}};
        int op = -1;

        for (int i = 0; i < (int)(sizeof ops / sizeof ops[0]); i++)
            if (!strcmp(argv[1], ops[i]))
                op = i;
        memset(d, 0x42, sizeof d);
        memset(digest, 0x07, sizeof digest);
        p256_scalar_set_bytes_reduce(&k, d);
        if (op < 0 || !p256_pubkey_create(pub, d) ||
            !p256_sign(rs, d, digest, 32, P256_NONCE_SHA256))
            return 2;
        /* one loop per op, so the count per iteration is the op and a loop branch */
        switch (op) {
        case 0: for (long i = 0; i < n; i++) p256_fe_mul(&fa, &fa, &fb); break;
        case 1: for (long i = 0; i < n; i++) p256_fe_sqr(&fa, &fa); break;
        case 2: for (long i = 0; i < n; i++) p256_ecmult_gen(&j, &k); break;
        case 3: for (long i = 0; i < n; i++) p256_ecmult_const(&j, &k, &p256_generator); break;
        case 4: for (long i = 0; i < n; i++) p256_sign(rs, d, digest, 32, P256_NONCE_SHA256); break;
        case 5: for (long i = 0; i < n; i++) p256_verify(pub, 65, rs, digest, 32); break;
        default: for (long i = 0; i < n; i++) p256_ecdh(shared, d, pub, 65); break;
        }
        printf("%016llx\n", (unsigned long long)(fa.v[0] ^ j.x.v[0] ^ shared[0] ^ rs[0]));
        return 0;
    }
    fprintf(stderr, "usage: %s [OP N]\n", argv[0]);
    return 2;
}

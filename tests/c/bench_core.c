/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_core.c: the core's operations timed from C, without Python in the way.
 * Not part of make test. Build and run:
 *   cc -O2 -std=c99 -Icsrc -o /tmp/bench_core tests/c/bench_core.c && /tmp/bench_core
 * (add -DP256_ASM_X86_64_ADX and csrc/variants.txt's x86_64_adx sources for the x86-64
 * ADX backend). Prints the median of 11 batches per operation. On x86_64_adx, a first
 * argument -shift-step or -mulx-step times that schedule of the Montgomery step (asm.h)
 * whatever this CPU would choose.
 *
 * With the argument -halflen: the half-length verification experiment
 * (csrc/modules/halflen) beside today's verification of the same signatures, with and
 * without R's y parity, and its parts (docs/performance.md).
 *
 * With the argument -go (what `make bench-c` runs, per backend): the headline operations
 * as Go benchmark lines, "BenchmarkSignP256-2  N  T ns/op" (the -2 is the CPU count,
 * like Go's GOMAXPROCS suffix), so they line up with `go test -bench` and benchstat. N is
 * the iteration count of 5 batches of ~0.1 s each; T is the median batch's time per
 * iteration. Time is the thread's CPU time, not wall time, as `openssl speed` counts by
 * default (user CPU time), so that other processes on a shared machine do not make both
 * sides look slower by different amounts.
 */
#include "harness.h"
#include "p256.c"
#include "modules/halflen/main_impl.h"

#include <unistd.h>

static uint8_t d[32], pub[65], peer[65], rs[64], digest[32], out[65], shared[32], comp[33];
static p256_fe fa, fb;
static p256_scalar sa, sb;

#define BENCH(name, iters, stmt)                                                  \
    do {                                                                          \
        double t[11];                                                             \
        for (int r = 0; r < 11; r++) {                                            \
            double t0 = wall_seconds();                                           \
            for (int i = 0; i < (iters); i++) {                                   \
                stmt;                                                             \
            }                                                                     \
            t[r] = (wall_seconds() - t0) / (iters);                               \
        }                                                                         \
        printf("%-28s %9.3f us\n", name, median(t, 11) * 1e6);                    \
    } while (0)

/* One Go-format benchmark line: calibrate a batch to ~0.1 s, time 5 batches, median. */
#define GO_BENCH(name, stmt)                                                      \
    do {                                                                          \
        double t[5], t0;                                                          \
        long n = 1;                                                               \
        for (;;) {                                                                \
            t0 = cpu_seconds();                                                   \
            for (long i = 0; i < n; i++) {                                        \
                stmt;                                                             \
            }                                                                     \
            if (cpu_seconds() - t0 > 0.05 || n > (1L << 40))                      \
                break;                                                            \
            n *= 2;                                                               \
        }                                                                         \
        n = (long)((double)n * 0.1 / (cpu_seconds() - t0 > 1e-9 ? cpu_seconds() - t0 : 1e-9)) + 1; \
        for (int r = 0; r < 5; r++) {                                             \
            t0 = cpu_seconds();                                                   \
            for (long i = 0; i < n; i++) {                                        \
                stmt;                                                             \
            }                                                                     \
            t[r] = (cpu_seconds() - t0) / (double)n;                              \
        }                                                                         \
        printf("Benchmark%s-%ld\t%10ld\t%12.1f ns/op\n", name, ncpu, 5 * n,       \
               median(t, 5) * 1e9);                                               \
        fflush(stdout);                                                           \
    } while (0)

static void go_benchmarks(void)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    uint8_t d2[32];
    if (ncpu < 1)
        ncpu = 1;
    printf("goos: linux\ngoarch: amd64\npkg: p256/%s\n", p256_backend_name());
    GO_BENCH("FieldMul", p256_fe_mul(&fa, &fa, &fb));
    GO_BENCH("FieldSqr", p256_fe_sqr(&fa, &fa));
    GO_BENCH("FieldInv", p256_fe_inv(&fa, &fa));
    GO_BENCH("ScalarBaseMult", p256_mult_base(out, d));
    GO_BENCH("ScalarMult", p256_mult(out, d, peer, 65));
    GO_BENCH("SignP256", p256_sign(rs, d, digest, 32, P256_NONCE_HEDGED));
    GO_BENCH("VerifyP256", p256_verify(pub, 65, rs, digest, 32));
    GO_BENCH("ECDHP256", p256_ecdh(shared, d, peer, 65));
    GO_BENCH("KeyGeneration", (p256_seckey_generate(d2), p256_pubkey_create(out, d2)));
    /* ECDH with the peer's per-key table, and the table's build, per window width. */
    for (int w = P256_PUBTABLE_MIN_BITS; w <= P256_PUBTABLE_MAX_BITS; w++) {
        char name[40];
        size_t size = p256_pubtable_size(w);
        void *tab = malloc(size);
        if (tab == NULL || !p256_pubtable_build_vartime(tab, size, w, peer, 65))
            exit(2);
        snprintf(name, sizeof name, "ECDHP256Precomputed%d", w);
        GO_BENCH(name, p256_ecdh_pubtable(shared, d, tab));
        snprintf(name, sizeof name, "PubTableBuild%d", w);
        GO_BENCH(name, p256_pubtable_build_vartime(tab, size, w, peer, 65));
        free(tab);
    }
}

static p256_halflen_table halflen_table;

/* A signature of digest under d whose R has y parity odd (hedged nonces until one does). */
static void sign_with_parity(uint8_t sig[64], int odd)
{
    int recid;
    do
        p256_sign_recoverable(sig, &recid, d, digest, 32, P256_NONCE_HEDGED, 0);
    while ((recid & 1) != odd);
}

static void halflen_benchmarks(void)
{
    const p256_halflen_table *ht = &halflen_table;
    uint8_t even[64], odd[64], bad[64];
    p256_aff q, r_even;
    uint64_t v[2], w[2];
    int neg;
    uint8_t enc[33] = {0x02};

    p256_halflen_table_init(&halflen_table);
    p256_aff_decode_vartime(&q, pub, 65);
    sign_with_parity(even, 0);
    sign_with_parity(odd, 1);
    memcpy(bad, even, 64);
    bad[40] ^= 1;
    memcpy(enc + 1, even, 32);
    p256_aff_decode_vartime(&r_even, enc, 33);
    CHECK(p256_ecdsa_verify_vartime(&q, even, digest, 32) &&
              p256_ecdsa_verify_vartime(&q, odd, digest, 32) &&
              !p256_ecdsa_verify_vartime(&q, bad, digest, 32) &&
              p256_ecdsa_verify_halflen_vartime(ht, &q, even, digest, 32, 0) &&
              p256_ecdsa_verify_halflen_vartime(ht, &q, odd, digest, 32, P256_HALFLEN_ANY_Y) &&
              !p256_ecdsa_verify_halflen_vartime(ht, &q, bad, digest, 32, P256_HALFLEN_ANY_Y),
          "the signatures verify as they should");
    printf("backend %s, half-length verification (csrc/modules/halflen)\n", p256_backend_name());
    printf("%-32s %9s %9s %7s\n", "paired with verify (today)", "us", "today", "ratio");
    /* Each row is timed in batches that alternate with today's verification of the same
     * signature, so the ratio (the median of the batches' ratios) sees the same machine. */
#define HALFLEN_PAIRED(name, today_stmt, stmt)                                        \
    do {                                                                              \
        double tn[21], tt[21], ratio[21];                                             \
        for (int r = 0; r < 21; r++) {                                                \
            double t0 = wall_seconds();                                               \
            for (int i = 0; i < 200; i++) {                                           \
                today_stmt;                                                           \
            }                                                                         \
            tt[r] = (wall_seconds() - t0) / 200;                                      \
            t0 = wall_seconds();                                                      \
            for (int i = 0; i < 200; i++) {                                           \
                stmt;                                                                 \
            }                                                                         \
            tn[r] = (wall_seconds() - t0) / 200;                                      \
            ratio[r] = tn[r] / tt[r];                                                 \
        }                                                                             \
        printf("%-32s %9.3f %9.3f %7.3f\n", name, median(tn, 21) * 1e6,              \
               median(tt, 21) * 1e6, median(ratio, 21));                              \
    } while (0)
    HALFLEN_PAIRED("halflen, y parity given", p256_ecdsa_verify_vartime(&q, even, digest, 32),
                   p256_ecdsa_verify_halflen_vartime(ht, &q, even, digest, 32, 0));
    HALFLEN_PAIRED("halflen, no parity, 1 pass", p256_ecdsa_verify_vartime(&q, even, digest, 32),
                   p256_ecdsa_verify_halflen_vartime(ht, &q, even, digest, 32, P256_HALFLEN_ANY_Y));
    HALFLEN_PAIRED("halflen, no parity, 2 passes", p256_ecdsa_verify_vartime(&q, odd, digest, 32),
                   p256_ecdsa_verify_halflen_vartime(ht, &q, odd, digest, 32, P256_HALFLEN_ANY_Y));
    HALFLEN_PAIRED("halflen, invalid", p256_ecdsa_verify_vartime(&q, bad, digest, 32),
                   p256_ecdsa_verify_halflen_vartime(ht, &q, bad, digest, 32, P256_HALFLEN_ANY_Y));
#undef HALFLEN_PAIRED
    p256_scalar_set_bytes_reduce(&sa, even);
    BENCH("part: half-gcd", 20000, p256_halfgcd_vartime(v, &neg, w, &sa));
    BENCH("part: R from r (square root)", 2000, p256_aff_decode_vartime(&r_even, enc, 33));
    {
        p256_aff tab[P256_WNAF_Q_ENTRIES];
        BENCH("part: 8 odd multiples", 2000, p256_aff_multiples_vartime(tab, &q, P256_WNAF_Q_ENTRIES, 2));
    }
}

int main(int argc, char **argv)
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
    p256_scalar_set_bytes_reduce(&sb, pub + 1);

#if defined(P256_ASM_MULX_FN)
    if (argc > 1 && (strcmp(argv[1], "-shift-step") == 0 || strcmp(argv[1], "-mulx-step") == 0))
        p256_cpu_set_mulx_step(strcmp(argv[1], "-mulx-step") == 0), argc--, argv++;
#endif
    if (argc > 1 && strcmp(argv[1], "-go") == 0) {
        go_benchmarks();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "-halflen") == 0) {
        halflen_benchmarks();
        return failures != 0;
    }
    printf("backend %s%s, sha256 %s\n", p256_backend_name(),
#if defined(P256_ASM_MULX_FN)
           p256_cpu_has(P256_CPU_MULX_STEP) ? " (MULX step)" : " (shift step)",
#else
           "",
#endif
           p256_sha256_impl_name());
    BENCH("fe_mul", 200000, p256_fe_mul(&fa, &fa, &fb));
    BENCH("fe_sqr", 200000, p256_fe_sqr(&fa, &fa));
    BENCH("fe_inv (safegcd)", 2000, p256_fe_inv(&fa, &fa));
    BENCH("fe_inv_vartime", 2000, p256_fe_inv_vartime(&fa, &fa));
    BENCH("fe_inv_fermat", 2000, p256_fe_inv_fermat(&fa, &fa));
    BENCH("fe_sqrt", 2000, p256_fe_sqrt(&fa, &fb));
    BENCH("scalar_inv (safegcd)", 2000, p256_scalar_inv(&sa, &sa));
    BENCH("scalar_inv_vartime", 2000, p256_scalar_inv_vartime(&sa, &sa));
    BENCH("scalar_inv_safegcd", 2000, p256_scalar_inv_safegcd(&sa, &sa));
    BENCH("scalar_inv_fermat", 2000, p256_scalar_inv_fermat(&sa, &sa));
    BENCH("scalar_mont_mul (C)", 200000, p256_scalar_mont_mul_c(&sa, &sa, &sb));
    BENCH("scalar_mont_mul (backend)", 200000, p256_scalar_mont_mul(&sa, &sa, &sb));
    BENCH("scalar_mont_sqr (backend)", 200000, p256_scalar_mont_sqr(&sa, &sa));
    BENCH("scalar_mul", 200000, p256_scalar_mul(&sa, &sa, &sb));
    {
        static p256_aff tab[64], out8;
        for (int i = 0; i < 64; i++)
            tab[i].x = fa, tab[i].y = fb;
        BENCH("aff_lookup 64 (generic C)", 200000,
              p256_aff_lookup_c(&out8, tab, 64, (uint64_t)((i ^ out8.x.v[0]) & 63)));
        BENCH("aff_lookup 16 (generic C)", 200000,
              p256_aff_lookup_c(&out8, tab, 16, (uint64_t)((i ^ out8.x.v[0]) & 15)));
#if defined(__x86_64__) && !defined(P256_NO_AVX2)
        BENCH("aff_lookup 64 (AVX2 C)", 200000,
              p256_aff_lookup_avx2_c(&out8, tab, 64, (uint64_t)((i ^ out8.x.v[0]) & 63)));
        BENCH("aff_lookup 16 (AVX2 C)", 200000,
              p256_aff_lookup_avx2_c(&out8, tab, 16, (uint64_t)((i ^ out8.x.v[0]) & 15)));
#endif
#if defined(P256_ASM_HAS_AFF_LOOKUP_AVX2)
        BENCH("aff_lookup 64 (AVX2 asm)", 200000,
              P256_ASM_FN(aff_lookup_avx2)((uint64_t *)&out8,
                                           (const uint64_t *)tab, 64, (uint64_t)((i ^ out8.x.v[0]) & 63)));
        BENCH("aff_lookup 16 (AVX2 asm)", 200000,
              P256_ASM_FN(aff_lookup_avx2)((uint64_t *)&out8,
                                           (const uint64_t *)tab, 16, (uint64_t)((i ^ out8.x.v[0]) & 15)));
#endif
        BENCH("aff_lookup 64 (default)", 200000, p256_aff_lookup(&out8, tab, 64, (uint64_t)((i ^ out8.x.v[0]) & 63)));
        BENCH("aff_lookup 16 (default)", 200000, p256_aff_lookup(&out8, tab, 16, (uint64_t)((i ^ out8.x.v[0]) & 15)));
        fa.v[0] ^= out8.x.v[0] & 1;
    }
    BENCH("jac_double", 20000, p256_jac_double(&j, &j));
    j.x = fa, j.y = fb, j.z = p256_fe_one;
    a.x = fb, a.y = fa;
    BENCH("jac_add (complete)", 20000, p256_jac_add(&j, &j, &j));
    BENCH("jac_add_aff (complete)", 20000, p256_jac_add_aff(&j, &j, &a, 0));
    BENCH("jac_add_aff_partial", 20000, p256_jac_add_aff_partial(&j, &j, &a, 0));
#if defined(P256_ASM_HAS_JAC_DOUBLE)
    /* the C twins of the assembly point formulas, on the same field backend */
    BENCH("jac_double_c", 20000, p256_jac_double_c(&j, &j));
    BENCH("jac_add_c", 20000, p256_jac_add_c(&j, &j, &j));
    BENCH("jac_add_aff_c", 20000, p256_jac_add_aff_c(&j, &j, &a, 0));
    BENCH("jac_add_aff_partial_c", 20000, p256_jac_add_aff_partial_c(&j, &j, &a, 0));
#endif
    BENCH("ecmult_gen", 2000, p256_ecmult_gen(&j, &sa));
    BENCH("ecmult_const", 500, p256_ecmult_const(&j, &sa, &p256_generator));
    BENCH("ecmult_vartime", 500, p256_ecmult_vartime(&j, &sa, &sa, &p256_generator));
    BENCH("keygen + pubkey", 1000, (p256_seckey_generate(d), p256_pubkey_create(pub, d)));
    BENCH("sign hedged", 1000, p256_sign(rs, d, digest, 32, P256_NONCE_HEDGED));
    BENCH("sign rfc6979 sha256", 1000, p256_sign(rs, d, digest, 32, P256_NONCE_SHA256));
    BENCH("verify", 500, p256_verify(pub, 65, rs, digest, 32));
    BENCH("ecdh", 500, p256_ecdh(shared, d, peer, 65));
    for (int w = P256_PUBTABLE_MIN_BITS; w <= P256_PUBTABLE_MAX_BITS; w++) {
        char name[40];
        size_t size = p256_pubtable_size(w);
        void *tab = malloc(size);
        if (tab == NULL)
            return 2;
        snprintf(name, sizeof name, "pubtable build %d", w);
        BENCH(name, 50, p256_pubtable_build_vartime(tab, size, w, peer, 65));
        snprintf(name, sizeof name, "ecdh pubtable %d", w);
        BENCH(name, 500, p256_ecdh_pubtable(shared, d, tab));
        free(tab);
    }
    BENCH("pubkey parse 65", 20000, p256_pubkey_parse(out, pub, 65));
    BENCH("pubkey parse 33", 2000, p256_pubkey_parse(out, comp, 33));
    return 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_batch.c: p256_batch_verify_vartime per signature, the IFMA engine against the
 * scalar loop (P256_BATCH_SCALAR, a loop of p256_verify), one thread, batch sizes 8, 64,
 * 1000 and 100000 (pass other sizes as arguments), then the short batches 1..16 that
 * decide where a tail group pays. Not part of make test: `make bench-batch`, or
 *   cc -O3 -std=c99 -Icsrc -o /tmp/bench_batch tests/c/bench_batch.c && /tmp/bench_batch
 * (with -DP256_IFMA_EMULATE: the engine on the portable emulation of its intrinsics).
 * Valid signatures by 1000 distinct keys over 32-byte digests (reused cyclically). Times
 * are the thread's CPU time; each figure is the median of several rounds, and the two
 * engines alternate within a round so that machine load hits both alike.
 * `bench_batch gen`: k*G instead, p256_ifma_ecmult_gen8 per lane against one
 * p256_ecmult_gen (the constant-time comb of key generation and signing), the same way.
 * `bench_batch ecdh` times the secret side instead: p256_ifma_ecmult_const8 per lane
 * against one p256_ecmult_const (the core's k*P on the build's backend), random k and P.
 */
#include "harness.h"
#include "p256.c"

#define NKEYS 1000

typedef struct {
    uint8_t pub[65], rs[64], digest[32];
} sig_buf;

static sig_buf sigs[NKEYS];

static double time_batch(uint8_t *res, const p256_batch_item *items, size_t n, int engine,
                         int reps)
{
    double t0 = cpu_seconds();
    for (int r = 0; r < reps; r++)
        if (!p256_batch_verify_vartime(res, items, n, 1, P256_BATCH_PREHASHED, engine)) {
            fprintf(stderr, "bench_batch: engine %d refused\n", engine);
            exit(2);
        }
    return (cpu_seconds() - t0) / ((double)reps * (double)n);
}

static void bench(size_t n, int rounds)
{
    p256_batch_item *items = calloc(n, sizeof *items);
    uint8_t *res = malloc(n);
    double ti[9], ts[9];
    int reps = n >= 1000 ? 1 : (int)(2000 / n);
    if (!items || !res)
        exit(2);
    for (size_t i = 0; i < n; i++) {
        const sig_buf *s = &sigs[i % NKEYS];
        items[i].pub = s->pub;
        items[i].pub_len = 65;
        items[i].sig = s->rs;
        items[i].sig_len = 64;
        items[i].msg = s->digest;
        items[i].msg_len = 32;
    }
    if (rounds > 9)
        rounds = 9;
    for (int r = 0; r < rounds; r++) {
        ti[r] = time_batch(res, items, n, P256_BATCH_IFMA, reps);
        for (size_t i = 0; i < n; i++)
            if (res[i] != 1) {
                fprintf(stderr, "bench_batch: item %zu did not verify\n", i);
                exit(2);
            }
        ts[r] = time_batch(res, items, n, P256_BATCH_SCALAR, reps);
    }
    double mi = median(ti, (size_t)rounds), ms = median(ts, (size_t)rounds);
    printf("%8zu  %10.2f  %10.2f  %6.3f\n", n, mi * 1e6, ms * 1e6, mi / ms);
    free(items);
    free(res);
}

/* k*G: ns per scalar of the 8-lane comb against the scalar one, random k < n. */
static void bench_gen(int rounds)
{
    enum { NK = 512, REPS = 8 };
    static p256_scalar k[NK];
    static p256_fe x[NK], y[NK], z[NK];
    p256_jac j;
    double ti[15], ts[15];
    uint64_t sink = 0;
    for (int i = 0; i < NK; i++) {
        uint8_t b[32];
        do
            rng_fill(b, 32);
        while (!p256_scalar_set_bytes_checked(&k[i], b));
    }
    p256_ifma_ecmult_gen8(x, y, z, k); /* builds the table outside the timing */
    for (int r = 0; r < rounds; r++) {
        double t0 = cpu_seconds();
        for (int rep = 0; rep < REPS; rep++)
            for (int i = 0; i < NK; i += 8)
                p256_ifma_ecmult_gen8(x + i, y + i, z + i, k + i);
        ti[r] = (cpu_seconds() - t0) / (REPS * NK);
        t0 = cpu_seconds();
        for (int rep = 0; rep < REPS; rep++)
            for (int i = 0; i < NK; i++) {
                p256_ecmult_gen(&j, &k[i]);
                sink += j.z.v[0];
            }
        ts[r] = (cpu_seconds() - t0) / (REPS * NK);
    }
    double mi = median(ti, (size_t)rounds), ms = median(ts, (size_t)rounds);
    printf("bench_batch gen (%s, engine %s): ns per k*G, CPU time, medians of %d rounds\n",
           p256_backend_name(), p256_batch_engine(), rounds);
    printf("  ifma 8 lanes %8.1f   scalar %8.1f   speed-up %5.2fx   (%llu)\n", mi * 1e9,
           ms * 1e9, ms / mi, (unsigned long long)(sink & 1));
}


#if defined(P256_HAVE_IFMA)
/* ns per lane of p256_ifma_ecmult_const8 and per p256_ecmult_const, medians of rounds. */
static void bench_ecdh(int rounds)
{
    enum { PASSES = 40 };
    static p256_scalar k[PASSES][8];
    static p256_aff q[PASSES][8];
    double ti[15], ts[15];
    p256_fe x[8], y[8], z[8];
    p256_jac j;
    for (int i = 0; i < PASSES; i++)
        for (int l = 0; l < 8; l++) {
            uint8_t b[32];
            do
                rng_fill(b, 32);
            while (!p256_scalar_set_bytes_checked(&k[i][l], b));
            do
                rng_fill(b, 32);
            while (!p256_scalar_set_bytes_checked(&k[(i + 1) % PASSES][7 - l], b));
            p256_ecmult_gen(&j, &k[(i + 1) % PASSES][7 - l]);
            (void)p256_jac_to_aff(&q[i][l], &j);
        }
    if (rounds > 15)
        rounds = 15;
    for (int r = 0; r < rounds; r++) {
        double t0 = cpu_seconds();
        for (int i = 0; i < PASSES; i++)
            p256_ifma_ecmult_const8(x, y, z, k[i], q[i]);
        double t1 = cpu_seconds();
        for (int i = 0; i < PASSES; i++)
            for (int l = 0; l < 8; l++)
                p256_ecmult_const(&j, &k[i][l], &q[i][l]);
        double t2 = cpu_seconds();
        ti[r] = (t1 - t0) / (8.0 * PASSES);
        ts[r] = (t2 - t1) / (8.0 * PASSES);
    }
    double mi = median(ti, (size_t)rounds), ms = median(ts, (size_t)rounds);
    printf("bench_batch ecdh (%s, %s): ns per k*P, CPU time, medians of %d rounds of %d\n",
           p256_backend_name(), p256_batch_engine(), rounds, 8 * PASSES);
    printf("  p256_ifma_ecmult_const8 per lane %9.0f\n  p256_ecmult_const        %9.0f\n"
           "  speedup                  %9.2fx\n", mi * 1e9, ms * 1e9, ms / mi);
}
#endif

int main(int argc, char **argv)
{
    if (!p256_ifma_available()) {
        printf("bench_batch: SKIP: this CPU lacks AVX-512 IFMA\n");
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "gen") == 0) {
        bench_gen(9);
        return 0;
    }
#if defined(P256_HAVE_IFMA)
    if (argc > 1 && strcmp(argv[1], "ecdh") == 0) {
        bench_ecdh(argc > 2 ? atoi(argv[2]) : 9);
        return 0;
    }
#endif
    for (int i = 0; i < NKEYS; i++) {
        uint8_t d[32];
        do
            rng_fill(d, 32);
        while (!p256_seckey_verify(d));
        rng_fill(sigs[i].digest, 32);
        if (!p256_pubkey_create(sigs[i].pub, d) ||
            !p256_sign(sigs[i].rs, d, sigs[i].digest, 32, P256_NONCE_SHA256))
            exit(2);
    }
    printf("bench_batch (%s, engine %s): us per signature, CPU time, medians\n",
           p256_backend_name(), p256_batch_engine());
    printf("%8s  %10s  %10s  %6s\n", "batch", "ifma", "scalar", "ratio");
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            bench((size_t)strtoul(argv[i], NULL, 10), 5);
        return 0;
    }
    bench(8, 7);
    bench(64, 7);
    bench(1000, 5);
    bench(100000, 3);
    printf("short batches (a group shorter than P256_IFMA_MIN_GROUP = %d goes scalar):\n",
           P256_IFMA_MIN_GROUP);
    for (size_t n = 1; n <= 16; n++)
        bench(n, 5);
    return 0;
}

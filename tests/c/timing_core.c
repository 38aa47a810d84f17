/* SPDX-License-Identifier: Apache-2.0 */
/*
 * timing_core.c: a dudect-style timing test of the core's secret entry points (Reparaz,
 * Balasch, Verbauwhede, "Dude, is my code constant time?", DATE 2017).
 *
 * Per target and per class of secret: measurements alternate, in a random order, between
 * class 0 (the secret is one fixed special value: 1, n-1 or a value of Hamming weight
 * 3) and class 1 (a fresh uniform secret each time); the public inputs are drawn the same
 * way for both. Only the call of the core is timed (the CPU's counter: rdtsc between
 * lfences on x86-64, cntvct_el0 between isbs on arm64, else CLOCK_MONOTONIC in ns).
 * Welch's t of the two classes is computed on all measurements and on the ones below
 * each of ten percentiles (1 - 2^-j, j = 1..10, taken from a warm-up batch that is
 * discarded), and reported as it grows with N; |t| > 10 is the alarm. A test over the
 * alarm is run once more with new inputs (TIMING_CONFIRM times in all) and is a leak only
 * if every run is over it: a shared VM makes single runs with |t| of 10-20 now and then.
 *
 * valgrind (ctime_*.c) proves there is no secret-dependent branch or address; this
 * measures what valgrind cannot see, such as an instruction whose latency depends on its
 * operands. Negative controls: -DTIMING_PLANT=1 adds a loop when bit 0 of the secret is
 * set to the modn target, -DTIMING_PLANT=2 a load from a table of 64 cache lines at the
 * secret's low 6 bits after flushing the table and warming its first half (outside the
 * timed call); either must be flagged (make timing checks that it is).
 *
 * Usage: timing_core [-n N | -s SECONDS] [-x SEED] [TARGET ...]: N measurements per test
 * (default 20000), or SECONDS for all tests together; the targets by name (default all).
 * Exit status 0 no leak, 1 a leak confirmed, 2 usage or setup error.
 *
 * Not named test_*.c: make ctest does not run it; make timing does (Makefile).
 */
#include "harness.h"

#include "p256.c"

#include <math.h>

#ifndef TIMING_PLANT
#define TIMING_PLANT 0
#endif
#ifndef TIMING_CONFIRM
#define TIMING_CONFIRM 2 /* runs in all before a test over the alarm counts as a leak */
#endif
#define TIMING_ALARM 10.0
#define TIMING_BATCH 512
#define TIMING_WARMUP 2048 /* measurements for the percentiles, then discarded */
#define TIMING_CROPS 11    /* all, then below the 1 - 2^-j percentile, j = 1..10 */
#define TIMING_MAX_CHECKPOINTS 24

#if defined(__GNUC__) || defined(__clang__)
#define TIMING_NOINLINE __attribute__((noinline))
#else
#define TIMING_NOINLINE
#endif

/* ---- The counter ------------------------------------------------------------------- */

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TIMING_COUNTER "rdtsc (TSC ticks)"
static inline uint64_t counter(void)
{
    uint32_t lo, hi;
    /* lfence before: earlier work has finished; after: later work has not started. */
    __asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
#define TIMING_COUNTER "cntvct_el0 (generic timer ticks)"
static inline uint64_t counter(void)
{
    uint64_t v;
    __asm__ volatile("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(v) : : "memory");
    return v;
}
#else
#define TIMING_COUNTER "CLOCK_MONOTONIC (ns)"
static inline uint64_t counter(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
#endif

/* ---- Targets ----------------------------------------------------------------------- */

/* What a timed call writes, so that no target's work can be dropped as dead code. */
static uint8_t sink[128];

/* Per measurement: the secret (32 bytes) and the public inputs (pub, 128 bytes). */
typedef struct {
    const char *name;
    const char *what;
    void (*run)(const uint8_t s[32], const uint64_t *pub);
    void (*prep)(uint64_t *pub); /* the public inputs (NULL: none) */
    void (*pre)(const uint8_t s[32]); /* untimed, just before the call (NULL: none) */
    int (*available)(void);      /* NULL: always */
} target;

static p256_pubkey peer; /* ECDH's public key, fixed */
static void *peer_table; /* its per-key table at the default window */
static const uint8_t fixed_digest[32] = {0x5a, 0x5a, 0x5a, 0x5a, 1, 2, 3, 4, 5, 6, 7, 8};

static void prep_digest(uint64_t *pub)
{
    rng_fill((uint8_t *)pub, 32);
}

/* Three scalars mod n: r, e, k^-1 of a signature. */
static void prep_scalars(uint64_t *pub)
{
    uint8_t b[32];
    for (int i = 0; i < 3; i++) {
        rng_fill(b, sizeof b);
        p256_scalar_set_bytes_reduce((p256_scalar *)(pub + 4 * i), b);
    }
}

/* AES: iv (16 bytes) and 64 bytes of data. */
static void prep_aes(uint64_t *pub)
{
    rng_fill((uint8_t *)pub, 80);
}

static TIMING_NOINLINE void run_sign_hedged(const uint8_t d[32], const uint64_t *pub)
{
    p256_sign(sink, d, (const uint8_t *)pub, 32, P256_NONCE_HEDGED);
}

static TIMING_NOINLINE void run_sign_det(const uint8_t d[32], const uint64_t *pub)
{
    (void)pub;
    p256_sign(sink, d, fixed_digest, 32, P256_NONCE_SHA256);
}

static TIMING_NOINLINE void run_sign_det_msg(const uint8_t d[32], const uint64_t *pub)
{
    p256_sign(sink, d, (const uint8_t *)pub, 32, P256_NONCE_SHA256);
}

/* The nonce derivation alone: RFC 6979's DRBG keyed by d and h1, one candidate. */
static TIMING_NOINLINE void run_nonce(const uint8_t d[32], const uint64_t *pub)
{
    p256_rfc6979 st;
    p256_rfc6979_init(&st, P256_HASH_SHA256, d, (const uint8_t *)pub, NULL, 0);
    p256_rfc6979_generate(&st, sink);
    p256_rfc6979_clear(&st);
}

#if TIMING_PLANT == 2
/* 64 cache lines; the plant reads the one at the secret's low 6 bits. */
static uint8_t plant_table[64 * 64] __attribute__((aligned(64)));

static void plant_flush(const uint8_t d[32])
{
    (void)d;
    for (int i = 0; i < 64; i++) {
#if defined(__x86_64__)
        __asm__ volatile("clflush %0" : "+m"(plant_table[64 * i]) : : "memory");
#elif defined(__aarch64__)
        __asm__ volatile("dc civac, %0" : : "r"(&plant_table[64 * i]) : "memory");
#endif
    }
#if defined(__x86_64__)
    __asm__ volatile("mfence" : : : "memory");
#elif defined(__aarch64__)
    __asm__ volatile("dsb ish" : : : "memory");
#endif
    /* The first half warm again: a secret index below 32 hits, above misses. */
    for (int i = 0; i < 32; i++)
        (void)*(volatile uint8_t *)&plant_table[64 * i];
}
#endif

/* s = (r d + e) k^-1 mod n with d loaded from bytes, as signing does it. */
static TIMING_NOINLINE void run_modn(const uint8_t d[32], const uint64_t *pub)
{
    const p256_scalar *r = (const p256_scalar *)pub, *e = r + 1, *kinv = r + 2;
    p256_scalar ds, s;
    (void)p256_scalar_set_bytes_checked(&ds, d);
    p256_scalar_mul(&s, r, &ds);
    p256_scalar_add(&s, &s, e);
    p256_scalar_mul(&s, &s, kinv);
#if TIMING_PLANT == 1
    /* Negative control: a branch on a secret bit (about 100 dependent adds more). */
    if (d[31] & 1) {
        volatile uint64_t x = 0;
        for (int i = 0; i < 100; i++)
            x += (uint64_t)i;
        sink[64] ^= (uint8_t)x;
    }
#elif TIMING_PLANT == 2
    /* Negative control: a load at a secret index (a cache hit or a miss). */
    sink[64] ^= *(volatile uint8_t *)&plant_table[64 * (d[31] & 63)];
#endif
    memcpy(sink, &s, sizeof s);
}

/* k^-1 mod n (the signing nonce's inversion; the secret as k). */
static TIMING_NOINLINE void run_modinv(const uint8_t k[32], const uint64_t *pub)
{
    p256_scalar ks, r;
    (void)pub;
    (void)p256_scalar_set_bytes_checked(&ks, k);
    p256_scalar_inv(&r, &ks);
    memcpy(sink, &r, sizeof r);
}

static TIMING_NOINLINE void run_mult_base(const uint8_t k[32], const uint64_t *pub)
{
    (void)pub;
    p256_mult_base(sink, k);
}

static TIMING_NOINLINE void run_ecdh(const uint8_t d[32], const uint64_t *pub)
{
    (void)pub;
    p256_pubkey_ecdh(sink, d, &peer);
}

static TIMING_NOINLINE void run_ecdh_pubtable(const uint8_t d[32], const uint64_t *pub)
{
    (void)pub;
    p256_ecdh_pubtable(sink, d, peer_table);
}

/* The batch module's work with secrets: 8 items, the secret in every one, on the engine
 * that runs here (IFMA's constant-time lanes where the CPU has them, else the loop). */
#define TIMING_MANY 8
static p256_pubkey many_out[TIMING_MANY];

static TIMING_NOINLINE void run_derive_many(const uint8_t d[32], const uint64_t *pub)
{
    const uint8_t *k[TIMING_MANY];
    uint8_t ok[TIMING_MANY];
    (void)pub;
    for (int i = 0; i < TIMING_MANY; i++)
        k[i] = d;
    p256_pubkey_derive_many(many_out, ok, k, TIMING_MANY, 0, P256_BATCH_AUTO);
}

static TIMING_NOINLINE void run_sign_many(const uint8_t d[32], const uint64_t *pub)
{
    static uint8_t rs[64 * TIMING_MANY];
    p256_sign_item items[TIMING_MANY];
    uint8_t ok[TIMING_MANY];
    for (int i = 0; i < TIMING_MANY; i++) {
        items[i].d = d;
        items[i].digest = (const uint8_t *)pub;
        items[i].digest_len = 32;
    }
    p256_sign_many(rs, ok, items, TIMING_MANY, P256_NONCE_SHA256, 0, P256_BATCH_AUTO);
}

static TIMING_NOINLINE void run_ecdh_many(const uint8_t d[32], const uint64_t *pub)
{
    static uint8_t out[32 * TIMING_MANY];
    p256_ecdh_item items[TIMING_MANY];
    uint8_t ok[TIMING_MANY];
    (void)pub;
    for (int i = 0; i < TIMING_MANY; i++) {
        items[i].d = d;
        items[i].pk = &peer;
        items[i].table = NULL;
    }
    p256_ecdh_many(out, ok, items, TIMING_MANY, P256_BATCH_AUTO);
}

static TIMING_NOINLINE void run_aes_portable(const uint8_t key[32], const uint64_t *pub)
{
    const uint8_t *b = (const uint8_t *)pub;
    p256_aes_cbc_encrypt(sink, key, 32, b, b + 16, 64, P256_AES_PORTABLE);
}

static TIMING_NOINLINE void run_aes_ni(const uint8_t key[32], const uint64_t *pub)
{
    const uint8_t *b = (const uint8_t *)pub;
    p256_aes_cbc_encrypt(sink, key, 32, b, b + 16, 64, P256_AES_NI);
}

static int have_aes_ni(void)
{
    return p256_aes_ni_available();
}

static const target targets[] = {
    {"sign_hedged", "p256_sign, hedged nonce, random digest", run_sign_hedged, prep_digest, NULL, NULL},
    {"sign_det", "p256_sign, RFC 6979, fixed digest (class 0: fixed nonce too)", run_sign_det, NULL, NULL, NULL},
    {"sign_det_msg", "p256_sign, RFC 6979, random digest", run_sign_det_msg, prep_digest, NULL, NULL},
    {"nonce", "RFC 6979 HMAC-DRBG init + one candidate, key d", run_nonce, prep_digest, NULL, NULL},
#if TIMING_PLANT == 1
    {"modn", "(r d + e) k^-1 mod n, PLANTED branch on d", run_modn, prep_scalars, NULL, NULL},
#elif TIMING_PLANT == 2
    {"modn", "(r d + e) k^-1 mod n, PLANTED load at d's index", run_modn, prep_scalars, plant_flush, NULL},
#else
    {"modn", "(r d + e) k^-1 mod n, d loaded from bytes", run_modn, prep_scalars, NULL, NULL},
#endif
    {"modinv", "k^-1 mod n (p256_scalar_inv)", run_modinv, NULL, NULL, NULL},
    {"mult_base", "k*G (p256_mult_base)", run_mult_base, NULL, NULL, NULL},
    {"ecdh", "p256_pubkey_ecdh, fixed peer key", run_ecdh, NULL, NULL, NULL},
    {"ecdh_pubtable", "p256_ecdh_pubtable, the fixed peer's table", run_ecdh_pubtable, NULL, NULL,
     NULL},
    {"derive_many", "p256_pubkey_derive_many, 8 items, the key in each", run_derive_many, NULL, NULL,
     NULL},
    {"sign_many", "p256_sign_many, 8 items, RFC 6979, random digest", run_sign_many, prep_digest,
     NULL, NULL},
    {"ecdh_many", "p256_ecdh_many, 8 items, fixed peer key", run_ecdh_many, NULL, NULL, NULL},
    {"aes_portable", "AES-256-CBC, 64 bytes, portable, key secret", run_aes_portable, prep_aes, NULL, NULL},
    {"aes_ni", "AES-256-CBC, 64 bytes, AES-NI, key secret", run_aes_ni, prep_aes, NULL, have_aes_ni},
};
#define N_TARGETS (sizeof targets / sizeof targets[0])

/* The fixed secrets of class 0 (all valid private keys). */
typedef struct {
    const char *name;
    const char *hex;
} special;

static const special specials[] = {
    {"1", "0000000000000000000000000000000000000000000000000000000000000001"},
    {"n-1", "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550"},
    {"hw3", "8000000000000000000000000000000100000000000000000000000000000001"},
};
#define N_SPECIALS (sizeof specials / sizeof specials[0])

/* ---- Statistics -------------------------------------------------------------------- */

/* Welford's running mean and sum of squared deviations, per class. */
typedef struct {
    double n[2], mean[2], m2[2];
} welch;

static void welch_add(welch *w, int cls, double x)
{
    double d = x - w->mean[cls];
    w->n[cls] += 1;
    w->mean[cls] += d / w->n[cls];
    w->m2[cls] += d * (x - w->mean[cls]);
}

/* The standard error of the difference of the two means; 0 with too few. */
static double welch_se(const welch *w)
{
    if (w->n[0] < 2 || w->n[1] < 2)
        return 0;
    return sqrt(w->m2[0] / (w->n[0] - 1) / w->n[0] + w->m2[1] / (w->n[1] - 1) / w->n[1]);
}

/* Welch's t of class 0 against class 1 (positive: class 0 slower); 0 with too few. */
static double welch_t(const welch *w)
{
    double se = welch_se(w);
    return se > 0 ? (w->mean[0] - w->mean[1]) / se : 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* A growing array of one class's measurements, for its median: the first
 * TIMING_MEDIAN_CAP of them (a long run of a short target makes 10^8). */
#define TIMING_MEDIAN_CAP (1u << 22)
typedef struct {
    uint64_t *v;
    size_t n, cap;
} samples;

static void samples_add(samples *s, uint64_t x)
{
    if (s->n == TIMING_MEDIAN_CAP)
        return;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 4096;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        if (s->v == NULL) {
            fprintf(stderr, "timing_core: out of memory\n");
            exit(2);
        }
    }
    s->v[s->n++] = x;
}

static uint64_t samples_median(samples *s)
{
    if (s->n == 0)
        return 0;
    qsort(s->v, s->n, sizeof *s->v, cmp_u64);
    return s->v[s->n / 2];
}

typedef struct {
    double t;          /* the largest |t| over the crops, with its sign */
    int crop;          /* which: 0 all, j below the 1 - 2^-j percentile */
    long n;            /* measurements in the statistics (both classes) */
    uint64_t med[2];   /* medians per class */
    double resolve;    /* the shift of class 0's mean that would reach the alarm (crop p6) */
    int checkpoints;
    long cp_n[TIMING_MAX_CHECKPOINTS];
    double cp_t[TIMING_MAX_CHECKPOINTS];
} result;

static double max_abs_t(const welch *w, int *crop)
{
    double best = 0;
    *crop = 0;
    for (int c = 0; c < TIMING_CROPS; c++) {
        double t = welch_t(&w[c]);
        if (fabs(t) > fabs(best)) {
            best = t;
            *crop = c;
        }
    }
    return best;
}

/* ---- One test ---------------------------------------------------------------------- */

/* A uniform valid private key (1 <= d < n): the harness's RNG, rejection sampling. */
static void random_seckey(uint8_t d[32])
{
    do
        rng_fill(d, 32);
    while (!p256_seckey_verify(d));
}

/*
 * Measures target t with class 0 = the fixed secret fix: n_meas measurements, or until
 * the clock passes deadline (wall seconds; 0: none) after at least one batch.
 */
static void run_test(const target *t, const uint8_t fix[32], long n_meas, double deadline,
                     result *res)
{
    static uint8_t sec[TIMING_BATCH][32];
    static uint64_t pub[TIMING_BATCH][16];
    static uint64_t dt[TIMING_BATCH];
    int cls[TIMING_BATCH];
    welch w[TIMING_CROPS];
    uint64_t cut[TIMING_CROPS];
    samples s[2] = {{NULL, 0, 0}, {NULL, 0, 0}};
    uint64_t warm[TIMING_WARMUP];
    long warm_n = 0, done = 0, next_cp = 1000;

    memset(w, 0, sizeof w);
    memset(res, 0, sizeof *res);
    for (;;) {
        for (int i = 0; i < TIMING_BATCH; i++) {
            cls[i] = (int)(rng64() & 1);
            if (cls[i] == 0)
                memcpy(sec[i], fix, 32);
            else
                random_seckey(sec[i]);
            if (t->prep)
                t->prep(pub[i]);
        }
        for (int i = 0; i < TIMING_BATCH; i++) {
            if (t->pre)
                t->pre(sec[i]);
            uint64_t c0 = counter();
            t->run(sec[i], pub[i]);
            uint64_t c1 = counter();
            dt[i] = c1 - c0;
        }
        for (int i = 0; i < TIMING_BATCH; i++) {
            if (warm_n < TIMING_WARMUP) {
                warm[warm_n++] = dt[i];
                if (warm_n == TIMING_WARMUP) {
                    /* The crops: below the 1 - 2^-j percentile of the warm-up. */
                    qsort(warm, TIMING_WARMUP, sizeof warm[0], cmp_u64);
                    cut[0] = UINT64_MAX;
                    for (int c = 1; c < TIMING_CROPS; c++) {
                        double p = 1.0 - ldexp(1.0, -c);
                        cut[c] = warm[(size_t)(p * (TIMING_WARMUP - 1))];
                    }
                }
                continue;
            }
            for (int c = 0; c < TIMING_CROPS; c++)
                if (dt[i] < cut[c] || c == 0)
                    welch_add(&w[c], cls[i], (double)dt[i]);
            samples_add(&s[cls[i]], dt[i]);
            done++;
            if (done == next_cp && res->checkpoints < TIMING_MAX_CHECKPOINTS) {
                int crop;
                res->cp_n[res->checkpoints] = done;
                res->cp_t[res->checkpoints++] = max_abs_t(w, &crop);
                next_cp *= 2;
            }
        }
        if (deadline > 0 ? wall_seconds() >= deadline : done >= n_meas)
            break;
    }
    res->t = max_abs_t(w, &res->crop);
    res->n = done;
    res->resolve = TIMING_ALARM * welch_se(&w[6]);
    res->med[0] = samples_median(&s[0]);
    res->med[1] = samples_median(&s[1]);
    free(s[0].v);
    free(s[1].v);
}

/* ---- Main -------------------------------------------------------------------------- */

static void print_result(const target *t, const special *sp, int run, const result *r)
{
    char crop[16] = "all";
    if (r->crop > 0)
        snprintf(crop, sizeof crop, "p%d", r->crop % 100);
    printf("%-13s d=%-4s %-7d %9ld %8.2f  %-6s %10llu %10llu %8.1f  ", t->name, sp->name,
           run + 1, r->n, r->t, crop, (unsigned long long)r->med[0],
           (unsigned long long)r->med[1], r->resolve);
    for (int i = 0; i < r->checkpoints; i++)
        printf("%s%ld:%.1f", i ? " " : "", r->cp_n[i], fabs(r->cp_t[i]));
    printf("\n");
}

int main(int argc, char **argv)
{
    long n_meas = 20000;
    double seconds = 0;
    const char *want[N_TARGETS + 1];
    int n_want = 0, leaks = 0, tests = 0;
    uint8_t fix[N_SPECIALS][32], pubkey[65], dpeer[32];

    rng_state = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
            n_meas = atol(argv[++i]);
        else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (strcmp(argv[i], "-x") == 0 && i + 1 < argc)
            rng_state = strtoull(argv[++i], NULL, 0);
        else if (argv[i][0] != '-' && n_want < (int)N_TARGETS)
            want[n_want++] = argv[i];
        else {
            fprintf(stderr, "usage: timing_core [-n N | -s SECONDS] [-x SEED] [TARGET ...]\n");
            return 2;
        }
    }
    if (n_meas < 1000 || seconds < 0) {
        fprintf(stderr, "timing_core: N must be at least 1000\n");
        return 2;
    }
    for (int j = 0; j < n_want; j++) {
        size_t i = 0;
        while (i < N_TARGETS && strcmp(targets[i].name, want[j]) != 0)
            i++;
        if (i == N_TARGETS) {
            fprintf(stderr, "timing_core: no target '%s'\n", want[j]);
            return 2;
        }
    }
    for (size_t k = 0; k < N_SPECIALS; k++)
        unhex(fix[k], 32, specials[k].hex);
    random_seckey(dpeer);
    peer_table = malloc(p256_pubtable_size(P256_PUBTABLE_BITS));
    if (peer_table == NULL || !p256_pubkey_create(pubkey, dpeer) ||
        p256_pubkey_load(&peer, pubkey, 65) != P256_POINT_OK ||
        !p256_pubtable_build_pubkey_vartime(peer_table, p256_pubtable_size(P256_PUBTABLE_BITS),
                                            P256_PUBTABLE_BITS, &peer)) {
        fprintf(stderr, "timing_core: setup failed\n");
        return 2;
    }

    /* The tests that will run, for the time budget. */
    for (size_t i = 0; i < N_TARGETS; i++) {
        int on = n_want == 0;
        for (int j = 0; j < n_want; j++)
            on |= strcmp(targets[i].name, want[j]) == 0;
        if (on && (targets[i].available == NULL || targets[i].available()))
            tests += (int)N_SPECIALS;
    }
    printf("timing_core: backend %s, counter %s, plant %d, seed 0x%llx\n", p256_backend_name(),
           TIMING_COUNTER, TIMING_PLANT, (unsigned long long)rng_state);
    printf("timing_core: alarm |t| > %.0f in each of %d runs; crop pj: below the 1 - 2^-j "
           "percentile;\n  resolves: the shift of the fixed class's mean (p6) that would reach "
           "the alarm\n", TIMING_ALARM, TIMING_CONFIRM);
    if (seconds > 0)
        printf("timing_core: %.0f s for %d tests: %.1f s each\n", seconds, tests, seconds / tests);
    else
        printf("timing_core: %ld measurements per test\n", n_meas);
    printf("%-13s %-6s %-7s %9s %8s  %-6s %10s %10s %8s  %s\n", "target", "class", "run", "N",
           "max t", "crop", "med fixed", "med random", "resolves", "max |t| at N");

    for (size_t i = 0; i < N_TARGETS; i++) {
        const target *t = &targets[i];
        int on = n_want == 0;
        for (int j = 0; j < n_want; j++)
            on |= strcmp(t->name, want[j]) == 0;
        if (!on)
            continue;
        if (t->available != NULL && !t->available()) {
            printf("%-13s SKIP: this CPU lacks the instructions\n", t->name);
            continue;
        }
        for (size_t k = 0; k < N_SPECIALS; k++) {
            int over = 0;
            for (int run = 0; run < TIMING_CONFIRM; run++) {
                result r;
                double deadline = seconds > 0 ? wall_seconds() + seconds / tests : 0;
                run_test(t, fix[k], n_meas, deadline, &r);
                print_result(t, &specials[k], run, &r);
                fflush(stdout);
                if (fabs(r.t) <= TIMING_ALARM)
                    break;
                over++;
            }
            if (over == TIMING_CONFIRM) {
                printf("LEAK %s d=%s: |t| > %.0f in %d runs of %d\n", t->name, specials[k].name,
                       TIMING_ALARM, over, TIMING_CONFIRM);
                leaks++;
            }
        }
    }
    printf("timing_core: %s: %d leak%s flagged\n", p256_backend_name(), leaks, leaks == 1 ? "" : "s");
    printf("SKIP pbkdf2: key derivation from a password is hashlib's (OpenSSL), not the C core's\n");
    return leaks ? 1 : 0;
}

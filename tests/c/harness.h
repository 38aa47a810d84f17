/* SPDX-License-Identifier: Apache-2.0 */
/*
 * harness.h: what the C harnesses under tests/c share: the CHECK macro and its counts,
 * the iteration knob P256_TEST_ITERS, hex decoding of test vectors, the deterministic
 * test RNG, the field reference (textbook arithmetic mod p, the oracle of the field
 * backends) with its random inputs, and the benchmarks' clocks.
 *
 * Include it first, before the core's sources and any system header: it sets
 * _GNU_SOURCE (as p256.c does), which must precede the first system header. Test code
 * only: the RNG is for reproducible inputs, never for secrets.
 */
#ifndef P256_TEST_HARNESS_H
#define P256_TEST_HARNESS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* clock_gettime, CLOCK_THREAD_CPUTIME_ID under -std=c99 */
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__GNUC__) || defined(__clang__)
#define HARNESS_UNUSED __attribute__((unused))
#else
#define HARNESS_UNUSED
#endif
/* A harness helper: static, and no warning in the harnesses that do not use it. */
#define HARNESS_FN static HARNESS_UNUSED

/* ---- Checks ------------------------------------------------------------------------ */

/* Checks run and failed so far; a harness exits with failures != 0. */
static long checks HARNESS_UNUSED, failures HARNESS_UNUSED;

/* Failures printed in full; later ones are only counted. */
#ifndef HARNESS_MAX_REPORTS
#define HARNESS_MAX_REPORTS 20
#endif

/* P256_TEST_FAILFAST=1: exit with status 1 at the first failed check, as a planted bug's
 * run needs (tools/plants.py: one failure shows the plant caught; the rest of the run
 * would only count more). */
HARNESS_FN void harness_failed(void)
{
    static int failfast = -1;
    if (failfast < 0) {
        const char *s = getenv("P256_TEST_FAILFAST");
        failfast = s != NULL && strcmp(s, "1") == 0;
    }
    if (failfast) {
        printf("harness: %ld checks, %ld failures (stopped at the first: P256_TEST_FAILFAST=1)\n",
               checks, failures);
        fflush(stdout);
        exit(1);
    }
}

/* CHECK(cond, printf-format, ...): counts, and reports a failure with file, line, the
 * condition's text and the message. */
#define CHECK(cond, ...)                                                                 \
    do {                                                                                 \
        checks++;                                                                        \
        if (!(cond)) {                                                                   \
            if (++failures <= HARNESS_MAX_REPORTS) {                                     \
                fprintf(stderr, "FAIL %s:%d: (%s) ", __FILE__, __LINE__, #cond);         \
                fprintf(stderr, __VA_ARGS__);                                            \
                fputc('\n', stderr);                                                     \
            }                                                                            \
            harness_failed();                                                            \
        }                                                                                \
    } while (0)

/* ---- Iterations -------------------------------------------------------------------- */

/*
 * P256_TEST_ITERS: the random iterations of every harness, as a percentage of each one's
 * default (as SECP256K1_TEST_ITERS scales libsecp256k1's tests). Unset or empty: 100, or
 * P256_TEST_SHARE when that is set: the share a run takes of random cases that another
 * run of the same subject has in full (tests/c/meson.build sets it: another compiler's run
 * of the same assembled bytes, the IFMA engine's emulated run beside its native one), so
 * that a P256_TEST_ITERS the caller sets applies to every run alike. 0: the fixed cases
 * only (known answers, edge values, exhaustive sets). A fraction is allowed (0.5);
 * anything but digits with at most one '.' is a broken run: exit 2.
 */
#ifndef HARNESS_ITERS_MAX
#define HARNESS_ITERS_MAX 1000000.0 /* 10,000 x the default */
#endif

HARNESS_FN double harness_percent_of(const char *name, const char *s)
{
    int digits = 0, dots = 0;
    double percent = 0;
    const char *c;
    for (c = s; *c != '\0'; c++) {
        if (*c >= '0' && *c <= '9')
            digits++;
        else if (*c == '.' && dots == 0)
            dots++;
        else
            break;
    }
    if (*c == '\0' && digits > 0)
        percent = strtod(s, NULL);
    if (*c != '\0' || digits == 0 || percent > HARNESS_ITERS_MAX) {
        fprintf(stderr, "harness: %s=%s is not a percentage of the default "
                        "iterations (a number from 0 to %.0f: 100, 10, 0.5)\n", name, s,
                HARNESS_ITERS_MAX);
        exit(2);
    }
    return percent;
}

HARNESS_FN double harness_iters_percent(void)
{
    static double percent = -1;
    if (percent < 0) {
        const char *s = getenv("P256_TEST_ITERS");
        const char *share = getenv("P256_TEST_SHARE");
        percent = 100;
        if (s != NULL && *s != '\0') {
            percent = harness_percent_of("P256_TEST_ITERS", s);
        } else if (share != NULL && *share != '\0') {
            percent = harness_percent_of("P256_TEST_SHARE", share);
            printf("harness: P256_TEST_SHARE=%s: that percent of the random cases, which "
                   "another run has in full (P256_TEST_ITERS unset)\n", share);
        }
    }
    return percent;
}

/* n (a harness's default count of random iterations) scaled by P256_TEST_ITERS, rounded,
 * and at least 1 unless the percentage is 0. */
HARNESS_FN long harness_iters(long n)
{
    double percent = harness_iters_percent();
    long k = (long)((double)n * percent / 100.0 + 0.5);
    return (k == 0 && percent > 0 && n > 0) ? 1 : k;
}

/* ---- Hex --------------------------------------------------------------------------- */

HARNESS_FN int harness_hexdigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decodes the hex string into out (at most cap bytes); returns the byte length. A bad
 * vector (odd length, longer than cap, a non-hex digit) is a broken harness: exit 2. */
HARNESS_FN size_t unhex(uint8_t *out, size_t cap, const char *hex)
{
    size_t n = strlen(hex);
    if (n % 2 != 0 || n / 2 > cap) {
        fprintf(stderr, "harness: bad hex vector (%zu digits, room for %zu bytes)\n", n, cap);
        exit(2);
    }
    for (size_t i = 0; i < n / 2; i++) {
        int hi = harness_hexdigit(hex[2 * i]), lo = harness_hexdigit(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            fprintf(stderr, "harness: bad hex digit in a vector at %zu\n", 2 * i);
            exit(2);
        }
        out[i] = (uint8_t)(hi * 16 + lo);
    }
    return n / 2;
}

/* ---- Test RNG ---------------------------------------------------------------------- */

/* splitmix64 (Steele, Lea, Flood 2014): a full-period 64-bit stream from any seed. */
HARNESS_FN uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The harness's stream: seeded with HARNESS_RNG_SEED (define it before including this
 * header to keep a harness's inputs) or by assigning rng_state. */
#ifndef HARNESS_RNG_SEED
#define HARNESS_RNG_SEED 0x9E3779B97F4A7C15ULL
#endif
static uint64_t rng_state HARNESS_UNUSED = HARNESS_RNG_SEED;

HARNESS_FN uint64_t rng64(void)
{
    return splitmix64(&rng_state);
}

/* n bytes of the stream, one draw per byte (its low byte). */
HARNESS_FN void rng_fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rng64();
}

/* ---- Field reference (test oracle) ------------------------------------------------- */

#if defined(__SIZEOF_INT128__)
/*
 * Textbook arithmetic mod p, written without the core (p's limbs spelled out here,
 * loops instead of carry chains, variable time: public test data only), as the oracle
 * of the field backends (test_backend.c). Values are 4 little-endian 64-bit limbs.
 * Two independent reductions of one schoolbook product: word-by-word Montgomery reduction
 * (REDC, m = t_i * n0) and a bit-serial remainder of the full 512-bit product.
 */
__extension__ typedef unsigned __int128 oracle_u128;

/* p = 2^256 - 2^224 + 2^192 + 2^96 - 1 */
static const uint64_t oracle_p[4] HARNESS_UNUSED = {0xffffffffffffffffULL, 0x00000000ffffffffULL,
                                                    0, 0xffffffff00000001ULL};

/* a >= b as n-limb integers. */
HARNESS_FN int oracle_geq(const uint64_t *a, const uint64_t *b, int n)
{
    for (int i = n - 1; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] > b[i];
    return 1;
}

/* a - p mod 2^256. */
HARNESS_FN void oracle_sub_p(uint64_t a[4])
{
    oracle_u128 borrow = 0;
    for (int i = 0; i < 4; i++) {
        oracle_u128 d = (oracle_u128)a[i] - oracle_p[i] - borrow;
        a[i] = (uint64_t)d;
        borrow = (d >> 64) & 1;
    }
}

/* Any 4-limb value into [0, p): 2^256 < 2p, so at most one subtraction. */
HARNESS_FN void oracle_reduce_p(uint64_t a[4])
{
    if (oracle_geq(a, oracle_p, 4))
        oracle_sub_p(a);
}

HARNESS_FN int oracle_lt_p(const uint64_t a[4])
{
    return !oracle_geq(a, oracle_p, 4);
}

/* -p^-1 mod 2^64, by Newton's iteration x <- x(2 - p0 x) (p0 odd: 7 steps give 64 bits). */
HARNESS_FN uint64_t oracle_n0(void)
{
    uint64_t x = 1;
    for (int i = 0; i < 7; i++)
        x *= 2 - oracle_p[0] * x;
    return 0 - x;
}

/* r = a*b, the full 512-bit product. */
HARNESS_FN void oracle_mul_512(uint64_t r[8], const uint64_t a[4], const uint64_t b[4])
{
    memset(r, 0, 8 * sizeof r[0]);
    for (int i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 4; j++) {
            oracle_u128 t = (oracle_u128)a[i] * b[j] + r[i + j] + carry;
            r[i + j] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
        r[i + 4] = carry;
    }
}

/* r = a*b*2^-256 mod p by schoolbook product and REDC; *ge_p: whether the value before
 * the final subtraction was >= p (a backend's rarely taken case). a, b < p. */
HARNESS_FN void oracle_redc_mul(uint64_t r[4], int *ge_p, const uint64_t a[4], const uint64_t b[4])
{
    static uint64_t n0;
    uint64_t t[9];
    if (n0 == 0)
        n0 = oracle_n0();
    oracle_mul_512(t, a, b);
    t[8] = 0;
    /* t = (t + m*p) / 2^256 word by word, m = t_i * n0 */
    for (int i = 0; i < 4; i++) {
        uint64_t m = t[i] * n0, c = 0;
        for (int j = 0; j < 4; j++) {
            oracle_u128 s = (oracle_u128)m * oracle_p[j] + t[i + j] + c;
            t[i + j] = (uint64_t)s;
            c = (uint64_t)(s >> 64);
        }
        for (int k = i + 4; k < 9 && c; k++) {
            oracle_u128 s = (oracle_u128)t[k] + c;
            t[k] = (uint64_t)s;
            c = (uint64_t)(s >> 64);
        }
    }
    /* t[4..8] < 2p */
    *ge_p = t[8] != 0 || oracle_geq(t + 4, oracle_p, 4);
    memcpy(r, t + 4, 32);
    if (*ge_p)
        oracle_sub_p(r);
}

/* r = x mod p for a 512-bit x: shift in one bit at a time, subtract p when >= p. */
HARNESS_FN void oracle_mod_p_512(uint64_t r[4], const uint64_t x[8])
{
    uint64_t rem[5] = {0, 0, 0, 0, 0}; /* < 2p after a shift: 257 bits */
    for (int bit = 511; bit >= 0; bit--) {
        rem[4] = (rem[4] << 1) | (rem[3] >> 63);
        rem[3] = (rem[3] << 1) | (rem[2] >> 63);
        rem[2] = (rem[2] << 1) | (rem[1] >> 63);
        rem[1] = (rem[1] << 1) | (rem[0] >> 63);
        rem[0] = (rem[0] << 1) | ((x[bit / 64] >> (bit % 64)) & 1);
        if (rem[4] || oracle_geq(rem, oracle_p, 4)) {
            uint64_t borrow = 0;
            for (int i = 0; i < 4; i++) {
                oracle_u128 d = (oracle_u128)rem[i] - oracle_p[i] - borrow;
                rem[i] = (uint64_t)d;
                borrow = (uint64_t)(d >> 64) & 1;
            }
            rem[4] -= borrow;
        }
    }
    memcpy(r, rem, 4 * sizeof r[0]);
}

/* 1 if r is the Montgomery product of a and b: r < p and r*2^256 = a*b (mod p). */
HARNESS_FN int oracle_is_mont_product(const uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t ab[8], rr[8], x[4], y[4];
    if (!oracle_lt_p(r))
        return 0;
    oracle_mul_512(ab, a, b);
    memset(rr, 0, sizeof rr);
    memcpy(rr + 4, r, 32);
    oracle_mod_p_512(x, ab);
    oracle_mod_p_512(y, rr);
    return memcmp(x, y, sizeof x) == 0;
}

/* Limb values where carries and reductions turn: the first 8 are the set whose 8^4
 * combinations test_backend.c runs exhaustively. */
static const uint64_t rng_limb_patterns[12] HARNESS_UNUSED = {
    0, 1, 0x00000000ffffffffULL, 0x0000000100000000ULL, 0x8000000000000000ULL,
    0xffffffffffffffffULL, 0xffffffff00000001ULL, 0xffffffff00000000ULL,
    2, 0xfffffffffffffffeULL, 0x7fffffffffffffffULL, 0x00000000fffffffeULL,
};
#define RNG_N_PATTERNS (sizeof rng_limb_patterns / sizeof rng_limb_patterns[0])

/* A uniform value < p (rejection sampling). */
HARNESS_FN void rng_fe_uniform(uint64_t a[4])
{
    do {
        for (int i = 0; i < 4; i++)
            a[i] = rng64();
    } while (!oracle_lt_p(a));
}

/* A value < p from one of several distributions that reach the carries and the final
 * subtraction: limb patterns, patterns mixed with random limbs, patterns +- 2 per limb,
 * small values, p - 1 - small, near 2^256 - 1 before reduction, uniform. */
HARNESS_FN void rng_fe_structured(uint64_t a[4])
{
    unsigned kind = (unsigned)(rng64() % 10);
    uint64_t small = rng64() % 1024;
    for (int i = 0; i < 4; i++)
        a[i] = rng64();
    switch (kind) {
    case 0: /* limbs from the patterns */
        for (int i = 0; i < 4; i++)
            a[i] = rng_limb_patterns[rng64() % RNG_N_PATTERNS];
        break;
    case 1: /* patterns and random limbs mixed */
        for (int i = 0; i < 4; i++)
            if (rng64() & 1)
                a[i] = rng_limb_patterns[rng64() % RNG_N_PATTERNS];
        break;
    case 2: /* pattern +- small per limb */
        for (int i = 0; i < 4; i++)
            a[i] = rng_limb_patterns[rng64() % RNG_N_PATTERNS] + (rng64() % 5) - 2;
        break;
    case 3: /* p - 1 - small (p0 = 2^64 - 1: no borrow) */
        memcpy(a, oracle_p, 32);
        a[0] -= small + 1;
        break;
    case 4: /* below 1024 */
        a[1] = a[2] = a[3] = 0;
        a[0] = small;
        break;
    case 5: /* below 2^16 */
        a[1] = a[2] = a[3] = 0;
        a[0] &= 0xffff;
        break;
    case 6: /* near 2^256 - 1 before reduction */
        a[3] = a[2] = 0xffffffffffffffffULL;
        break;
    case 7:
        rng_fe_uniform(a);
        return;
    default: /* uniform 256-bit, reduced */
        break;
    }
    oracle_reduce_p(a);
}
#endif /* __SIZEOF_INT128__ */

/* ---- Clocks (benchmarks) ----------------------------------------------------------- */

/* Seconds on the monotonic clock (wall time). */
HARNESS_FN double wall_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* This thread's CPU time in seconds: other processes on a shared machine barely move it. */
HARNESS_FN double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

HARNESS_FN int harness_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of t[0..n) (the upper one for even n); sorts t in place, so t[0] is then
 * the minimum. */
HARNESS_FN double median(double *t, size_t n)
{
    qsort(t, n, sizeof t[0], harness_cmp_double);
    return t[n / 2];
}

#endif /* P256_TEST_HARNESS_H */

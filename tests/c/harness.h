/* SPDX-License-Identifier: Apache-2.0 */
/*
 * harness.h: what the C harnesses under tests/c share: the CHECK macro and its counts,
 * hex decoding of test vectors, the deterministic test RNG, and the benchmarks' clocks.
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

/* CHECK(cond, printf-format, ...): counts, and reports a failure with file, line, the
 * condition's text and the message. */
#define CHECK(cond, ...)                                                                 \
    do {                                                                                 \
        checks++;                                                                        \
        if (!(cond) && ++failures <= HARNESS_MAX_REPORTS) {                              \
            fprintf(stderr, "FAIL %s:%d: (%s) ", __FILE__, __LINE__, #cond);             \
            fprintf(stderr, __VA_ARGS__);                                                \
            fputc('\n', stderr);                                                         \
        }                                                                                \
    } while (0)

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

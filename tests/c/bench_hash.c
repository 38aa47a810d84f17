/* SPDX-License-Identifier: Apache-2.0 */
/* Micro-benchmark of the hashing layer (not a test: `make ctest` only builds test_*.c).
 *
 *   cc -O2 -std=c99 -Wall -Wextra -Werror -Icsrc -o tests/c/bin/bench_hash tests/c/bench_hash.c
 *   tests/c/bin/bench_hash
 *
 * Each figure is the median over REPEATS runs of the time of one operation, averaged over a
 * batch sized to take about 2 ms. The portable SHA-256 rows force the portable path in the same
 * binary by presetting the cached CPU probe; build with -DP256_NO_SHA_EXT to compile SHA-NI out.
 */
#include "harness.h"
#include "rfc6979_impl.h"

#define REPEATS 51

static volatile uint8_t sink;

typedef void (*bench_fn)(long iters);

static double last_min;   /* fastest run of the latest measure(), for the min column */

/* Median ns per operation of fn (fn(iters) performs iters operations). */
static double measure(bench_fn fn)
{
    double t[REPEATS], m;
    long iters = 1;
    int r;

    for (;;) {   /* calibrate: batch of about 2 ms */
        double t0 = wall_seconds();
        fn(iters);
        if (wall_seconds() - t0 > 2e-3 || iters > (1L << 28))
            break;
        iters *= 2;
    }
    for (r = 0; r < REPEATS; r++) {
        double t0 = wall_seconds();
        fn(iters);
        t[r] = (wall_seconds() - t0) * 1e9 / (double)iters;
    }
    m = median(t, REPEATS); /* sorts t: t[0] is the minimum */
    last_min = t[0];
    return m;
}

static uint8_t blocks[64 * 64];
static uint32_t st256[8];
static uint64_t st512[8];
static uint64_t keccak[25];
static uint8_t x[32], h1[32], extra[32], out[64];

static void b_sha256_1block(long n)
{
    while (n--)
        p256_sha256_compress(st256, blocks, 1);
    sink ^= (uint8_t)st256[0];
}

static void b_sha256_64blocks(long n)   /* per call of 64 blocks; divided below */
{
    while (n--)
        p256_sha256_compress(st256, blocks, 64);
    sink ^= (uint8_t)st256[0];
}

static void b_sha512_1block(long n)
{
    while (n--)
        p256_sha512_compress(st512, blocks, 1);
    sink ^= (uint8_t)st512[0];
}

static void b_keccakf(long n)
{
    while (n--)
        p256_keccakf(keccak);
    sink ^= (uint8_t)keccak[0];
}

static void b_sha256_32bytes(long n)
{
    while (n--) {
        p256_hash(P256_HASH_SHA256, blocks, 32, out);
        blocks[0] ^= out[0];
    }
    sink ^= out[0];
}

static p256_hmac_key hkey;
static void b_hmac_sha256_32bytes(long n)
{
    const uint8_t *parts[1];
    size_t lens[1];
    parts[0] = out;
    lens[0] = 32;
    while (n--)
        p256_hmac(&hkey, parts, lens, 1, out);
    sink ^= out[0];
}

static void b_hmac_key_init(long n)
{
    while (n--) {
        p256_hmac_key_init(&hkey, P256_HASH_SHA256, out, 32);
        out[0] ^= (uint8_t)hkey.inner.u.s256.h[0];
    }
    sink ^= out[0];
}

static p256_hash_id drbg_hash = P256_HASH_SHA256;

static void b_rfc6979_hedged(long n)
{
    p256_rfc6979 st;
    while (n--) {
        p256_rfc6979_init(&st, drbg_hash, x, h1, extra, 32);
        p256_rfc6979_generate(&st, out);
        p256_rfc6979_clear(&st);
        extra[0] ^= out[0];
    }
    sink ^= out[0];
}

static void b_rfc6979_plain(long n)
{
    p256_rfc6979 st;
    while (n--) {
        p256_rfc6979_init(&st, drbg_hash, x, h1, NULL, 0);
        p256_rfc6979_generate(&st, out);
        p256_rfc6979_clear(&st);
        h1[0] ^= out[0];
    }
    sink ^= out[0];
}

static void b_rfc6979_retry(long n)   /* one extra generate (a rejected candidate) */
{
    p256_rfc6979 st;
    p256_rfc6979_init(&st, drbg_hash, x, h1, extra, 32);
    p256_rfc6979_generate(&st, out);
    while (n--)
        p256_rfc6979_generate(&st, out);
    p256_rfc6979_clear(&st);
    sink ^= out[0];
}

/* per: divisor applied to both the median and the minimum (operations per fn call). */
static void row_per(const char *what, double ns, double per)
{
    printf("  %-48s %8.3f us median  %8.3f us min\n", what, ns / per / 1000.0,
           last_min / per / 1000.0);
}

static void row(const char *what, double ns)
{
    row_per(what, ns, 1.0);
}

static void sha256_rows(void)
{
    row("SHA-256 compression, 1 block/call", measure(b_sha256_1block));
    row_per("SHA-256 compression, 64 blocks/call, per block", measure(b_sha256_64blocks), 64.0);
    row("SHA-256 of 32 bytes (one-shot)", measure(b_sha256_32bytes));
    row("HMAC-SHA256 key init (2 compressions)", measure(b_hmac_key_init));
    p256_hmac_key_init(&hkey, P256_HASH_SHA256, x, 32);
    row("HMAC-SHA256 of 32 bytes (precomputed key)", measure(b_hmac_sha256_32bytes));
    drbg_hash = P256_HASH_SHA256;
    row("RFC 6979 SHA-256 hedged: init + generate", measure(b_rfc6979_hedged));
    row("RFC 6979 SHA-256 plain: init + generate", measure(b_rfc6979_plain));
    row("RFC 6979 SHA-256: each further generate", measure(b_rfc6979_retry));
}

int main(void)
{
    int i;
    for (i = 0; i < (int)sizeof blocks; i++)
        blocks[i] = (uint8_t)(i * 131 + 7);
    memcpy(x, blocks + 1, 32);
    memcpy(h1, blocks + 40, 32);
    memcpy(extra, blocks + 80, 32);
    memcpy(st256, p256_sha256_iv, sizeof st256);
    memcpy(st512, p256_sha512_iv, sizeof st512);

    if (p256_sha256_accel_active()) {
        printf("SHA-256 accelerated (%s):\n", p256_sha256_impl_name());
        sha256_rows();
#if defined(P256_SHA256_ACCEL)
        p256_cpu_disable(P256_SHA256_ACCEL_CPU); /* the portable path from here on */
#endif
    }
    printf("SHA-256 portable C:\n");
    sha256_rows();

    printf("Other hashes (portable C):\n");
    row("SHA-512 compression, 1 block", measure(b_sha512_1block));
    row("Keccak-f[1600]", measure(b_keccakf));
    drbg_hash = P256_HASH_SHA512;
    row("RFC 6979 SHA-512 hedged: init + generate", measure(b_rfc6979_hedged));
    drbg_hash = P256_HASH_SHA3_256;
    row("RFC 6979 SHA3-256 hedged: init + generate", measure(b_rfc6979_hedged));
    return (int)(sink & 0);
}

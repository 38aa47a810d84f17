/* SPDX-License-Identifier: Apache-2.0 */
/* Benchmark of p256_modinv / p256_modinv_vartime against Fermat inversion, and of
 * p256_modinv_pair (two inversions, one mod p and one mod n, per call).
 * Not run by `make test`.  From the repository root:
 *
 *   mkdir -p tests/c/bin
 *   cc -O2 -std=c99 -Wall -Wextra -Werror -Icsrc -o tests/c/bin/bench_modinv tests/c/bench_modinv.c
 *   tests/c/bin/bench_modinv
 *
 * Prints the median time per call (ns) over many samples, each sample timing
 * a run of calls on varied random inputs.  The comparison, a^(m-2) mod m, uses
 * a plain 4x64 Montgomery multiplication (CIOS, unsigned __int128) written
 * below, with left-to-right square-and-multiply over the public exponent.
 * All results are cross-checked before timing.
 */
#include "harness.h"
#include "modinv_impl.h"

__extension__ typedef unsigned __int128 u128;

static const uint64_t P64[4] = {0xffffffffffffffffULL, 0x00000000ffffffffULL, 0x0000000000000000ULL,
                                0xffffffff00000001ULL};
static const uint64_t N64[4] = {0xf3b9cac2fc632551ULL, 0xbce6faada7179e84ULL, 0xffffffffffffffffULL,
                                0xffffffff00000000ULL};

typedef struct {
    uint64_t m[4];
    uint64_t minv; /* -m^-1 mod 2^64 */
    uint64_t r2[4]; /* 2^512 mod m */
    uint64_t e[4]; /* m - 2 */
} mont_ctx;

/* r = a - b; returns the borrow. */
static uint64_t sub4(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    u128 t;
    uint64_t borrow = 0;
    int i;
    for (i = 0; i < 4; i++) {
        t = (u128)a[i] - b[i] - borrow;
        r[i] = (uint64_t)t;
        borrow = (uint64_t)(t >> 64) & 1;
    }
    return borrow;
}

/* r = a * b * 2^-256 mod m, for a, b < m (CIOS Montgomery multiplication). */
static void mont_mul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const mont_ctx *c)
{
    uint64_t t[6] = {0, 0, 0, 0, 0, 0}, s[4];
    int i, j;
    for (i = 0; i < 4; i++) {
        uint64_t carry = 0, k;
        u128 x;
        for (j = 0; j < 4; j++) {
            x = (u128)a[j] * b[i] + t[j] + carry;
            t[j] = (uint64_t)x;
            carry = (uint64_t)(x >> 64);
        }
        x = (u128)t[4] + carry;
        t[4] = (uint64_t)x;
        t[5] = (uint64_t)(x >> 64);
        k = t[0] * c->minv;
        x = (u128)k * c->m[0] + t[0];
        carry = (uint64_t)(x >> 64);
        for (j = 1; j < 4; j++) {
            x = (u128)k * c->m[j] + t[j] + carry;
            t[j - 1] = (uint64_t)x;
            carry = (uint64_t)(x >> 64);
        }
        x = (u128)t[4] + carry;
        t[3] = (uint64_t)x;
        t[4] = t[5] + (uint64_t)(x >> 64);
    }
    /* t < 2m: subtract m if t >= m. */
    if (sub4(s, t, c->m) <= t[4])
        memcpy(r, s, sizeof s);
    else
        memcpy(r, t, sizeof s);
}

static void mont_init(mont_ctx *c, const uint64_t m[4])
{
    uint64_t x = m[0], two[4] = {2, 0, 0, 0}, zero[4] = {0, 0, 0, 0};
    int i, j;
    memcpy(c->m, m, sizeof c->m);
    for (i = 0; i < 6; i++)
        x *= 2 - m[0] * x; /* Newton: m^-1 mod 2^64 */
    c->minv = -x;
    /* 2^256 mod m = 2^256 - m (m > 2^255), then 256 modular doublings. */
    sub4(c->r2, zero, m);
    for (i = 0; i < 256; i++) {
        uint64_t top = c->r2[3] >> 63, s[4];
        for (j = 3; j > 0; j--)
            c->r2[j] = (c->r2[j] << 1) | (c->r2[j - 1] >> 63);
        c->r2[0] <<= 1;
        if (sub4(s, c->r2, m) <= top)
            memcpy(c->r2, s, sizeof s);
    }
    sub4(c->e, m, two);
}

/* r = a^(m-2) mod m (a < m). */
static void fermat_inv(uint64_t r[4], const uint64_t a[4], const mont_ctx *c)
{
    uint64_t am[4], x[4], one[4] = {1, 0, 0, 0};
    int i;
    mont_mul(am, a, c->r2, c); /* a * 2^256 */
    memcpy(x, am, sizeof x);   /* top bit of m - 2 is set */
    for (i = 254; i >= 0; i--) {
        mont_mul(x, x, x, c);
        if ((c->e[i / 64] >> (i % 64)) & 1)
            mont_mul(x, x, am, c);
    }
    mont_mul(r, x, one, c);
}

#define NIN 256
#define CALLS 64
#define SAMPLES 301

static uint64_t inputs[2][NIN][4];
static volatile uint64_t sink;

enum { F_CT, F_VT, F_FERMAT, F_PAIR };

static double bench(int which, int k, const mont_ctx *ctx)
{
    static double t[SAMPLES];
    const p256_modinv_modulus *m = k ? &p256_modinv_n : &p256_modinv_p;
    int s, j, idx = 0;
    uint64_t acc = 0, r[4], r2[4] = {0, 0, 0, 0};
    for (s = -20; s < SAMPLES; s++) { /* the first 20 samples warm up */
        double t0 = wall_seconds();
        for (j = 0; j < CALLS; j++, idx = (idx + 1) % NIN) {
            if (which == F_CT)
                p256_modinv(r, inputs[k][idx], m);
            else if (which == F_PAIR)
                p256_modinv_pair(r, inputs[k][idx], m, r2, inputs[1 - k][idx], k ? &p256_modinv_p : &p256_modinv_n);
            else if (which == F_VT)
                p256_modinv_vartime(r, inputs[k][idx], m);
            else
                fermat_inv(r, inputs[k][idx], ctx);
            acc ^= r[0] ^ r2[0];
        }
        if (s >= 0)
            t[s] = (wall_seconds() - t0) * 1e9 / CALLS;
    }
    sink = acc;
    return median(t, SAMPLES);
}

int main(void)
{
    mont_ctx ctx[2];
    uint64_t state = 0xb3c4d5e6f708192aULL;
    int k, i, j;
    const char *names[4] = {"p256_modinv (constant time)", "p256_modinv_vartime", "Fermat a^(m-2), 4x64 Montgomery",
                            "p256_modinv_pair (with one mod n/p)"};
    double res[4][2];
    mont_init(&ctx[0], P64);
    mont_init(&ctx[1], N64);
    for (k = 0; k < 2; k++) {
        for (i = 0; i < NIN; i++) {
            uint64_t r1[4], r2[4], r3[4];
            do {
                for (j = 0; j < 4; j++)
                    inputs[k][i][j] = splitmix64(&state);
            } while (sub4(r1, inputs[k][i], k ? N64 : P64) == 0); /* want a < m */
            p256_modinv(r1, inputs[k][i], k ? &p256_modinv_n : &p256_modinv_p);
            p256_modinv_vartime(r2, inputs[k][i], k ? &p256_modinv_n : &p256_modinv_p);
            fermat_inv(r3, inputs[k][i], &ctx[k]);
            if (memcmp(r1, r2, sizeof r1) || memcmp(r1, r3, sizeof r1)) {
                fprintf(stderr, "bench_modinv: results differ (input %d mod %s)\n", i, k ? "n" : "p");
                return 1;
            }
        }
    }
    for (i = 0; i < 4; i++)
        for (k = 0; k < 2; k++)
            res[i][k] = bench(i, k, &ctx[k]);
    printf("median ns per call (%d samples of %d calls, random inputs)\n", SAMPLES, CALLS);
    printf("%-36s %10s %10s\n", "function", "mod p", "mod n");
    for (i = 0; i < 4; i++)
        printf("%-36s %10.0f %10.0f\n", names[i], res[i][0], res[i][1]);
    return 0;
}

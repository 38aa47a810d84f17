/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ctime_batch_gen.c: the IFMA engine's k*G in 8 lanes (p256_ifma_ecmult_gen8) under
 * valgrind, on the portable emulation of its intrinsics (valgrind has no AVX-512), built
 * like every ctime_*.c (make ctime: -DP256_CTIME_TEST, -O3, gcc and clang, per field
 * backend). The 8 scalars are secret (undefined to memcheck): the Booth recoding, the 37
 * table scans, the sign and infinity masks, the additions and the conversion of the
 * lanes back to field.h elements must show no branch and no address computed from them.
 * Three calls: edge scalars (0, 1, 2, n-1, (n-1)/2, 2^255, 2^252 - 1, 2^(7*18) - 1) and
 * two of mixed bits; each lane's result, declassified, must equal p256_ecmult_gen's.
 *
 * Negative control (run_ctime -c batch_gen_index): with ctime_canary set, the same run
 * also reads the engine's comb at one lane's secret digit directly, as a lookup without
 * the scan would: memcheck must report the secret address here (tools/ctime.sh checks
 * the report names this file).
 */
#define P256_IFMA_EMULATE
#include "ctime.h"

/* Test inputs (splitmix64's output function): every bit varies between entries. */
static uint64_t gen_mix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static volatile uint64_t gen_sink;

/* The leak of the control: row 5's entry at lane 0's secret digit, read directly. */
static P256_NOINLINE void gen_direct_lookup(const p256_scalar *k)
{
    uint64_t neg, idx = p256_booth(p256_scalar_bits(k, P256_COMB_BITS * 5 - 1, P256_COMB_BITS + 1),
                                   P256_COMB_BITS, &neg);
    gen_sink += p256_ifma_comb[5][(idx - 1) & (P256_COMB_ENTRIES - 1)][0] ^ neg;
}

static int gen_round(const p256_scalar in[8])
{
    p256_scalar k[8];
    p256_fe x[8], y[8], z[8];
    memcpy(k, in, sizeof k);
    secret(k, sizeof k);
    p256_ifma_ecmult_gen8(x, y, z, k);
    if (ctime_canary == CTIME_CANARY_BATCH_GEN_INDEX)
        gen_direct_lookup(&k[0]);
    public(x, sizeof x);
    public(y, sizeof y);
    public(z, sizeof z);
    for (int l = 0; l < 8; l++) {
        p256_jac want, got;
        p256_aff wa, ga;
        p256_ecmult_gen(&want, &in[l]);
        got.x = x[l], got.y = y[l], got.z = z[l];
        uint64_t wi = p256_jac_to_aff(&wa, &want), gi = p256_jac_to_aff(&ga, &got);
        if (wi != gi || (!wi && (memcmp(&wa.x, &ga.x, sizeof wa.x) != 0 ||
                                 memcmp(&wa.y, &ga.y, sizeof wa.y) != 0)))
            return 0;
    }
    return 1;
}

int main(void)
{
    p256_scalar in[8];
    uint64_t x = 0x13198a2e03707344ULL;
    int ok = 1;
    memset(in, 0, sizeof in);
    in[1].v[0] = 1;
    in[2].v[0] = 2;
    memcpy(in[3].v, p256_n, 32);
    in[3].v[0] -= 1; /* n - 1 */
    for (int i = 0; i < 4; i++) /* (n - 1)/2 */
        in[4].v[i] = (in[3].v[i] >> 1) | (i < 3 ? in[3].v[i + 1] << 63 : 0);
    in[5].v[3] = 1ULL << 63;
    memset(in[6].v, 0xff, 32);
    in[6].v[3] >>= 4; /* 2^252 - 1 */
    in[7].v[0] = ~0ULL;
    in[7].v[1] = ~0ULL >> 2; /* 2^126 - 1 */
    ok &= gen_round(in);
    for (int r = 0; r < 2; r++) {
        for (int l = 0; l < 8; l++)
            for (int w = 0; w < 4; w++)
                in[l].v[w] = gen_mix(&x) >> (w == 3); /* < 2^255 < n */
        ok &= gen_round(in);
    }
    if (!ok) {
        printf("ctime_batch_gen: the emulated engine's k*G differs from p256_ecmult_gen\n");
        return 1;
    }
    printf("ctime_batch_gen: k*G in 8 lanes on secret scalars, 3 rounds, on %s\n",
           p256_batch_engine());
    return 0;
}

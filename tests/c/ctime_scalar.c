/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ctime_scalar.c: constant-time check (valgrind, make ctime) of the arithmetic mod n and
 * the table scan on their own, per backend: the Montgomery product and square (the
 * assembly in an assembly variant), p256_scalar_mul, both inversions mod n (safegcd and
 * Fermat; whichever is not p256_scalar_inv is reached by nothing in ctime_core.c), and
 * p256_aff_lookup with a secret index (the AVX2 assembly on x86_64_adx, the baseline C
 * under P256_NO_AVX2) at the sizes the core uses. Inputs: 0, 1, n-1, 2^255 and random.
 *
 * Negative controls (run_ctime -c scalar_mul, -c scalar_scan): a branch on the secret
 * after it went through the assembly product or through the scan must be reported, or
 * valgrind lost track of the secret there (make ctime requires the report).
 */
#include "ctime.h"

/* Test inputs (splitmix64's output function): every bit varies between entries. */
static uint64_t mix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int main(void)
{
    static p256_aff table[P256_COMB_ENTRIES];
    p256_scalar in[6] = {{{0, 0, 0, 0}}, {{1, 0, 0, 0}},
                         {{0xf3b9cac2fc632550ULL, 0xbce6faada7179e84ULL, ~0ULL, 0xffffffff00000000ULL}},
                         {{0, 0, 0, 1ULL << 63}}};
    p256_scalar a, b, r;
    p256_aff t;
    uint64_t idx, x = 0x243f6a8885a308d3ULL;
    volatile int sink = 0;

    for (int i = 4; i < 6; i++)
        for (int w = 0; w < 4; w++)
            in[i].v[w] = mix(&x) >> (w == 3);
    for (int i = 0; i < P256_COMB_ENTRIES; i++)
        for (int w = 0; w < 4; w++)
            table[i].x.v[w] = mix(&x), table[i].y.v[w] = mix(&x);

    for (int i = 0; i < 6; i++) {
        a = in[i];
        b = in[(i + 1) % 6];
        P256_SECRET(&a, sizeof a);
        P256_SECRET(&b, sizeof b);
        p256_scalar_mont_mul(&r, &a, &b);
        if (ctime_canary == CTIME_CANARY_SCALAR_MUL && (r.v[0] & 1))
            sink++; /* the deliberate leak, after the backend's product */
        p256_scalar_mont_sqr(&r, &r);
        p256_scalar_mul(&r, &r, &a);
        p256_scalar_inv_safegcd(&r, &a);
        p256_scalar_inv_fermat(&r, &b);
        p256_scalar_inv(&r, &r);

        idx = (uint64_t)i * 13 % (P256_COMB_ENTRIES + 1);
        P256_SECRET(&idx, sizeof idx);
        p256_aff_lookup(&t, table, P256_COMB_ENTRIES, idx);
        if (ctime_canary == CTIME_CANARY_SCALAR_SCAN && (t.x.v[0] & 1))
            sink++; /* the deliberate leak, after the scan */
        p256_aff_lookup(&t, table, P256_CONST_ENTRIES, idx & 15);
        P256_DECLASSIFY(&r, sizeof r);
        P256_DECLASSIFY(&t, sizeof t);
    }
    printf("ctime_scalar [%s]: done\n", p256_backend_name());
    return sink * 0;
}

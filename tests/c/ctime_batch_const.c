/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ctime_batch_const.c: constant-time check (valgrind, make ctime) of the IFMA engine's
 * secret side, p256_ifma_ecmult_const8 (modules/batch/ifma_const_impl.h), on the portable
 * emulation of its intrinsics (valgrind has no AVX-512): the 8 scalars and the 8 points
 * are marked secret, so memcheck reports any branch or address computed from them (the
 * recoding, the table scan, the masks of digit 0, infinity and the last window's blends,
 * the conversion of the results). Lanes: 0, 1, 2, n-1, n-2, n-16 and two random scalars, on
 * G and on random points; the results, declassified, must match p256_ecmult_const.
 *
 * Negative control (run_ctime -c batch_const_index): one lane's table read at the secret
 * digit's index (what the scan avoids), after the engine's recoding and digit split,
 * must be reported as a use of an undefined value in an address.
 */
#define P256_IFMA_EMULATE
#include "ctime.h"

/* The deliberate leak: lane 0's entry of the top window's |digit|, read at its index. */
static uint64_t leaky_lookup(const p256_scalar *k)
{
    static uint64_t table[16];
    int64_t d[P256_IFMA_WINDOWS][8], t[P256_IFMA_WINDOWS];
    uint64_t idx[8];
    __mmask8 neg, nz;
    memset(d, 0, sizeof d);
    p256_ifma_recode(t, k, 5);
    d[0][0] = t[P256_IFMA_WINDOWS / 2];
    _mm512_storeu_si512((void *)idx, p256_ifma_digit(d[0], &neg, &nz, 15));
    return ((volatile uint64_t *)table)[idx[0]]; /* volatile: the load is not folded away */
}

int main(void)
{
    p256_scalar k[8], ks[8];
    p256_aff q[8], qs[8];
    p256_fe x[8], y[8], z[8];
    p256_jac want, got;
    uint64_t mixer = 0x9e3779b97f4a7c15ULL;
    volatile uint64_t sink = 0;
    int bad = 0;

    memset(k, 0, sizeof k);
    k[1].v[0] = 1;
    k[2].v[0] = 2;
    for (int l = 3; l < 6; l++) {
        unsigned char b = 0;
        uint64_t j = l == 3 ? 1 : l == 4 ? 2 : 16;
        for (int i = 0; i < 4; i++)
            k[l].v[i] = p256_sbb(p256_n[i], i == 0 ? j : 0, &b);
    }
    for (int l = 6; l < 8; l++)
        for (int i = 0; i < 4; i++) {
            mixer = mixer * 6364136223846793005ULL + 1442695040888963407ULL;
            k[l].v[i] = mixer >> (i == 3); /* below 2^255 < n */
        }
    for (int l = 0; l < 8; l++) {
        if (l % 2 == 0) {
            q[l] = p256_generator;
        } else { /* (l + 7) G */
            p256_scalar m;
            memset(&m, 0, sizeof m);
            m.v[0] = (uint64_t)l + 7;
            p256_ecmult_gen(&want, &m);
            (void)p256_jac_to_aff(&q[l], &want);
        }
    }
    memcpy(ks, k, sizeof k);
    memcpy(qs, q, sizeof q);
    P256_SECRET(ks, sizeof ks);
    P256_SECRET(qs, sizeof qs);
    p256_ifma_ecmult_const8(x, y, z, ks, qs);
    if (ctime_canary == CTIME_CANARY_BATCH_CONST_INDEX)
        sink += leaky_lookup(&ks[7]);
    P256_DECLASSIFY(x, sizeof x);
    P256_DECLASSIFY(y, sizeof y);
    P256_DECLASSIFY(z, sizeof z);
    for (int l = 0; l < 8; l++) {
        p256_aff ga, wa;
        got.x = x[l], got.y = y[l], got.z = z[l];
        p256_ecmult_const(&want, &k[l], &q[l]);
        uint64_t gi = p256_jac_to_aff(&ga, &got), wi = p256_jac_to_aff(&wa, &want);
        bad |= gi != wi || (!gi && (memcmp(&ga, &wa, sizeof ga) != 0));
    }
    if (bad) {
        printf("ctime_batch_const: p256_ifma_ecmult_const8 differs from p256_ecmult_const\n");
        return 1;
    }
    printf("ctime_batch_const: 8 secret scalars and points through p256_ifma_ecmult_const8 (%s)\n",
           p256_batch_engine());
    return (int)(sink * 0);
}

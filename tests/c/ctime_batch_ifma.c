/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ctime_batch_ifma.c: the IFMA batch engine under valgrind, on the portable emulation of
 * its intrinsics (modules/batch/ifma_emu.h; valgrind has no AVX-512), built like every
 * ctime_*.c (make ctime: -DP256_CTIME_TEST, -O3, gcc and clang, per field backend).
 *
 * 1. Every emulated intrinsic on secret lanes and masks (all but the gather, whose index
 *    is an address on the hardware too): memcheck must see no branch and no address
 *    computed from them, which is the emulation's branch-free contract.
 * 2. The engine's field and point primitives (mul, sqr, add, sub, the masked blend and
 *    negation, the zero test, doubling, the mixed addition) on secret lanes: the
 *    arithmetic that constant-time lanes will be built from is branch-free in the values.
 * 3. A batch verification on the engine (public data, nothing secret: what valgrind
 *    could not run before), valid and invalid items, 16 + 8 lanes, every answer checked
 *    against p256_verify.
 *
 * The negative controls are in canary_ctime.c (madd52, gather): a secret through the
 * emulated vpmadd52 into a branch, and a secret gather index, must each be reported.
 */
#define P256_IFMA_EMULATE
#include "ctime.h"

static uint64_t sink[8 * 40];
static size_t nsink;

static void keep(const __m512i *v)
{
    if (nsink + 8 <= sizeof sink / sizeof sink[0])
        _mm512_storeu_si512((void *)(sink + nsink), *v);
    nsink += 8;
}

static void secret_lanes(uint8_t *p, size_t n, uint8_t seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(seed * 0x9d + 0x3b * i + (i >> 3));
    P256_SECRET(p, n);
}

static void intrinsics_on_secrets(void)
{
    uint64_t a[8], b[8], c[8];
    uint8_t k;
    secret_lanes((uint8_t *)a, sizeof a, 1);
    secret_lanes((uint8_t *)b, sizeof b, 2);
    secret_lanes((uint8_t *)c, sizeof c, 3);
    secret_lanes(&k, 1, 4);
    const __m512i va = _mm512_loadu_si512(a), vb = _mm512_loadu_si512(b),
                  vc = _mm512_loadu_si512(c);
    __m512i r[] = {_mm512_madd52lo_epu64(va, vb, vc),
                   _mm512_madd52hi_epu64(va, vb, vc),
                   _mm512_add_epi64(va, vb),
                   _mm512_sub_epi64(va, vb),
                   _mm512_and_si512(va, vb),
                   _mm512_or_si512(va, vb),
                   _mm512_xor_si512(va, vb),
                   _mm512_slli_epi64(va, 7),
                   _mm512_srli_epi64(va, 52),
                   _mm512_srai_epi64(va, 52),
                   _mm512_srai_epi64(va, 64),
                   _mm512_abs_epi64(va),
                   _mm512_set1_epi64((long long)a[0]),
                   _mm512_set_epi64((long long)a[7], 6, 5, 4, 3, 2, 1, (long long)b[0]),
                   _mm512_mask_blend_epi64(k, va, vb),
                   _mm512_mask_blend_epi64(_mm512_cmplt_epi64_mask(va, vb), vb, vc),
                   _mm512_mask_blend_epi64(_mm512_cmpeq_epi64_mask(va, va), vb, vc),
                   _mm512_mask_blend_epi64(_mm512_cmpneq_epi64_mask(vb, vc), va, vc)};
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
        keep(&r[i]);
}

static void engine_on_secrets(void)
{
    p256_fe8 a, b, r;
    p256_jac8 j, s;
    p256_aff8 q;
    __mmask8 m;
    uint64_t w[5][8];
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    for (int l = 0; l < 8; l++) {
        p256_fe8_set_lane(&a, l, &p256_fe_b); /* normalized lanes < p, then made secret */
        p256_fe8_set_lane(&b, l, &p256_generator.x);
    }
    for (int k = 0; k < 5; k++) {
        _mm512_storeu_si512(w[k], a.v[k]);
        P256_SECRET(w[k], sizeof w[k]);
        a.v[k] = _mm512_loadu_si512(w[k]);
    }
    p256_fe8_mul(&r, &a, &b);
    p256_fe8_sqr(&r, &r);
    p256_fe8_add(&r, &r, &a);
    p256_fe8_sub(&r, &b, &r);
    m = p256_fe8_mask_is_zero(&r);
    p256_fe8_blend(&r, m, &a);
    p256_fe8_cneg(&r, (__mmask8)(m ^ 0x5a));
    j.x = a, j.y = r, j.z = b;
    q.x = b, q.y = a;
    p256_jac8_double(&s, &j);
    m = p256_jac8_add_aff(&s, &s, &q);
    for (int k = 0; k < 5; k++) {
        keep(&s.x.v[k]);
        keep(&s.z.v[k]);
    }
    sink[0] ^= m;
}

/* 24 items (a group of 16 lanes and one of 8): valid, tampered, bad key, r = 0. */
static int batch_verification(void)
{
    uint8_t d[32], pub[2][65], rs[24][64], digest[24][32], res[24];
    p256_batch_item items[24] = {{0}};
    for (int i = 0; i < 24; i++) {
        int key = i % 2;
        memset(d, 0x21 + key, sizeof d);
        memset(digest[i], i, sizeof digest[i]);
        if (!p256_pubkey_create(pub[key], d) ||
            !p256_sign(rs[i], d, digest[i], 32, P256_NONCE_SHA256))
            return 0;
        items[i].pub = pub[key];
        items[i].pub_len = 65;
        items[i].sig = rs[i];
        items[i].sig_len = 64;
        items[i].msg = digest[i];
        items[i].msg_len = 32;
    }
    digest[5][0] ^= 1;
    memset(rs[11], 0, 32);
    rs[20][63] ^= 4;
    if (!p256_batch_verify_vartime(res, items, 24, 1, P256_BATCH_PREHASHED, P256_BATCH_IFMA))
        return 0;
    for (int i = 0; i < 24; i++)
        if (res[i] != p256_verify(items[i].pub, 65, rs[i], digest[i], 32) ||
            res[i] != (i != 5 && i != 11 && i != 20))
            return 0;
    return strcmp(p256_batch_engine(), P256_IFMA_ENGINE_NAME) == 0;
}

int main(void)
{
    intrinsics_on_secrets();
    engine_on_secrets();
    P256_DECLASSIFY(sink, sizeof sink);
    if (!batch_verification()) {
        printf("ctime_batch_ifma: the emulated batch engine gave a wrong answer\n");
        return 1;
    }
    printf("ctime_batch_ifma: emulated intrinsics and engine primitives on secret lanes, "
           "a batch of 24 on %s\n", p256_batch_engine());
    return 0;
}

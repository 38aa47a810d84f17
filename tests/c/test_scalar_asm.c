/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_scalar_asm.c: the backend's arithmetic mod n and table scan (scalar_asm.h)
 * against the portable C, and the two constant-time inversions mod n against each other.
 *
 * - Montgomery product and square mod n, assembly vs p256_scalar_mont_mul_c, limb for
 *   limb: 10^5 random pairs (P256_TEST_ITERS scales both random counts, harness.h),
 *   every pair of the edge values (0, 1, 2, n-1, n-2, 2^255 and its neighbours, R mod n,
 *   R^2 mod n, all-ones limbs below n, ...), products chosen to land on 0, 1, n-1, n-2
 *   and 2^255, every aliasing.
 * - p256_scalar_mul (the backend's) vs a C-only twin; p256_scalar_inv_fermat vs
 *   p256_scalar_inv_safegcd on 10^5 random inputs and the edges, and a * a^-1 == 1;
 *   p256_scalar_inv (the default) vs both.
 * - p256_aff_lookup (the default scan: assembly where the backend has it), the AVX2 C
 *   clone and the assembly scans (AVX2; NEON for 16 and 64 entries) vs the expected
 *   entry and the plain C body, for every idx 0..entries+1 and every table size used
 *   (P256_COMB_ENTRIES, P256_CONST_ENTRIES) and a few others.
 * Built once per variant (make ctest); the assembly checks report SKIP on a variant
 * without them (the rest still runs). Negative controls (tools/plants.py): scalar:1 (the
 * asm drops the final conditional subtraction), scalar:3 (the asm scan's counters of odd
 * entries are off), scalar:4 (the Fermat chain drops a multiplication); each must fail.
 */
#include "harness.h"
#include "p256.c"

static const p256_scalar n_minus[3] = {
    {{0xf3b9cac2fc632551ULL - 1, 0xbce6faada7179e84ULL, ~0ULL, 0xffffffff00000000ULL}},
    {{0xf3b9cac2fc632551ULL - 2, 0xbce6faada7179e84ULL, ~0ULL, 0xffffffff00000000ULL}},
    {{0xf3b9cac2fc632551ULL - 3, 0xbce6faada7179e84ULL, ~0ULL, 0xffffffff00000000ULL}},
};

#define NEDGE 20
static p256_scalar edge[NEDGE];

static void make_edges(void)
{
    int k = 0;
    memset(edge, 0, sizeof edge);
    edge[k++].v[0] = 0;                                  /* 0 */
    edge[k++].v[0] = 1;
    edge[k++].v[0] = 2;
    edge[k++] = n_minus[0];                              /* n - 1 */
    edge[k++] = n_minus[1];                              /* n - 2 */
    edge[k++] = n_minus[2];
    edge[k].v[3] = 1ULL << 63, k++;                      /* 2^255 */
    edge[k].v[3] = 1ULL << 63, edge[k].v[0] = 1, k++;    /* 2^255 + 1 */
    edge[k] = (p256_scalar){{~0ULL, ~0ULL, ~0ULL, (1ULL << 63) - 1}}, k++; /* 2^255 - 1 */
    edge[k] = (p256_scalar){{0x0c46353d039cdaafULL, 0x4319055258e8617bULL, 0, 0xffffffffULL}}, k++; /* R mod n */
    edge[k++] = p256_scalar_r2;                          /* R^2 mod n */
    edge[k] = (p256_scalar){{~0ULL, ~0ULL, ~0ULL, 0xfffffffeffffffffULL}}, k++; /* all-ones limbs < n */
    edge[k] = (p256_scalar){{~0ULL, ~0ULL, 0xfffffffffffffffeULL, 0xffffffff00000000ULL}}, k++;
    edge[k] = (p256_scalar){{~0ULL, 0xbce6faada7179e83ULL, ~0ULL, 0xffffffff00000000ULL}}, k++;
    edge[k] = (p256_scalar){{~0ULL, 0, 0, 0}}, k++;
    edge[k] = (p256_scalar){{0, ~0ULL, 0, 0}}, k++;
    edge[k] = (p256_scalar){{0, 0, ~0ULL, 0}}, k++;
    edge[k] = (p256_scalar){{0, 0, 0, 0xffffffff00000000ULL}}, k++;
    edge[k] = (p256_scalar){{0xf3b9cac2fc632551ULL, 0xbce6faada7179e84ULL, ~0ULL,
                             0x7fffffff00000000ULL}}, k++;
    edge[k] = (p256_scalar){{0x8000000000000000ULL, 0x8000000000000000ULL, 0x8000000000000000ULL,
                             0x8000000000000000ULL}}, k++;
    if (k != NEDGE) {
        fprintf(stderr, "test_scalar_asm: %d edges, want %d\n", k, NEDGE);
        exit(2);
    }
    for (int i = 0; i < NEDGE; i++)
        if (!p256_limbs_mask_lt(edge[i].v, p256_n)) {
            fprintf(stderr, "test_scalar_asm: edge %d is not < n\n", i);
            exit(2);
        }
}

/* A random value < n: uniform words, rejected until below n (some draws make limb 3 small). */
static void random_scalar_below_n(p256_scalar *r)
{
    do {
        for (int i = 0; i < 4; i++)
            r->v[i] = rng64();
        switch (rng64() % 8) {
        case 0: r->v[3] >>= rng64() % 64; break;         /* a small top word */
        case 1: r->v[rng64() % 4] = ~0ULL; break;        /* an all-ones limb */
        case 2: r->v[rng64() % 4] = 0; break;            /* a zero limb */
        default: break;
        }
    } while (!p256_limbs_mask_lt(r->v, p256_n));
}

static int same_scalar(const p256_scalar *a, const p256_scalar *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* The C-only a*b mod n and a^-1 (for the chosen products). */
static void mul_c(p256_scalar *r, const p256_scalar *a, const p256_scalar *b)
{
    p256_scalar t;
    p256_scalar_mont_mul_c(&t, a, b);
    p256_scalar_mont_mul_c(r, &t, &p256_scalar_r2);
}

#if defined(P256_ASM_HAS_SCALAR_MONT_MUL) && defined(P256_ASM_HAS_SCALAR_MONT_SQR)
#include "cpu.h"

/* mul and sqr, asm vs C, with every aliasing. */
static void check_mul(const p256_scalar *a, const p256_scalar *b, const char *what)
{
    p256_scalar want, got, x, y;

    p256_scalar_mont_mul_c(&want, a, b);
    P256_ASM_FN(scalar_mont_mul)(got.v, a->v, b->v);
    CHECK(same_scalar(&got, &want), "mont_mul %s", what);
    x = *a;
    P256_ASM_FN(scalar_mont_mul)(x.v, x.v, b->v);
    CHECK(same_scalar(&x, &want), "mont_mul r == a %s", what);
    y = *b;
    P256_ASM_FN(scalar_mont_mul)(y.v, a->v, y.v);
    CHECK(same_scalar(&y, &want), "mont_mul r == b %s", what);

    p256_scalar_mont_mul_c(&want, a, a);
    P256_ASM_FN(scalar_mont_mul)(got.v, a->v, a->v);
    CHECK(same_scalar(&got, &want), "mont_mul a == b %s", what);
    x = *a;
    P256_ASM_FN(scalar_mont_mul)(x.v, x.v, x.v);
    CHECK(same_scalar(&x, &want), "mont_mul r == a == b %s", what);
    P256_ASM_FN(scalar_mont_sqr)(got.v, a->v);
    CHECK(same_scalar(&got, &want), "mont_sqr %s", what);
    x = *a;
    P256_ASM_FN(scalar_mont_sqr)(x.v, x.v);
    CHECK(same_scalar(&x, &want), "mont_sqr r == a %s", what);
}

static int asm_cpu_ok(void)
{
#if defined(P256_ASM_X86_64_ADX)
    return p256_cpu_has_x86_64_adx();
#else
    return 1;
#endif
}

static void test_mul(long rounds)
{
    p256_scalar a, b, t, ainv, target[5];
    static const p256_scalar r_mod_n = {{0x0c46353d039cdaafULL, 0x4319055258e8617bULL, 0, 0xffffffffULL}};

    for (int i = 0; i < NEDGE; i++)
        for (int j = 0; j < NEDGE; j++)
            check_mul(&edge[i], &edge[j], "edges");
    for (long i = 0; i < rounds; i++) {
        random_scalar_below_n(&a);
        random_scalar_below_n(&b);
        check_mul(&a, &b, "random");
    }
    /* mont(a, b) = target: b = target * R * a^-1 (all in C). */
    memset(target, 0, sizeof target);
    target[1].v[0] = 1;
    target[2] = n_minus[0];
    target[3] = n_minus[1];
    target[4].v[3] = 1ULL << 63;
    for (int i = 0; i < 2000; i++) {
        random_scalar_below_n(&a);
        if (p256_scalar_mask_is_zero(&a))
            continue;
        p256_scalar_inv_safegcd(&ainv, &a);
        for (int k = 0; k < 5; k++) {
            mul_c(&t, &target[k], &r_mod_n);
            mul_c(&b, &t, &ainv);
            p256_scalar_mont_mul_c(&t, &a, &b);
            CHECK(same_scalar(&t, &target[k]), "chosen product setup %d", k);
            check_mul(&a, &b, "chosen product");
        }
    }
}
#endif

static void test_mul_inv(long rounds)
{
    p256_scalar a, b, want, got, f, s, one = {{1, 0, 0, 0}};

    for (int i = 0; i < NEDGE; i++)
        for (int j = 0; j < NEDGE; j++) {
            mul_c(&want, &edge[i], &edge[j]);
            p256_scalar_mul(&got, &edge[i], &edge[j]);
            CHECK(same_scalar(&got, &want), "scalar_mul edges %d %d", i, j);
        }
    for (long i = 0; i < rounds; i++) {
        random_scalar_below_n(&a);
        random_scalar_below_n(&b);
        mul_c(&want, &a, &b);
        p256_scalar_mul(&got, &a, &b);
        CHECK(same_scalar(&got, &want), "scalar_mul random");
        got = a;
        p256_scalar_mul(&got, &got, &got);
        mul_c(&want, &a, &a);
        CHECK(same_scalar(&got, &want), "scalar_mul r == a == b");
    }
    for (long i = 0; i < rounds + NEDGE; i++) {
        if (i < NEDGE)
            a = edge[i];
        else
            random_scalar_below_n(&a);
        p256_scalar_inv_fermat(&f, &a);
        p256_scalar_inv_safegcd(&s, &a);
        CHECK(same_scalar(&f, &s), "inv fermat == safegcd (input %ld)", i);
        p256_scalar_inv(&got, &a);
        CHECK(same_scalar(&got, &s), "inv default == safegcd (input %ld)", i);
        got = a;
        p256_scalar_inv_fermat(&got, &got);
        CHECK(same_scalar(&got, &s), "inv fermat r == a (input %ld)", i);
        mul_c(&want, &f, &a);
        if (p256_scalar_mask_is_zero(&a))
            CHECK(p256_scalar_mask_is_zero(&f), "inv(0) == 0");
        else
            CHECK(same_scalar(&want, &one), "a * inv(a) == 1 (input %ld)", i);
    }
}

/* The plain C body's answer, computed independently: entry idx - 1, or zeros. */
static void test_lookup(void)
{
    enum { MAXE = 80 };
    static p256_aff table[MAXE + 1];
    const int sizes[] = {0, 1, 2, 3, 7, 8, 15, 16, P256_CONST_ENTRIES, 31, 32, 33, 64, P256_COMB_ENTRIES, MAXE};
    p256_aff got, want, zero;

    memset(&zero, 0, sizeof zero);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const int entries = sizes[s];
        for (int i = 0; i <= MAXE; i++)
            for (int w = 0; w < 4; w++)
                table[i].x.v[w] = rng64(), table[i].y.v[w] = rng64();
        for (uint64_t idx = 0; idx <= (uint64_t)entries + 1; idx++) {
            want = (idx >= 1 && idx <= (uint64_t)entries) ? table[idx - 1] : zero;
            p256_aff_lookup_c(&got, table, entries, idx);
            CHECK(memcmp(&got, &want, sizeof got) == 0, "lookup generic entries %d idx %u", entries, (unsigned)idx);
            p256_aff_lookup(&got, table, entries, idx);
            CHECK(memcmp(&got, &want, sizeof got) == 0, "lookup default entries %d idx %u", entries, (unsigned)idx);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(P256_NO_AVX2)
            if (p256_cpu_has(P256_CPU_AVX2)) {
                p256_aff_lookup_avx2_c(&got, table, entries, idx);
                CHECK(memcmp(&got, &want, sizeof got) == 0, "lookup AVX2 C entries %d idx %u", entries, (unsigned)idx);
#if defined(P256_ASM_HAS_AFF_LOOKUP_AVX2)
                P256_ASM_FN(aff_lookup_avx2)((uint64_t *)&got, (const uint64_t *)table, entries, idx);
                CHECK(memcmp(&got, &want, sizeof got) == 0, "lookup AVX2 asm entries %d idx %u", entries,
                      (unsigned)idx);
#endif
            }
#endif
#if defined(P256_ASM_HAS_AFF_LOOKUP_16) && defined(P256_ASM_HAS_AFF_LOOKUP_64)
            if (entries == 16) {
                P256_ASM_FN(aff_lookup_16)((uint64_t *)&got, (const uint64_t *)table, idx);
                CHECK(memcmp(&got, &want, sizeof got) == 0, "lookup NEON16 idx %u", (unsigned)idx);
            }
            if (entries == 64) {
                P256_ASM_FN(aff_lookup_64)((uint64_t *)&got, (const uint64_t *)table, idx);
                CHECK(memcmp(&got, &want, sizeof got) == 0, "lookup NEON64 idx %u", (unsigned)idx);
            }
#endif
        }
    }
}

int main(void)
{
    const long rounds = harness_iters(100000), inv_rounds = harness_iters(100000);

    make_edges();
#if defined(P256_ASM_HAS_SCALAR_MONT_MUL) && defined(P256_ASM_HAS_SCALAR_MONT_SQR)
    if (asm_cpu_ok())
        test_mul(rounds);
    else
        printf("test_scalar_asm: SKIP the assembly mod n: this CPU lacks its instructions\n");
#else
    (void)rounds;
    printf("test_scalar_asm: SKIP the assembly mod n: %s has none\n", p256_backend_name());
#endif
    test_mul_inv(inv_rounds);
    test_lookup();
    printf("test_scalar_asm [%s]: %ld checks, %ld failures\n", p256_backend_name(), checks, failures);
    return failures != 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arm64_backend.c: differential and known-answer tests of the AArch64 field backend
 * (csrc/asm/field_aarch64.S) against the portable C (field_impl.h) and against an
 * independent schoolbook reference (bit-serial reduction mod p, no Montgomery code).
 *
 * Built and run by `make test-arm64` (cross-compiled, run under qemu-aarch64):
 *   aarch64-linux-gnu-gcc -O2 -std=c99 -Icsrc -DP256_ASM_AARCH64 \
 *       tests/c/arm64_backend.c csrc/asm/field_aarch64.S
 * Optional argument: a seed for the random inputs (default fixed, so runs repeat).
 *
 * Inputs stay within the contract (field_asm.h): a, b < p. Checks, per function:
 *   - known answers (from Python: a*b*2^-256 mod p), identities (x*R = x, (p-1)^2/R = 1/R)
 *   - every value of an edge set (0, 1, 2, p-1, p-2, R, R^2, R^3 mod p, 2^255, halves of p,
 *     and all 8^4 limb patterns from {0, 1, 2^32-1, 2^32, 2^63, 2^64-1, p3, 2^64-2^32},
 *     reduced mod p) against the edge specials, and all edge squares
 *   - 10^5 uniform random inputs, 10^5 structured random inputs (limbs from the patterns,
 *     values near 0 and p), 2*10^4 of each also against the reference
 *   - results forced to 0, 1, 2, p-1, p-2, R mod p, ... (b = r*R/a), squarings forced to
 *     chosen squares, so the final conditional subtraction sees both of its cases at the
 *     boundary
 *   - aliasing: r == a, r == b, a == b, r == a == b
 *   - a 10^5-step feedback chain (x = x*y, y = y^2) where any wrong word propagates
 * and a negative control: the reference must reject a result off by one.
 */
#ifndef P256_ASM_AARCH64
#error "build with -DP256_ASM_AARCH64 and csrc/asm/field_aarch64.S"
#endif
#define HARNESS_RNG_SEED 0x2545F4914F6CDD1DULL
#include "harness.h"
#include "p256.c"

static const uint64_t P[4] = {P256_P0, P256_P1, P256_P2, P256_P3};

typedef struct {
    uint64_t v[4];
} fe;

static int fe_eq(const fe *a, const fe *b)
{
    return memcmp(a->v, b->v, sizeof a->v) == 0;
}

static void print_fe(const char *name, const fe *a)
{
    fprintf(stderr, "  %s = %016llx %016llx %016llx %016llx\n", name,
            (unsigned long long)a->v[3], (unsigned long long)a->v[2],
            (unsigned long long)a->v[1], (unsigned long long)a->v[0]);
}

/* a >= b as 4-word integers. */
static int ge4(const uint64_t a[4], const uint64_t b[4])
{
    for (int i = 3; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] > b[i];
    return 1;
}

static void sub4(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t d = a[i] - b[i] - borrow;
        borrow = (a[i] < b[i]) || (a[i] - b[i] < borrow);
        r[i] = d;
    }
}

/* Any 256-bit x into [0, p): x < 2^256 < 2p, so at most one subtraction. */
static void reduce_p(fe *x)
{
    if (ge4(x->v, P))
        sub4(x->v, x->v, P);
}

static int lt_p(const fe *x)
{
    return !ge4(x->v, P);
}

/* ---- the independent reference: schoolbook product, bit-serial remainder ---------- */

static void mul_512(uint64_t r[8], const uint64_t a[4], const uint64_t b[4])
{
    memset(r, 0, 8 * sizeof r[0]);
    for (int i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 4; j++) {
            p256_u128 t = (p256_u128)a[i] * b[j] + r[i + j] + carry;
            r[i + j] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
        r[i + 4] = carry;
    }
}

/* r = x mod p for a 512-bit x: shift in one bit at a time, subtract p when >= p. */
static void mod_p_512(uint64_t r[4], const uint64_t x[8])
{
    uint64_t rem[5] = {0, 0, 0, 0, 0}; /* < 2p after a shift: 257 bits */
    for (int bit = 511; bit >= 0; bit--) {
        rem[4] = (rem[4] << 1) | (rem[3] >> 63);
        rem[3] = (rem[3] << 1) | (rem[2] >> 63);
        rem[2] = (rem[2] << 1) | (rem[1] >> 63);
        rem[1] = (rem[1] << 1) | (rem[0] >> 63);
        rem[0] = (rem[0] << 1) | ((x[bit / 64] >> (bit % 64)) & 1);
        if (rem[4] || ge4(rem, P)) {
            uint64_t borrow = 0;
            for (int i = 0; i < 4; i++) {
                p256_u128 d = (p256_u128)rem[i] - P[i] - borrow;
                rem[i] = (uint64_t)d;
                borrow = (uint64_t)(d >> 64) & 1;
            }
            rem[4] -= borrow;
        }
    }
    memcpy(r, rem, 4 * sizeof r[0]);
}

/* 1 if r is the Montgomery product of a and b: r < p and r*2^256 = a*b (mod p). */
static int ref_is_mont_product(const fe *r, const fe *a, const fe *b)
{
    uint64_t ab[8], rr[8], x[4], y[4];
    if (!lt_p(r))
        return 0;
    mul_512(ab, a->v, b->v);
    memset(rr, 0, sizeof rr);
    memcpy(rr + 4, r->v, sizeof r->v);
    mod_p_512(x, ab);
    mod_p_512(y, rr);
    return memcmp(x, y, sizeof x) == 0;
}

/* ---- the functions under test, and their portable twins --------------------------- */

static void asm_mul(fe *r, const fe *a, const fe *b)
{
    p256_fe_mul_aarch64(r->v, a->v, b->v);
}

static void asm_sqr(fe *r, const fe *a)
{
    p256_fe_sqr_aarch64(r->v, a->v);
}

static void port_mul(fe *r, const fe *a, const fe *b)
{
    p256_fe t, x, y;
    memcpy(x.v, a->v, sizeof x.v);
    memcpy(y.v, b->v, sizeof y.v);
    p256_fe_mul_c(&t, &x, &y);
    memcpy(r->v, t.v, sizeof t.v);
}

static void port_sqr(fe *r, const fe *a)
{
    p256_fe t, x;
    memcpy(x.v, a->v, sizeof x.v);
    p256_fe_sqr_c(&t, &x);
    memcpy(r->v, t.v, sizeof t.v);
}

/* Compares asm with the portable C (always) and the reference (if with_ref). */
static void check_mul(const fe *a, const fe *b, int with_ref, const char *what)
{
    fe got, want;
    asm_mul(&got, a, b);
    port_mul(&want, a, b);
    CHECK(fe_eq(&got, &want), "mul %s: asm != portable", what);
    if (!fe_eq(&got, &want) && failures <= HARNESS_MAX_REPORTS) {
        print_fe("a", a), print_fe("b", b), print_fe("asm", &got), print_fe("portable", &want);
    }
    if (with_ref)
        CHECK(ref_is_mont_product(&got, a, b), "mul %s: asm result fails the reference", what);
}

static void check_sqr(const fe *a, int with_ref, const char *what)
{
    fe got, want, viamul;
    asm_sqr(&got, a);
    port_sqr(&want, a);
    asm_mul(&viamul, a, a);
    CHECK(fe_eq(&got, &want), "sqr %s: asm != portable", what);
    if (!fe_eq(&got, &want) && failures <= HARNESS_MAX_REPORTS)
        print_fe("a", a), print_fe("asm", &got), print_fe("portable", &want);
    CHECK(fe_eq(&got, &viamul), "sqr %s: asm sqr != asm mul(a, a)", what);
    if (with_ref)
        CHECK(ref_is_mont_product(&got, a, a), "sqr %s: asm result fails the reference", what);
}

/* ---- inputs ------------------------------------------------------------------------- */

static const uint64_t patterns[8] = {
    0, 1, 0x00000000ffffffffULL, 0x0000000100000000ULL, 0x8000000000000000ULL,
    0xffffffffffffffffULL, 0xffffffff00000001ULL, 0xffffffff00000000ULL,
};

static void random_fe(fe *x)
{
    do {
        for (int i = 0; i < 4; i++)
            x->v[i] = rng64();
    } while (!lt_p(x));
}

/* Limbs from the patterns, small values, values near p, or random words, mixed. */
static void structured_fe(fe *x)
{
    uint64_t kind = rng64() % 6, small = rng64() % 1024;
    switch (kind) {
    case 0: /* small */
        x->v[0] = small, x->v[1] = x->v[2] = x->v[3] = 0;
        break;
    case 1: /* p - 1 - small */
        memcpy(x->v, P, sizeof x->v);
        x->v[0] -= 1 + small;
        break;
    case 2: /* patterns only */
        for (int i = 0; i < 4; i++)
            x->v[i] = patterns[rng64() % 8];
        break;
    case 3: /* patterns and random words mixed */
        for (int i = 0; i < 4; i++)
            x->v[i] = (rng64() & 1) ? patterns[rng64() % 8] : rng64();
        break;
    case 4: /* pattern +- small per limb */
        for (int i = 0; i < 4; i++)
            x->v[i] = patterns[rng64() % 8] + (rng64() % 5) - 2;
        break;
    default:
        random_fe(x);
        return;
    }
    reduce_p(x);
}

static fe specials[64];
static int n_specials;

static void add_special(uint64_t v0, uint64_t v1, uint64_t v2, uint64_t v3)
{
    fe x = {{v0, v1, v2, v3}};
    reduce_p(&x);
    specials[n_specials++] = x;
}

static void build_specials(void)
{
    add_special(0, 0, 0, 0);
    add_special(1, 0, 0, 0);
    add_special(2, 0, 0, 0);
    add_special(3, 0, 0, 0);
    add_special(P[0] - 1, P[1], P[2], P[3]);     /* p - 1 */
    add_special(P[0] - 2, P[1], P[2], P[3]);     /* p - 2 */
    add_special(P[0] - 3, P[1], P[2], P[3]);     /* p - 3 */
    add_special(p256_fe_one.v[0], p256_fe_one.v[1], p256_fe_one.v[2], p256_fe_one.v[3]);
    add_special(p256_fe_one.v[0] - 1, p256_fe_one.v[1], p256_fe_one.v[2], p256_fe_one.v[3]);
    add_special(p256_fe_r2.v[0], p256_fe_r2.v[1], p256_fe_r2.v[2], p256_fe_r2.v[3]);
    add_special(p256_fe_r3.v[0], p256_fe_r3.v[1], p256_fe_r3.v[2], p256_fe_r3.v[3]);
    add_special(p256_fe_b.v[0], p256_fe_b.v[1], p256_fe_b.v[2], p256_fe_b.v[3]);
    add_special(0, 0, 0, 0x8000000000000000ULL);                      /* 2^255 */
    add_special(~0ULL, ~0ULL, ~0ULL, ~0ULL);                          /* 2^256 - 1 mod p */
    add_special(~0ULL, ~0ULL, ~0ULL, 0x7fffffffffffffffULL);          /* 2^255 - 1 */
    add_special(~0ULL, 0x000000007fffffffULL, 0x8000000000000000ULL,
                0x7fffffff80000000ULL);                               /* (p - 1)/2 */
    add_special(0, 0x0000000080000000ULL, 0x8000000000000000ULL,
                0x7fffffff80000000ULL);                               /* (p + 1)/2 */
    add_special(0, 0, 0, 0x0000000100000000ULL);                      /* 2^224 */
    add_special(0, 0, 0, 1);                                          /* 2^192 */
    add_special(0, 0x0000000100000000ULL, 0, 0);                      /* 2^96 */
    add_special(0, 1, 0, 0);                                          /* 2^64 */
    add_special(0, 0, 1, 0);                                          /* 2^128 */
    add_special(~0ULL, 0, 0, 0);                                      /* 2^64 - 1 */
    add_special(~0ULL, ~0ULL, 0, 0);                                  /* 2^128 - 1 */
    add_special(~0ULL, ~0ULL, ~0ULL, 0);                              /* 2^192 - 1 */
    add_special(0, 0, 0, 0xffffffff00000000ULL);                      /* p3 - 1 at top */
    add_special(0, 0xffffffff00000000ULL, ~0ULL, 0);
    add_special(0x5555555555555555ULL, 0x5555555555555555ULL, 0x5555555555555555ULL,
                0x5555555555555555ULL);
    add_special(0xaaaaaaaaaaaaaaaaULL, 0xaaaaaaaaaaaaaaaaULL, 0xaaaaaaaaaaaaaaaaULL,
                0xaaaaaaaaaaaaaaaaULL);
}

/* ---- the test groups ----------------------------------------------------------------- */

static void test_known_answers(void)
{
    /* a, b, a*b*2^-256 mod p, from Python (pow(2**256, -1, p)). */
    static const fe kat[3][3] = {
        {{{0x92e5dfe8cb1855feULL, 0x14a03569d26b9496ULL, 0xc320a4737c2b3abeULL, 0x096d373742f9a039ULL}},
         {{0x254499c7001d9a88ULL, 0x9623d7cfa9ae7a34ULL, 0xf72c2c2678629522ULL, 0xbc1e3ac1c27db4ecULL}},
         {{0xbcad563bb027b8b5ULL, 0x4988cc19a18b6402ULL, 0x66c6f49f5a443220ULL, 0x6654548790afbd0eULL}}},
        {{{0x51c342505f877031ULL, 0x059a91e1c527e279ULL, 0x7d24b39645cf8aa4ULL, 0x32b7228fcd4a5557ULL}},
         {{0xdf5ca32ebad5ccc2ULL, 0xe91b4ad169fc5360ULL, 0x8a0c510089ce5ef7ULL, 0x181e290aae9af169ULL}},
         {{0x3f7d810b90a2be35ULL, 0xbc4e6f219981490aULL, 0x2d916c7d5af50277ULL, 0x573d5d3473449c69ULL}}},
        {{{0x903c2ac9316774feULL, 0xb313fc7e8db9b92cULL, 0xba98666ace1c9c17ULL, 0xa9b3d1a243f9300cULL}},
         {{0x9c2c0ac2cda95957ULL, 0x168e5087af895f5bULL, 0x6cb9185ed822e2f9ULL, 0xfd80206055e8b3ebULL}},
         {{0x18ae88f7ae8a70f1ULL, 0xd49f27d902ceb921ULL, 0x0b73e46b4bac7bedULL, 0x908f53a25ef93d7cULL}}},
    };
    static const fe sq_kat[2][2] = {
        {{{0x5cb53ec017d7ab26ULL, 0x68f22599ccdf540bULL, 0x401fe4fcce06294dULL, 0xb31a5bf371f970cfULL}},
         {{0xd04fdc922fbf5f65ULL, 0x22c39b0fe398b024ULL, 0x49c657e4acf2efc9ULL, 0x044ca85d76b8fabeULL}}},
        {{{0xc16cf5c51801fd9aULL, 0xb3642b1932793637ULL, 0xcbe19514a28a0aaaULL, 0x18f918e24a8b0188ULL}},
         {{0x1f28fc9c5c0be731ULL, 0x162c3741d65cd622ULL, 0x898d9f547c8c5db0ULL, 0x552f5b3e13961c48ULL}}},
    };
    /* 2^-256 mod p: (p - 1)^2 = 1, so (p - 1)*(p - 1)/R = R^-1; also 1*1/R. */
    static const fe rinv = {{0x0000000300000000ULL, 0x00000001fffffffeULL,
                             0xfffffffd00000002ULL, 0xfffffffe00000003ULL}};
    fe r, x, one = {{1, 0, 0, 0}}, pm1 = {{P[0] - 1, P[1], P[2], P[3]}};
    fe rmodp = {{p256_fe_one.v[0], p256_fe_one.v[1], p256_fe_one.v[2], p256_fe_one.v[3]}};
    fe r2 = {{p256_fe_r2.v[0], p256_fe_r2.v[1], p256_fe_r2.v[2], p256_fe_r2.v[3]}};
    fe r3 = {{p256_fe_r3.v[0], p256_fe_r3.v[1], p256_fe_r3.v[2], p256_fe_r3.v[3]}};

    for (int i = 0; i < 3; i++) {
        asm_mul(&r, &kat[i][0], &kat[i][1]);
        CHECK(fe_eq(&r, &kat[i][2]), "mul known answer %d", i);
        asm_mul(&r, &kat[i][1], &kat[i][0]);
        CHECK(fe_eq(&r, &kat[i][2]), "mul known answer %d (swapped)", i);
    }
    for (int i = 0; i < 2; i++) {
        asm_sqr(&r, &sq_kat[i][0]);
        CHECK(fe_eq(&r, &sq_kat[i][1]), "sqr known answer %d", i);
    }
    asm_mul(&r, &pm1, &pm1);
    CHECK(fe_eq(&r, &rinv), "(p-1)^2/R = 1/R");
    asm_sqr(&r, &pm1);
    CHECK(fe_eq(&r, &rinv), "sqr(p-1) = 1/R");
    asm_mul(&r, &one, &one);
    CHECK(fe_eq(&r, &rinv), "1*1/R = 1/R");
    asm_sqr(&r, &one);
    CHECK(fe_eq(&r, &rinv), "sqr(1) = 1/R");
    asm_sqr(&r, &rmodp);
    CHECK(fe_eq(&r, &rmodp), "sqr(R mod p) = R mod p (the domain's one)");
    asm_mul(&r, &r2, &one);
    CHECK(fe_eq(&r, &rmodp), "R^2 * 1 / R = R mod p");
    asm_mul(&r, &r3, &one);
    CHECK(fe_eq(&r, &r2), "R^3 * 1 / R = R^2 mod p");
    asm_mul(&r, &r2, &r2);
    CHECK(fe_eq(&r, &r3), "R^2 * R^2 / R = R^3 mod p");
    asm_sqr(&r, &r2);
    CHECK(fe_eq(&r, &r3), "sqr(R^2) = R^3 mod p");
    for (int i = 0; i < 1000; i++) {
        random_fe(&x);
        asm_mul(&r, &x, &rmodp);
        CHECK(fe_eq(&r, &x), "x * (R mod p) / R = x");
        asm_mul(&r, &rmodp, &x);
        CHECK(fe_eq(&r, &x), "(R mod p) * x / R = x");
    }
}

static void test_negative_control(void)
{
    /* The reference must reject wrong answers, or every comparison with it is vacuous. */
    fe a, b, r;
    int rejected = 0;
    for (int i = 0; i < 16; i++) {
        random_fe(&a);
        random_fe(&b);
        asm_mul(&r, &a, &b);
        CHECK(ref_is_mont_product(&r, &a, &b), "reference accepts the right answer");
        r.v[i % 4] ^= (uint64_t)1 << (i * 7 % 64);
        rejected += !ref_is_mont_product(&r, &a, &b);
    }
    CHECK(rejected == 16, "reference rejected only %d of 16 corrupted results", rejected);
    r = (fe){{P[0], P[1], P[2], P[3]}}; /* p itself: = 0 mod p but not reduced */
    a = (fe){{0, 0, 0, 0}};
    CHECK(!ref_is_mont_product(&r, &a, &a), "reference rejects an unreduced result");
}

static void test_edges(void)
{
    fe x;
    /* every special against every special, with the reference */
    for (int i = 0; i < n_specials; i++) {
        check_sqr(&specials[i], 1, "special");
        for (int j = 0; j < n_specials; j++)
            check_mul(&specials[i], &specials[j], 1, "special x special");
    }
    /* the 8^4 limb patterns: squared, and times every special */
    for (int k = 0; k < 4096; k++) {
        x.v[0] = patterns[k & 7];
        x.v[1] = patterns[(k >> 3) & 7];
        x.v[2] = patterns[(k >> 6) & 7];
        x.v[3] = patterns[(k >> 9) & 7];
        reduce_p(&x);
        check_sqr(&x, (k % 8) == 0, "pattern");
        for (int j = 0; j < n_specials; j++) {
            check_mul(&x, &specials[j], 0, "pattern x special");
            check_mul(&specials[j], &x, 0, "special x pattern");
        }
    }
}

static void test_random(void)
{
    fe a, b;
    for (int i = 0; i < 100000; i++) {
        random_fe(&a);
        random_fe(&b);
        check_mul(&a, &b, i < 20000, "uniform");
        check_sqr(&a, i < 20000, "uniform");
    }
    for (int i = 0; i < 100000; i++) {
        structured_fe(&a);
        structured_fe(&b);
        check_mul(&a, &b, i < 20000, "structured");
        check_sqr(&a, i < 20000, "structured");
    }
}

/*
 * Results forced to chosen values: b = r * R * a^-1 (so a*b/R = r) with a^-1 from the
 * safegcd inverse and the R factors from the portable multiplication; squarings
 * forced through square roots (fe_sqrt gives s with s*s/R = y when y is a square).
 */
static void test_forced_results(void)
{
    const fe targets[] = {
        {{1, 0, 0, 0}},
        {{2, 0, 0, 0}},
        {{P[0] - 1, P[1], P[2], P[3]}},
        {{P[0] - 2, P[1], P[2], P[3]}},
        {{p256_fe_one.v[0], p256_fe_one.v[1], p256_fe_one.v[2], p256_fe_one.v[3]}},
        {{0, 0, 0, 0x8000000000000000ULL}},
        {{~0ULL, 0x000000007fffffffULL, 0x8000000000000000ULL, 0x7fffffff80000000ULL}},
        {{0, 0x0000000080000000ULL, 0x8000000000000000ULL, 0x7fffffff80000000ULL}},
        {{~0ULL, 0, 0, 0}},
        {{P[0] - 0x100000000ULL, P[1], P[2], P[3]}},
    };
    const fe r3 = {{p256_fe_r3.v[0], p256_fe_r3.v[1], p256_fe_r3.v[2], p256_fe_r3.v[3]}};
    fe a, ainv, t, b, r, zero = {{0, 0, 0, 0}};
    int squares = 0;

    for (size_t k = 0; k < sizeof targets / sizeof targets[0]; k++) {
        for (int i = 0; i < 300; i++) {
            random_fe(&a);
            if (i == 0)
                a = targets[k];
            p256_modinv(ainv.v, a.v, &p256_modinv_p); /* plain a^-1 */
            port_mul(&t, &targets[k], &r3);          /* r * R^2 */
            port_mul(&b, &t, &ainv);                 /* r * R * a^-1 */
            asm_mul(&r, &a, &b);
            CHECK(fe_eq(&r, &targets[k]), "forced mul result #%d", (int)k);
            asm_mul(&r, &b, &a);
            CHECK(fe_eq(&r, &targets[k]), "forced mul result #%d (swapped)", (int)k);
            check_mul(&a, &b, i < 10, "forced");
        }
        /* squares: s*s/R = y for y = target (when it is a square), and (p - s) too */
        {
            p256_fe y, s;
            memcpy(y.v, targets[k].v, sizeof y.v);
            if (p256_fe_sqrt(&s, &y)) {
                fe sv, ns, got;
                memcpy(sv.v, s.v, sizeof sv.v);
                sub4(ns.v, P, sv.v);
                reduce_p(&ns);
                asm_sqr(&got, &sv);
                CHECK(fe_eq(&got, &targets[k]), "forced sqr result #%d", (int)k);
                asm_sqr(&got, &ns);
                CHECK(fe_eq(&got, &targets[k]), "forced sqr result #%d (negated root)", (int)k);
                check_sqr(&sv, 1, "forced");
                squares++;
            }
        }
        /* zero results: a*0, 0*a */
        random_fe(&a);
        asm_mul(&r, &a, &zero);
        CHECK(fe_eq(&r, &zero), "a * 0 = 0");
        asm_mul(&r, &zero, &a);
        CHECK(fe_eq(&r, &zero), "0 * a = 0");
    }
    CHECK(squares >= 3, "only %d forced squares were squares", squares);
}

static void test_aliasing(void)
{
    fe a, b, want, want_sq, want_aa, x, y;
    for (int i = 0; i < 20000; i++) {
        if (i & 1)
            random_fe(&a), random_fe(&b);
        else
            structured_fe(&a), structured_fe(&b);
        asm_mul(&want, &a, &b);
        asm_mul(&want_aa, &a, &a);
        asm_sqr(&want_sq, &a);
        CHECK(fe_eq(&want_aa, &want_sq), "mul(a, a) == sqr(a)");

        x = a;
        p256_fe_mul_aarch64(x.v, x.v, b.v); /* r == a */
        CHECK(fe_eq(&x, &want), "mul with r == a");
        y = b;
        p256_fe_mul_aarch64(y.v, a.v, y.v); /* r == b */
        CHECK(fe_eq(&y, &want), "mul with r == b");
        p256_fe_mul_aarch64(x.v, a.v, a.v); /* a == b */
        CHECK(fe_eq(&x, &want_aa), "mul with a == b");
        x = a;
        p256_fe_mul_aarch64(x.v, x.v, x.v); /* r == a == b */
        CHECK(fe_eq(&x, &want_aa), "mul with r == a == b");
        x = a;
        p256_fe_sqr_aarch64(x.v, x.v); /* r == a */
        CHECK(fe_eq(&x, &want_sq), "sqr with r == a");
    }
}

/* x = x*y, y = y^2 (then re-seeded from x when y collapses) in both backends. */
static void test_chain(void)
{
    fe xa, ya, xp, yp;
    random_fe(&xa);
    random_fe(&ya);
    xp = xa, yp = ya;
    for (int i = 0; i < 100000; i++) {
        asm_mul(&xa, &xa, &ya);
        asm_sqr(&ya, &ya);
        port_mul(&xp, &xp, &yp);
        port_sqr(&yp, &yp);
        if ((i & 1023) == 1023) {
            CHECK(fe_eq(&xa, &xp) && fe_eq(&ya, &yp), "chain diverged by step %d", i);
            ya.v[0] ^= xa.v[1], yp.v[0] ^= xp.v[1]; /* keep y from settling in a short cycle */
            reduce_p(&ya), reduce_p(&yp);
        }
    }
    CHECK(fe_eq(&xa, &xp) && fe_eq(&ya, &yp), "chain end");
}

int main(int argc, char **argv)
{
    if (argc > 1)
        rng_state = strtoull(argv[1], NULL, 0);
    build_specials();
    test_negative_control();
    test_known_answers();
    test_edges();
    test_random();
    test_forced_results();
    test_aliasing();
    test_chain();
    printf("arm64_backend (fe_mul/fe_sqr aarch64 vs portable vs reference): %ld checks, %ld failures\n",
           checks, failures);
    return failures != 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_core.c: known answers for the field, scalar and group layers (tests/c/core_kat.h,
 * from tools/gen_core_kat.py), plus cross-checks between the three scalar
 * multiplications and between the constant-time and variable-time additions, and the
 * defining properties of verify's wNAF recoding (digits, spacing, sum) on edge and
 * random scalars.
 */
#include "harness.h"
#include "p256.c"

#include "core_kat.h"



static void random_fe_nonzero(p256_fe *r)
{
    uint8_t b[32];
    for (;;) {
        for (int i = 0; i < 32; i++)
            b[i] = (uint8_t)rng64();
        if (p256_fe_from_bytes(r, b) && !p256_fe_mask_is_zero(r))
            return;
    }
}

static void random_scalar(p256_scalar *k)
{
    uint8_t b[32];
    for (int i = 0; i < 32; i++)
        b[i] = (uint8_t)rng64();
    p256_scalar_set_bytes_reduce(k, b);
}

static int fe_equals_bytes(const p256_fe *a, const uint8_t want[32])
{
    uint8_t got[32];
    p256_fe_to_bytes(got, a);
    return memcmp(got, want, 32) == 0;
}

static void test_field(void)
{
    for (size_t i = 0; i < sizeof fe_kats / sizeof fe_kats[0]; i++) {
        const fe_kat *t = &fe_kats[i];
        p256_fe a, b, r, s;
        CHECK(p256_fe_from_bytes(&a, t->a) && p256_fe_from_bytes(&b, t->b), "fe load %zu", i);
        p256_fe_mul(&r, &a, &b);
        CHECK(fe_equals_bytes(&r, t->mul), "fe mul %zu", i);
        p256_fe_sqr(&r, &a);
        CHECK(fe_equals_bytes(&r, t->sqr), "fe sqr %zu", i);
        p256_fe_mul(&r, &a, &a);
        CHECK(fe_equals_bytes(&r, t->sqr), "fe mul(a,a) %zu", i);
        p256_fe_add(&r, &a, &b);
        CHECK(fe_equals_bytes(&r, t->add), "fe add %zu", i);
        p256_fe_sub(&r, &a, &b);
        CHECK(fe_equals_bytes(&r, t->sub), "fe sub %zu", i);
        p256_fe_neg(&r, &a);
        CHECK(fe_equals_bytes(&r, t->neg), "fe neg %zu", i);
        p256_fe_half(&r, &a);
        CHECK(fe_equals_bytes(&r, t->half), "fe half %zu", i);
        for (int k = 0; k < 4; k++) {
            p256_fe_mul_small(&r, &a, fe_kat_small[k]);
            CHECK(fe_equals_bytes(&r, t->small[k]), "fe mul_small(%d) %zu", (int)fe_kat_small[k], i);
        }
        p256_fe_inv(&r, &a);
        CHECK(fe_equals_bytes(&r, t->inv), "fe inv %zu", i);
        p256_fe_inv_vartime(&r, &a);
        CHECK(fe_equals_bytes(&r, t->inv), "fe inv_vartime %zu", i);
        p256_fe_inv_fermat(&r, &a);
        CHECK(fe_equals_bytes(&r, t->inv), "fe inv_fermat %zu", i);
        CHECK((p256_fe_sqrt(&s, &a) != 0) == (t->has_sqrt != 0), "fe sqrt flag %zu", i);
        if (t->has_sqrt)
            CHECK(fe_equals_bytes(&s, t->sqrt), "fe sqrt %zu", i);
        /* aliasing: r = r op r */
        r = a;
        p256_fe_mul(&r, &r, &r);
        CHECK(fe_equals_bytes(&r, t->sqr), "fe mul aliased %zu", i);
        /* round trip and masks */
        CHECK(fe_equals_bytes(&a, t->a), "fe round trip %zu", i);
        CHECK(p256_fe_mask_eq(&a, &a) == ~0ULL, "fe eq %zu", i);
        r = a;
        p256_fe_cmov(&r, &b, 0);
        CHECK(p256_fe_mask_eq(&r, &a) == ~0ULL, "fe cmov 0 %zu", i);
        p256_fe_cmov(&r, &b, ~0ULL);
        CHECK(p256_fe_mask_eq(&r, &b) == ~0ULL, "fe cmov 1 %zu", i);
    }
    {
        /* from_bytes refuses p, p + 1, 2^256 - 1 */
        uint8_t b[32];
        p256_fe r;
        static const uint64_t p[4] = {P256_P0, P256_P1, P256_P2, P256_P3};
        uint64_t l[4];
        memcpy(l, p, sizeof l);
        p256_limbs_to_be32(b, l);
        CHECK(!p256_fe_from_bytes(&r, b), "fe from_bytes(p)");
        l[0] = 0; /* p + 1 */
        l[1] = 0x0000000100000000ULL;
        p256_limbs_to_be32(b, l);
        CHECK(!p256_fe_from_bytes(&r, b), "fe from_bytes(p+1)");
        memset(b, 0xff, 32);
        CHECK(!p256_fe_from_bytes(&r, b), "fe from_bytes(2^256-1)");
        memcpy(l, p, sizeof l); /* p - 1 */
        l[0]--;
        p256_limbs_to_be32(b, l);
        CHECK(p256_fe_from_bytes(&r, b) != 0, "fe from_bytes(p-1)");
    }
}

static void test_scalar(void)
{
    for (size_t i = 0; i < sizeof scalar_kats / sizeof scalar_kats[0]; i++) {
        const scalar_kat *t = &scalar_kats[i];
        p256_scalar a, b, r;
        uint8_t out[32];
        CHECK(p256_scalar_set_bytes_checked(&a, t->a) && p256_scalar_set_bytes_checked(&b, t->b),
              "scalar load %zu", i);
        p256_scalar_mul(&r, &a, &b);
        p256_scalar_to_bytes(out, &r);
        CHECK(memcmp(out, t->mul, 32) == 0, "scalar mul %zu", i);
        p256_scalar_add(&r, &a, &b);
        p256_scalar_to_bytes(out, &r);
        CHECK(memcmp(out, t->add, 32) == 0, "scalar add %zu", i);
        p256_scalar_inv(&r, &a);
        p256_scalar_to_bytes(out, &r);
        CHECK(memcmp(out, t->inv, 32) == 0, "scalar inv %zu", i);
        p256_scalar_inv_vartime(&r, &a);
        p256_scalar_to_bytes(out, &r);
        CHECK(memcmp(out, t->inv, 32) == 0, "scalar inv_vartime %zu", i);
    }
    for (size_t i = 0; i < sizeof reduce_kats / sizeof reduce_kats[0]; i++) {
        const reduce_kat *t = &reduce_kats[i];
        p256_scalar r;
        uint8_t out[32];
        p256_scalar_set_bytes_reduce(&r, t->x);
        p256_scalar_to_bytes(out, &r);
        CHECK(memcmp(out, t->reduced, 32) == 0, "scalar reduce %zu", i);
        CHECK((p256_scalar_set_bytes_checked(&r, t->x) != 0) == (t->in_range != 0),
              "scalar range check %zu", i);
    }
}

/* A Jacobian copy of an affine point with a random Z (or infinity). */
static void randomize_jac(p256_jac *r, const p256_aff *a, int inf)
{
    p256_fe z, z2, z3;
    if (inf) {
        /* infinity has many representations: Z = 0 with arbitrary X, Y */
        random_fe_nonzero(&r->x);
        random_fe_nonzero(&r->y);
        r->z = p256_fe_zero;
        return;
    }
    random_fe_nonzero(&z);
    p256_fe_sqr(&z2, &z);
    p256_fe_mul(&z3, &z2, &z);
    p256_fe_mul(&r->x, &a->x, &z2);
    p256_fe_mul(&r->y, &a->y, &z3);
    r->z = z;
}

static int jac_matches(const p256_jac *p, const add_kat *t)
{
    p256_aff a;
    uint64_t inf = p256_jac_to_aff(&a, p);
    if (t->r_inf)
        return inf != 0;
    return !inf && fe_equals_bytes(&a.x, t->rx) && fe_equals_bytes(&a.y, t->ry);
}

static void test_group_add(void)
{
    for (size_t i = 0; i < sizeof add_kats / sizeof add_kats[0]; i++) {
        const add_kat *t = &add_kats[i];
        p256_aff a, b;
        p256_jac ja, jb, r;
        p256_fe_from_bytes(&a.x, t->ax);
        p256_fe_from_bytes(&a.y, t->ay);
        p256_fe_from_bytes(&b.x, t->bx);
        p256_fe_from_bytes(&b.y, t->by);
        if (!t->a_inf)
            CHECK(p256_aff_mask_on_curve(&a), "kat point a on curve %zu", i);
        for (int rep = 0; rep < 4; rep++) {
            randomize_jac(&ja, &a, t->a_inf);
            randomize_jac(&jb, &b, t->b_inf);
            p256_jac_add(&r, &ja, &jb);
            CHECK(jac_matches(&r, t), "jac_add %zu", i);
            p256_jac_add_aff(&r, &ja, &b, t->b_inf ? ~0ULL : 0);
            CHECK(jac_matches(&r, t), "jac_add_aff %zu", i);
            if (!t->b_inf) {
                p256_jac_add_aff_vartime(&r, &ja, &b);
                CHECK(jac_matches(&r, t), "jac_add_aff_vartime %zu", i);
            }
            /* the incomplete formula, wherever its contract holds (x(a) != x(b) or an
             * input at infinity) */
            if (t->a_inf || t->b_inf || memcmp(t->ax, t->bx, 32) != 0) {
                p256_jac_add_aff_partial(&r, &ja, &b, t->b_inf ? ~0ULL : 0);
                CHECK(jac_matches(&r, t), "jac_add_aff_partial %zu", i);
                r = ja;
                p256_jac_add_aff_partial(&r, &r, &b, t->b_inf ? ~0ULL : 0);
                CHECK(jac_matches(&r, t), "jac_add_aff_partial in place %zu", i);
            }
            /* in place */
            r = ja;
            p256_jac_add(&r, &r, &jb);
            CHECK(jac_matches(&r, t), "jac_add in place %zu", i);
        }
        /* a + a is a doubling: compare with the doubling formula */
        if (memcmp(t->ax, t->bx, 32) == 0 && memcmp(t->ay, t->by, 32) == 0 && !t->a_inf &&
            !t->b_inf) {
            randomize_jac(&ja, &a, 0);
            p256_jac_double(&r, &ja);
            CHECK(jac_matches(&r, t), "jac_double %zu", i);
        }
    }
    {
        /* doubling infinity stays infinity */
        p256_jac inf = {p256_fe_one, p256_fe_one, p256_fe_zero}, r;
        p256_jac_double(&r, &inf);
        CHECK(p256_fe_mask_is_zero(&r.z), "double(inf)");
    }
}

static int jac_equal(const p256_jac *p, const p256_jac *q)
{
    p256_aff a, b;
    uint64_t ia = p256_jac_to_aff(&a, p), ib = p256_jac_to_aff(&b, q);
    if (ia || ib)
        return ia == ib;
    return p256_fe_mask_eq(&a.x, &b.x) && p256_fe_mask_eq(&a.y, &b.y);
}

static void test_ecmult_agree(void)
{
    static const p256_scalar zero = {{0, 0, 0, 0}};
    for (int i = 0; i < 200; i++) {
        p256_scalar k, u1, u2;
        p256_jac r1, r2, r3, sum;
        p256_aff q;
        random_scalar(&k);
        if (i == 0)
            k = zero;
        if (i == 1)
            memset(&k, 0, sizeof k), k.v[0] = 1;
        p256_ecmult_gen(&r1, &k);
        p256_ecmult_const(&r2, &k, &p256_generator);
        p256_ecmult_vartime(&r3, &k, &zero, &p256_generator);
        CHECK(jac_equal(&r1, &r2), "gen vs const %d", i);
        CHECK(jac_equal(&r1, &r3), "gen vs vartime %d", i);

        /* u1 G + u2 Q against the constant-time pieces */
        random_scalar(&u1);
        random_scalar(&u2);
        p256_jac_to_aff(&q, &r1);
        if (i == 0)
            continue;
        p256_ecmult_vartime(&r3, &u1, &u2, &q);
        p256_ecmult_gen(&r1, &u1);
        p256_ecmult_const(&r2, &u2, &q);
        p256_jac_add(&sum, &r1, &r2);
        CHECK(jac_equal(&r3, &sum), "vartime double mult %d", i);
    }
}

/* Whether digits[0..len) is a width-w NAF of k: each digit 0 or odd with |d| < 2^(w-1),
 * a nonzero digit followed by w - 1 zeros, the top one nonzero, nothing at or above len,
 * and sum d_i 2^i == k (summed per 64-bit word in 128 bits, then carried up). */
static int is_wnaf(const int16_t digits[257], int len, const p256_scalar *k, int w)
{
    p256_i128 acc[6] = {0, 0, 0, 0, 0, 0};
    int last = -w;
    if (len < 0 || len > 257 || (len > 0 && digits[len - 1] == 0))
        return 0;
    for (int i = 0; i < 257; i++) {
        const int d = digits[i];
        if (d == 0)
            continue;
        if (i >= len || !(d & 1) || d >= (1 << (w - 1)) || d <= -(1 << (w - 1)) || i - last < w)
            return 0;
        last = i;
        acc[i / 64] += (p256_i128)d * ((p256_i128)1 << (i % 64));
    }
    for (int j = 0; j < 5; j++) { /* normalize: word j in [0, 2^64), the rest carried up */
        p256_i128 lo = (p256_i128)(uint64_t)acc[j];
        acc[j + 1] += (acc[j] - lo) / ((p256_i128)1 << 64);
        acc[j] = lo;
    }
    return acc[4] == 0 && acc[5] == 0 && (uint64_t)acc[0] == k->v[0] && (uint64_t)acc[1] == k->v[1] &&
           (uint64_t)acc[2] == k->v[2] && (uint64_t)acc[3] == k->v[3];
}

/* The recoding of verify's Straus path, for both widths it uses and the extremes. It
 * takes any 256 bits (a scalar >= n included, such as 2^256 - 1 below). */
static void test_wnaf(void)
{
    static const uint64_t edges[][4] = {
        {0, 0, 0, 0},
        {1, 0, 0, 0},
        {~0ULL, ~0ULL, ~0ULL, ~0ULL}, /* runs of ones carry through every word */
        {0, 0, 0, 1ULL << 63},
        {0x5555555555555555ULL, 0xaaaaaaaaaaaaaaaaULL, 0x5555555555555555ULL, 0xaaaaaaaaaaaaaaaaULL},
        {0xf3b9cac2fc632550ULL, 0xbce6faada7179e84ULL, ~0ULL, 0xffffffff00000000ULL}, /* n - 1 */
        {1ULL << 63, 1, 1ULL << 63, 1},
        {~0ULL, 0, ~0ULL, 0},
    };
    const int widths[] = {2, 5, P256_WNAF_G_BITS};
    int16_t digits[257];
    for (int i = 0; i < 2000; i++) {
        p256_scalar k;
        if (i < (int)(sizeof edges / sizeof edges[0]))
            memcpy(k.v, edges[i], sizeof k.v);
        else
            for (int j = 0; j < 4; j++) /* sparse and dense words, some all zero */
                k.v[j] = (i & (1 << j)) ? 0 : rng64() & (i & 16 ? rng64() : ~0ULL);
        for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
            const int len = p256_wnaf_vartime(digits, &k, widths[wi]);
            CHECK(is_wnaf(digits, len, &k, widths[wi]), "wNAF width %d of scalar %d", widths[wi], i);
        }
    }
}

int main(void)
{
    test_field();
    test_scalar();
    test_group_add();
    test_ecmult_agree();
    test_wnaf();
    printf("test_core (%s): %ld checks, %ld failures\n", p256_backend_name(), checks, failures);
    return failures != 0;
}

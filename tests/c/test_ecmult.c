/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_ecmult.c: the constant-time scalar multiplications (comb k*G, ladder k*P of an
 * affine P and of a Jacobian one) on the scalars nearest to their exceptional additions,
 * where the incomplete mixed formula they use would be wrong (ecmult_gen_impl.h and
 * ecmult_const_impl.h argue it never is for k < n):
 *  - known answers from tools/gen_ecmult_kat.py (tests/c/ecmult_kat.h, plain Python
 *    affine arithmetic): k small, near n, k = 2T mod n for the comb's top digits,
 *    window boundaries, runs of zero digits; k*G and k*Q, both ladders;
 *  - every window and extreme digit of both ladders, built here, against the
 *    variable-time Straus path (different digits, tables and formulas);
 *  - the same comb over a per-key table of each width 4..8 (ECDH with a precomputed
 *    peer, ecmult_pubtable.h): every window and extreme digit, against the same path;
 *  - the Lim-Lee comb over a table of one point (ecmult_limlee.h): every column value at
 *    every position, against the same path;
 *  - a hook on every incomplete addition (P256_ECMULT_ADD_PARTIAL) that counts
 *    acc == +-addend with both finite: it must stay 0 for reduced scalars, and it must
 *    fire, and the result go wrong, for the out-of-contract k = n and n + 30 (the
 *    negative control: the hook and the comparison can see the case they guard; k = n
 *    through each width's comb, and k = n and n + 2 (1 + 2^128 + 2^192) through the
 *    Lim-Lee comb).
 */
#include "harness.h"

#include <stdint.h>

/* The hook, declared before the core so the multiplications' additions go through it. */
static void hook_partial(const void *acc, const void *addend, uint64_t addend_inf);
#define P256_ECMULT_ADD_PARTIAL(r, a, b, b_inf)                                         \
    (hook_partial((a), (b), (b_inf)), p256_jac_add_aff_partial((r), (a), (b), (b_inf)))

#include "p256.c"

#include "ecmult_kat.h"

static long meetings; /* incomplete additions with acc == +-addend, both finite */

static void hook_partial(const void *acc_, const void *addend_, uint64_t addend_inf)
{
    const p256_jac *acc = acc_;
    const p256_aff *b = addend_;
    p256_fe zz, u;
    if (addend_inf || p256_fe_mask_is_zero(&acc->z))
        return;
    p256_fe_sqr(&zz, &acc->z);
    p256_fe_mul(&u, &b->x, &zz);
    if (p256_fe_mask_eq(&u, &acc->x))
        meetings++;
}

static void scalar_from_hex(p256_scalar *k, const char *hex)
{
    uint8_t b[32];
    if (unhex(b, 32, hex) != 32 || !p256_scalar_set_bytes_checked(k, b)) {
        fprintf(stderr, "harness: bad scalar %s\n", hex);
        exit(2);
    }
}

/* p matches the known answer (inf, or affine x, y in hex). */
static int jac_is(const p256_jac *p, int inf, const char *x, const char *y)
{
    p256_aff a;
    uint8_t bx[32], by[32], gx[32], gy[32];
    if (p256_jac_to_aff(&a, p))
        return inf;
    if (inf)
        return 0;
    unhex(bx, 32, x);
    unhex(by, 32, y);
    p256_fe_to_bytes(gx, &a.x);
    p256_fe_to_bytes(gy, &a.y);
    return memcmp(gx, bx, 32) == 0 && memcmp(gy, by, 32) == 0;
}

static int jac_same(const p256_jac *p, const p256_jac *q)
{
    p256_aff a, b;
    uint64_t ia = p256_jac_to_aff(&a, p), ib = p256_jac_to_aff(&b, q);
    if (ia || ib)
        return ia == ib;
    return p256_fe_mask_eq(&a.x, &b.x) && p256_fe_mask_eq(&a.y, &b.y);
}

static p256_aff kat_q(void)
{
    p256_aff q;
    uint8_t b[32];
    unhex(b, 32, ecmult_kat_qx);
    p256_fe_from_bytes(&q.x, b);
    unhex(b, 32, ecmult_kat_qy);
    p256_fe_from_bytes(&q.y, b);
    return q;
}

/* q in a Jacobian form with Z = 3 (the ladder of a secret point builds its table from it). */
static p256_jac kat_q_jac(const p256_aff *q)
{
    p256_jac j;
    p256_fe three, t;
    p256_fe_mul_small(&three, &p256_fe_one, 3);
    p256_fe_sqr(&t, &three);
    p256_fe_mul(&j.x, &q->x, &t);
    p256_fe_mul(&t, &t, &three);
    p256_fe_mul(&j.y, &q->y, &t);
    j.z = three;
    return j;
}

static void test_kats(void)
{
    static const p256_scalar zero = {{0, 0, 0, 0}};
    const p256_aff q = kat_q();
    p256_jac r;
    CHECK(p256_aff_mask_on_curve(&q), "Q on the curve");
    for (size_t i = 0; i < sizeof ecmult_kats / sizeof ecmult_kats[0]; i++) {
        const ecmult_kat *t = &ecmult_kats[i];
        p256_scalar k;
        scalar_from_hex(&k, t->k);
        p256_ecmult_gen(&r, &k);
        CHECK(jac_is(&r, t->kg_inf, t->kgx, t->kgy), "gen %s", t->k);
        p256_ecmult_const(&r, &k, &p256_generator);
        CHECK(jac_is(&r, t->kg_inf, t->kgx, t->kgy), "const G %s", t->k);
        p256_ecmult_const(&r, &k, &q);
        CHECK(jac_is(&r, t->kq_inf, t->kqx, t->kqy), "const Q %s", t->k);
        {
            const p256_jac qj = kat_q_jac(&q);
            p256_ecmult_const_jac(&r, &k, &qj);
            CHECK(jac_is(&r, t->kq_inf, t->kqx, t->kqy), "const Q (Jacobian, Z = 3) %s", t->k);
        }
        p256_ecmult_vartime(&r, &k, &zero, &q);
        CHECK(jac_is(&r, t->kg_inf, t->kgx, t->kgy), "vartime G %s", t->k);
        p256_ecmult_vartime(&r, &zero, &k, &q);
        CHECK(jac_is(&r, t->kq_inf, t->kqx, t->kqy), "vartime Q %s", t->k);
    }
    CHECK(meetings == 0, "%ld incomplete additions met acc == +-addend", meetings);
}

/* r = 2^e mod n */
static void scalar_pow2(p256_scalar *r, int e)
{
    p256_scalar two = {{2, 0, 0, 0}};
    *r = (p256_scalar){{1, 0, 0, 0}};
    for (int i = 0; i < e; i++)
        p256_scalar_mul(r, r, &two);
}

static void scalar_small(p256_scalar *r, uint64_t v, int negate)
{
    static const p256_scalar n_minus_1 = {
        {0xf3b9cac2fc632550ULL, 0xbce6faada7179e84ULL, 0xffffffffffffffffULL,
         0xffffffff00000000ULL}};
    *r = (p256_scalar){{v, 0, 0, 0}};
    if (negate)
        p256_scalar_mul(r, r, &n_minus_1);
}

/* gen and const (of G and of Q) against the variable-time path for one k. */
static void check_against_vartime(const p256_scalar *k, const p256_aff *q, const char *what,
                                  int a, int b)
{
    static const p256_scalar zero = {{0, 0, 0, 0}};
    p256_jac r, want;
    p256_ecmult_vartime(&want, k, &zero, q);
    p256_ecmult_gen(&r, k);
    CHECK(jac_same(&r, &want), "gen %s %d %d", what, a, b);
    p256_ecmult_const(&r, k, &p256_generator);
    CHECK(jac_same(&r, &want), "const G %s %d %d", what, a, b);
    p256_ecmult_vartime(&want, &zero, k, q);
    p256_ecmult_const(&r, k, q);
    CHECK(jac_same(&r, &want), "const Q %s %d %d", what, a, b);
    {
        const p256_jac qj = kat_q_jac(q);
        p256_ecmult_const_jac(&r, k, &qj);
        CHECK(jac_same(&r, &want), "const Q (Jacobian) %s %d %d", what, a, b);
    }
}

/* k = +-d 2^(w i) (+ e) for every window i of both ladders and digits at the ends. */
static void test_windows(void)
{
    static const uint64_t digits[] = {1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65};
    const p256_aff q = kat_q();
    for (int w = 5; w <= 7; w += 2) {
        const int windows = w == 7 ? P256_COMB_WINDOWS : P256_CONST_WINDOWS;
        for (int i = 0; i < windows; i++) {
            p256_scalar b, half, k, d, e;
            scalar_pow2(&b, w * i);
            scalar_pow2(&half, w * i > 0 ? w * i - 1 : 0);
            for (size_t j = 0; j < sizeof digits / sizeof digits[0]; j++) {
                for (int neg = 0; neg < 2; neg++) {
                    scalar_small(&d, digits[j], neg);
                    p256_scalar_mul(&k, &d, &b);
                    check_against_vartime(&k, &q, "d 2^(wi)", w * 100 + i, (int)digits[j]);
                    p256_scalar_add(&e, &k, &half);
                    check_against_vartime(&e, &q, "d 2^(wi) + 2^(wi-1)", w * 100 + i,
                                          (int)digits[j]);
                    scalar_small(&e, 1, !neg);
                    p256_scalar_add(&e, &k, &e);
                    check_against_vartime(&e, &q, "d 2^(wi) -+ 1", w * 100 + i, (int)digits[j]);
                }
            }
        }
    }
    CHECK(meetings == 0, "%ld incomplete additions met acc == +-addend", meetings);
}

static void test_random(void)
{
    const p256_aff q = kat_q();
    for (int i = 0; i < 300; i++) {
        p256_scalar k;
        uint8_t b[32];
        for (int j = 0; j < 32; j++)
            b[j] = (uint8_t)rng64();
        p256_scalar_set_bytes_reduce(&k, b);
        check_against_vartime(&k, &q, "random", i, 0);
    }
    CHECK(meetings == 0, "%ld incomplete additions met acc == +-addend", meetings);
}

/* k*Q over a table of each width for k = +-d 2^(w i) (+ 2^(w i - 1), -+ 1): every window,
 * digits at the ends of the range and beyond it (a carry into the next window). */
static void test_pubtable_windows(void)
{
    static const p256_scalar zero = {{0, 0, 0, 0}};
    const p256_aff q = kat_q();
    for (int w = P256_PUBTABLE_MIN_BITS; w <= P256_PUBTABLE_MAX_BITS; w++) {
        const int rows = (257 + w - 1) / w;
        const uint64_t h = 1ULL << (w - 1);
        const uint64_t digits[] = {1, 2, h - 1, h, h + 1, 2 * h - 1, 2 * h, 2 * h + 1};
        p256_pubtable *tab = malloc(p256_pubtable_size_of(w));
        long bad = 0;
        if (tab == NULL)
            exit(2);
        p256_pubtable_build_core_vartime(tab, w, &q);
        for (int i = 0; i < rows; i++) {
            p256_scalar b, half, k, d, e, one;
            scalar_pow2(&b, w * i);
            scalar_pow2(&half, w * i > 0 ? w * i - 1 : 0);
            for (size_t j = 0; j < sizeof digits / sizeof digits[0]; j++) {
                for (int neg = 0; neg < 2; neg++) {
                    p256_scalar ks[3];
                    scalar_small(&d, digits[j], neg);
                    p256_scalar_mul(&k, &d, &b);
                    p256_scalar_add(&e, &k, &half);
                    scalar_small(&one, 1, !neg);
                    ks[0] = k;
                    ks[1] = e;
                    p256_scalar_add(&ks[2], &k, &one);
                    for (int c = 0; c < 3; c++) {
                        p256_jac r, want;
                        p256_ecmult_pubtable(&r, &ks[c], tab);
                        p256_ecmult_vartime(&want, &zero, &ks[c], &q);
                        bad += !jac_same(&r, &want);
                    }
                }
            }
        }
        CHECK(bad == 0, "pubtable comb, bits %d: %ld windows and digits disagree", w, bad);
        free(tab);
    }
    CHECK(meetings == 0, "%ld incomplete additions met acc == +-addend", meetings);
}

/*
 * The Lim-Lee comb (ecmult_limlee.h) over a table built from a Jacobian form of Q: every
 * column holding every nonzero value E (the bits of the four limbs at one position), the
 * same -+ 1 and with every lower column full, limbs of all ones, the ends 0, 1, n - 1,
 * and random scalars, against the variable-time path.
 */
static void test_limlee_columns(void)
{
    static const p256_scalar zero = {{0, 0, 0, 0}};
    static const p256_scalar nm1 = {
        {0xf3b9cac2fc632550ULL, 0xbce6faada7179e84ULL, 0xffffffffffffffffULL,
         0xffffffff00000000ULL}};
    const p256_aff q = kat_q();
    const p256_jac qj = kat_q_jac(&q);
    p256_limlee_table tab;
    long bad = 0, tried = 0;
    p256_scalar ks[4];
    p256_jac r, want;

    p256_limlee_build_vartime(&tab, &qj);
    for (int i = 0; i < P256_LIMLEE_SPACING; i++) {
        for (uint64_t e = 1; e <= P256_LIMLEE_ENTRIES; e++) {
            p256_scalar one;
            for (int j = 0; j < 4; j++) {
                ks[0].v[j] = ((e >> j) & 1) << i;
                ks[3].v[j] = ks[0].v[j] | ((1ULL << i) - 1); /* the columns below full */
            }
            if (e & 8 && i == 63) /* all ones in limb 3 would be n or more */
                ks[3].v[3] = 0xfffffffeffffffffULL;
            scalar_small(&one, 1, 0);
            p256_scalar_add(&ks[1], &ks[0], &one);
            scalar_small(&one, 1, 1);
            p256_scalar_add(&ks[2], &ks[0], &one);
            for (int c = 0; c < 4; c++, tried++) {
                p256_ecmult_limlee(&r, &ks[c], &tab);
                p256_ecmult_vartime(&want, &zero, &ks[c], &q);
                bad += !jac_same(&r, &want);
            }
        }
    }
    ks[0] = zero;
    ks[1] = nm1;
    scalar_small(&ks[2], 1, 0);
    ks[3].v[0] = ks[3].v[1] = ks[3].v[2] = ~0ULL;
    ks[3].v[3] = 0x7fffffffffffffffULL;
    for (int c = 0; c < 4; c++, tried++) {
        p256_ecmult_limlee(&r, &ks[c], &tab);
        p256_ecmult_vartime(&want, &zero, &ks[c], &q);
        bad += !jac_same(&r, &want);
    }
    for (int i = 0; i < 200; i++, tried++) {
        uint8_t b[32];
        for (int j = 0; j < 32; j++)
            b[j] = (uint8_t)rng64();
        p256_scalar_set_bytes_reduce(&ks[0], b);
        p256_ecmult_limlee(&r, &ks[0], &tab);
        p256_ecmult_vartime(&want, &zero, &ks[0], &q);
        bad += !jac_same(&r, &want);
    }
    CHECK(bad == 0, "Lim-Lee comb: %ld of %ld products disagree", bad, tried);
    CHECK(meetings == 0, "%ld incomplete additions met acc == +-addend", meetings);
}

/*
 * Negative control: scalars out of the contract (>= n, which p256_scalar never holds)
 * that the argument says do meet: k = n (acc == -T at the last addition of either
 * ladder) and k = n + 30 (acc == T at the ladder's last addition, a doubling that the
 * incomplete formula gets wrong). The hook must count them, and n + 30 must come out
 * wrong, so a zero count above and the comparisons mean something.
 */
static void test_negative_control(void)
{
    static const p256_scalar n = {
        {0xf3b9cac2fc632551ULL, 0xbce6faada7179e84ULL, 0xffffffffffffffffULL,
         0xffffffff00000000ULL}};
    static const p256_scalar zero = {{0, 0, 0, 0}};
    const p256_aff q = kat_q();
    p256_scalar k = n, thirty = {{30, 0, 0, 0}};
    p256_jac r, want;
    long before;

    before = meetings;
    p256_ecmult_gen(&r, &k);
    CHECK(meetings == before + 1, "negative control: gen(n) met %ld times", meetings - before);
    before = meetings;
    p256_ecmult_const(&r, &k, &q);
    CHECK(meetings == before + 1, "negative control: const(n) met %ld times", meetings - before);

    for (int w = P256_PUBTABLE_MIN_BITS; w <= P256_PUBTABLE_MAX_BITS; w++) {
        p256_pubtable *tab = malloc(p256_pubtable_size_of(w));
        if (tab == NULL)
            exit(2);
        p256_pubtable_build_core_vartime(tab, w, &q);
        before = meetings;
        p256_ecmult_pubtable(&r, &k, tab);
        CHECK(meetings == before + 1, "negative control: pubtable %d (n) met %ld times", w,
              meetings - before);
        free(tab);
    }

    {
        /* the comb: n meets acc == -T at column 0; n + 2 (1 + 2^128 + 2^192), whose column 0
         * is that same 1 + 2^128 + 2^192, meets acc == T there and comes out wrong */
        static const p256_scalar twice_col = {{2, 0, 2, 2}};
        const p256_jac qj = kat_q_jac(&q);
        p256_limlee_table tab;
        p256_scalar k2 = n;
        p256_limlee_build_vartime(&tab, &qj);
        before = meetings;
        p256_ecmult_limlee(&r, &k, &tab);
        CHECK(meetings == before + 1, "negative control: Lim-Lee (n) met %ld times",
              meetings - before);
        k2.v[0] += 2;         /* no carry */
        k2.v[2] = 1;          /* 2^64 - 1 + 2 = 2^64 + 1: a carry into limb 3 */
        k2.v[3] += 2 + 1;
        before = meetings;
        p256_ecmult_limlee(&r, &k2, &tab);
        CHECK(meetings == before + 1, "negative control: Lim-Lee (n + 2 E) met %ld times",
              meetings - before);
        p256_ecmult_vartime(&want, &zero, &twice_col, &q);
        CHECK(!jac_same(&r, &want), "negative control: Lim-Lee (n + 2 E) came out right");
    }

    k.v[0] += 30; /* n + 30, no carry */
    before = meetings;
    p256_ecmult_const(&r, &k, &q);
    CHECK(meetings == before + 1, "negative control: const(n + 30) met %ld times",
          meetings - before);
    p256_ecmult_vartime(&want, &zero, &thirty, &q);
    CHECK(!jac_same(&r, &want), "negative control: const(n + 30) came out right (30 Q)");
    printf("negative control: k = n, n + 30 and (Lim-Lee) n + 2 (1 + 2^128 + 2^192) meet acc == "
           "+-T (%s), n + 30 and n + 2 (...) give wrong points, as expected\n",
           meetings == 10 ? "counted" : "NOT counted");
    meetings = 0;
}

int main(void)
{
    test_kats();
    test_windows();
    test_random();
    test_pubtable_windows();
    test_limlee_columns();
    test_negative_control();
    printf("test_ecmult (%s): %ld checks, %ld failures\n", p256_backend_name(), checks,
           failures);
    return failures != 0;
}

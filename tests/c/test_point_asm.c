/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_point_asm.c: the assembly point formulas (group_asm.h) against their C twins in
 * group_impl.h, limb for limb: random points at random Z, every input at infinity,
 * a == b and a == -b (where the contract covers them), the unified formula's degenerate
 * pairs, doublings that reach the rare paths of the small-multiple reduction, Z = 1, and
 * every aliasing of r with the inputs. Built once per variant (the Makefile's ctest); a variant without
 * assembly point formulas reports SKIP. POINT_ASM_ROUNDS sets the random rounds.
 */
#include "harness.h"
#include "p256.c"

#include <stdlib.h>

#if defined(P256_ASM_POINT)

static void random_fe(p256_fe *r)
{
    uint8_t b[32];
    do {
        for (int i = 0; i < 32; i++)
            b[i] = (uint8_t)rng64();
    } while (!p256_fe_from_bytes(r, b) || p256_fe_mask_is_zero(r));
}

/* A random point (k*G, k random), affine. */
static void random_aff(p256_aff *r)
{
    p256_scalar k;
    p256_jac j;
    uint8_t b[32];
    for (int i = 0; i < 32; i++)
        b[i] = (uint8_t)rng64();
    p256_scalar_set_bytes_reduce(&k, b);
    p256_ecmult_gen(&j, &k);
    if (p256_jac_to_aff(r, &j))
        *r = p256_generator; /* k = 0: vanishingly rare */
}

/* a at a random Z (or Z = 1, or infinity with arbitrary X, Y). */
static void lift(p256_jac *r, const p256_aff *a, int kind)
{
    p256_fe z, z2, z3;
    if (kind == 2) {
        random_fe(&r->x);
        random_fe(&r->y);
        r->z = p256_fe_zero;
        return;
    }
    if (kind == 1) {
        p256_jac_from_aff(r, a);
        return;
    }
    random_fe(&z);
    p256_fe_sqr(&z2, &z);
    p256_fe_mul(&z3, &z2, &z);
    p256_fe_mul(&r->x, &a->x, &z2);
    p256_fe_mul(&r->y, &a->y, &z3);
    r->z = z;
}

static int same(const p256_jac *a, const p256_jac *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* One input pair through all four formulas, with every aliasing the contract allows. */
static void check_pair(const p256_jac *a, const p256_jac *b, const p256_aff *baff, uint64_t b_inf,
                       int partial_ok, const char *what)
{
    p256_jac want, got;

    p256_jac_double_c(&want, a);
    p256_jac_double(&got, a);
    CHECK(same(&got, &want), "jac_double %s", what);
    got = *a;
    p256_jac_double(&got, &got);
    CHECK(same(&got, &want), "jac_double r == a %s", what);

    p256_jac_add_c(&want, a, b);
    p256_jac_add(&got, a, b);
    CHECK(same(&got, &want), "jac_add %s", what);
    got = *a;
    p256_jac_add(&got, &got, b);
    CHECK(same(&got, &want), "jac_add r == a %s", what);
    got = *b;
    p256_jac_add(&got, a, &got);
    CHECK(same(&got, &want), "jac_add r == b %s", what);
    p256_jac_add_c(&want, a, a);
    got = *a;
    p256_jac_add(&got, &got, &got);
    CHECK(same(&got, &want), "jac_add r == a == b %s", what);

    p256_jac_add_aff_c(&want, a, baff, b_inf);
    p256_jac_add_aff(&got, a, baff, b_inf);
    CHECK(same(&got, &want), "jac_add_aff %s", what);
    got = *a;
    p256_jac_add_aff(&got, &got, baff, b_inf);
    CHECK(same(&got, &want), "jac_add_aff r == a %s", what);

    if (partial_ok) {
        p256_jac_add_aff_partial_c(&want, a, baff, b_inf);
        p256_jac_add_aff_partial(&got, a, baff, b_inf);
        CHECK(same(&got, &want), "jac_add_aff_partial %s", what);
        got = *a;
        p256_jac_add_aff_partial(&got, &got, baff, b_inf);
        CHECK(same(&got, &want), "jac_add_aff_partial r == a %s", what);
    }
}

/*
 * The unified formula's one degenerate case (group_impl.h): y1 = -y2 with x1 != x2 and
 * x1^2 + x1 x2 + x2^2 + a = 0, where M = S1 + S2 and R both vanish. For a point (x1, y1)
 * the other roots of x^3 - 3x + b = y1^2 solve x^2 + x1 x + x1^2 - 3 = 0, so
 * x2 = (-x1 + sqrt(12 - 3 x1^2)) / 2 when that is a square, and (x2, -y1) is on the
 * curve. Returns 0 if x1 has no such partner.
 */
static int degenerate_partner(p256_aff *r, const p256_aff *a)
{
    p256_fe t, u, s;
    p256_fe_sqr(&t, &a->x);
    p256_fe_mul_small(&t, &t, 3);
    p256_fe_mul_small(&u, &p256_fe_one, 12);
    p256_fe_sub(&t, &u, &t);
    if (!p256_fe_sqrt(&s, &t))
        return 0;
    p256_fe_sub(&t, &s, &a->x);
    p256_fe_half(&r->x, &t);
    p256_fe_neg(&r->y, &a->y);
    return !p256_fe_mask_eq(&r->x, &a->x);
}

/* The degenerate pairs at random Z through every formula, and the C's answer checked
 * against the textbook chord addition (so the inputs really are degenerate and right). */
static void check_degenerate(int reps)
{
    int found = 0;
    while (found < reps) {
        p256_aff pa, pb, want, got;
        p256_jac a, b, sum, ref;
        p256_fe m, rr;
        random_aff(&pa);
        if (!degenerate_partner(&pb, &pa))
            continue;
        found++;
        CHECK(p256_aff_mask_on_curve(&pb) != 0, "degenerate partner on the curve");
        p256_fe_add(&m, &pa.y, &pb.y);
        p256_fe_sqr(&rr, &pa.x);
        p256_fe_mul(&got.x, &pa.x, &pb.x);
        p256_fe_add(&rr, &rr, &got.x);
        p256_fe_sqr(&got.x, &pb.x);
        p256_fe_add(&rr, &rr, &got.x);
        p256_fe_mul_small(&got.x, &p256_fe_one, 3);
        p256_fe_sub(&rr, &rr, &got.x);
        CHECK(p256_fe_mask_is_zero(&m) && p256_fe_mask_is_zero(&rr), "degenerate: M = R = 0");
        for (int ka = 0; ka < 2; ka++) {
            for (int kb = 0; kb < 2; kb++) {
                lift(&a, &pa, ka);
                lift(&b, &pb, kb);
                check_pair(&a, &b, &pb, 0, 1, "degenerate");
                check_pair(&b, &a, &pa, 0, 1, "degenerate swapped");
                p256_jac_add_c(&sum, &a, &b);
                p256_jac_add_aff_vartime(&ref, &a, &pb);
                p256_jac_to_aff(&got, &sum);
                p256_jac_to_aff(&want, &ref);
                CHECK(memcmp(&got, &want, sizeof got) == 0, "degenerate: C sum is the chord sum");
            }
        }
    }
}

/*
 * Doublings whose 4 beta and 8 gamma^2 (a shift with one reduction in the assembly) land
 * on the reduction's rare paths, which random inputs reach with probability ~2^-32:
 * 2^s v in [p, 2^256) (the final subtraction) and 2^s v = h 2^256 + (just below 2^256)
 * for h >= 1 (a fifth word after adding h (2^256 - p)). v is set as raw limbs:
 * v = ((h + 1) 2^256 - 1 - d) >> s for small d. beta = X when Y = 1 (gamma = 1), and
 * gamma^2 = v when Y is a fourth root of v (x^4 and x^2 have the same image, p = 3 mod 4).
 */
static void check_shift_edges(void)
{
    int hit[2] = {0, 0};
    for (int s = 2; s <= 3; s++) {
        for (uint64_t h = 0; h + 1 < (1ULL << s); h++) {
            for (int i = 0; i < 24; i++) {
                const uint64_t d = (uint64_t)i * (rng64() >> 32);
                const uint64_t w0 = ~0ULL - d;
                p256_fe v, r1, y, g;
                p256_jac a, want, got;
                v.v[0] = (w0 >> s) | (~0ULL << (64 - s));
                v.v[1] = ~0ULL;
                v.v[2] = ~0ULL;
                v.v[3] = (~0ULL >> s) | (h << (64 - s));
                if (v.v[3] > 0xffffffff00000001ULL - 1)
                    continue; /* v >= p: not a field element */
                random_fe(&a.z);
                if (s == 2) {
                    a.x = v;
                    a.y = p256_fe_one;
                } else {
                    if (!p256_fe_sqrt(&r1, &v))
                        continue;
                    if (!p256_fe_sqrt(&y, &r1)) {
                        p256_fe_neg(&r1, &r1);
                        CHECK(p256_fe_sqrt(&y, &r1) != 0, "fourth root");
                    }
                    p256_fe_sqr(&g, &y);
                    p256_fe_sqr(&g, &g);
                    CHECK(memcmp(&g, &v, sizeof g) == 0, "gamma^2 == v");
                    random_fe(&a.x);
                    a.y = y;
                }
                hit[s - 2]++;
                p256_jac_double_c(&want, &a);
                p256_jac_double(&got, &a);
                CHECK(same(&got, &want), "jac_double shift edge s=%d h=%d", s, (int)h);
                got = a;
                p256_jac_double(&got, &got);
                CHECK(same(&got, &want), "jac_double r == a shift edge s=%d h=%d", s, (int)h);
            }
        }
    }
    CHECK(hit[0] >= 48 && hit[1] >= 24, "shift edges reached (%d, %d)", hit[0], hit[1]);
}

int main(void)
{
    const char *env = getenv("POINT_ASM_ROUNDS");
    const long rounds = env != NULL ? atol(env) : 100000;
    p256_aff pa, pb, nb;
    p256_jac a, b;

    for (long i = 0; i < rounds; i++) {
        random_aff(&pa);
        random_aff(&pb);
        lift(&a, &pa, (int)(i % 7 == 3));
        lift(&b, &pb, (int)(i % 5 == 1));
        check_pair(&a, &b, &pb, 0, 1, "random");
    }
    /* the exceptional cases of each formula, at several Z */
    for (int rep = 0; rep < 64; rep++) {
        random_aff(&pa);
        p256_aff_cneg(&nb, &pa, ~0ULL);
        for (int ka = 0; ka < 3; ka++) {
            for (int kb = 0; kb < 3; kb++) {
                lift(&a, &pa, ka);
                lift(&b, &pa, kb);
                /* a == b: the partial formula excludes it unless an input is infinity */
                check_pair(&a, &b, &pa, kb == 2 ? ~0ULL : 0, ka == 2 || kb == 2, "a == b");
                lift(&b, &nb, kb);
                check_pair(&a, &b, &nb, kb == 2 ? ~0ULL : 0, ka == 2 || kb == 2, "a == -b");
                random_aff(&pb);
                lift(&b, &pb, kb);
                check_pair(&a, &b, &pb, kb == 2 ? ~0ULL : 0, 1, "b at infinity or not");
            }
        }
        /* the affine operand masked as infinity whatever its coordinates */
        lift(&a, &pa, 0);
        check_pair(&a, &a, &pa, ~0ULL, 1, "b_inf with b == a");
    }
    check_degenerate(32);
    check_shift_edges();
    printf("test_point_asm (%s): %ld checks, %ld failures\n", p256_backend_name(), checks,
           failures);
    return failures != 0;
}

#else

int main(void)
{
    printf("test_point_asm (%s): SKIP: no assembly point formulas in this variant\n",
           p256_backend_name());
    return 0;
}

#endif

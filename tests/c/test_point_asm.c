/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_point_asm.c: the assembly point formulas (group_asm.h) against their C twins in
 * group_impl.h, limb for limb: random points at random Z, every input at infinity,
 * a == b and a == -b (where the contract covers them), the complete formulas' degenerate
 * branch (degenerate_pair), doublings that reach the rare paths of the small-multiple
 * reduction, Z = 1, and every aliasing of r with the inputs; on x86-64 also the ABI
 * (callee-saved registers, nothing written around r). On x86-64 all of it for each
 * schedule of the Montgomery step (asm.h). Built once per variant (the
 * Makefile's ctest, and test-arm64 under qemu); a variant without
 * assembly point formulas reports SKIP. 10^5 random rounds at P256_TEST_ITERS=100
 * (harness.h).
 */
#include "harness.h"
#include "p256.c"

#include <stdlib.h>

#if defined(P256_ASM_HAS_JAC_DOUBLE) && defined(P256_ASM_HAS_JAC_ADD) && \
    defined(P256_ASM_HAS_JAC_ADD_AFF) && defined(P256_ASM_HAS_JAC_ADD_AFF_PARTIAL)

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

/*
 * A pair on which the complete additions take their masked degenerate branch (M = R = 0
 * in group_impl.h's unified core): y2 = -y1 with x1 != x2 and x1^2 + x1 x2 + x2^2 = 3,
 * i.e. x2 = (-x1 +- sqrt(12 - 3 x1^2)) / 2; then x2^3 - 3 x2 = x1^3 - 3 x1, so
 * (x2, -y1) is on the curve. Random pairs never reach this branch.
 */
static void degenerate_pair(p256_aff *p1, p256_aff *p2)
{
    p256_fe d, s, t;
    for (;;) {
        random_aff(p1);
        p256_fe_sqr(&t, &p1->x);
        p256_fe_mul_small(&t, &t, 3);
        p256_fe_mul_small(&d, &p256_fe_one, 12);
        p256_fe_sub(&d, &d, &t);
        if (!p256_fe_sqrt(&s, &d))
            continue;
        p256_fe_sub(&t, &s, &p1->x);
        p256_fe_half(&p2->x, &t);
        if (p256_fe_mask_eq(&p2->x, &p1->x))
            continue;
        p256_fe_neg(&p2->y, &p1->y);
        return;
    }
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
    /* runs of doublings (5: one window of ECDH; 0: r = a), from a and in place */
    static const int runs[] = {0, 1, 2, 5, 7};
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        const int n = runs[k];
        want = *a;
        for (int i = 0; i < n; i++)
            p256_jac_double_c(&want, &want);
        p256_jac_double_n(&got, a, n);
        CHECK(same(&got, &want), "jac_double_n n=%d %s", n, what);
        got = *a;
        p256_jac_double_n(&got, &got, n);
        CHECK(same(&got, &want), "jac_double_n n=%d r == a %s", n, what);
    }

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

    /* the vartime mixed addition: the asm partial formula, the C for its exceptions */
    if (!b_inf) {
        p256_jac_add_aff_vartime_c(&want, a, baff);
        p256_jac_add_aff_vartime(&got, a, baff);
        CHECK(same(&got, &want), "jac_add_aff_vartime %s", what);
        got = *a;
        p256_jac_add_aff_vartime(&got, &got, baff);
        CHECK(same(&got, &want), "jac_add_aff_vartime r == a %s", what);
    }

    if (partial_ok) {
        p256_jac_add_aff_partial_c(&want, a, baff, b_inf);
        p256_jac_add_aff_partial(&got, a, baff, b_inf);
        CHECK(same(&got, &want), "jac_add_aff_partial %s", what);
        got = *a;
        p256_jac_add_aff_partial(&got, &got, baff, b_inf);
        CHECK(same(&got, &want), "jac_add_aff_partial r == a %s", what);
    }
}

#if defined(P256_ASM_X86_64_ADX)
/*
 * SysV ABI: fn(r, a, b, b_inf) called with sentinels in the callee-saved registers (rbx,
 * rbp, r12-r15), whose values afterwards go to saved[6].
 */
void point_abi_call(void (*fn)(void), void *r, const void *a, const void *b, uint64_t b_inf,
                    uint64_t saved[6]);
__asm__(".text\n"
        ".globl point_abi_call\n"
        ".type point_abi_call, @function\n"
        "point_abi_call:\n"
        "    pushq %rbx\n    pushq %rbp\n    pushq %r12\n    pushq %r13\n    pushq %r14\n"
        "    pushq %r15\n    pushq %r9\n" /* 7 pushes after the call: rsp 16-byte aligned */
        "    movq %rdi, %rax\n    movq %rsi, %rdi\n    movq %rdx, %rsi\n"
        "    movq %rcx, %rdx\n    movq %r8, %rcx\n"
        "    movabsq $0x1111111111111111, %rbx\n    movabsq $0x2222222222222222, %rbp\n"
        "    movabsq $0x3333333333333333, %r12\n    movabsq $0x4444444444444444, %r13\n"
        "    movabsq $0x5555555555555555, %r14\n    movabsq $0x6666666666666666, %r15\n"
        "    call *%rax\n"
        "    popq %r9\n"
        "    movq %rbx, 0(%r9)\n    movq %rbp, 8(%r9)\n    movq %r12, 16(%r9)\n"
        "    movq %r13, 24(%r9)\n    movq %r14, 32(%r9)\n    movq %r15, 40(%r9)\n"
        "    popq %r15\n    popq %r14\n    popq %r13\n    popq %r12\n    popq %rbp\n"
        "    popq %rbx\n    ret\n"
        ".size point_abi_call, .-point_abi_call\n");

/* Each function through point_abi_call: registers preserved, r right, nothing written
 * around r (guard words). */
static void check_abi(const p256_jac *a, const p256_jac *b, const p256_aff *baff)
{
    static const uint64_t want[6] = {0x1111111111111111ULL, 0x2222222222222222ULL,
                                     0x3333333333333333ULL, 0x4444444444444444ULL,
                                     0x5555555555555555ULL, 0x6666666666666666ULL};
    struct {
        uint64_t pre[4];
        p256_jac r;
        uint64_t post[4];
    } g;
    uint64_t saved[6], guard[4];
    p256_jac expect[5];
    /* both schedules (asm.h), each function named directly */
    void (*fns[2][5])(void) = {{(void (*)(void))P256_ASM_FN(jac_double),
                                (void (*)(void))P256_ASM_FN(jac_add),
                                (void (*)(void))P256_ASM_FN(jac_add_aff),
                                (void (*)(void))P256_ASM_FN(jac_add_aff_partial),
                                (void (*)(void))P256_ASM_FN(jac_double_n)},
                               {(void (*)(void))P256_ASM_MULX_FN(jac_double),
                                (void (*)(void))P256_ASM_MULX_FN(jac_add),
                                (void (*)(void))P256_ASM_MULX_FN(jac_add_aff),
                                (void (*)(void))P256_ASM_MULX_FN(jac_add_aff_partial),
                                (void (*)(void))P256_ASM_MULX_FN(jac_double_n)}};
    /* the third argument: b, or the doubling count n = 3 for jac_double_n */
    const void *second[5] = {NULL, b, baff, baff, (const void *)(uintptr_t)3};

    p256_jac_double_c(&expect[0], a);
    p256_jac_add_c(&expect[1], a, b);
    p256_jac_add_aff_c(&expect[2], a, baff, 0);
    p256_jac_add_aff_partial_c(&expect[3], a, baff, 0);
    p256_jac_double_c(&expect[4], a);
    p256_jac_double_c(&expect[4], &expect[4]);
    p256_jac_double_c(&expect[4], &expect[4]);
    memset(guard, 0xa5, sizeof guard);
    for (int k = 0; k < 2; k++) {
        for (int f = 0; f < 5; f++) {
            memset(&g, 0xa5, sizeof g);
            point_abi_call(fns[k][f], &g.r, a, second[f], 0, saved);
            CHECK(memcmp(saved, want, sizeof want) == 0,
                  "point fn %d (schedule %d) preserves rbx, rbp, r12-r15", f, k);
            CHECK(same(&g.r, &expect[f]), "point fn %d (schedule %d) through the ABI check", f, k);
            CHECK(memcmp(g.pre, guard, sizeof guard) == 0 &&
                      memcmp(g.post, guard, sizeof guard) == 0,
                  "point fn %d (schedule %d) writes only r", f, k);
        }
    }
}
#endif

/* Every check, through group_impl.h's dispatch: the schedule p256_cpu_has chooses. */
static void check_all(void)
{
    const long rounds = harness_iters(100000);
    p256_aff pa, pb, nb;
    p256_jac a, b;

    for (long i = 0; i < rounds; i++) {
        random_aff(&pa);
        random_aff(&pb);
        lift(&a, &pa, (int)(i % 7 == 3));
        lift(&b, &pb, (int)(i % 5 == 1));
#if defined(P256_ASM_X86_64_ADX)
        if (i < 1000) /* first: a clobbered register breaks the C around a direct call */
            check_abi(&a, &b, &pb);
#endif
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
        /* the unified formula's degenerate case (the masked chord-slope fallback) */
        {
            p256_aff d1, d2, sum_aff, want_aff;
            p256_jac sum, want;
            degenerate_pair(&d1, &d2);
            CHECK(p256_aff_mask_on_curve(&d2) != 0, "degenerate pair on the curve");
            for (int ka = 0; ka < 2; ka++) {
                for (int kb = 0; kb < 2; kb++) {
                    lift(&a, &d1, ka);
                    lift(&b, &d2, kb);
                    check_pair(&a, &b, &d2, 0, 1, "degenerate (y1 = -y2, R = 0)");
                    check_pair(&b, &a, &d1, 0, 1, "degenerate swapped");
                }
            }
            /* and the asm's sum is the right point (x1 != x2: the textbook formula) */
            lift(&a, &d1, 0);
            p256_jac_add_aff(&sum, &a, &d2, 0);
            p256_jac_add_aff_vartime(&want, &a, &d2);
            CHECK(!p256_jac_to_aff(&sum_aff, &sum), "degenerate sum finite");
            p256_jac_to_aff(&want_aff, &want);
            CHECK(memcmp(&sum_aff, &want_aff, sizeof sum_aff) == 0, "degenerate sum");
        }
        /* the affine operand masked as infinity whatever its coordinates */
        lift(&a, &pa, 0);
        check_pair(&a, &a, &pa, ~0ULL, 1, "b_inf with b == a");
    }
}

int main(void)
{
#if defined(P256_ASM_MULX_FN)
    /* x86-64: each schedule of the Montgomery step in turn, whichever this CPU prefers;
     * then its own choice again, for the harnesses run_core runs after this one */
    const int mulx = p256_cpu_has(P256_CPU_MULX_STEP);
    p256_cpu_set_mulx_step(0);
    check_all();
    p256_cpu_set_mulx_step(1);
    CHECK(p256_cpu_has(P256_CPU_MULX_STEP), "the MULX schedule can be chosen");
    check_all();
    p256_cpu_set_mulx_step(mulx);
    CHECK(p256_cpu_has(P256_CPU_MULX_STEP) == mulx, "this CPU's choice is back");
    printf("test_point_asm (%s, shift and MULX steps; this CPU's choice: %s): %ld checks, "
           "%ld failures\n", p256_backend_name(), mulx ? "MULX" : "shift", checks, failures);
#else
    check_all();
    printf("test_point_asm (%s): %ld checks, %ld failures\n", p256_backend_name(), checks,
           failures);
#endif
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

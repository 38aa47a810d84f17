/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_backend.c: every function of an assembly field backend against the portable C
 * and against an independent textbook Montgomery reduction (REDC with the generic
 * m = t * (-p^-1 mod 2^64), full multiplication by p), plus the variant-selection logic
 * of csrc/backend.c.
 *
 * Built by `make ctest` per variant: plain (no assembly: only the selection logic and the
 * oracle self-check run) and, on x86-64, with -DP256_ASM_X86_64_ADX and
 * csrc/asm/field_x86_64.S. The assembly is run only if the CPU has what it needs
 * (otherwise a SKIP line says so).
 *
 * For mul and sqr: edge values (0, 1, 2, p-1, p-2, reductions of values near 2^256-1,
 * R, R^2, R^3 mod p, limb patterns) in every pair; 200,000 random inputs from several
 * distributions; inputs chosen so that the product is a given value (1, p-1, small,
 * near p, ...); every aliasing of r, a and b; no write outside r; the callee-saved
 * registers of the SysV ABI preserved. The oracle also reports how often the value
 * before the final subtraction was >= p, and the test requires both outcomes to occur.
 */
#define HARNESS_RNG_SEED 0x243F6A8885A308D3ULL
#include "harness.h"
#include "field_impl.h"
#include "cpu.h"

#define P256_BACKEND_CHOOSE_ONLY
#include "backend.c" /* csrc/backend.c (via -Icsrc) */



static const uint64_t P[4] = {P256_P0, P256_P1, P256_P2, P256_P3};


/* ---- The oracle: schoolbook product and textbook REDC, variable time (test only). ---- */

static int geq(const uint64_t *a, const uint64_t *b, int n)
{
    for (int i = n - 1; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] > b[i];
    return 1;
}

static void sub_p(uint64_t a[4])
{
    p256_u128 borrow = 0;
    for (int i = 0; i < 4; i++) {
        p256_u128 d = (p256_u128)a[i] - P[i] - borrow;
        a[i] = (uint64_t)d;
        borrow = (d >> 64) & 1;
    }
}

/* Any 4-word value -> value mod p (2^256 < 2p: at most one subtraction). */
static void reduce_p(uint64_t a[4])
{
    if (geq(a, P, 4))
        sub_p(a);
}

static uint64_t n0; /* -p^-1 mod 2^64, computed by Newton's iteration in main */

static void oracle_mul(uint64_t r[4], int *ge_p, const uint64_t a[4], const uint64_t b[4])
{
    uint64_t t[9] = {0};
    for (int i = 0; i < 4; i++) {
        uint64_t c = 0;
        for (int j = 0; j < 4; j++) {
            p256_u128 s = (p256_u128)a[i] * b[j] + t[i + j] + c;
            t[i + j] = (uint64_t)s;
            c = (uint64_t)(s >> 64);
        }
        t[i + 4] = c;
    }
    /* REDC: t = (t + m*p) / 2^256 word by word, m = t_i * n0. */
    for (int i = 0; i < 4; i++) {
        uint64_t m = t[i] * n0, c = 0;
        for (int j = 0; j < 4; j++) {
            p256_u128 s = (p256_u128)m * P[j] + t[i + j] + c;
            t[i + j] = (uint64_t)s;
            c = (uint64_t)(s >> 64);
        }
        for (int k = i + 4; k < 9 && c; k++) {
            p256_u128 s = (p256_u128)t[k] + c;
            t[k] = (uint64_t)s;
            c = (uint64_t)(s >> 64);
        }
    }
    /* t[4..8] < 2p */
    *ge_p = t[8] != 0 || geq(t + 4, P, 4);
    memcpy(r, t + 4, 32);
    if (*ge_p)
        sub_p(r);
}

/* ---- Inputs ---- */

static const uint64_t limb_patterns[] = {
    0, 1, 2, 0xffffffffffffffffULL, 0xfffffffffffffffeULL, 0x00000000ffffffffULL,
    0x0000000100000000ULL, 0xffffffff00000000ULL, 0xffffffff00000001ULL, 0x8000000000000000ULL,
    0x7fffffffffffffffULL, 0x00000000fffffffeULL,
};
#define N_PATTERNS (sizeof limb_patterns / sizeof limb_patterns[0])

/* A random input < p from one of several distributions. */
static void random_input(uint64_t a[4])
{
    unsigned kind = (unsigned)(rng64() % 8);
    for (int i = 0; i < 4; i++)
        a[i] = rng64();
    switch (kind) {
    case 0: /* limbs from the patterns */
        for (int i = 0; i < 4; i++)
            a[i] = limb_patterns[rng64() % N_PATTERNS];
        break;
    case 1: /* patterns and random limbs mixed */
        for (int i = 0; i < 4; i++)
            if (rng64() & 1)
                a[i] = limb_patterns[rng64() % N_PATTERNS];
        break;
    case 2: { /* p - small */
        uint64_t k = rng64() % 1024;
        memcpy(a, P, 32);
        a[0] -= k + 1; /* p0 = 2^64 - 1: no borrow */
        break;
    }
    case 3: /* small */
        a[1] = a[2] = a[3] = 0;
        a[0] &= 0xffff;
        break;
    case 4: /* near 2^256 - 1 before reduction */
        a[3] = a[2] = 0xffffffffffffffffULL;
        break;
    default: /* uniform 256-bit, reduced */
        break;
    }
    reduce_p(a);
}

/* Edge values, each < p. */
#define N_EDGES 32
static uint64_t edges[N_EDGES][4];

static void make_edges(void)
{
    int n = 0;
    uint64_t t[4];
#define EDGE(w0, w1, w2, w3) (t[0] = (w0), t[1] = (w1), t[2] = (w2), t[3] = (w3), \
                              reduce_p(t), memcpy(edges[n++], t, 32))
    EDGE(0, 0, 0, 0);
    EDGE(1, 0, 0, 0);
    EDGE(2, 0, 0, 0);
    EDGE(3, 0, 0, 0);
    EDGE(P[0] - 1, P[1], P[2], P[3]);            /* p - 1 */
    EDGE(P[0] - 2, P[1], P[2], P[3]);            /* p - 2 */
    EDGE(P[0] - 3, P[1], P[2], P[3]);            /* p - 3 */
    EDGE(~0ULL, ~0ULL, ~0ULL, ~0ULL);            /* 2^256 - 1 mod p */
    EDGE(~0ULL - 1, ~0ULL, ~0ULL, ~0ULL);        /* 2^256 - 2 mod p */
    EDGE(P[0], P[1] + 1, P[2], P[3]);            /* p + 2^64 mod p = 2^64 */
    memcpy(edges[n++], p256_fe_one.v, 32);       /* R mod p */
    memcpy(edges[n++], p256_fe_r2.v, 32);        /* R^2 mod p */
    memcpy(edges[n++], p256_fe_r3.v, 32);        /* R^3 mod p */
    memcpy(edges[n++], p256_fe_b.v, 32);         /* b*R mod p */
    EDGE(0, 1, 0, 0);                            /* 2^64 */
    EDGE(0, 0, 1, 0);                            /* 2^128 */
    EDGE(0, 0, 0, 1);                            /* 2^192 */
    EDGE(0, 0, 0, 0x100000000ULL);               /* 2^224 */
    EDGE(0, 0, 0, 0x8000000000000000ULL);        /* 2^255 */
    EDGE(~0ULL, ~0ULL, ~0ULL, 0x7fffffffffffffffULL); /* 2^255 - 1 */
    EDGE(~0ULL, 0, ~0ULL, 0);                    /* limb patterns */
    EDGE(0, ~0ULL, 0, ~0ULL);
    EDGE(~0ULL, ~0ULL, 0, 0);
    EDGE(0, 0, ~0ULL, ~0ULL);
    EDGE(0xffffffffULL, 0xffffffffULL, 0xffffffffULL, 0xffffffffULL);
    EDGE(0xffffffff00000000ULL, 0xffffffff00000000ULL, 0xffffffff00000000ULL,
         0xffffffff00000000ULL);
    EDGE(P[0], P[1], P[2], P[3] - 1);            /* p - 2^192 */
    EDGE(0, P[1], P[2], P[3]);                   /* p - (2^64 - 1) */
    EDGE(P[0] >> 1, (P[1] >> 1) | (P[2] << 63), (P[2] >> 1) | (P[3] << 63), P[3] >> 1); /* (p-1)/2 */
    EDGE((P[0] >> 1) + 1, (P[1] >> 1) | (P[2] << 63), (P[2] >> 1) | (P[3] << 63), P[3] >> 1);
    EDGE(0x5555555555555555ULL, 0x5555555555555555ULL, 0x5555555555555555ULL,
         0x5555555555555555ULL);
    EDGE(0xaaaaaaaaaaaaaaaaULL, 0xaaaaaaaaaaaaaaaaULL, 0xaaaaaaaaaaaaaaaaULL,
         0xaaaaaaaaaaaaaaaaULL);
#undef EDGE
    if (n != N_EDGES) {
        fprintf(stderr, "test_backend: %d edges, expected %d\n", n, N_EDGES);
        exit(2);
    }
}

/* The portable reference, on bare limbs. */
static void portable_mul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    p256_fe x, y, z;
    memcpy(x.v, a, 32);
    memcpy(y.v, b, 32);
    p256_fe_mul_c(&z, &x, &y);
    memcpy(r, z.v, 32);
}

static void portable_sqr(uint64_t r[4], const uint64_t a[4])
{
    p256_fe x, z;
    memcpy(x.v, a, 32);
    p256_fe_sqr_c(&z, &x);
    memcpy(r, z.v, 32);
}

static void oracle_self_check(void)
{
    uint64_t a[4], b[4], want[4], got[4];
    int ge;
    /* n0 * p0 = -1 mod 2^64, and the oracle agrees with the portable C. */
    CHECK(n0 * P[0] == ~0ULL, "n0");
    for (int i = 0; i < 20000; i++) {
        random_input(a);
        random_input(b);
        oracle_mul(want, &ge, a, b);
        portable_mul(got, a, b);
        CHECK(memcmp(want, got, 32) == 0, "oracle vs portable mul, iteration %d", i);
        oracle_mul(want, &ge, a, a);
        portable_sqr(got, a);
        CHECK(memcmp(want, got, 32) == 0, "oracle vs portable sqr, iteration %d", i);
    }
}

/* ---- The selection logic of backend.c, on a fake table (no CPU involved). ---- */

static int cpu_yes(void) { return 1; }
static int cpu_no(void) { return 0; }

static void test_choose(void)
{
    p256_choice t[] = {
        {"fast", 1, cpu_no, "FAST"},
        {"absent", 0, NULL, NULL},
        {"medium", 1, cpu_yes, "MEDIUM"},
        {"portable", 1, NULL, NULL},
    };
    char err[300];
    const size_t n = sizeof t / sizeof t[0];
#define CHOOSE(req) p256_choose("P256_BACKEND", "backend", t, n, (req), err, sizeof err)

    CHECK(CHOOSE(NULL) == 2, "auto picks the first runnable");
    CHECK(CHOOSE("") == 2, "empty = auto");
    CHECK(CHOOSE("portable") == 3, "forced portable");
    CHECK(CHOOSE("medium") == 2, "forced medium");
    CHECK(CHOOSE("fast") == -1 && strstr(err, "this CPU lacks") != NULL &&
              strstr(err, "P256_BACKEND=fast: the fast backend does not run here: this CPU lacks "
                          "FAST; valid values here: medium, portable") != NULL,
          "forced backend the CPU cannot run: %s", err);
    CHECK(CHOOSE("absent") == -1 && strstr(err, "has no absent backend") != NULL &&
              strstr(err, "; valid values here: medium, portable") != NULL,
          "forced backend missing from the build: %s", err);
    CHECK(CHOOSE("bogus") == -1 && strstr(err, "unknown backend") != NULL &&
              strstr(err, "fast, absent, medium, portable") != NULL,
          "unknown name lists the valid ones: %s", err);
    CHECK(CHOOSE("Portable") == -1, "names are exact");
    t[2].cpu_ok = cpu_no;
    CHECK(CHOOSE(NULL) == 3, "auto falls back to portable");
    CHECK(p256_choose("P256_BATCH", "batch engine", t, n, "x", err, sizeof err) == -1 &&
              strstr(err, "P256_BATCH=x: unknown batch engine; valid values: ") != NULL,
          "the variable and the kind are the caller's: %s", err);
    t[3].built = 0;
    CHECK(CHOOSE(NULL) == -1 && strstr(err, "no backend of this build runs") != NULL,
          "nothing runs: %s", err);
#undef CHOOSE
}

/* ---- The assembly ---- */

#if defined(P256_ASM_X86_64_ADX)
#define ASM_NAME "x86_64-adx"
#define asm_mul p256_fe_mul_x86_64_adx
#define asm_sqr p256_fe_sqr_x86_64_adx
#define asm_cpu_ok p256_cpu_has_x86_64_adx
#elif defined(P256_ASM_AARCH64)
#define ASM_NAME "aarch64-asm"
#define asm_mul p256_fe_mul_aarch64
#define asm_sqr p256_fe_sqr_aarch64
#define asm_cpu_ok() 1
#endif

#if defined(ASM_NAME)

#if defined(P256_ASM_X86_64_ADX)
/*
 * ABI check: calls fn(r, a, b) with sentinels in the callee-saved registers (rbx, rbp,
 * r12-r15) and stores what they hold afterwards into saved[6].
 */
void p256_test_abi_call(void (*fn)(void), uint64_t *r, const uint64_t *a, const uint64_t *b,
                        uint64_t saved[6]);
__asm__(".text\n"
        ".globl p256_test_abi_call\n"
        ".type p256_test_abi_call, @function\n"
        "p256_test_abi_call:\n"
        "    pushq %rbx\n    pushq %rbp\n    pushq %r12\n    pushq %r13\n    pushq %r14\n"
        "    pushq %r15\n"
        "    pushq %r8\n" /* saved[]; 7 pushes after the call: rsp is 16-byte aligned */
        "    movq %rdi, %rax\n    movq %rsi, %rdi\n    movq %rdx, %rsi\n    movq %rcx, %rdx\n"
        "    movabsq $0x1111111111111111, %rbx\n    movabsq $0x2222222222222222, %rbp\n"
        "    movabsq $0x3333333333333333, %r12\n    movabsq $0x4444444444444444, %r13\n"
        "    movabsq $0x5555555555555555, %r14\n    movabsq $0x6666666666666666, %r15\n"
        "    call *%rax\n"
        "    popq %r8\n"
        "    movq %rbx, 0(%r8)\n    movq %rbp, 8(%r8)\n    movq %r12, 16(%r8)\n"
        "    movq %r13, 24(%r8)\n    movq %r14, 32(%r8)\n    movq %r15, 40(%r8)\n"
        "    popq %r15\n    popq %r14\n    popq %r13\n    popq %r12\n    popq %rbp\n"
        "    popq %rbx\n"
        "    ret\n"
        ".size p256_test_abi_call, .-p256_test_abi_call\n");

static void test_abi(void)
{
    static const uint64_t want[6] = {0x1111111111111111ULL, 0x2222222222222222ULL,
                                     0x3333333333333333ULL, 0x4444444444444444ULL,
                                     0x5555555555555555ULL, 0x6666666666666666ULL};
    uint64_t a[4], b[4], r[4], saved[6], expect[4];
    random_input(a);
    random_input(b);
    p256_test_abi_call((void (*)(void))asm_mul, r, a, b, saved);
    portable_mul(expect, a, b);
    CHECK(memcmp(saved, want, sizeof want) == 0 && memcmp(r, expect, 32) == 0,
          "mul preserves rbx, rbp, r12-r15");
    p256_test_abi_call((void (*)(void))asm_sqr, r, a, NULL, saved);
    portable_sqr(expect, a);
    CHECK(memcmp(saved, want, sizeof want) == 0 && memcmp(r, expect, 32) == 0,
          "sqr preserves rbx, rbp, r12-r15");
}
#else
static void test_abi(void) {}
#endif

static long ge_count[2][2]; /* [mul, sqr][before the final subtraction: < p, >= p] */

/* One mul case: asm vs portable vs oracle, with guard words around r. */
static void check_mul(const uint64_t a[4], const uint64_t b[4], const char *what, long i)
{
    uint64_t buf[6], want[4], port[4];
    int ge;
    buf[0] = buf[5] = 0xdeadbeefcafef00dULL;
    oracle_mul(want, &ge, a, b);
    ge_count[0][ge]++;
    portable_mul(port, a, b);
    asm_mul(buf + 1, a, b);
    CHECK(memcmp(buf + 1, want, 32) == 0 && memcmp(port, want, 32) == 0,
          "mul %s %ld: a = %016llx%016llx%016llx%016llx b = %016llx%016llx%016llx%016llx", what,
          i, (unsigned long long)a[3], (unsigned long long)a[2], (unsigned long long)a[1],
          (unsigned long long)a[0], (unsigned long long)b[3], (unsigned long long)b[2],
          (unsigned long long)b[1], (unsigned long long)b[0]);
    CHECK(buf[0] == 0xdeadbeefcafef00dULL && buf[5] == 0xdeadbeefcafef00dULL,
          "mul wrote outside r");
}

static void check_sqr(const uint64_t a[4], const char *what, long i)
{
    uint64_t buf[6], want[4], port[4];
    int ge;
    buf[0] = buf[5] = 0xdeadbeefcafef00dULL;
    oracle_mul(want, &ge, a, a);
    ge_count[1][ge]++;
    portable_sqr(port, a);
    asm_sqr(buf + 1, a);
    CHECK(memcmp(buf + 1, want, 32) == 0 && memcmp(port, want, 32) == 0,
          "sqr %s %ld: a = %016llx%016llx%016llx%016llx", what, i, (unsigned long long)a[3],
          (unsigned long long)a[2], (unsigned long long)a[1], (unsigned long long)a[0]);
    CHECK(buf[0] == 0xdeadbeefcafef00dULL && buf[5] == 0xdeadbeefcafef00dULL,
          "sqr wrote outside r");
}

/* b such that a*b/R = target (mod p), for a != 0: b = target * R / a. Portable code only. */
static void mul_preimage(uint64_t b[4], const uint64_t a[4], const uint64_t target[4])
{
    uint64_t ainv[4], t[4];
    p256_modinv(ainv, a, &p256_modinv_p);    /* plain a^-1 */
    portable_mul(t, target, ainv);           /* target / (a R) */
    portable_mul(b, t, p256_fe_r3.v);        /* target R / a */
}

static void test_asm(void)
{
    uint64_t a[4], b[4], r[4], want[4];
    const long random_iters = 200000;

    test_abi();

    /* Edges: every pair for mul, each for sqr. */
    for (int i = 0; i < N_EDGES; i++) {
        check_sqr(edges[i], "edge", i);
        for (int j = 0; j < N_EDGES; j++)
            check_mul(edges[i], edges[j], "edge pair", i * N_EDGES + j);
    }

    /* Random inputs, several distributions. */
    for (long i = 0; i < random_iters; i++) {
        random_input(a);
        random_input(b);
        check_mul(a, b, "random", i);
        check_sqr(a, "random", i);
    }

    /* Products landing on chosen values: 0 (a zero operand), 1, 2, p-1, p-2, small, near
     * p, 2^64, R mod p; each with random and edge left operands. */
    for (int e = 0; e < N_EDGES; e++) {
        if (p256_fe_mask_is_zero((const p256_fe *)edges[e]))
            continue;
        for (int k = 0; k < 300; k++) {
            const uint64_t *target = edges[(e + k) % N_EDGES];
            if (k % 3 == 0)
                memcpy(a, edges[(e * 7 + k) % N_EDGES], 32);
            else
                random_input(a);
            if (a[0] == 0 && a[1] == 0 && a[2] == 0 && a[3] == 0)
                a[0] = 1;
            mul_preimage(b, a, target);
            oracle_mul(want, &(int){0}, a, b);
            CHECK(memcmp(want, target, 32) == 0, "preimage construction");
            check_mul(a, b, "chosen product", e * 1000 + k);
            check_mul(b, a, "chosen product (swapped)", e * 1000 + k);
        }
    }

    /* Aliasing: r == a, r == b, a == b, r == a == b. */
    for (long i = 0; i < 20000; i++) {
        random_input(a);
        random_input(b);
        portable_mul(want, a, b);
        memcpy(r, a, 32);
        asm_mul(r, r, b);
        CHECK(memcmp(r, want, 32) == 0, "mul r == a, %ld", i);
        memcpy(r, b, 32);
        asm_mul(r, a, r);
        CHECK(memcmp(r, want, 32) == 0, "mul r == b, %ld", i);
        portable_sqr(want, a);
        asm_mul(r, a, a);
        CHECK(memcmp(r, want, 32) == 0, "mul a == b, %ld", i);
        memcpy(r, a, 32);
        asm_mul(r, r, r);
        CHECK(memcmp(r, want, 32) == 0, "mul r == a == b, %ld", i);
        memcpy(r, a, 32);
        asm_sqr(r, r);
        CHECK(memcmp(r, want, 32) == 0, "sqr r == a, %ld", i);
    }

    /* Long chains feed outputs back as inputs (as the inversion and sqrt chains do). */
    {
        uint64_t x[4], y[4], px[4], py[4];
        random_input(x);
        random_input(y);
        memcpy(px, x, 32);
        memcpy(py, y, 32);
        for (long i = 0; i < 100000; i++) {
            asm_mul(x, x, y);
            asm_sqr(y, y);
            portable_mul(px, px, py);
            portable_sqr(py, py);
        }
        CHECK(memcmp(x, px, 32) == 0 && memcmp(y, py, 32) == 0, "chained mul/sqr");
    }

    printf("test_backend: %s mul/sqr: %d edges (all pairs), %ld random, chosen products, "
           "aliasing, ABI\n", ASM_NAME, N_EDGES, random_iters);
    printf("test_backend: value before the final subtraction >= p: mul %ld of %ld, sqr %ld of %ld\n",
           ge_count[0][1], ge_count[0][0] + ge_count[0][1], ge_count[1][1],
           ge_count[1][0] + ge_count[1][1]);
    CHECK(ge_count[0][0] > 0 && ge_count[0][1] > 0 && ge_count[1][0] > 0 && ge_count[1][1] > 0,
          "both outcomes of the final subtraction exercised");
}
#endif /* ASM_NAME */

int main(void)
{
    /* n0 = -p0^-1 mod 2^64 by Newton's iteration x <- x(2 - p0 x) (p0 odd). */
    uint64_t x = 1;
    for (int i = 0; i < 7; i++)
        x *= 2 - P[0] * x;
    n0 = 0 - x;

    make_edges();
    oracle_self_check();
    test_choose();
#if defined(ASM_NAME)
    if (asm_cpu_ok())
        test_asm();
    else
        printf("test_backend: SKIP %s: this CPU lacks the instructions it needs\n", ASM_NAME);
#else
    printf("test_backend: SKIP assembly: this build has no assembly backend (portable only)\n");
#endif
    printf("test_backend: %ld checks, %ld failures\n", checks, failures);
    return failures != 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_backend.c: the field backends' mul and sqr (field_asm.h: x86-64 ADX,
 * csrc/asm/field_x86_64.S and its MULX-step schedule field_x86_64_mulx.S, each checked in
 * full; AArch64, csrc/asm/field_aarch64.S) against the portable C and
 * against two oracles of harness.h (textbook REDC, and a bit-serial remainder of the
 * full product that shares no code with Montgomery reduction), plus the
 * variant-selection logic of csrc/backend.c.
 *
 * Built by `make ctest` per variant of the host's architecture, and by `make test-arm64`
 * for aarch64 (cross-compiled, run under qemu-aarch64). A build without assembly runs
 * the oracles' self-checks (against each other, the portable C and known answers) and
 * the selection logic; an assembly build runs its functions only if the CPU has what
 * they need (otherwise a SKIP line says so). Optional argument: a seed for the random
 * inputs (default fixed, so runs repeat). P256_TEST_ITERS scales the random iterations
 * (harness.h); the known answers, edge values and exhaustive sets always run.
 *
 * Inputs stay within the contract (field_asm.h): a, b < p. For mul and sqr:
 *   - known answers (from Python: a*b*2^-256 mod p) and identities (x*R = x,
 *     (p-1)^2/R = 1/R, R^2*R^2/R = R^3, ...)
 *   - every pair of 39 edge values (0, 1, 2, p-1, p-2, reductions of values near 2^256-1,
 *     R, R^2, R^3, b*R mod p, powers of two, halves of p, limb patterns), and each
 *     squared, against both oracles
 *   - all 8^4 combinations of 8 limb patterns, reduced: squared, and times every edge
 *   - 10^5 uniform and 2*10^5 structured random inputs (harness.h's distributions),
 *     2*10^4 of each also against the bit-serial oracle
 *   - products forced onto every edge value (b = target * R / a) and squares forced
 *     onto the edge values that are squares (both roots), a*0 and 0*a
 *   - every aliasing of r, a and b; mul(a, a) == sqr(a); no write outside r
 *   - a 10^5-step feedback chain (x = x*y, y = y^2, reseeded) against the portable C
 *   - the callee-saved registers of the ABI preserved (SysV x86-64: rbx, rbp, r12-r15;
 *     AAPCS64: x19-x28), the check itself shown to see a clobbered register
 *   - both outcomes of the final subtraction exercised
 * and the oracles' negative control: the bit-serial one must reject results that are off
 * by one bit or unreduced.
 */
#define HARNESS_RNG_SEED 0x243F6A8885A308D3ULL
#include "harness.h"
#include "field_impl.h"
#include "cpu.h"

#define P256_BACKEND_CHOOSE_ONLY
#include "backend.c" /* csrc/backend.c (via -Icsrc) */

/* ---- Edge values, each < p ---- */

#define N_EDGES 39
static uint64_t edges[N_EDGES][4];

static void make_edges(void)
{
    const uint64_t *P = oracle_p;
    int n = 0;
    uint64_t t[4];
#define EDGE(w0, w1, w2, w3) (t[0] = (w0), t[1] = (w1), t[2] = (w2), t[3] = (w3), \
                              oracle_reduce_p(t), memcpy(edges[n++], t, 32))
    EDGE(0, 0, 0, 0);
    EDGE(1, 0, 0, 0);
    EDGE(2, 0, 0, 0);
    EDGE(3, 0, 0, 0);
    EDGE(P[0] - 1, P[1], P[2], P[3]);            /* p - 1 */
    EDGE(P[0] - 2, P[1], P[2], P[3]);            /* p - 2 */
    EDGE(P[0] - 3, P[1], P[2], P[3]);            /* p - 3 */
    EDGE(P[0] - 0x100000000ULL, P[1], P[2], P[3]); /* p - 2^32 */
    EDGE(~0ULL, ~0ULL, ~0ULL, ~0ULL);            /* 2^256 - 1 mod p */
    EDGE(~0ULL - 1, ~0ULL, ~0ULL, ~0ULL);        /* 2^256 - 2 mod p */
    EDGE(P[0], P[1] + 1, P[2], P[3]);            /* p + 2^64 mod p = 2^64 */
    memcpy(edges[n++], p256_fe_one.v, 32);       /* R mod p */
    memcpy(edges[n++], p256_fe_r2.v, 32);        /* R^2 mod p */
    memcpy(edges[n++], p256_fe_r3.v, 32);        /* R^3 mod p */
    memcpy(edges[n++], p256_fe_b.v, 32);         /* b*R mod p */
    EDGE(p256_fe_one.v[0] - 1, p256_fe_one.v[1], p256_fe_one.v[2], p256_fe_one.v[3]); /* R - 1 */
    EDGE(0, 1, 0, 0);                            /* 2^64 */
    EDGE(0, 0x100000000ULL, 0, 0);               /* 2^96 */
    EDGE(0, 0, 1, 0);                            /* 2^128 */
    EDGE(0, 0, 0, 1);                            /* 2^192 */
    EDGE(0, 0, 0, 0x100000000ULL);               /* 2^224 */
    EDGE(0, 0, 0, 0x8000000000000000ULL);        /* 2^255 */
    EDGE(~0ULL, ~0ULL, ~0ULL, 0x7fffffffffffffffULL); /* 2^255 - 1 */
    EDGE(~0ULL, 0, 0, 0);                        /* 2^64 - 1 */
    EDGE(~0ULL, ~0ULL, 0, 0);                    /* 2^128 - 1 */
    EDGE(~0ULL, ~0ULL, ~0ULL, 0);                /* 2^192 - 1 */
    EDGE(~0ULL, 0, ~0ULL, 0);                    /* limb patterns */
    EDGE(0, ~0ULL, 0, ~0ULL);
    EDGE(0, 0, ~0ULL, ~0ULL);
    EDGE(0, 0, 0, 0xffffffff00000000ULL);
    EDGE(0, 0xffffffff00000000ULL, ~0ULL, 0);
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

HARNESS_FN int is_zero(const uint64_t a[4])
{
    return (a[0] | a[1] | a[2] | a[3]) == 0;
}

/* ---- The portable reference, on bare limbs ---- */

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

/* b such that a*b/R = target (mod p), for a != 0: b = target * R / a. Portable code only. */
HARNESS_FN void mul_preimage(uint64_t b[4], const uint64_t a[4], const uint64_t target[4])
{
    uint64_t ainv[4], t[4];
    p256_modinv(ainv, a, &p256_modinv_p);    /* plain a^-1 */
    portable_mul(t, target, ainv);           /* target / (a R) */
    portable_mul(b, t, p256_fe_r3.v);        /* target R / a */
}

/* ---- Known answers and the oracles' self-checks (every build) ---- */

/* a, b, a*b*2^-256 mod p, from Python (pow(2**256, -1, p)). */
static const uint64_t kat_mul[3][3][4] = {
    {{0x92e5dfe8cb1855feULL, 0x14a03569d26b9496ULL, 0xc320a4737c2b3abeULL, 0x096d373742f9a039ULL},
     {0x254499c7001d9a88ULL, 0x9623d7cfa9ae7a34ULL, 0xf72c2c2678629522ULL, 0xbc1e3ac1c27db4ecULL},
     {0xbcad563bb027b8b5ULL, 0x4988cc19a18b6402ULL, 0x66c6f49f5a443220ULL, 0x6654548790afbd0eULL}},
    {{0x51c342505f877031ULL, 0x059a91e1c527e279ULL, 0x7d24b39645cf8aa4ULL, 0x32b7228fcd4a5557ULL},
     {0xdf5ca32ebad5ccc2ULL, 0xe91b4ad169fc5360ULL, 0x8a0c510089ce5ef7ULL, 0x181e290aae9af169ULL},
     {0x3f7d810b90a2be35ULL, 0xbc4e6f219981490aULL, 0x2d916c7d5af50277ULL, 0x573d5d3473449c69ULL}},
    {{0x903c2ac9316774feULL, 0xb313fc7e8db9b92cULL, 0xba98666ace1c9c17ULL, 0xa9b3d1a243f9300cULL},
     {0x9c2c0ac2cda95957ULL, 0x168e5087af895f5bULL, 0x6cb9185ed822e2f9ULL, 0xfd80206055e8b3ebULL},
     {0x18ae88f7ae8a70f1ULL, 0xd49f27d902ceb921ULL, 0x0b73e46b4bac7bedULL, 0x908f53a25ef93d7cULL}},
};
static const uint64_t kat_sqr[2][2][4] = {
    {{0x5cb53ec017d7ab26ULL, 0x68f22599ccdf540bULL, 0x401fe4fcce06294dULL, 0xb31a5bf371f970cfULL},
     {0xd04fdc922fbf5f65ULL, 0x22c39b0fe398b024ULL, 0x49c657e4acf2efc9ULL, 0x044ca85d76b8fabeULL}},
    {{0xc16cf5c51801fd9aULL, 0xb3642b1932793637ULL, 0xcbe19514a28a0aaaULL, 0x18f918e24a8b0188ULL},
     {0x1f28fc9c5c0be731ULL, 0x162c3741d65cd622ULL, 0x898d9f547c8c5db0ULL, 0x552f5b3e13961c48ULL}},
};

static void oracle_self_check(void)
{
    uint64_t a[4], b[4], r[4], want[4], got[4];
    int ge, rejected = 0;
    CHECK(oracle_n0() * oracle_p[0] == ~0ULL, "n0 * p0 = -1 mod 2^64");
    CHECK(memcmp(oracle_p, (const uint64_t[4]){P256_P0, P256_P1, P256_P2, P256_P3}, 32) == 0,
          "the oracle's p is the core's");
    /* the known answers through both oracles and the portable C */
    for (int i = 0; i < 3; i++) {
        oracle_redc_mul(got, &ge, kat_mul[i][0], kat_mul[i][1]);
        CHECK(memcmp(got, kat_mul[i][2], 32) == 0, "REDC oracle, mul known answer %d", i);
        CHECK(oracle_is_mont_product(kat_mul[i][2], kat_mul[i][0], kat_mul[i][1]),
              "bit-serial oracle, mul known answer %d", i);
        portable_mul(got, kat_mul[i][0], kat_mul[i][1]);
        CHECK(memcmp(got, kat_mul[i][2], 32) == 0, "portable mul known answer %d", i);
    }
    for (int i = 0; i < 2; i++) {
        oracle_redc_mul(got, &ge, kat_sqr[i][0], kat_sqr[i][0]);
        CHECK(memcmp(got, kat_sqr[i][1], 32) == 0, "REDC oracle, sqr known answer %d", i);
        portable_sqr(got, kat_sqr[i][0]);
        CHECK(memcmp(got, kat_sqr[i][1], 32) == 0, "portable sqr known answer %d", i);
    }
    /* the bit-serial oracle must reject wrong answers, or every comparison with it is
     * vacuous */
    for (int i = 0; i < 16; i++) {
        rng_fe_uniform(a);
        rng_fe_uniform(b);
        portable_mul(r, a, b);
        CHECK(oracle_is_mont_product(r, a, b), "bit-serial oracle accepts the right answer");
        r[i % 4] ^= (uint64_t)1 << (i * 7 % 64);
        rejected += !oracle_is_mont_product(r, a, b);
    }
    CHECK(rejected == 16, "bit-serial oracle rejected only %d of 16 corrupted results", rejected);
    memcpy(r, oracle_p, 32); /* p itself: = 0 mod p but not reduced */
    memset(a, 0, 32);
    CHECK(!oracle_is_mont_product(r, a, a), "bit-serial oracle rejects an unreduced result");
    /* the oracles against each other and the portable C */
    for (long i = 0, n = harness_iters(20000); i < n; i++) {
        rng_fe_structured(a);
        rng_fe_structured(b);
        oracle_redc_mul(want, &ge, a, b);
        portable_mul(got, a, b);
        CHECK(memcmp(want, got, 32) == 0, "REDC oracle vs portable mul, iteration %ld", i);
        if (i < 2000)
            CHECK(oracle_is_mont_product(want, a, b), "bit-serial vs REDC oracle, %ld", i);
        oracle_redc_mul(want, &ge, a, a);
        portable_sqr(got, a);
        CHECK(memcmp(want, got, 32) == 0, "REDC oracle vs portable sqr, iteration %ld", i);
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

#if defined(__x86_64__) && defined(P256_ASM_X86_64_ADX)
#define ASM_NAME "x86_64-adx"
#define asm_cpu_ok p256_cpu_has_x86_64_adx
#elif defined(__aarch64__) && defined(P256_ASM_AARCH64)
#define ASM_NAME "aarch64-asm"
#define asm_cpu_ok() 1
#endif

#if defined(ASM_NAME)
/* The schedule under test (x86-64 has two, asm.h: every check runs on each). */
typedef void (*asm_mul_fn)(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
typedef void (*asm_sqr_fn)(uint64_t r[4], const uint64_t a[4]);
static const struct {
    const char *name;
    asm_mul_fn mul;
    asm_sqr_fn sqr;
} asm_schedules[] = {
    {ASM_NAME, P256_ASM_FN(fe_mul), P256_ASM_FN(fe_sqr)},
#if defined(P256_ASM_MULX_FN)
    {ASM_NAME " (MULX step)", P256_ASM_MULX_FN(fe_mul), P256_ASM_MULX_FN(fe_sqr)},
#endif
};
static asm_mul_fn asm_mul;
static asm_sqr_fn asm_sqr;

/*
 * ABI check: p256_test_abi_call(fn, r, a, b, saved) calls fn(r, a, b) with sentinels in
 * the callee-saved general registers and stores what they hold afterwards into saved[];
 * p256_test_clobber, which overwrites one of them, shows that the check can fail.
 */
#if defined(__x86_64__)
#define ABI_SAVED 6 /* rbx, rbp, r12-r15 */
static const uint64_t abi_want[ABI_SAVED] = {
    0x1111111111111111ULL, 0x2222222222222222ULL, 0x3333333333333333ULL,
    0x4444444444444444ULL, 0x5555555555555555ULL, 0x6666666666666666ULL};
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
        ".size p256_test_abi_call, .-p256_test_abi_call\n"
        ".globl p256_test_clobber\n"
        ".type p256_test_clobber, @function\n"
        "p256_test_clobber:\n"
        "    xorl %r13d, %r13d\n"
        "    ret\n"
        ".size p256_test_clobber, .-p256_test_clobber\n");
#elif defined(__aarch64__)
#define ABI_SAVED 10 /* x19-x28 */
#define ABI_SENTINEL(k) (0x1900000000000019ULL + 0x0101000000000001ULL * (k))
static const uint64_t abi_want[ABI_SAVED] = {
    ABI_SENTINEL(0), ABI_SENTINEL(1), ABI_SENTINEL(2), ABI_SENTINEL(3), ABI_SENTINEL(4),
    ABI_SENTINEL(5), ABI_SENTINEL(6), ABI_SENTINEL(7), ABI_SENTINEL(8), ABI_SENTINEL(9)};
/* x<19+k> = ABI_SENTINEL(k): 0x19 + k in bits 0-15, 0x1900 + 0x101 k in bits 48-63 */
#define ABI_SET(reg, k) "    movz " reg ", #" #k " + 0x0019\n" \
                        "    movk " reg ", #0x1900 + 0x101 * " #k ", lsl #48\n"
__asm__(".text\n"
        ".globl p256_test_abi_call\n"
        ".type p256_test_abi_call, %function\n"
        "p256_test_abi_call:\n"
        "    hint #34\n" /* bti c */
        "    stp x29, x30, [sp, #-112]!\n"
        "    mov x29, sp\n"
        "    stp x19, x20, [sp, #16]\n    stp x21, x22, [sp, #32]\n"
        "    stp x23, x24, [sp, #48]\n    stp x25, x26, [sp, #64]\n"
        "    stp x27, x28, [sp, #80]\n    str x4, [sp, #96]\n"
        "    mov x9, x0\n    mov x0, x1\n    mov x1, x2\n    mov x2, x3\n"
        ABI_SET("x19", 0) ABI_SET("x20", 1) ABI_SET("x21", 2) ABI_SET("x22", 3)
        ABI_SET("x23", 4) ABI_SET("x24", 5) ABI_SET("x25", 6) ABI_SET("x26", 7)
        ABI_SET("x27", 8) ABI_SET("x28", 9)
        "    blr x9\n"
        "    ldr x9, [sp, #96]\n"
        "    stp x19, x20, [x9]\n    stp x21, x22, [x9, #16]\n    stp x23, x24, [x9, #32]\n"
        "    stp x25, x26, [x9, #48]\n    stp x27, x28, [x9, #64]\n"
        "    ldp x19, x20, [sp, #16]\n    ldp x21, x22, [sp, #32]\n"
        "    ldp x23, x24, [sp, #48]\n    ldp x25, x26, [sp, #64]\n"
        "    ldp x27, x28, [sp, #80]\n"
        "    ldp x29, x30, [sp], #112\n"
        "    ret\n"
        ".size p256_test_abi_call, .-p256_test_abi_call\n"
        ".globl p256_test_clobber\n"
        ".type p256_test_clobber, %function\n"
        "p256_test_clobber:\n"
        "    hint #34\n"
        "    mov x23, xzr\n"
        "    ret\n"
        ".size p256_test_clobber, .-p256_test_clobber\n");
#endif

void p256_test_abi_call(void (*fn)(void), uint64_t *r, const uint64_t *a, const uint64_t *b,
                        uint64_t saved[ABI_SAVED]);
void p256_test_clobber(void);

static void test_abi(void)
{
    uint64_t a[4], b[4], r[4], saved[ABI_SAVED], expect[4];
    rng_fe_uniform(a);
    rng_fe_uniform(b);
    p256_test_abi_call((void (*)(void))asm_mul, r, a, b, saved);
    portable_mul(expect, a, b);
    CHECK(memcmp(saved, abi_want, sizeof abi_want) == 0 && memcmp(r, expect, 32) == 0,
          "mul preserves the callee-saved registers");
    p256_test_abi_call((void (*)(void))asm_sqr, r, a, NULL, saved);
    portable_sqr(expect, a);
    CHECK(memcmp(saved, abi_want, sizeof abi_want) == 0 && memcmp(r, expect, 32) == 0,
          "sqr preserves the callee-saved registers");
    p256_test_abi_call(p256_test_clobber, r, a, b, saved);
    CHECK(memcmp(saved, abi_want, sizeof abi_want) != 0,
          "the ABI check sees a clobbered register (negative control)");
}

static long ge_count[2][2]; /* [mul, sqr][before the final subtraction: < p, >= p] */

static void report_fe(const char *name, const uint64_t a[4])
{
    fprintf(stderr, "  %s = %016llx %016llx %016llx %016llx\n", name, (unsigned long long)a[3],
            (unsigned long long)a[2], (unsigned long long)a[1], (unsigned long long)a[0]);
}

/* One mul case: asm vs portable vs the REDC oracle (and the bit-serial one if with_ref),
 * with guard words around r. */
static void check_mul(const uint64_t a[4], const uint64_t b[4], int with_ref, const char *what,
                      long i)
{
    uint64_t buf[6], want[4], port[4];
    int ge;
    buf[0] = buf[5] = 0xdeadbeefcafef00dULL;
    oracle_redc_mul(want, &ge, a, b);
    ge_count[0][ge]++;
    portable_mul(port, a, b);
    asm_mul(buf + 1, a, b);
    CHECK(memcmp(buf + 1, want, 32) == 0 && memcmp(port, want, 32) == 0, "mul %s %ld", what, i);
    if ((memcmp(buf + 1, want, 32) != 0 || memcmp(port, want, 32) != 0) &&
        failures <= HARNESS_MAX_REPORTS) {
        report_fe("a", a), report_fe("b", b), report_fe("asm", buf + 1);
        report_fe("portable", port), report_fe("oracle", want);
    }
    CHECK(buf[0] == 0xdeadbeefcafef00dULL && buf[5] == 0xdeadbeefcafef00dULL,
          "mul %s %ld wrote outside r", what, i);
    if (with_ref)
        CHECK(oracle_is_mont_product(buf + 1, a, b), "mul %s %ld: fails the bit-serial oracle",
              what, i);
}

static void check_sqr(const uint64_t a[4], int with_ref, const char *what, long i)
{
    uint64_t buf[6], want[4], port[4], viamul[4];
    int ge;
    buf[0] = buf[5] = 0xdeadbeefcafef00dULL;
    oracle_redc_mul(want, &ge, a, a);
    ge_count[1][ge]++;
    portable_sqr(port, a);
    asm_sqr(buf + 1, a);
    asm_mul(viamul, a, a);
    CHECK(memcmp(buf + 1, want, 32) == 0 && memcmp(port, want, 32) == 0, "sqr %s %ld", what, i);
    if ((memcmp(buf + 1, want, 32) != 0 || memcmp(port, want, 32) != 0) &&
        failures <= HARNESS_MAX_REPORTS) {
        report_fe("a", a), report_fe("asm", buf + 1), report_fe("portable", port);
        report_fe("oracle", want);
    }
    CHECK(memcmp(buf + 1, viamul, 32) == 0, "sqr %s %ld: asm sqr != asm mul(a, a)", what, i);
    CHECK(buf[0] == 0xdeadbeefcafef00dULL && buf[5] == 0xdeadbeefcafef00dULL,
          "sqr %s %ld wrote outside r", what, i);
    if (with_ref)
        CHECK(oracle_is_mont_product(buf + 1, a, a), "sqr %s %ld: fails the bit-serial oracle",
              what, i);
}

static void test_known_answers(void)
{
    /* 2^-256 mod p: (p - 1)^2 = 1, so (p - 1)*(p - 1)/R = R^-1; also 1*1/R. */
    static const uint64_t rinv[4] = {0x0000000300000000ULL, 0x00000001fffffffeULL,
                                     0xfffffffd00000002ULL, 0xfffffffe00000003ULL};
    const uint64_t one[4] = {1, 0, 0, 0}, *rmodp = p256_fe_one.v, *r2 = p256_fe_r2.v;
    const uint64_t *r3 = p256_fe_r3.v;
    uint64_t r[4], x[4], pm1[4];
    memcpy(pm1, oracle_p, 32);
    pm1[0] -= 1;

    for (int i = 0; i < 3; i++) {
        asm_mul(r, kat_mul[i][0], kat_mul[i][1]);
        CHECK(memcmp(r, kat_mul[i][2], 32) == 0, "mul known answer %d", i);
        asm_mul(r, kat_mul[i][1], kat_mul[i][0]);
        CHECK(memcmp(r, kat_mul[i][2], 32) == 0, "mul known answer %d (swapped)", i);
    }
    for (int i = 0; i < 2; i++) {
        asm_sqr(r, kat_sqr[i][0]);
        CHECK(memcmp(r, kat_sqr[i][1], 32) == 0, "sqr known answer %d", i);
    }
    asm_mul(r, pm1, pm1);
    CHECK(memcmp(r, rinv, 32) == 0, "(p-1)^2/R = 1/R");
    asm_sqr(r, pm1);
    CHECK(memcmp(r, rinv, 32) == 0, "sqr(p-1) = 1/R");
    asm_mul(r, one, one);
    CHECK(memcmp(r, rinv, 32) == 0, "1*1/R = 1/R");
    asm_sqr(r, one);
    CHECK(memcmp(r, rinv, 32) == 0, "sqr(1) = 1/R");
    asm_sqr(r, rmodp);
    CHECK(memcmp(r, rmodp, 32) == 0, "sqr(R mod p) = R mod p (the domain's one)");
    asm_mul(r, r2, one);
    CHECK(memcmp(r, rmodp, 32) == 0, "R^2 * 1 / R = R mod p");
    asm_mul(r, r3, one);
    CHECK(memcmp(r, r2, 32) == 0, "R^3 * 1 / R = R^2 mod p");
    asm_mul(r, r2, r2);
    CHECK(memcmp(r, r3, 32) == 0, "R^2 * R^2 / R = R^3 mod p");
    asm_sqr(r, r2);
    CHECK(memcmp(r, r3, 32) == 0, "sqr(R^2) = R^3 mod p");
    for (long i = 0, n = harness_iters(1000); i < n; i++) {
        rng_fe_uniform(x);
        asm_mul(r, x, rmodp);
        CHECK(memcmp(r, x, 32) == 0, "x * (R mod p) / R = x");
        asm_mul(r, rmodp, x);
        CHECK(memcmp(r, x, 32) == 0, "(R mod p) * x / R = x");
    }
}

/* Every pair of edges against both oracles; the 8^4 limb patterns squared and times
 * every edge. */
static void test_edges(void)
{
    uint64_t x[4];
    for (int i = 0; i < N_EDGES; i++) {
        check_sqr(edges[i], 1, "edge", i);
        for (int j = 0; j < N_EDGES; j++)
            check_mul(edges[i], edges[j], 1, "edge pair", i * N_EDGES + j);
    }
    for (int k = 0; k < 4096; k++) {
        for (int l = 0; l < 4; l++)
            x[l] = rng_limb_patterns[(k >> (3 * l)) & 7];
        oracle_reduce_p(x);
        check_sqr(x, (k % 8) == 0, "pattern", k);
        for (int j = 0; j < N_EDGES; j++) {
            check_mul(x, edges[j], 0, "pattern x edge", k * N_EDGES + j);
            check_mul(edges[j], x, 0, "edge x pattern", k * N_EDGES + j);
        }
    }
}

static void test_random(void)
{
    uint64_t a[4], b[4];
    const long n_ref = harness_iters(20000);
    for (long i = 0, n = harness_iters(100000); i < n; i++) {
        rng_fe_uniform(a);
        rng_fe_uniform(b);
        check_mul(a, b, i < n_ref, "uniform", i);
        check_sqr(a, i < n_ref, "uniform", i);
    }
    for (long i = 0, n = harness_iters(200000); i < n; i++) {
        rng_fe_structured(a);
        rng_fe_structured(b);
        check_mul(a, b, i < n_ref, "structured", i);
        check_sqr(a, i < n_ref, "structured", i);
    }
}

/*
 * Products forced onto every edge value: b = target * R * a^-1 (so a*b/R = target), a the
 * target itself first, then edges and random values; squarings forced through square
 * roots (p256_fe_sqrt gives s with s*s/R = y when y is a square), so the final
 * conditional subtraction sees both of its cases at the boundary.
 */
static void test_forced_results(void)
{
    uint64_t a[4], b[4], r[4], want[4], zero[4] = {0, 0, 0, 0};
    const long per_target = harness_iters(300);
    int squares = 0;

    for (int e = 0; e < N_EDGES; e++) {
        const uint64_t *target = edges[e];
        for (long k = 0; k < (per_target > 0 ? per_target : 1); k++) {
            if (k == 0)
                memcpy(a, target, 32);
            else if (k % 3 == 0)
                memcpy(a, edges[(e * 7 + k) % N_EDGES], 32);
            else
                rng_fe_structured(a);
            if (is_zero(a))
                a[0] = 1;
            mul_preimage(b, a, target);
            oracle_redc_mul(want, &(int){0}, a, b);
            CHECK(memcmp(want, target, 32) == 0, "preimage construction");
            asm_mul(r, a, b);
            CHECK(memcmp(r, target, 32) == 0, "forced mul result #%d", e);
            asm_mul(r, b, a);
            CHECK(memcmp(r, target, 32) == 0, "forced mul result #%d (swapped)", e);
            check_mul(a, b, k < 10, "forced product", e * 1000 + k);
            check_mul(b, a, k < 10, "forced product (swapped)", e * 1000 + k);
        }
        /* squares: s*s/R = target (when it is a square), and (p - s)^2 too */
        {
            p256_fe y, s;
            memcpy(y.v, target, 32);
            if (p256_fe_sqrt(&s, &y)) {
                uint64_t ns[4], got[4];
                oracle_u128 borrow = 0;
                for (int l = 0; l < 4; l++) { /* p - s (s < p) */
                    oracle_u128 d = (oracle_u128)oracle_p[l] - s.v[l] - borrow;
                    ns[l] = (uint64_t)d;
                    borrow = (d >> 64) & 1;
                }
                oracle_reduce_p(ns);
                asm_sqr(got, s.v);
                CHECK(memcmp(got, target, 32) == 0, "forced sqr result #%d", e);
                asm_sqr(got, ns);
                CHECK(memcmp(got, target, 32) == 0, "forced sqr result #%d (negated root)", e);
                check_sqr(s.v, 1, "forced square", e);
                check_sqr(ns, 1, "forced square (negated root)", e);
                squares++;
            }
        }
        /* zero results: a*0, 0*a */
        rng_fe_uniform(a);
        asm_mul(r, a, zero);
        CHECK(is_zero(r), "a * 0 = 0");
        asm_mul(r, zero, a);
        CHECK(is_zero(r), "0 * a = 0");
    }
    CHECK(squares >= 3, "only %d forced squares were squares", squares);
}

/* r == a, r == b, a == b, r == a == b, against the portable C. */
static void test_aliasing(void)
{
    uint64_t a[4], b[4], r[4], want[4], want_sq[4];
    for (long i = 0, n = harness_iters(20000); i < n; i++) {
        if (i & 1)
            rng_fe_uniform(a), rng_fe_uniform(b);
        else
            rng_fe_structured(a), rng_fe_structured(b);
        portable_mul(want, a, b);
        portable_sqr(want_sq, a);
        memcpy(r, a, 32);
        asm_mul(r, r, b);
        CHECK(memcmp(r, want, 32) == 0, "mul r == a, %ld", i);
        memcpy(r, b, 32);
        asm_mul(r, a, r);
        CHECK(memcmp(r, want, 32) == 0, "mul r == b, %ld", i);
        asm_mul(r, a, a);
        CHECK(memcmp(r, want_sq, 32) == 0, "mul a == b, %ld", i);
        memcpy(r, a, 32);
        asm_mul(r, r, r);
        CHECK(memcmp(r, want_sq, 32) == 0, "mul r == a == b, %ld", i);
        memcpy(r, a, 32);
        asm_sqr(r, r);
        CHECK(memcmp(r, want_sq, 32) == 0, "sqr r == a, %ld", i);
    }
}

/* x = x*y, y = y^2 in both backends (as the inversion and sqrt chains feed outputs back),
 * y reseeded from x every 1024 steps so that it does not settle in a short cycle. */
static void test_chain(void)
{
    uint64_t xa[4], ya[4], xp[4], yp[4];
    long n = harness_iters(100000);
    rng_fe_uniform(xa);
    rng_fe_uniform(ya);
    memcpy(xp, xa, 32);
    memcpy(yp, ya, 32);
    for (long i = 0; i < n; i++) {
        asm_mul(xa, xa, ya);
        asm_sqr(ya, ya);
        portable_mul(xp, xp, yp);
        portable_sqr(yp, yp);
        if ((i & 1023) == 1023) {
            CHECK(memcmp(xa, xp, 32) == 0 && memcmp(ya, yp, 32) == 0, "chain diverged by %ld", i);
            ya[0] ^= xa[1], yp[0] ^= xp[1];
            oracle_reduce_p(ya), oracle_reduce_p(yp);
        }
    }
    CHECK(memcmp(xa, xp, 32) == 0 && memcmp(ya, yp, 32) == 0, "chained mul/sqr, %ld steps", n);
}

static void test_asm(const char *name)
{
    ge_count[0][0] = ge_count[0][1] = ge_count[1][0] = ge_count[1][1] = 0;
    test_abi();
    test_known_answers();
    test_edges();
    test_random();
    test_forced_results();
    test_aliasing();
    test_chain();
    printf("test_backend: %s mul/sqr: known answers, %d edges (all pairs), 8^4 limb patterns, "
           "%ld uniform and %ld structured random, forced products and squares, aliasing, "
           "chain, ABI\n", name, N_EDGES, harness_iters(100000), harness_iters(200000));
    printf("test_backend: value before the final subtraction >= p: mul %ld of %ld, sqr %ld of %ld\n",
           ge_count[0][1], ge_count[0][0] + ge_count[0][1], ge_count[1][1],
           ge_count[1][0] + ge_count[1][1]);
    CHECK(ge_count[0][0] > 0 && ge_count[0][1] > 0 && ge_count[1][0] > 0 && ge_count[1][1] > 0,
          "both outcomes of the final subtraction exercised");
}
#endif /* ASM_NAME */

int main(int argc, char **argv)
{
    if (argc > 1)
        rng_state = strtoull(argv[1], NULL, 0);
    make_edges();
    oracle_self_check();
    test_choose();
#if defined(ASM_NAME)
    if (asm_cpu_ok())
        for (size_t i = 0; i < sizeof asm_schedules / sizeof asm_schedules[0]; i++) {
            asm_mul = asm_schedules[i].mul;
            asm_sqr = asm_schedules[i].sqr;
            test_asm(asm_schedules[i].name);
        }
    else
        printf("test_backend: SKIP %s: this CPU lacks the instructions it needs\n", ASM_NAME);
#else
    printf("test_backend: SKIP assembly: this build has no assembly backend (portable only)\n");
#endif
    printf("test_backend: %ld checks, %ld failures\n", checks, failures);
    return failures != 0;
}

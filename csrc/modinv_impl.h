/* SPDX-License-Identifier: Apache-2.0 */
/* Modular inversion modulo the P-256 field prime p and group order n:
 * constant-time and variable-time safegcd.  The contract is in modinv.h.
 *
 * Sources (the code is written from these descriptions, not copied):
 *  [BY]   D. J. Bernstein, B.-Y. Yang, "Fast constant-time gcd computation and
 *         modular inversion", IACR eprint 2019/266 (divsteps: section 8;
 *         transition matrices and their bounds: 8.1-8.3; iteration bounds:
 *         section 11 and appendix G).
 *  [SG]   bitcoin-core/secp256k1, doc/safegcd_implementation.md ("The safegcd
 *         implementation in libsecp256k1 explained"): the update of d and e
 *         modulo M with the "add a multiple of M so that the low limb becomes
 *         divisible by 2^62" trick, the range (-2M, M) for d and e, the eta /
 *         zeta substitutions for branch-free divsteps, and the variable-time
 *         "cancel several low bits of g at once" divstep loop.
 *  [HD]   P. Wuille, github.com/sipa/safegcd-bounds: the half-delta divstep
 *         (hddivstep, delta starts at 1/2 instead of 1) and the convex-hull bound
 *         computation, with a Coq proof (coq/hddivsteps/hddivsteps590_proof.v)
 *         that 590 hddivsteps reach g = 0 for every odd f <= 2^256*1.007... and
 *         0 <= g <= f.
 *  [TP]   T. Pornin, "Optimized Binary GCD for Modular Inversion", IACR eprint
 *         2020/972 (background; a different approximation-based approach).
 *
 * Notation.  M is the modulus (odd, 2^255 < M < 2^256).  A "divstep" maps
 * (delta, f, g) to
 *     (1 - delta, g, (g - f)/2)   if delta > 0 and g is odd   ("swap")
 *     (1 + delta, f, (g + f)/2)   if delta <= 0 and g is odd
 *     (1 + delta, f, g/2)         if g is even
 * f stays odd throughout, and gcd(f, g) is invariant [BY 8.2].  Starting from
 * f = M, g = a, the inverse is tracked as d, e with f = d*a and g = e*a (mod M)
 * [SG 2], starting at d = 0, e = 1; when g reaches 0, f = +-1 = gcd(M, a) and
 * a^-1 = d*f (mod M).
 *
 * Assumptions on the C implementation (documented by gcc, "Integers
 * implementation", and shared by clang; the static checks below and
 * tests/c/test_modinv.c verify them):
 * int64_t and __int128 right shifts of negative values are arithmetic
 * (implementation-defined in C99), conversions of out-of-range unsigned values
 * to signed types wrap modulo 2^k (implementation-defined in C99).  Left shifts
 * are only ever applied to unsigned types (left-shifting negative signed values
 * is undefined behaviour).
 *
 * Build with -DP256_MODINV_VERIFY to check at run time every range claimed in
 * the comments below (the tests do; the library build does not).
 */
#ifndef P256_MODINV_IMPL_H
#define P256_MODINV_IMPL_H

#include <stdint.h>
#include "modinv.h"

#ifdef P256_MODINV_VERIFY
#include <stdio.h>
#include <stdlib.h>
#define P256_MODINV_CHECK(cond) do { \
        if (!(cond)) { \
            fprintf(stderr, "%s:%d: modinv check failed: %s\n", __FILE__, __LINE__, #cond); \
            abort(); \
        } \
    } while (0)
#else
#define P256_MODINV_CHECK(cond) do { } while (0)
#endif

__extension__ typedef __int128 p256_modinv_int128;

/* Compile-time checks of the implementation-defined behaviour relied upon. */
typedef char p256_modinv_assert_asr64[(((int64_t)-5) >> 1) == -3 ? 1 : -1];
typedef char p256_modinv_assert_asr128[(((p256_modinv_int128)-5) >> 1) == -3 ? 1 : -1];
typedef char p256_modinv_assert_wrap[((int64_t)UINT64_MAX) == -1 ? 1 : -1];

/* p and n; printed (and checked) by tools/modinv_constants.py, recomputed from
 * the 4x64 form by tests/c/test_modinv.c.  Canonical normalized limbs: limbs
 * 0..3 in [0, 2^62), limb 4 = M >> 248 = 255 for both. */

/* p = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff
 *   4x64 limbs: { 0xffffffffffffffff, 0x00000000ffffffff, 0x0000000000000000, 0xffffffff00000001 } */
static const p256_modinv_modulus p256_modinv_p = {
    {{0x3fffffffffffffffLL, 0x00000003ffffffffLL, 0x0000000000000000LL, 0x3fffffc000000040LL, 255}},
    0x3fffffffffffffffULL /* p^-1 mod 2^62 */
};
/* n = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551
 *   4x64 limbs: { 0xf3b9cac2fc632551, 0xbce6faada7179e84, 0xffffffffffffffff, 0xffffffff00000000 } */
static const p256_modinv_modulus p256_modinv_n = {
    {{0x33b9cac2fc632551LL, 0x339beab69c5e7a13LL, 0x3ffffffffffffffbLL, 0x3fffffc00000003fLL, 255}},
    0x332e375511ff43b1ULL /* n^-1 mod 2^62 */
};

#define P256_MODINV_M62 ((int64_t)(UINT64_MAX >> 2))

/* Initial divstep state: zeta = -(delta + 1/2) with delta = 1/2 (half-delta
 * divsteps, constant-time code), and eta = -delta with delta = 1 (plain
 * divsteps, variable-time code).  Named so that the tests can check them
 * against an independent bit-serial divstep. */
#define P256_MODINV_ZETA0 UINT64_MAX /* -1 as two's complement */
#define P256_MODINV_ETA0 ((int64_t)-1)

/* The transition matrix of a batch of divsteps, scaled by 2^62:
 *     [f', g'] = [[u, v], [q, r]] * [f, g] / 2^62.
 * Each divstep multiplies the matrix (on the left) by one of
 *     [[0, 2], [-1, 1]] (swap),  [[2, 0], [1, 1]] (odd g),  [[2, 0], [0, 1]] (even g)
 * (scaled by 2 here, [BY 8.1], [SG 3]).  If |u|+|v| <= 2^k and |q|+|r| <= 2^k
 * before a step, then after it |u'|+|v'| <= 2*max(|u|+|v|, |q|+|r|) <= 2^(k+1)
 * and |q'|+|r'| <= |q|+|r|+|u|+|v| <= 2^(k+1) [BY 8.3]: the matrix of N
 * divsteps, scaled by 2^N, has row sums of absolute values at most 2^N.  The
 * variable-time batch does N = 62 steps from the identity; the constant-time
 * batch multiplies three 18-step matrices (the max-row-sum norm is
 * submultiplicative: 2^54) and scales by 2^8.  Either way
 *     |u| + |v| <= 2^62  and  |q| + |r| <= 2^62,
 * and every entry fits an int64_t. */
typedef struct {
    int64_t u, v, q, r;
} p256_modinv_trans2x2;

/* Optimization barrier: the compiler cannot see through it, so it cannot turn
 * arithmetic on a secret mask back into a branch or a secret-indexed load
 * (without it, clang 14 -Os compiles the select in p256_modinv_load_reduced
 * into a load from a secret-dependent address).  No measurable cost. */
static inline uint64_t p256_modinv_barrier(uint64_t x)
{
    __asm__ ("" : "+r"(x));
    return x;
}

/* 4x64 -> normalized signed-62.  For a < 2^256: limbs 0..3 in [0, 2^62),
 * limb 4 = a >> 248 in [0, 256). */
static void p256_modinv_from_u64(p256_modinv_signed62 *r, const uint64_t a[4])
{
    const uint64_t m62 = UINT64_MAX >> 2;
    r->v[0] = (int64_t)(a[0] & m62);
    r->v[1] = (int64_t)(((a[0] >> 62) | (a[1] << 2)) & m62);
    r->v[2] = (int64_t)(((a[1] >> 60) | (a[2] << 4)) & m62);
    r->v[3] = (int64_t)(((a[2] >> 58) | (a[3] << 6)) & m62);
    r->v[4] = (int64_t)(a[3] >> 56);
}

/* Normalized signed-62 in [0, 2^256) -> 4x64.  Limbs 0..3 are in [0, 2^62)
 * and limb 4 in [0, 256), so the shifted pieces do not overlap and nothing is
 * lost. */
static void p256_modinv_to_u64(uint64_t r[4], const p256_modinv_signed62 *a)
{
    const uint64_t v0 = (uint64_t)a->v[0], v1 = (uint64_t)a->v[1], v2 = (uint64_t)a->v[2];
    const uint64_t v3 = (uint64_t)a->v[3], v4 = (uint64_t)a->v[4];
    P256_MODINV_CHECK((v0 | v1 | v2 | v3) >> 62 == 0 && v4 < 256);
    r[0] = v0 | (v1 << 62);
    r[1] = (v1 >> 2) | (v2 << 60);
    r[2] = (v2 >> 4) | (v3 << 58);
    r[3] = (v3 >> 6) | (v4 << 56);
}

/* Carry propagation: rewrite a into normalized form (limbs 0..3 in [0, 2^62)),
 * keeping its value.  Requires |a->v[i]| < 2^63 - 2 so that adding the carry
 * (a->v[i-1] >> 62, in [-2, 1]) cannot overflow; every caller has limbs in
 * (-2^63 + 2, 2^63 - 2). */
static void p256_modinv_carry(p256_modinv_signed62 *a)
{
    int i;
    for (i = 0; i < 4; i++) {
        a->v[i + 1] += a->v[i] >> 62;
        a->v[i] &= P256_MODINV_M62;
    }
}

#ifdef P256_MODINV_VERIFY
/* Sign of a - k*M (-1, 0, 1) for a normalized a and small k (|k| <= 4);
 * __int128 accumulator, so no limb can overflow. */
static int p256_modinv_verify_cmp(const p256_modinv_signed62 *a, int k, const p256_modinv_modulus *m)
{
    p256_modinv_int128 c = 0;
    int64_t nonzero = 0;
    int i;
    for (i = 0; i < 5; i++) {
        c += (p256_modinv_int128)a->v[i] - (p256_modinv_int128)k * m->modulus.v[i];
        if (i < 4) {
            nonzero |= (int64_t)c & P256_MODINV_M62;
            c >>= 62;
        }
    }
    if (c < 0)
        return -1;
    return (nonzero | (int64_t)c) != 0;
}

static int p256_modinv_verify_normalized(const p256_modinv_signed62 *a)
{
    int i;
    for (i = 0; i < 4; i++)
        if (a->v[i] < 0 || a->v[i] > P256_MODINV_M62)
            return 0;
    return 1;
}
#endif

/* g = a mod M for a in [0, 2^256), in constant time.  Since M > 2^255, a < 2M
 * and one conditional subtraction suffices: t = a - M is computed with carry
 * propagation (limbs a_i - M_i in (-2^62, 2^62)), and t replaces a when it is
 * not negative (t.v[4] >= 0).  The choice is an arithmetic mask. */
static void p256_modinv_load_reduced(p256_modinv_signed62 *g, const uint64_t a[4], const p256_modinv_modulus *m)
{
    p256_modinv_signed62 t;
    int64_t keep_a;
    int i;
    p256_modinv_from_u64(g, a);
    for (i = 0; i < 5; i++)
        t.v[i] = g->v[i] - m->modulus.v[i];
    p256_modinv_carry(&t);
    keep_a = (int64_t)p256_modinv_barrier((uint64_t)(t.v[4] >> 63)); /* -1 iff a < M */
    for (i = 0; i < 5; i++)
        g->v[i] = (g->v[i] & keep_a) | (t.v[i] & ~keep_a);
}

/* Constant-time batch: 54 half-delta divsteps [HD], done as 3 rounds of 18
 * with the "packed words" technique of [BY] (their constant-time software keeps
 * f, g and their matrix coefficients in the same machine words), giving a
 * transition matrix scaled by 2^62 (see p256_modinv_trans2x2).  11 batches
 * make 594 >= 590 hddivsteps.
 *
 * Why: the plain formulation (low words of f and g plus four matrix entries,
 * all updated at every step) costs about 30 ALU operations per divstep and is
 * throughput-bound (8-9 cycles per divstep measured on Zen 4); packing brings
 * it to 13 operations on two words, bound by the latency of the f/g
 * dependency chain instead (about 6 cycles per divstep).
 *
 * The divstep, branch-free ([SG 5, 7]), on f, g and the state zeta:
 *   zeta = -(delta + 1/2), an integer: delta > 0 <=> zeta < 0.  hddivstep is
 *   divstep with delta starting at 1/2 [HD], so zeta starts at -1.  The swap
 *   (delta -> 1 - delta) becomes zeta -> -zeta - 2 = ~zeta - 1, the other
 *   steps (delta -> 1 + delta) zeta -> zeta - 1.  |zeta| <= 2 * 594 + 1.
 *     neg  = all-ones iff zeta < 0, odd = all-ones iff g is odd, swap = neg & odd
 *     g += odd ? (neg ? -f : f) : 0      -> g - f, g + f, or g
 *     f += swap ? g : 0                  -> on swap, f + (g - f) = old g
 *     zeta = (zeta ^ swap) - 1           -> ~zeta - 1 or zeta - 1
 *     g >>= 1                            (g is even here)
 *
 * Packing.  For a round of n <= 19 steps, let f^, g^ be f mod 2^n, g mod 2^n
 * (in [0, 2^n)) and run the steps on the 64-bit words
 *     F = f^ + 2^20 * 2^n,        G = g^ + 2^41 * 2^n
 * as integers (two's complement in uint64_t; the halving is an arithmetic
 * shift).  The steps are linear row operations (adding +-one row to the other,
 * halving the g row), so after i steps
 *     F = f^_i + 2^20 * 2^(n-i) * u_i + 2^41 * 2^(n-i) * v_i
 *     G = g^_i + 2^20 * 2^(n-i) * q_i + 2^41 * 2^(n-i) * r_i
 * where [u_i v_i; q_i r_i] is the i-step matrix scaled by 2^i, and f^_i, g^_i
 * are what the divsteps make of f^, g^.  All halvings are exact: the fields
 * 2^(n-i) * (row) stay integers while i < n, and g^_i has the parity of the
 * true g_i because f^ = f, g^ = g (mod 2^n) and i steps keep the congruence mod
 * 2^(n-i) >= 2.  So the low bit of G is the low bit of g: the decisions are
 * those for the true f, g.  Ranges: max(|f^_i|, |g^_i|) never grows under
 * divsteps (see p256_modinv_update_fg), so |f^_i|, |g^_i| < 2^n, and the
 * fields satisfy |2^(n-i) u_i| + |2^(n-i) v_i| <= 2^n.  So at every step
 *     low (bits 0..19,  signed)  f^_i in (-2^n, 2^n)     needs n + 1 <= 20 bits
 *     mid (bits 20..40, signed)  in [-2^n, 2^n]           needs n + 2 <= 21 bits
 *     top (bits 41..63, signed)  in [-2^n, 2^n]           needs n + 2 <= 23 bits
 * and |F|, |G| < 2^n + 2^(20+n) + 2^(41+n) <= 2^61: no overflow, and the
 * fields decode exactly (p256_modinv_unpack).  The layout allows n <= 19 (20
 * would need 65 bits).  Rounds of 18 are used: 3 rounds (54 steps) per batch,
 * 11 batches for 590 steps.  (Rounds of 19 would still need 11 batches; 10
 * batches of 4 rounds of 15 saves one update but adds round changes, and
 * measured within 5% of this: faster with gcc 12, slower with clang 14.)
 *
 * Between rounds the low 64 bits of f and g are advanced with the round's
 * matrix: f' = (u*f + v*g) / 2^n; computed mod 2^64 the sum is right, so the
 * shifted value has 64 - n correct low bits; after two rounds 28 >= 18 bits
 * are still right, as the third round needs.  The round matrices are
 * multiplied together (entries at most 2^36, then 2^54) and the product is
 * scaled by 2^8 to 2^62.  The row-sum bound is submultiplicative, so
 * |u| + |v| <= 2^62 still holds.
 *
 * Matrix entries are computed in uint64_t (wrapping, no undefined behaviour)
 * and converted to int64_t where they are known to be in range. */
#define P256_MODINV_CT_ROUND 18
#define P256_MODINV_CT_ROUNDS 3
#define P256_MODINV_CT_BATCH (P256_MODINV_CT_ROUND * P256_MODINV_CT_ROUNDS) /* 54 */
#define P256_MODINV_CT_BATCHES 11 /* 11 * 54 = 594 >= 590 */
/* The bound [HD] and the field layout, checked at compile time. */
typedef char p256_modinv_assert_590[P256_MODINV_CT_BATCHES * P256_MODINV_CT_BATCH >= 590 ? 1 : -1];
typedef char p256_modinv_assert_fields[P256_MODINV_CT_ROUND <= 19 ? 1 : -1];
typedef char p256_modinv_assert_scale[P256_MODINV_CT_BATCH <= 62 ? 1 : -1];

/* Decodes a packed word W = low + 2^20 * x + 2^41 * y into x, y. */
static void p256_modinv_unpack(int64_t *x, int64_t *y, uint64_t w)
{
    const uint64_t low = (uint64_t)((int64_t)(w << 44) >> 44); /* sign-extended bits 0..19 */
    const uint64_t rest = (uint64_t)((int64_t)(w - low) >> 20); /* x + 2^21 * y */
    const uint64_t mid = (uint64_t)((int64_t)(rest << 43) >> 43); /* sign-extended bits 0..20 */
    *x = (int64_t)mid;
    *y = (int64_t)(rest - mid) >> 21;
}

/* One hddivstep on the packed words F, G with the state zeta; see above. */
static inline void p256_modinv_hddivstep(uint64_t *F, uint64_t *G, uint64_t *zeta)
{
    const uint64_t neg = p256_modinv_barrier((uint64_t)((int64_t)*zeta >> 63));
    const uint64_t odd = p256_modinv_barrier(-(*G & 1));
    const uint64_t swap = neg & odd;
    *G += ((*F ^ neg) - neg) & odd;
    *F += *G & swap;
    *zeta = (*zeta ^ swap) - 1;
    *G = (uint64_t)((int64_t)*G >> 1);
}

/* The packed words of a round of n steps from the low words f, g; see above. */
static void p256_modinv_round_pack(uint64_t *F, uint64_t *G, uint64_t f, uint64_t g, int n)
{
    const uint64_t lowmask = UINT64_MAX >> (64 - n);
    *F = (f & lowmask) + ((uint64_t)1 << (20 + n));
    *G = (g & lowmask) + ((uint64_t)1 << (41 + n));
}

/* The round's matrix, decoded from the packed words after its n steps. */
static void p256_modinv_round_matrix(p256_modinv_trans2x2 *t, uint64_t F, uint64_t G, uint64_t f, uint64_t g,
                                     int n)
{
    p256_modinv_unpack(&t->u, &t->v, F);
    p256_modinv_unpack(&t->q, &t->r, G);
#ifdef P256_MODINV_VERIFY
    {
        /* The low fields must be the images of f^, g^: f^_n = (u f^ + v g^) / 2^n. */
        const uint64_t lowmask = UINT64_MAX >> (64 - n);
        const int64_t f0 = (int64_t)(f & lowmask), g0 = (int64_t)(g & lowmask);
        const int64_t fn = (int64_t)(F << 44) >> 44, gn = (int64_t)(G << 44) >> 44;
        P256_MODINV_CHECK(t->u * f0 + t->v * g0 == fn * ((int64_t)1 << n));
        P256_MODINV_CHECK(t->q * f0 + t->r * g0 == gn * ((int64_t)1 << n));
        P256_MODINV_CHECK((t->u < 0 ? -t->u : t->u) + (t->v < 0 ? -t->v : t->v) <= ((int64_t)1 << n));
        P256_MODINV_CHECK((t->q < 0 ? -t->q : t->q) + (t->r < 0 ? -t->r : t->r) <= ((int64_t)1 << n));
    }
#else
    (void)f;
    (void)g;
    (void)n;
#endif
}

/* One round of n <= 19 hddivsteps on packed words; see above. */
static uint64_t p256_modinv_hddivsteps_round(uint64_t zeta, uint64_t f, uint64_t g, int n, p256_modinv_trans2x2 *t)
{
    uint64_t F, G;
    int i;
    p256_modinv_round_pack(&F, &G, f, g, n);
    for (i = 0; i < n; i++)
        p256_modinv_hddivstep(&F, &G, &zeta);
    p256_modinv_round_matrix(t, F, G, f, g, n);
    return zeta;
}

/* The same round for two independent inversions (lanes 0 and 1) at once. A step's
 * 13 operations form one dependency chain through F, G and zeta, so one lane leaves
 * most of the core's ALUs idle; the other lane's chain, in the same loop body, fills
 * them. Each lane's operations are exactly those of the one-lane round. */
static void p256_modinv_hddivsteps_round_pair(uint64_t zeta[2], const uint64_t f[2], const uint64_t g[2], int n,
                                              p256_modinv_trans2x2 t[2])
{
    uint64_t F0, G0, F1, G1, z0 = zeta[0], z1 = zeta[1];
    int i;
    p256_modinv_round_pack(&F0, &G0, f[0], g[0], n);
    p256_modinv_round_pack(&F1, &G1, f[1], g[1], n);
    for (i = 0; i < n; i++) {
        p256_modinv_hddivstep(&F0, &G0, &z0);
        p256_modinv_hddivstep(&F1, &G1, &z1);
    }
    p256_modinv_round_matrix(&t[0], F0, G0, f[0], g[0], n);
    p256_modinv_round_matrix(&t[1], F1, G1, f[1], g[1], n);
    zeta[0] = z0;
    zeta[1] = z1;
}

/* A constant-time batch in progress: the low 64 bits f, g of the current f
 * and g, and the product [a b; c d] of the round matrices so far (uint64_t:
 * wrapping arithmetic, but the values are in range). */
typedef struct {
    uint64_t f, g;
    uint64_t a, b, c, d;
} p256_modinv_batch;

/* After round k (0, 1, 2) of a batch, with that round's matrix s: the low words are
 * advanced past its steps and s is multiplied into the batch's product. */
static void p256_modinv_batch_advance(p256_modinv_batch *bt, const p256_modinv_trans2x2 *s, int k)
{
    const uint64_t u = (uint64_t)s->u, v = (uint64_t)s->v, q = (uint64_t)s->q, r = (uint64_t)s->r;
    uint64_t x, y;
    x = (u * bt->f + v * bt->g) >> P256_MODINV_CT_ROUND;
    bt->g = (q * bt->f + r * bt->g) >> P256_MODINV_CT_ROUND;
    bt->f = x;
    if (k == 0) {
        bt->a = u;
        bt->b = v;
        bt->c = q;
        bt->d = r;
    } else {
        x = u * bt->a + v * bt->c;
        y = u * bt->b + v * bt->d;
        bt->c = q * bt->a + r * bt->c;
        bt->d = q * bt->b + r * bt->d;
        bt->a = x;
        bt->b = y;
    }
}

/* Starts a batch on the low 64 bits f, g of the full f and g. */
static void p256_modinv_batch_start(p256_modinv_batch *bt, uint64_t f, uint64_t g)
{
    bt->f = f;
    bt->g = g;
    bt->a = bt->d = 1; /* identity (overwritten by round 0; keeps gcc's */
    bt->b = bt->c = 0; /* -Wmaybe-uninitialized quiet) */
}

/* The batch's matrix, scaled from 2^54 to 2^62. */
static void p256_modinv_batch_matrix(p256_modinv_trans2x2 *t, const p256_modinv_batch *bt)
{
    t->u = (int64_t)(bt->a << (62 - P256_MODINV_CT_BATCH));
    t->v = (int64_t)(bt->b << (62 - P256_MODINV_CT_BATCH));
    t->q = (int64_t)(bt->c << (62 - P256_MODINV_CT_BATCH));
    t->r = (int64_t)(bt->d << (62 - P256_MODINV_CT_BATCH));
}

/* One constant-time batch: 3 rounds of 18 hddivsteps on the low 64 bits f, g
 * of the full f and g; t receives the product matrix scaled by 2^62. */
static uint64_t p256_modinv_hddivsteps_54(uint64_t zeta, uint64_t f, uint64_t g, p256_modinv_trans2x2 *t)
{
    p256_modinv_batch bt;
    p256_modinv_trans2x2 s;
    int k;
    p256_modinv_batch_start(&bt, f, g);
    for (k = 0; k < P256_MODINV_CT_ROUNDS; k++) {
        zeta = p256_modinv_hddivsteps_round(zeta, bt.f, bt.g, P256_MODINV_CT_ROUND, &s);
        p256_modinv_batch_advance(&bt, &s, k);
    }
    p256_modinv_batch_matrix(t, &bt);
    return zeta;
}

/* The same batch for two independent inversions, their rounds run as pairs. */
static void p256_modinv_hddivsteps_54_pair(uint64_t zeta[2], const uint64_t f[2], const uint64_t g[2],
                                           p256_modinv_trans2x2 t[2])
{
    p256_modinv_batch bt[2];
    p256_modinv_trans2x2 s[2];
    int k, l;
    for (l = 0; l < 2; l++)
        p256_modinv_batch_start(&bt[l], f[l], g[l]);
    for (k = 0; k < P256_MODINV_CT_ROUNDS; k++) {
        const uint64_t fl[2] = {bt[0].f, bt[1].f}, gl[2] = {bt[0].g, bt[1].g};
        p256_modinv_hddivsteps_round_pair(zeta, fl, gl, P256_MODINV_CT_ROUND, s);
        for (l = 0; l < 2; l++)
            p256_modinv_batch_advance(&bt[l], &s[l], k);
    }
    for (l = 0; l < 2; l++)
        p256_modinv_batch_matrix(&t[l], &bt[l]);
}

/* 62 plain divsteps [BY] (delta starts at 1) on the low 62 bits of f and g,
 * in variable time, as in [SG 6]: runs of even g are skipped with one count of
 * trailing zeros, and while delta <= 0 (no swap possible) up to 6 low bits of g
 * are cancelled at once by adding w*f with w = -g/f mod 2^k.  The state is
 * eta = -delta (starts at -1).  The batch yields exactly the matrix of 62
 * single divsteps (the multiple of f added over k no-swap steps is the unique
 * w in [0, 2^k) that clears k low bits of g), so the bounds of
 * p256_modinv_trans2x2 hold with the matrix starting at the identity. */
static int64_t p256_modinv_divsteps_62_vartime(int64_t eta, uint64_t f, uint64_t g, p256_modinv_trans2x2 *t)
{
    uint64_t u = 1, v = 0, q = 0, r = 1, w, tmp;
    int i = 62, zeros, k;
    for (;;) {
        /* Bits i..63 set as a sentinel: zeros <= i and g = 0 is handled. */
        zeros = __builtin_ctzll(g | (UINT64_MAX << i));
        g >>= zeros;
        u <<= zeros;
        v <<= zeros;
        eta -= zeros;
        i -= zeros;
        if (i == 0)
            break;
        /* g is odd.  delta > 0: swap (f, g) <- (g, -f), then g += f below. */
        if (eta < 0) {
            eta = -eta;
            tmp = f; f = g; g = -tmp;
            tmp = u; u = q; q = -tmp;
            tmp = v; v = r; r = -tmp;
        }
        /* Now eta >= 0: the next eta + 1 steps cannot swap, and at most i
         * steps are left.  -1/f mod 2^6 = f * (f^2 - 2) [SG 6] (Hacker's
         * Delight-style Newton step from -1/f = f mod 8). */
        k = (eta + 1 < i) ? (int)eta + 1 : i;
        if (k > 6)
            k = 6;
        w = (g * f * (f * f - 2)) & (UINT64_MAX >> (64 - k));
        g += w * f;
        q += w * u;
        r += w * v;
        P256_MODINV_CHECK((g & (UINT64_MAX >> (64 - k))) == 0); /* k more zero bits */
    }
    t->u = (int64_t)u;
    t->v = (int64_t)v;
    t->q = (int64_t)q;
    t->r = (int64_t)r;
    return eta;
}

/* [f, g] <- t * [f, g] / 2^62 (an exact division: the batch of divsteps that
 * produced t only ever halves even numbers [SG 3]).
 *
 * Ranges.  Input and output f, g are normalized with |f|, |g| <= M < 2^256:
 * a divstep replaces (f, g) by (f or g, (g +- f)/2 or g/2), so max(|f|, |g|)
 * never grows, and it starts at M (f = M, 0 <= g < M).  Hence limbs 0..3 are in
 * [0, 2^62) and limb 4 in [-256, 256).
 * Accumulators (__int128):
 *   |u*f_i + v*g_i| <= (|u| + |v|) * max(f_i, g_i) < 2^62 * 2^62 = 2^124,
 *   and the carry c (the accumulator >> 62) satisfies |c| <= 2^62 + 1 by
 *   induction, so the accumulator stays below 2^124 + 2^63 < 2^127. */
static void p256_modinv_update_fg(p256_modinv_signed62 *f, p256_modinv_signed62 *g, const p256_modinv_trans2x2 *t)
{
    const int64_t u = t->u, v = t->v, q = t->q, r = t->r;
    p256_modinv_int128 cf, cg;
    int64_t fi, gi;
    int i;
    fi = f->v[0];
    gi = g->v[0];
    cf = (p256_modinv_int128)u * fi + (p256_modinv_int128)v * gi;
    cg = (p256_modinv_int128)q * fi + (p256_modinv_int128)r * gi;
    P256_MODINV_CHECK(((int64_t)cf & P256_MODINV_M62) == 0);
    P256_MODINV_CHECK(((int64_t)cg & P256_MODINV_M62) == 0);
    cf >>= 62;
    cg >>= 62;
    for (i = 1; i < 5; i++) {
        fi = f->v[i];
        gi = g->v[i];
        cf += (p256_modinv_int128)u * fi + (p256_modinv_int128)v * gi;
        cg += (p256_modinv_int128)q * fi + (p256_modinv_int128)r * gi;
        f->v[i - 1] = (int64_t)cf & P256_MODINV_M62;
        g->v[i - 1] = (int64_t)cg & P256_MODINV_M62;
        cf >>= 62;
        cg >>= 62;
    }
    f->v[4] = (int64_t)cf;
    g->v[4] = (int64_t)cg;
}

/* [d, e] <- t * [d, e] / 2^62 (mod M), [SG 4].
 *
 * Input and output d, e are normalized and in (-2M, M); so limb 4 is in
 * [-512, 256) (as -2^257 < -2M and M < 2^256).
 *
 * Value.  d' = (u*d~ + v*e~ - k*M) / 2^62 where d~ = d + M if d < 0 else d (so
 * d~ in (-M, M)), likewise e~, and k in [0, 2^62) is chosen to make the
 * numerator divisible by 2^62.  Since |u| + |v| <= 2^62, |u*d~ + v*e~| <
 * 2^62 * M (or is 0), and subtracting k*M in [0, (2^62 - 1)*M] gives a
 * numerator in (-2^63 * M, 2^62 * M): d' in (-2M, M) again.  Same for e'.
 * d' = (u*d + v*e) / 2^62 (mod M) because only multiples of M were added.
 *
 * Computation.  md starts as u*[d<0] + v*[e<0] (so |md| <= 2^62) and then
 * k = (m^-1 * (u*d_0 + v*e_0) + md) mod 2^62 is subtracted (|md| then < 2^63,
 * md in [-2^63 + 1, 2^62]), so the numerator is u*d + v*e + md*M.  Its low 62
 * bits are u*d_0 + v*e_0 + md_old*M_0 - k*M_0 = X + md_old*M_0 - (m^-1*X +
 * md_old)*M_0 = 0 mod 2^62, since m^-1 * M_0 = 1 mod 2^62 (M_0 = M mod 2^62).
 * Accumulators (__int128): per limb |u*d_i + v*e_i| < 2^124 (limb 4: <= 2^71),
 * |md*M_i| < 2^63 * 2^62 = 2^125, carry |c| <= 2^126 / 2^62 = 2^64 by
 * induction, total < 2^124 + 2^125 + 2^64 < 2^126 < 2^127: no overflow. */
static void p256_modinv_update_de(p256_modinv_signed62 *d, p256_modinv_signed62 *e, const p256_modinv_trans2x2 *t,
                                  const p256_modinv_modulus *m)
{
    const int64_t u = t->u, v = t->v, q = t->q, r = t->r;
    const int64_t sd = d->v[4] >> 63, se = e->v[4] >> 63; /* all-ones iff d < 0, e < 0 */
    int64_t md = (u & sd) + (v & se);
    int64_t me = (q & sd) + (r & se);
    p256_modinv_int128 cd, ce;
    int64_t di, ei, mi;
    int i;
#ifdef P256_MODINV_VERIFY
    P256_MODINV_CHECK(p256_modinv_verify_normalized(d) && p256_modinv_verify_normalized(e));
    P256_MODINV_CHECK(p256_modinv_verify_cmp(d, -2, m) > 0 && p256_modinv_verify_cmp(d, 1, m) < 0);
    P256_MODINV_CHECK(p256_modinv_verify_cmp(e, -2, m) > 0 && p256_modinv_verify_cmp(e, 1, m) < 0);
    P256_MODINV_CHECK((u < 0 ? -u : u) + (v < 0 ? -v : v) <= ((int64_t)1 << 62));
    P256_MODINV_CHECK((q < 0 ? -q : q) + (r < 0 ? -r : r) <= ((int64_t)1 << 62));
#endif
    di = d->v[0];
    ei = e->v[0];
    cd = (p256_modinv_int128)u * di + (p256_modinv_int128)v * ei;
    ce = (p256_modinv_int128)q * di + (p256_modinv_int128)r * ei;
    md -= (int64_t)((m->modulus_inv62 * (uint64_t)cd + (uint64_t)md) & (UINT64_MAX >> 2));
    me -= (int64_t)((m->modulus_inv62 * (uint64_t)ce + (uint64_t)me) & (UINT64_MAX >> 2));
    mi = m->modulus.v[0];
    cd += (p256_modinv_int128)mi * md;
    ce += (p256_modinv_int128)mi * me;
    P256_MODINV_CHECK(((int64_t)cd & P256_MODINV_M62) == 0);
    P256_MODINV_CHECK(((int64_t)ce & P256_MODINV_M62) == 0);
    cd >>= 62;
    ce >>= 62;
    for (i = 1; i < 5; i++) {
        di = d->v[i];
        ei = e->v[i];
        mi = m->modulus.v[i];
        cd += (p256_modinv_int128)u * di + (p256_modinv_int128)v * ei + (p256_modinv_int128)mi * md;
        ce += (p256_modinv_int128)q * di + (p256_modinv_int128)r * ei + (p256_modinv_int128)mi * me;
        d->v[i - 1] = (int64_t)cd & P256_MODINV_M62;
        e->v[i - 1] = (int64_t)ce & P256_MODINV_M62;
        cd >>= 62;
        ce >>= 62;
    }
    d->v[4] = (int64_t)cd;
    e->v[4] = (int64_t)ce;
#ifdef P256_MODINV_VERIFY
    P256_MODINV_CHECK(p256_modinv_verify_cmp(d, -2, m) > 0 && p256_modinv_verify_cmp(d, 1, m) < 0);
    P256_MODINV_CHECK(p256_modinv_verify_cmp(e, -2, m) > 0 && p256_modinv_verify_cmp(e, 1, m) < 0);
#endif
}

/* d <- sign(f) * d mod M, in [0, M), constant time [SG 4].  Input d is
 * normalized and in (-2M, M); f_top is the top limb of f (negative iff f < 0).
 *   1. add M if d < 0:         (-2M, M) -> (-M, M)
 *   2. negate if f < 0:        (-M, M)  -> (-M, M)
 *   3. add M if d < 0:         (-M, M)  -> [0, M)
 * with carry propagation after each step (before it, limbs are sums or
 * negations of values in [0, 2^62), far from int64 overflow). */
static void p256_modinv_normalize(p256_modinv_signed62 *d, int64_t f_top, const p256_modinv_modulus *m)
{
    int64_t mask;
    int i;
    mask = (int64_t)p256_modinv_barrier((uint64_t)(d->v[4] >> 63));
    for (i = 0; i < 5; i++)
        d->v[i] += m->modulus.v[i] & mask;
    p256_modinv_carry(d);
    mask = (int64_t)p256_modinv_barrier((uint64_t)(f_top >> 63));
    for (i = 0; i < 5; i++)
        d->v[i] = (d->v[i] ^ mask) - mask;
    p256_modinv_carry(d);
    mask = (int64_t)p256_modinv_barrier((uint64_t)(d->v[4] >> 63));
    for (i = 0; i < 5; i++)
        d->v[i] += m->modulus.v[i] & mask;
    p256_modinv_carry(d);
#ifdef P256_MODINV_VERIFY
    P256_MODINV_CHECK(p256_modinv_verify_cmp(d, 0, m) >= 0 && p256_modinv_verify_cmp(d, 1, m) < 0);
#endif
}

#ifdef P256_MODINV_VERIFY
/* At the end g = 0 and f = +-1, or (a = 0) f = +-M and d = 0. */
static void p256_modinv_verify_final(const p256_modinv_signed62 *f, const p256_modinv_signed62 *g,
                                     const p256_modinv_signed62 *d, const p256_modinv_modulus *m)
{
    p256_modinv_signed62 one = {{1, 0, 0, 0, 0}};
    int i, f_is_pm1 = 0;
    P256_MODINV_CHECK((g->v[0] | g->v[1] | g->v[2] | g->v[3] | g->v[4]) == 0);
    for (i = 0; i < 5; i++)
        one.v[i] = f->v[i] - one.v[i];
    p256_modinv_carry(&one); /* f - 1 */
    f_is_pm1 |= (one.v[0] | one.v[1] | one.v[2] | one.v[3] | one.v[4]) == 0;
    f_is_pm1 |= (f->v[0] == P256_MODINV_M62 && f->v[1] == P256_MODINV_M62 && f->v[2] == P256_MODINV_M62 &&
                 f->v[3] == P256_MODINV_M62 && f->v[4] == -1); /* f = -1 */
    if (!f_is_pm1) {
        P256_MODINV_CHECK(p256_modinv_verify_cmp(f, 1, m) == 0 || p256_modinv_verify_cmp(f, -1, m) == 0);
        P256_MODINV_CHECK((d->v[0] | d->v[1] | d->v[2] | d->v[3] | d->v[4]) == 0);
    }
}
#endif

/* The state of a constant-time inversion: f, g and their cofactors d, e (f = d*a,
 * g = e*a mod M), and zeta. */
typedef struct {
    p256_modinv_signed62 d, e, f, g;
    uint64_t zeta;
} p256_modinv_state;

/* f = M, g = a mod M, d = 0, e = 1; zeta starts at -1 (delta = 1/2). */
static void p256_modinv_start(p256_modinv_state *st, const uint64_t a[4], const p256_modinv_modulus *m)
{
    static const p256_modinv_signed62 zero = {{0, 0, 0, 0, 0}}, one = {{1, 0, 0, 0, 0}};
    st->d = zero;
    st->e = one;
    st->f = m->modulus;
    st->zeta = P256_MODINV_ZETA0;
    p256_modinv_load_reduced(&st->g, a, m);
}

/* The low 64 bits of a normalized x (its limbs 0..3 are non-negative, so this is
 * exact): what a batch of divsteps reads of f and g. */
static uint64_t p256_modinv_low64(const p256_modinv_signed62 *x)
{
    return (uint64_t)x->v[0] | ((uint64_t)x->v[1] << 62);
}

/* r = d * sign(f) mod M, in [0, M), once g = 0. */
static void p256_modinv_finish(uint64_t r[4], p256_modinv_state *st, const p256_modinv_modulus *m)
{
#ifdef P256_MODINV_VERIFY
    p256_modinv_verify_final(&st->f, &st->g, &st->d, m);
#endif
    p256_modinv_normalize(&st->d, st->f.v[4], m);
    p256_modinv_to_u64(r, &st->d);
}

/* Constant time.  11 batches of 54 hddivsteps: 590 hddivsteps take any
 * 0 <= g <= f = M < 2^256 (M odd) to g = 0 [HD, Coq proof], and the 4 further
 * steps change nothing (g = 0 stays 0, f, d and e stay).
 *
 * The order of the work: batch i's matrix moves f, g on, batch i + 1's divsteps run
 * on them, and only then do d, e take batch i's matrix. Their update needs nothing
 * from the divsteps, which are one long dependency chain: placed after that chain in
 * program order, it runs in the chain's shadow. t[i % 2] is batch i's matrix. */
static void p256_modinv(uint64_t r[4], const uint64_t a[4], const p256_modinv_modulus *m)
{
    p256_modinv_state st;
    p256_modinv_trans2x2 t[2];
    int i;
    p256_modinv_start(&st, a, m);
    st.zeta = p256_modinv_hddivsteps_54(st.zeta, p256_modinv_low64(&st.f), p256_modinv_low64(&st.g), &t[0]);
    for (i = 0; i < P256_MODINV_CT_BATCHES; i++) {
        p256_modinv_update_fg(&st.f, &st.g, &t[i % 2]);
        if (i + 1 < P256_MODINV_CT_BATCHES)
            st.zeta = p256_modinv_hddivsteps_54(st.zeta, p256_modinv_low64(&st.f), p256_modinv_low64(&st.g),
                                                &t[(i + 1) % 2]);
        p256_modinv_update_de(&st.d, &st.e, &t[i % 2], m);
    }
    p256_modinv_finish(r, &st, m);
}

/* The pair's batches of divsteps: lane l's f, g, zeta, batch matrix into t[l]. */
static void p256_modinv_pair_batch(p256_modinv_state st[2], p256_modinv_trans2x2 t[2])
{
    uint64_t zeta[2] = {st[0].zeta, st[1].zeta};
    const uint64_t f[2] = {p256_modinv_low64(&st[0].f), p256_modinv_low64(&st[1].f)};
    const uint64_t g[2] = {p256_modinv_low64(&st[0].g), p256_modinv_low64(&st[1].g)};
    p256_modinv_hddivsteps_54_pair(zeta, f, g, t);
    st[0].zeta = zeta[0];
    st[1].zeta = zeta[1];
}

/* Two constant-time inversions, each exactly p256_modinv's, with their divstep
 * rounds interleaved (p256_modinv_hddivsteps_round_pair). Here the two chains fill the
 * core, and p256_modinv's order of the work measured slower than this plain one. */
static void p256_modinv_pair(uint64_t r0[4], const uint64_t a0[4], const p256_modinv_modulus *m0, uint64_t r1[4],
                             const uint64_t a1[4], const p256_modinv_modulus *m1)
{
    const p256_modinv_modulus *m[2] = {m0, m1};
    p256_modinv_state st[2];
    p256_modinv_trans2x2 t[2];
    int i, l;
    p256_modinv_start(&st[0], a0, m0);
    p256_modinv_start(&st[1], a1, m1);
    for (i = 0; i < P256_MODINV_CT_BATCHES; i++) {
        p256_modinv_pair_batch(st, t);
        for (l = 0; l < 2; l++) {
            p256_modinv_update_de(&st[l].d, &st[l].e, &t[l], m[l]);
            p256_modinv_update_fg(&st[l].f, &st[l].g, &t[l]);
        }
    }
    p256_modinv_finish(r0, &st[0], m0);
    p256_modinv_finish(r1, &st[1], m1);
}

/* Variable time: batches of 62 plain divsteps until g = 0.  Termination for
 * any odd f and any g: [BY, theorem G.3]; for 0 <= g < M < 2^256 at most 724
 * divsteps (12 batches) are needed [BY section 11, safegcd-bounds]. */
static void p256_modinv_vartime(uint64_t r[4], const uint64_t a[4], const p256_modinv_modulus *m)
{
    p256_modinv_state st; /* its zeta is the constant-time code's: eta below instead */
    p256_modinv_trans2x2 t;
    int64_t eta = P256_MODINV_ETA0;
#ifdef P256_MODINV_VERIFY
    int batches = 0;
#endif
    p256_modinv_start(&st, a, m);
    while ((st.g.v[0] | st.g.v[1] | st.g.v[2] | st.g.v[3] | st.g.v[4]) != 0) {
#ifdef P256_MODINV_VERIFY
        P256_MODINV_CHECK(++batches <= 12); /* 724 divsteps = 12 batches of 62 */
#endif
        eta = p256_modinv_divsteps_62_vartime(eta, (uint64_t)st.f.v[0], (uint64_t)st.g.v[0], &t);
        p256_modinv_update_de(&st.d, &st.e, &t, m);
        p256_modinv_update_fg(&st.f, &st.g, &t);
    }
    p256_modinv_finish(r, &st, m);
}

#endif /* P256_MODINV_IMPL_H */
